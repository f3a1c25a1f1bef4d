package diff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tableResult is a comparison of every kind of line the table writes:
// ranges of several runs, a renamed method, callers, reasons, more of the
// same than the table lists.
func tableResult() *Result {
	r := &Result{
		Base: SideInfo{Label: "base.trace", Runs: []string{"b1", "b2"}, Calls: 1500, Builds: []string{"abc", "def"},
			TotalMs: []float64{10, 12.5}, Spread: 25, ResolutionMs: 0.5, TypicalMs: 0.004},
		New:        SideInfo{Label: "new.trace", Runs: []string{"n1"}, Calls: 1, TotalMs: []float64{11}, ResolutionMs: 2, TypicalMs: 3},
		Options:    Options{Threshold: 10, MinMs: 1, ByTotal: true, Only: regexp.MustCompile("a|b"), Risk: 0.05},
		Statistics: true, Compared: 25,
		Counts: map[string]int{Regressed: 1, Improved: 1, New: 1, Gone: 1, Same: 23},
		Methods: []Method{
			{Name: "a.slow()V", Status: Regressed, CallsBase: 10, CallsNew: 20, SelfMsBase: 1, SelfMsNew: 2, SelfMsDelta: 1,
				TotalMsBase: 10, TotalMsNew: 25, TotalMsDelta: 15, SelfMsBaseRange: [2]float64{0.5, 1.5}, DeltaPercent: 150, ClockMs: 0.25,
				Callers: []Caller{{Name: "main", CallsBase: 10, CallsNew: 20}, {Name: "loop", CallsBase: 0, CallsNew: 1}}},
			{Name: "b.fast(J)V", BaseName: "b.fast(I)V", Status: Improved, CallsBase: 3, CallsNew: 3, SelfMsBase: 4, SelfMsNew: 2,
				TotalMsBase: 8, TotalMsNew: 4, TotalMsDelta: -4, SelfMsBaseRange: [2]float64{3, 5}, DeltaPercent: -50},
			{Name: "c.new()V", Status: New, CallsNew: 1, SelfMsNew: 3, TotalMsNew: 3, TotalMsDelta: 3},
			{Name: "d.gone()V", Status: Gone, CallsBase: 2, SelfMsBase: 1, TotalMsBase: 1, TotalMsDelta: -1},
			{Name: "e.clock()V", Status: Same, Reason: WithinClock, CallsBase: 1, CallsNew: 1, TotalMsBase: 1, TotalMsNew: 2.5, TotalMsDelta: 1.5, DeltaPercent: 150},
			{Name: "f.noise()V", Status: Same, Reason: WithinNoise, CallsBase: 1, CallsNew: 1},
		},
	}
	for i := range 21 {
		r.Methods = append(r.Methods, Method{Name: fmt.Sprintf("s%02d()V", i), Status: Same, Reason: WithinThreshold, CallsBase: 1, CallsNew: 1})
	}
	return r
}

// TestWriteText holds the table to its text, line for line.
func TestWriteText(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, tableResult().WriteText(&out))
	want := `BASE: base.trace, 2 runs 10.000 to 12.500 ms in traced code (spread 25.0%), 1500 calls (median), build abc def, times within 500 µs (4.00 µs on average)
NEW : new.trace, 1 run, 1 call (median), times within 2.00 ms
verdicts by total time: regressed or improved when its median moved by more than 10% and 1 ms, more than the clock may account for, and more than the runs' noise makes: 25 methods compared, at a 5% risk of any false verdict among them; methods matching a|b only
1 regressed, 1 improved, 1 new, 1 gone, 23 the same
1 method moved by more than the thresholds but no more than the clock's resolution may account for (same (clock)): -Dtracebeat.clock=precise records exact times

`
	lines := strings.SplitAfter(out.String(), "\n")
	require.Greater(t, len(lines), 30)
	assert.Equal(t, want, strings.Join(lines[:6], ""))
	var norm []string
	for _, l := range lines[6:] {
		norm = append(norm, strings.Join(strings.Fields(l), " ")+"\n")
	}
	table := strings.Join(norm, "")
	for _, row := range []string{
		"status            self ms base  self ms new               delta  clock ms  total ms base  total ms new  calls base  calls new  method\n",
		"regressed  1.000 (0.500-1.500)        2.000  +15.000 (+150.0%)     0.250         10.000        25.000          10         20  a.slow()V\n",
		"improved   4.000 (3.000-5.000)        2.000    -4.000 (-50.0%)     0.000          8.000         4.000           3          3  b.fast(I)V -> b.fast(J)V\n",
		"new        0.000 (0.000-0.000)        3.000              +3.000     0.000          0.000         3.000           0          1  c.new()V\n",
		"gone       1.000 (0.000-0.000)        0.000              -1.000     0.000          1.000         0.000           2          0  d.gone()V\n",
		"same (clock)  0.000 (0.000-0.000)        0.000   +1.500 (+150.0%)     0.000          1.000         2.500           1          1  e.clock()V\n",
		"same (noise)  0.000 (0.000-0.000)        0.000     +0.000 (+0.0%)     0.000          0.000         0.000           1          1  f.noise()V\n",
		"s17()V\n",
		"(and 3 more the same)\n",
	} {
		assert.Contains(t, table, strings.Join(strings.Fields(row), " ")+"\n", "%q", row)
	}
	assert.True(t, strings.HasSuffix(out.String(), "\nmethods called more or less often, and the callers whose calls into them changed most:\n  regressed a.slow()V: 10 -> 20 calls\n    from main: 10 -> 20\n    from loop: 0 -> 1\n"))
	assert.NotContains(t, table, "s18()V", "20 of the same listed")
	assert.NotContains(t, table, "same (threshold)")
}

// TestWriteTextHeads: the head's other forms: self time, --strict, too
// few runs, no clock to speak of, times in microseconds; no callers, all
// of the same listed.
func TestWriteTextHeads(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(r *Result)
		want []string
		not  []string
	}{
		{"strict", func(r *Result) {
			r.Statistics, r.Options.Strict, r.Options.ByTotal, r.Options.Only = false, true, false, nil
		},
			[]string{"verdicts by self time: regressed or improved when its median moved by more than 10% and 1 ms, more than the clock may account for (--strict: a single run on a side, no statistics)\n"},
			[]string{"methods matching"}},
		{"too few runs", func(r *Result) { r.Statistics = false },
			[]string{" (too few runs on a side: no verdict, see the notes); methods matching a|b only\n"}, nil},
		{"no clock", func(r *Result) { r.Base.ResolutionMs, r.New.ResolutionMs = 0.0009, 0 },
			[]string{"1500 calls (median), build abc def\n", "NEW : new.trace, 1 run, 1 call (median)\n"}, []string{"times within"}},
		{"microseconds", func(r *Result) { r.Base.ResolutionMs, r.Base.TypicalMs, r.New.ResolutionMs = 0.001, 0.0005, 0.0099 },
			[]string{"times within 1.00 µs (0.50 µs on average)\n", "times within 9.90 µs\n"}, nil},
		{"a millisecond", func(r *Result) { r.Base.ResolutionMs, r.Base.TypicalMs = 1, 0.01 },
			[]string{"times within 1.00 ms (10 µs on average)\n"}, nil},
		{"on average only when less", func(r *Result) { r.Base.ResolutionMs, r.Base.TypicalMs = 0.5, 0.5 },
			[]string{"times within 500 µs\n"}, []string{"on average"}},
		{"one run of BASE", func(r *Result) { r.Base.Runs, r.Base.TotalMs = r.Base.Runs[:1], r.Base.TotalMs[:1] },
			[]string{"BASE: base.trace, 1 run, 1500 calls"}, []string{"in traced code", "(0.500-1.500)"}},
		{"no callers, all listed", func(r *Result) {
			r.Methods[0].Callers = nil
			r.Methods = r.Methods[:20]
			r.Counts[Same] = 16
		}, nil, []string{"callers", "more the same"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tableResult()
			r.Base.Calls = 1500
			tc.edit(r)
			var out bytes.Buffer
			require.NoError(t, r.WriteText(&out))
			for _, w := range tc.want {
				assert.Contains(t, out.String(), w)
			}
			for _, n := range tc.not {
				assert.NotContains(t, out.String(), n)
			}
		})
	}
}

// TestWriteJSON: the document's verdicts block says how verdicts were
// made; counts list every status, methods are a list even when none.
func TestWriteJSON(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, tableResult().WriteJSON(&out))
	var doc struct {
		Verdicts map[string]any `json:"verdicts"`
		Counts   map[string]int `json:"counts"`
		Methods  []Method       `json:"methods"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc))
	assert.Equal(t, map[string]any{"by": "total", "threshold_percent": 10.0, "min_ms": 1.0, "regressed": true, "statistics": true,
		"compared": 25.0, "risk_percent": 5.0, "only": "a|b"}, doc.Verdicts)
	assert.Equal(t, 1, doc.Counts[Gone])
	assert.Len(t, doc.Methods, 27)
	assert.Equal(t, []Caller{{"main", 10, 20}, {"loop", 0, 1}}, doc.Methods[0].Callers)

	empty := &Result{Counts: map[string]int{}, Options: Options{Strict: true}}
	out.Reset()
	require.NoError(t, empty.WriteJSON(&out))
	doc.Methods, doc.Verdicts, doc.Counts = nil, nil, nil
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc))
	assert.NotNil(t, doc.Methods)
	assert.Empty(t, doc.Methods)
	assert.Equal(t, map[string]int{Regressed: 0, Improved: 0, Same: 0, New: 0, Gone: 0}, doc.Counts)
	assert.Equal(t, map[string]any{"by": "self", "threshold_percent": 0.0, "min_ms": 0.0, "regressed": false, "statistics": false,
		"strict": true, "compared": 0.0, "risk_percent": 0.0}, doc.Verdicts)
	assert.Contains(t, out.String(), "\n  \"base\"", "indented")
}

// TestWriteTableAligns: the first column left-aligned, the others right,
// two spaces between, the last as it is; a table of its head alone.
func TestWriteTableAligns(t *testing.T) {
	var b bytes.Buffer
	bw := bufio.NewWriter(&b)
	writeTable(bw, [][]string{{"status", "a", "last"}, {"regressed", "12345", "x"}, {"s", "1", "yy"}})
	writeTable(bw, [][]string{{"status", "a", "last"}})
	require.NoError(t, bw.Flush())
	assert.Equal(t, "status         a  last\nregressed  12345  x\ns              1  yy\nstatus  a  last\n", b.String())
}

// TestWriteTextEdges: a side of one build names it; a typical lateness of
// 0 is not shown; no line about the clock when no method is within it;
// the one more of the same is counted; sub-millisecond times in whole
// microseconds; a result of no method writes its head.
func TestWriteTextEdges(t *testing.T) {
	r := &Result{
		Base:    SideInfo{Label: "b", Runs: []string{"r"}, Builds: []string{"only"}, ResolutionMs: 0.9},
		New:     SideInfo{Label: "n", Runs: []string{"r"}},
		Options: Options{Threshold: 10, MinMs: 1, Strict: true},
		Counts:  map[string]int{Same: sameShown + 1},
	}
	for i := range sameShown + 1 {
		r.Methods = append(r.Methods, Method{Name: fmt.Sprintf("s%02d", i), Status: Same})
	}
	var out bytes.Buffer
	require.NoError(t, r.WriteText(&out))
	text := out.String()
	assert.Contains(t, text, "BASE: b, 1 run, 0 calls (median), build only, times within 900 µs\n")
	assert.NotContains(t, text, "clock's resolution")
	assert.Contains(t, text, "(and 1 more the same)\n")

	out.Reset()
	require.NoError(t, (&Result{Options: Options{Threshold: 10, MinMs: 1}, Counts: map[string]int{}}).WriteText(&out))
	assert.Contains(t, out.String(), "0 regressed, 0 improved, 0 new, 0 gone, 0 the same\n")
}
