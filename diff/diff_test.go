package diff

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/profile"
)

// run is a profile of one run: name -> self and total ms, one call each.
func run(ms map[string][2]float64) *profile.Profile {
	p := &profile.Profile{Source: "run", Methods: map[string]profile.Stat{}, Tree: &profile.Node{}}
	for name, v := range ms {
		p.Methods[name] = profile.Stat{Calls: 1, Self: int64(v[0] * 1e6), Total: int64(v[1] * 1e6)}
		p.Calls++
	}
	return p
}

func side(runs ...map[string][2]float64) Side {
	s := Side{Label: "side"}
	for _, r := range runs {
		s.Runs = append(s.Runs, run(r))
	}
	return s
}

// TestVerdicts holds each verdict to its thresholds: the percent and the
// milliseconds both, the total time only with ByTotal, the noise of
// repeated runs, and names in one build only.
func TestVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name      string
		base, new Side
		opt       Options
		want      map[string]string
	}{
		{"percent and ms both passed", side(map[string][2]float64{"a": {10, 10}}), side(map[string][2]float64{"a": {11.5, 11.5}}), Options{},
			map[string]string{"a": Regressed}},
		{"ms passed, percent not", side(map[string][2]float64{"a": {100, 100}}), side(map[string][2]float64{"a": {105, 105}}), Options{},
			map[string]string{"a": Same}},
		{"percent passed, ms not", side(map[string][2]float64{"a": {1, 1}}), side(map[string][2]float64{"a": {1.9, 1.9}}), Options{},
			map[string]string{"a": Same}},
		{"just at the threshold", side(map[string][2]float64{"a": {20, 20}}), side(map[string][2]float64{"a": {22, 22}}), Options{},
			map[string]string{"a": Same}},
		{"improved", side(map[string][2]float64{"a": {10, 10}}), side(map[string][2]float64{"a": {5, 5}}), Options{},
			map[string]string{"a": Improved}},
		{"total decides nothing by default", side(map[string][2]float64{"a": {1, 10}}), side(map[string][2]float64{"a": {1, 30}}), Options{},
			map[string]string{"a": Same}},
		{"by total", side(map[string][2]float64{"a": {1, 10}}), side(map[string][2]float64{"a": {1, 30}}), Options{ByTotal: true},
			map[string]string{"a": Regressed}},
		{"thresholds of one's own", side(map[string][2]float64{"a": {10, 10}}), side(map[string][2]float64{"a": {11.5, 11.5}}), Options{Threshold: 20},
			map[string]string{"a": Same}},
		{"new and gone", side(map[string][2]float64{"a": {1, 1}}), side(map[string][2]float64{"b": {1, 1}}), Options{},
			map[string]string{"a": Gone, "b": New}},
		{"only", side(map[string][2]float64{"a": {1, 1}, "b": {1, 1}}), side(map[string][2]float64{"a": {9, 9}, "b": {9, 9}}), Options{Only: regexp.MustCompile(`^b$`)},
			map[string]string{"b": Regressed}},
		{"runs that overlap are noise",
			side(map[string][2]float64{"a": {10, 10}}, map[string][2]float64{"a": {14, 14}}, map[string][2]float64{"a": {10, 10}}),
			side(map[string][2]float64{"a": {13, 13}}, map[string][2]float64{"a": {12.5, 12.5}}, map[string][2]float64{"a": {13, 13}}), Options{},
			map[string]string{"a": Same}},
		{"a change smaller than the runs' spread is noise",
			side(map[string][2]float64{"a": {10, 10}}, map[string][2]float64{"a": {10.1, 10.1}}, map[string][2]float64{"a": {10, 10}}),
			side(map[string][2]float64{"a": {12, 12}}, map[string][2]float64{"a": {16, 16}}, map[string][2]float64{"a": {12.5, 12.5}}), Options{},
			map[string]string{"a": Same}},
		{"runs apart", side(map[string][2]float64{"a": {10, 10}}, map[string][2]float64{"a": {10.5, 10.5}}),
			side(map[string][2]float64{"a": {14, 14}}, map[string][2]float64{"a": {14.2, 14.2}}), Options{},
			map[string]string{"a": Regressed}},
		{"unknown ids are not matched", side(map[string][2]float64{"<unknown id 7>": {1, 1}}), side(map[string][2]float64{"<unknown id 7>": {9, 9}}), Options{},
			map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Compare(tc.base, tc.new, tc.opt)
			got := map[string]string{}
			for _, m := range res.Methods {
				got[m.Name] = m.Status
			}
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.want["a"] == Regressed || tc.want["b"] == Regressed, res.Regressed())
		})
	}
}

// TestOrderAndJSON: the regressed come first, then the other changes by
// size, then the unchanged; the JSON has every documented field.
func TestOrderAndJSON(t *testing.T) {
	res := Compare(
		side(map[string][2]float64{"small": {10, 10}, "big": {10, 10}, "same": {5, 5}, "faster": {50, 50}}),
		side(map[string][2]float64{"small": {12, 12}, "big": {30, 30}, "same": {5, 5}, "faster": {20, 20}, "added": {3, 3}}),
		Options{})
	var order []string
	for _, m := range res.Methods {
		order = append(order, m.Name)
	}
	require.Equal(t, []string{"big", "small", "faster", "added", "same"}, order)
	var b bytes.Buffer
	require.NoError(t, res.WriteJSON(&b))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	m := doc["methods"].([]any)[0].(map[string]any)
	for _, f := range []string{"name", "status", "calls_base", "calls_new", "self_ms_base", "self_ms_new", "self_ms_delta",
		"total_ms_base", "total_ms_new", "total_ms_delta", "self_ms_base_range", "self_ms_new_range", "delta_percent"} {
		require.Contains(t, m, f)
	}
	require.Equal(t, 20.0, m["self_ms_delta"])
	require.Equal(t, 200.0, m["delta_percent"])
	require.Equal(t, map[string]any{"regressed": 2.0, "improved": 1.0, "new": 1.0, "gone": 0.0, "same": 1.0}, doc["counts"])
}
