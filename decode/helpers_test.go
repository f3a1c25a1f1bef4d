package decode

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// I and O build enter and exit records.
func I(id int, ms uint64) Record { return MakeRecord(true, id, ms) }
func O(id int, ms uint64) Record { return MakeRecord(false, id, ms) }

func encodeBinary(recs []Record, order binary.ByteOrder) []byte {
	b := make([]byte, 8*len(recs))
	for i, r := range recs {
		order.PutUint64(b[8*i:], uint64(r))
	}
	return b
}

// sliceReader feeds records to DecodeBuffer.
type sliceReader struct {
	recs []Record
	i    int
}

func (s *sliceReader) Next() (Record, error) {
	if s.i >= len(s.recs) {
		return 0, io.EOF
	}
	s.i++
	return s.recs[s.i-1], nil
}

func (s *sliceReader) Where() string { return fmt.Sprintf("record %d", s.i) }

// testNames is a small method map shared by the tests.
const testMap = `# test map
1,1,app.Main main ([Ljava.lang.String;)V
2,1,app.Main run ()V
3,2,app.Loader load (I)V
4,2,app.Loader step (I)V
5,0,app.Work spin (I)V
6,1,app.Risky outer ()V
7,1,app.Risky inner ()V
8,257,app.Native call
1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V
`

func testNames(t testing.TB) *MethodNames {
	t.Helper()
	n, err := ReadMethodNames(strings.NewReader(testMap), "testMap")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// validateTraceJSON checks the trace-event format's required fields, as the
// Perfetto UI and chrome://tracing read them: a traceEvents array; every
// event has a string name, ph from the known set, numeric ts, integer
// pid/tid; X events have a non-negative dur; B/E are balanced per thread
// and each E closes the B of the same name; timestamps of a thread's B/E
// never go backwards.
func validateTraceJSON(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var doc struct {
		TraceEvents     []map[string]any `json:"traceEvents"`
		DisplayTimeUnit string           `json:"displayTimeUnit"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("trace JSON does not parse: %v\n%s", err, head(data))
	}
	if doc.TraceEvents == nil {
		t.Fatalf("trace JSON has no traceEvents array")
	}
	if doc.DisplayTimeUnit != "ms" && doc.DisplayTimeUnit != "ns" {
		t.Errorf("displayTimeUnit = %q", doc.DisplayTimeUnit)
	}
	allowed := "BEXiIbneCMsftPONDR"
	type open struct{ name string }
	stacks := map[[2]int64][]open{}
	lastTs := map[[2]int64]float64{}
	for i, ev := range doc.TraceEvents {
		where := fmt.Sprintf("event %d %v", i, ev)
		name, ok := ev["name"].(string)
		if !ok {
			t.Fatalf("%s: name missing or not a string", where)
		}
		ph, ok := ev["ph"].(string)
		if !ok || len(ph) != 1 || !strings.Contains(allowed, ph) {
			t.Fatalf("%s: ph %v not in %q", where, ev["ph"], allowed)
		}
		ts := number(t, where, ev, "ts")
		pid := integer(t, where, ev, "pid")
		tid := integer(t, where, ev, "tid")
		key := [2]int64{pid, tid}
		switch ph {
		case "X":
			if dur := number(t, where, ev, "dur"); dur < 0 {
				t.Fatalf("%s: negative dur", where)
			}
		case "B", "E":
			if prev, seen := lastTs[key]; seen && ts < prev {
				t.Fatalf("%s: ts goes backwards on thread %v (%v < %v)", where, key, ts, prev)
			}
			lastTs[key] = ts
			if ph == "B" {
				stacks[key] = append(stacks[key], open{name})
				continue
			}
			st := stacks[key]
			if len(st) == 0 {
				t.Fatalf("%s: E without B on thread %v", where, key)
			}
			if st[len(st)-1].name != name {
				t.Fatalf("%s: E named %q closes B named %q", where, name, st[len(st)-1].name)
			}
			stacks[key] = st[:len(st)-1]
		}
	}
	for key, st := range stacks {
		if len(st) > 0 {
			t.Fatalf("thread %v: %d B events without E", key, len(st))
		}
	}
	return doc.TraceEvents
}

func number(t *testing.T, where string, ev map[string]any, k string) float64 {
	t.Helper()
	n, ok := ev[k].(json.Number)
	if !ok {
		t.Fatalf("%s: %s missing or not a number", where, k)
	}
	f, err := n.Float64()
	if err != nil {
		t.Fatalf("%s: %s: %v", where, k, err)
	}
	return f
}

func integer(t *testing.T, where string, ev map[string]any, k string) int64 {
	t.Helper()
	n, ok := ev[k].(json.Number)
	if !ok {
		t.Fatalf("%s: %s missing or not a number", where, k)
	}
	v, err := n.Int64()
	if err != nil {
		t.Fatalf("%s: %s is not an integer: %v", where, k, err)
	}
	return v
}

func head(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "..."
	}
	return string(b)
}

// namesOfPhase lists, in order, the names of the events with phase ph.
func namesOfPhase(events []map[string]any, ph string) []string {
	var names []string
	for _, ev := range events {
		if ev["ph"] == ph {
			names = append(names, ev["name"].(string))
		}
	}
	return names
}
