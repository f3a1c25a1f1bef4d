package androidcheck

import (
	"encoding/json"
	"os"
	"testing"
)

// traceEvent is the part of a trace-event JSON event the checks read.
type traceEvent struct {
	Name string         `json:"name"`
	Ph   string         `json:"ph"`
	Dur  float64        `json:"dur"`
	Tid  int64          `json:"tid"`
	Args map[string]any `json:"args"`
}

// decodedSlices decodes trace with methodMap to trace-event JSON (at
// jsonPath) and returns its complete slices ("X" events).
func decodedSlices(t *testing.T, tool, methodMap, trace, jsonPath string) []traceEvent {
	t.Helper()
	run(t, tool, "decode", "--map", methodMap, "--format", "json", "-o", jsonPath, trace)
	js, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatalf("decode --format json of %s: %v", trace, err)
	}
	var slices []traceEvent
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" {
			slices = append(slices, e)
		}
	}
	return slices
}
