package profile

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode"
)

// bufferText writes AppMethodBeat records (enter, id, ms) as the text form
// of a buffer.
func bufferText(t *testing.T, records ...[3]int) string {
	t.Helper()
	var b strings.Builder
	for _, r := range records {
		fmt.Fprintln(&b, uint64(decode.MakeRecord(r[0] == 1, r[1], uint64(r[2]))))
	}
	path := filepath.Join(t.TempDir(), "beat.txt")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

func names(t *testing.T) *decode.MethodNames {
	t.Helper()
	n, err := decode.ReadMethodNames(strings.NewReader("1,9,app.Main main ([Ljava.lang.String;)V\n2,8,app.Main a ()V\n3,8,app.Main b ()V\n"), "map")
	require.NoError(t, err)
	return n
}

const (
	enter = 1
	exit  = 0
)

// TestSelfTotalAndPaths: self time is a call's time less its callees',
// total time counts a method that calls itself once, and each call path
// adds up on its own.
func TestSelfTotalAndPaths(t *testing.T) {
	path := bufferText(t,
		[3]int{enter, 1, 0}, // main
		[3]int{enter, 2, 1}, //   a
		[3]int{enter, 3, 2}, //     b
		[3]int{exit, 3, 5},
		[3]int{exit, 2, 6},
		[3]int{enter, 2, 6}, //   a
		[3]int{enter, 2, 7}, //     a (recursive)
		[3]int{exit, 2, 9},
		[3]int{exit, 2, 10},
		[3]int{exit, 1, 12},
	)
	p, err := Read(path, names(t), decode.MapBuild{})
	require.NoError(t, err)
	msStat := func(calls, self, total, kids int64) Stat {
		// a buffer's clock says nothing of which record read it: every call may be late
		return Stat{Calls: calls, Self: self * 1e6, Total: total * 1e6, ChildCalls: kids, LateCalls: calls, LateChildCalls: kids}
	}
	require.Equal(t, map[string]Stat{
		"app.Main.main([Ljava.lang.String;)V": msStat(1, 3, 12, 2),
		"app.Main.a()V":                       msStat(3, 6, 9, 2), // b, and a recursive a
		"app.Main.b()V":                       msStat(1, 3, 3, 0),
	}, p.Methods)
	require.Equal(t, int64(5), p.Calls)
	main := p.Tree.Child("app.Main.main([Ljava.lang.String;)V", false)
	require.NotNil(t, main)
	a := main.Child("app.Main.a()V", false)
	require.Equal(t, msStat(2, 4, 9, 2), a.Stat)
	require.Equal(t, msStat(1, 3, 3, 0), a.Child("app.Main.b()V", false).Stat)
	require.Equal(t, msStat(1, 2, 2, 0), a.Child("app.Main.a()V", false).Stat)
	require.Equal(t, int64(12e6), p.Tree.Stat.Total)
	require.Equal(t, int64(1), p.Tree.Stat.Calls, "the root counts the top-level calls")
	require.Same(t, main, p.Tree.Child("app.Main.main([Ljava.lang.String;)V", true), "a path made once")
	require.Nil(t, main.Child("app.Main.nope()V", false))
}

// TestSelfZeroAndFirstRecords: a thread's first record at time 0 or 1
// read the clock (nothing came before it); a call whose callee took all
// of its time has no self time, and its records carried each other's
// times, so the bound over all records is spread over those.
func TestSelfZeroAndFirstRecords(t *testing.T) {
	type rec struct {
		enter bool
		id    int
		at    uint64
	}
	run := func(records ...rec) (*adder, *Profile) {
		a := newAdder()
		th := a.thread(func() string { return "test" })
		for _, r := range records {
			require.NoError(t, th.call(r.enter, r.id, r.at))
		}
		require.NoError(t, th.end(records[len(records)-1].at))
		return a, a.profile("x", func(id int) string { return fmt.Sprint(id) })
	}
	for _, s := range []uint64{0, 1} {
		a, p := run(rec{true, 1, s}, rec{true, 2, s + 10}, rec{false, 2, s + 20}, rec{false, 1, s + 30})
		assert.Equal(t, Stat{Calls: 1, Self: 20, Total: 30, ChildCalls: 1}, p.Methods["1"], "start %d", s)
		assert.Equal(t, int64(0), a.late, "start %d: no record carried another's time", s)
		assert.Equal(t, int64(1000), a.lateResolution(1000), "no late record: the typical bound")
	}
	a, p := run(rec{true, 3, 40}, rec{true, 4, 40}, rec{false, 4, 60}, rec{false, 3, 60})
	assert.Equal(t, Stat{Calls: 1, Self: 0, Total: 20, ChildCalls: 1, LateCalls: 1, LateChildCalls: 1}, p.Methods["3"])
	assert.Equal(t, int64(2), a.late)
	assert.Equal(t, int64(1000*4/2), a.lateResolution(1000), "the bound over 4 records spread over the 2 late ones")
}

// TestPartialCallsAreLeftOut: an exit whose enter the buffer lost (a ring
// that wrapped) has no known time: it is counted as partial, not added;
// an exception that skipped exits closes the calls at their caller's exit.
func TestPartialCallsAreLeftOut(t *testing.T) {
	path := bufferText(t,
		[3]int{exit, 3, 2},  // b's enter went with the ring
		[3]int{enter, 2, 3}, // a
		[3]int{enter, 3, 4}, //   b: its exit lost to an exception
		[3]int{exit, 2, 8},
	)
	p, err := Read(path, names(t), decode.MapBuild{})
	require.NoError(t, err)
	require.Equal(t, int64(1), p.Partial)
	require.Equal(t, Stat{Calls: 1, Self: 1e6, Total: 5e6, ChildCalls: 1, LateCalls: 1, LateChildCalls: 1}, p.Methods["app.Main.a()V"])
	require.Equal(t, Stat{Calls: 1, Self: 4e6, Total: 4e6, LateCalls: 1}, p.Methods["app.Main.b()V"])
}

// TestOnlyTimedInputs: a stack report has no calls with times to add up.
func TestOnlyTimedInputs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stack.txt")
	require.NoError(t, os.WriteFile(path, []byte("0,1,1,100\n1,2,1,90\n"), 0o644))
	_, err := Read(path, names(t), decode.MapBuild{})
	require.ErrorContains(t, err, "has no calls with times to add up")
}

// TestHugeTimesSaturate: the calls of a damaged trace whose times reach
// the limit add up to the largest time, never to a negative one.
func TestHugeTimesSaturate(t *testing.T) {
	a := newAdder()
	for range 4 {
		th := a.thread(nil)
		require.NoError(t, th.call(true, 1, 0))
		require.NoError(t, th.call(false, 1, math.MaxInt64-1))
	}
	p := a.profile("x", func(int) string { return "m" })
	assert.Equal(t, int64(math.MaxInt64), p.Methods["m"].Self)
	assert.Equal(t, int64(math.MaxInt64), p.Tree.Stat.Total)
	assert.Equal(t, int64(4), p.Calls)
}

// TestLateCalls: with a shared clock, a record that carries the time of
// the record before it may be late, and so may the call it opens or
// closes and its caller's self time; a call whose records each have their
// own time is exact. The mean bound over all records is spread over the
// late ones.
func TestLateCalls(t *testing.T) {
	type rec struct {
		enter bool
		id    int
		at    uint64
	}
	tests := []struct {
		name              string
		calls             []rec
		want              map[int]Stat // by id, times left out
		records, lateOnes int64
	}{
		{
			name:    "every record read the clock",
			calls:   []rec{{true, 1, 10}, {true, 2, 20}, {false, 2, 30}, {false, 1, 40}},
			want:    map[int]Stat{1: {Calls: 1, ChildCalls: 1}, 2: {Calls: 1}},
			records: 4,
		},
		{
			name:    "a callee's enter carried its caller's time",
			calls:   []rec{{true, 1, 10}, {true, 2, 10}, {false, 2, 30}, {false, 1, 40}},
			want:    map[int]Stat{1: {Calls: 1, ChildCalls: 1, LateChildCalls: 1}, 2: {Calls: 1, LateCalls: 1}},
			records: 4, lateOnes: 1,
		},
		{
			name:    "an exit carried the time of the exit before it",
			calls:   []rec{{true, 1, 10}, {true, 2, 20}, {false, 2, 30}, {false, 1, 30}},
			want:    map[int]Stat{1: {Calls: 1, ChildCalls: 1, LateCalls: 1}, 2: {Calls: 1}},
			records: 4, lateOnes: 1,
		},
		{
			name:    "a lost exit: the callee closes with its caller's exit",
			calls:   []rec{{true, 1, 10}, {true, 2, 20}, {false, 1, 40}},
			want:    map[int]Stat{1: {Calls: 1, ChildCalls: 1, LateChildCalls: 1}, 2: {Calls: 1, LateCalls: 1}},
			records: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newAdder()
			th := a.thread(func() string { return "test" })
			for _, r := range tc.calls {
				require.NoError(t, th.call(r.enter, r.id, r.at))
			}
			require.NoError(t, th.end(tc.calls[len(tc.calls)-1].at))
			p := a.profile("x", func(id int) string { return fmt.Sprint(id) })
			for id, want := range tc.want {
				got := p.Methods[fmt.Sprint(id)]
				got.Self, got.Total = 0, 0
				assert.Equal(t, want, got, "method %d", id)
			}
			assert.Equal(t, tc.records, a.records)
			assert.Equal(t, tc.lateOnes, a.late)
			if tc.lateOnes > 0 {
				assert.Equal(t, 1000*tc.records/tc.lateOnes, a.lateResolution(1000))
			}
		})
	}
}
