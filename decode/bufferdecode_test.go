package decode

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

// checkPreorderNesting checks that the X events of each thread come
// callers first and nest properly (a slice lies within the open slice it
// follows, or after it), which is what lets viewers draw calls that begin
// in the same millisecond in the right order.
func checkPreorderNesting(t *testing.T, events []map[string]any) {
	t.Helper()
	type span struct{ start, end float64 }
	var open []span
	for i, ev := range events {
		if ev["ph"] != "X" {
			continue
		}
		s := number(t, "", ev, "ts")
		e := s + number(t, "", ev, "dur")
		for len(open) > 0 && (open[len(open)-1].end < s || (open[len(open)-1].end == s && e > s)) {
			open = open[:len(open)-1]
		}
		if len(open) > 0 {
			top := open[len(open)-1]
			if s < top.start || e > top.end {
				t.Fatalf("event %d [%v,%v] overlaps its enclosing slice [%v,%v] without nesting", i, s, e, top.start, top.end)
			}
		}
		open = append(open, span{s, e})
	}
}

func decodeBufferString(t *testing.T, recs []Record, opts BufferOptions) (string, *BufferResult) {
	t.Helper()
	var out bytes.Buffer
	res, err := DecodeBuffer(&sliceReader{recs: recs}, &out, opts)
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), res
}

// TestJSONLeavesOutIDsUnlessAsked: a slice carries its name, time and
// thread, and its method id only with IDs; no category.
func TestJSONLeavesOutIDsUnlessAsked(t *testing.T) {
	recs := []Record{I(2, 1), I(6, 1), O(6, 3), O(2, 4)}
	for _, ids := range []bool{false, true} {
		out, _ := decodeBufferString(t, recs, BufferOptions{Format: FormatJSON, Names: testNames(t), IDs: ids})
		slices := 0
		for _, e := range validateTraceJSON(t, []byte(out)) {
			if e["ph"] != "X" {
				continue
			}
			slices++
			require.NotContains(t, e, "cat")
			args, hasArgs := e["args"].(map[string]any)
			require.Equal(t, ids, hasArgs, "args of %v", e)
			if ids {
				require.Contains(t, args, "id")
			}
		}
		require.Equal(t, 2, slices)
	}
}

func TestBufferJSON(t *testing.T) {
	// Wrap at the start (o(4) before any i), an exception skipping o(7),
	// an unknown id, calls open at the end; several start in the same ms.
	recs := []Record{O(4, 0), O(3, 1), I(2, 1), I(6, 1), I(7, 1), O(6, 3), I(99, 3), O(99, 3), O(2, 4), I(5, 6)}
	out, res := decodeBufferString(t, recs, BufferOptions{Format: FormatJSON, Names: testNames(t), IDs: true})
	events := validateTraceJSON(t, []byte(out))
	checkPreorderNesting(t, events)
	type ev struct {
		name     string
		ts, dur  string
		id       float64
		unclosed bool
		noEnter  bool
	}
	var got []ev
	for _, e := range events {
		if e["ph"] != "X" {
			continue
		}
		args := e["args"].(map[string]any)
		id, _ := args["id"].(json.Number).Float64()
		got = append(got, ev{e["name"].(string), e["ts"].(json.Number).String(), e["dur"].(json.Number).String(), id,
			args["unclosed"] == true, args["startedBeforeBuffer"] == true})
	}
	want := []ev{
		{"app.Loader.load(I)V", "0", "1000", 3, false, true},
		{"app.Loader.step(I)V", "0", "0", 4, false, true},
		{"app.Main.run()V", "1000", "3000", 2, false, false},
		{"app.Risky.outer()V", "1000", "2000", 6, false, false},
		{"app.Risky.inner()V", "1000", "2000", 7, true, false},
		{"<unknown id 99>", "3000", "0", 99, false, false},
		{"app.Work.spin(I)V", "6000", "0", 5, true, false},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d X events, want %d:\n%s", len(got), len(want), out)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if res.Unknown.Distinct != 1 || res.Stats.NoEnter != 2 || res.Stats.Unclosed != 2 {
		t.Errorf("result = %+v", res)
	}
}

func TestBufferJSONSpillsToDisk(t *testing.T) {
	// The external sort must give the same bytes as the in-memory one.
	rng := rand.New(rand.NewPCG(7, 8))
	recs := randomBuffer(rng, 5000, 12)
	inMemory, _ := decodeBufferString(t, recs, BufferOptions{Format: FormatJSON, Names: testNames(t)})
	spilled, _ := decodeBufferString(t, recs, BufferOptions{Format: FormatJSON, Names: testNames(t), SortChunk: 37, TempDir: t.TempDir()})
	if inMemory != spilled {
		t.Fatal("spilled sort differs from the in-memory sort")
	}
	checkPreorderNesting(t, validateTraceJSON(t, []byte(spilled)))
}

func TestBufferSystrace(t *testing.T) {
	recs := []Record{O(4, 0), I(2, 1), I(6, 1), O(6, 3), O(2, 4), I(5, 6)}
	out, _ := decodeBufferString(t, recs, BufferOptions{Format: FormatSystrace, Names: testNames(t)})
	line := func(ts, payload string) string {
		return "       AppMethodBeat-1 [000] ...1 " + ts + ": tracing_mark_write: " + payload + "\n"
	}
	want := traceout.FtraceHeader +
		line("0.000000", "B|1|app.Loader.step(I)V") +
		line("0.000000", "E|1") +
		line("0.001000", "B|1|app.Main.run()V") +
		line("0.001000", "B|1|app.Risky.outer()V") +
		line("0.003000", "E|1") +
		line("0.004000", "E|1") +
		line("0.006000", "B|1|app.Work.spin(I)V") +
		line("0.006000", "E|1")
	if out != want {
		t.Errorf("systrace:\n%s\nwant:\n%s", out, want)
	}
	// And it converts to balanced trace events.
	var js bytes.Buffer
	if _, err := DecodeSystrace(strings.NewReader(out), &js, FormatJSON, testNames(t)); err != nil {
		t.Fatal(err)
	}
	validateTraceJSON(t, js.Bytes())
}

func TestBufferSummary(t *testing.T) {
	recs := []Record{0, O(4, 0), I(2, 1), I(6, 1), I(7, 2), O(2, 40), I(3, 50), O(9, 50), I(4, 51), O(4, 70), O(3, 71), I(5, 80)}
	out, res := decodeBufferString(t, recs, BufferOptions{Format: FormatText, Names: testNames(t), Top: 2})
	for _, want := range []string{
		"AppMethodBeat buffer: 12 records, 7 calls, 0..80 ms, max depth 3\n",
		"  empty slots skipped: 1\n",
		"  calls started before the buffer (ring-buffer wrap): 1\n",
		"  calls without exit record: 3 (closed at their caller's exit or at 80 ms)\n",
		"  exit records matching no open call (ignored): 1, first at record 8\n",
		"top-level calls: 4; the 2 slowest, each trimmed to its 30 costliest calls:\n",
		"(count: the calls of a method merged into its line, of the calls the trim kept; cost: their total)\n",
		"stack 1 of 2: 39 ms, 3 lines, stackKey 7|\n",
		"key method: 7 app.Risky.inner()V\n",
		"  39 ms      1  app.Main.run()V\n",
		"  39 ms      1    app.Risky.outer()V  [no exit recorded]\n",
		"* 38 ms      1      app.Risky.inner()V  [no exit recorded]\n",
		"stack 2 of 2: 21 ms, 2 lines, stackKey 4|\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if res.TopLevel != 4 {
		t.Errorf("TopLevel = %d", res.TopLevel)
	}
}
