package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode"
	"github.com/tracebeat/tracebeat/diff"
	"github.com/tracebeat/tracebeat/methodmap"
	"github.com/tracebeat/tracebeat/profile"
)

// shopRuns records a build of testdata/diff/shop n times with the java
// properties, and reads each recording's profile.
func shopRuns(t *testing.T, build string, n int, props []string) []*profile.Profile {
	t.Helper()
	classes := filepath.Join(t.TempDir(), build)
	compileJava(t, classes, filepath.Join("..", "..", "testdata", "diff", "shop", build))
	var runs []*profile.Profile
	for range n {
		trace, methodMap, out := recordProgram(t, classes, "shop.Shop", nil, nil, props)
		require.Equal(t, "shop: 20 orders, total 8320\n", out)
		names, err := decode.LoadMethodNames(methodMap)
		require.NoError(t, err)
		id, err := methodmap.ReadBuildID(methodMap)
		require.NoError(t, err)
		p, err := profile.Read(trace, names, decode.MapBuild{Path: methodMap, ID: id})
		require.NoError(t, err)
		runs = append(runs, p)
	}
	return runs
}

func pick(runs []*profile.Profile, mask int) diff.Side {
	s := diff.Side{Label: fmt.Sprintf("runs %b", mask)}
	for i, r := range runs {
		if mask&(1<<i) != 0 {
			s.Runs = append(s.Runs, r)
		}
	}
	return s
}

func ones(mask int) int {
	n := 0
	for ; mask != 0; mask &= mask - 1 {
		n++
	}
	return n
}

// TestDiffOnALoadedMachine: the gate's verdicts with every core loaded by
// spinning processes, with the shared clock and the precise one. One build
// of testdata/diff/shop recorded 8 times: no split of its runs into two
// sides of at least 2 (119 of them; a side of 2 gets no verdict) fails the
// gate or calls anything improved. The second build, whose
// Pricing.discount waits 6 ms instead of 2 (20 orders, 3 calls each),
// against the first, 40 random sides of 3 to 6 runs each: discount is
// regressed every time, and its caller Checkout.total, whose self time
// the clock moves, is not. About a minute: TRACEBEAT_LONG_TESTS=1
// (scripts/long-tests.sh) runs it.
func TestDiffOnALoadedMachine(t *testing.T) {
	if os.Getenv("TRACEBEAT_LONG_TESTS") == "" || testing.Short() {
		t.Skip("set TRACEBEAT_LONG_TESTS=1 to record on a loaded machine")
	}
	for _, clock := range []string{"shared", "precise"} {
		t.Run(clock, func(t *testing.T) {
			loadMachine(t)
			props := []string{"-Dtracebeat.clock=" + clock}
			v1, v2 := shopRuns(t, "v1", 8, props), shopRuns(t, "v2", 8, props)
			splits, failed := 0, 0
			for mask := 1; mask < 1<<8; mask++ {
				if mask&1 == 0 || ones(mask) < 2 || ones(mask) > 6 {
					continue // each split once: the side with run 0, both sides of 2 or more
				}
				splits++
				res := diff.Compare(pick(v1, mask), pick(v1, 0xFF&^mask), diff.Options{})
				if res.Regressed() || res.Counts[diff.Improved] > 0 {
					failed++
					var b strings.Builder
					res.WriteText(&b)
					t.Errorf("split %08b of one build's runs gave a verdict:\n%s", mask, b.String())
				}
			}
			assert.Equal(t, 119, splits)
			rng := rand.New(rand.NewPCG(1, 2))
			found, blamed := 0, 0
			for range 40 {
				a, b := 0, 0
				for ones(a) < diff.MinRuns || ones(a) > 6 {
					a = rng.IntN(256)
				}
				for ones(b) < diff.MinRuns || ones(b) > 6 {
					b = rng.IntN(256)
				}
				res := diff.Compare(pick(v1, a), pick(v2, b), diff.Options{})
				for _, m := range res.Methods {
					switch {
					case m.Name == "shop.Shop$Pricing.discount(II)J" && m.Status == diff.Regressed:
						found++
					case m.Status == diff.Regressed:
						blamed++
						t.Errorf("sides %08b and %08b: %s regressed (%s)", a, b, m.Name, m.Reason)
					}
				}
			}
			t.Logf("%s clock: %d of %d splits of one build gave a verdict; discount found regressed in %d of 40, %d other methods blamed",
				clock, failed, splits, found, blamed)
			assert.Equal(t, 40, found, "the 3x slower method is found in every split")
		})
	}
}
