package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// TestRecordingAccuracy records fixture.Busy (methods that busy-wait 1 ms,
// 100 µs, 10 µs and 1 µs on three threads, measuring themselves inside and
// measured by their caller outside) with both clocks, and compares each
// method's decoded inclusive total with the fixture's: with the precise
// clock it lies between the inside and the outside totals; with the shared
// clock, within the resolution decode states of them, per call.
// (docs/runtime.md's table is TestLoadedClockTotals', on a loaded machine.)
func TestRecordingAccuracy(t *testing.T) {
	javatest.RequireJava(t)
	classes := filepath.Join(t.TempDir(), "accuracy")
	compileJava(t, classes, "../../jvmruntime/testdata/accuracy")
	type result struct {
		truth      map[string][3]int64 // the fixture's: calls, inside ns, outside ns
		total      map[string]int64
		calls      map[string]int64
		resolution int64
	}
	record := func(props ...string) result {
		truth := map[string][3]int64{}
		trace, methodMap, output := recordProgram(t, classes, "fixture.Busy", nil, nil, props)
		for _, line := range strings.Split(strings.TrimSpace(output), "\n") {
			f := strings.Fields(line)
			if len(f) == 5 && f[0] == "truth" {
				var v [3]int64
				for i := range v {
					var err error
					v[i], err = strconv.ParseInt(f[2+i], 10, 64)
					require.NoError(t, err, line)
				}
				truth[f[1]] = v
			}
		}
		code, stdout, stderr := runDecodeArgs("--map", methodMap, "--format", "json", trace)
		require.Equal(t, exitOK, code, stderr)
		var doc struct {
			TraceEvents []struct {
				Name string          `json:"name"`
				Ph   string          `json:"ph"`
				Dur  json.Number     `json:"dur"`
				Tid  int64           `json:"tid"`
				Args json.RawMessage `json:"args"`
			} `json:"traceEvents"`
		}
		require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
		require.Len(t, truth, 4, output)
		r := result{truth: truth, total: map[string]int64{}, calls: map[string]int64{}, resolution: -1}
		for _, e := range doc.TraceEvents {
			switch {
			case e.Ph == "i" && e.Tid == 0 && strings.HasPrefix(e.Name, "clock: "):
				var args struct {
					Resolution int64 `json:"resolution_ns"`
				}
				require.NoError(t, json.Unmarshal(e.Args, &args))
				r.resolution = args.Resolution
			case e.Ph == "X" && strings.HasPrefix(e.Name, "fixture.Busy.spin"):
				us, err := strconv.ParseFloat(string(e.Dur), 64)
				require.NoError(t, err)
				name := strings.TrimSuffix(strings.TrimPrefix(e.Name, "fixture.Busy."), "()V")
				r.total[name] += int64(us*1000 + 0.5)
				r.calls[name]++
			}
		}
		require.GreaterOrEqual(t, r.resolution, int64(0), "decode states the clock's resolution")
		return r
	}
	precise := record("-Dtracebeat.clock=precise")
	shared := record()
	require.Equal(t, int64(0), precise.resolution)

	var table strings.Builder
	fmt.Fprintf(&table, "| method | calls | precise clock: truth ms (inside-outside) | recorded ms | shared clock: truth ms (inside-outside) | recorded ms |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, name := range []string{"spin1ms", "spin100us", "spin10us", "spin1us"} {
		check := func(clock string, r result, slack int64) {
			calls, inside, outside := r.truth[name][0], r.truth[name][1], r.truth[name][2]
			require.Equal(t, calls, r.calls[name], "%s: calls", name)
			require.GreaterOrEqual(t, r.total[name], inside-calls*slack,
				"%s, %s clock: measured less than the method (%d calls, stated resolution %d ns)", name, clock, calls, slack)
			require.LessOrEqual(t, r.total[name], outside+calls*slack,
				"%s, %s clock: measured more than the caller (%d calls, stated resolution %d ns)", name, clock, calls, slack)
		}
		check("precise", precise, 0)
		check("shared", shared, shared.resolution)
		ms := func(ns int64) string { return fmt.Sprintf("%.2f", float64(ns)/1e6) }
		fmt.Fprintf(&table, "| %s | %d | %s-%s | %s | %s-%s | %s |\n", name, shared.calls[name],
			ms(precise.truth[name][1]), ms(precise.truth[name][2]), ms(precise.total[name]),
			ms(shared.truth[name][1]), ms(shared.truth[name][2]), ms(shared.total[name]))
	}
	t.Logf("shared clock's stated resolution: %.3f ms\n%s", float64(shared.resolution)/1e6, table.String())
}
