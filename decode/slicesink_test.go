package decode

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/tracebeat/tracebeat/decode/traceout"

	"github.com/stretchr/testify/require"
)

// sliceRecorder is a SliceSink that keeps what it is given.
type sliceRecorder struct {
	slices  []pfSlice
	liftsAt []int // the thread's lifts when the slice came
	lifts   map[[2]int64]int
	threads map[[2]int64]string
}

func (r *sliceRecorder) Lift(pid, tid int64) { r.lifts[[2]int64{pid, tid}]++ }

// final is the slices with every lift applied, each ending within its
// caller as a viewer shows it (and the Perfetto trace writes it): a
// damaged file's callee may end after its caller, and a sink gets the
// times as they are.
func (r *sliceRecorder) final() []pfSlice {
	out := slices.Clone(r.slices)
	for i := range out {
		out[i].Depth += r.lifts[[2]int64{out[i].Pid, out[i].Tid}] - r.liftsAt[i]
	}
	slices.SortStableFunc(out, func(a, b pfSlice) int {
		return cmpAll(a.Pid-b.Pid, a.Tid-b.Tid, a.Start-b.Start, int64(a.Depth-b.Depth))
	})
	var ends []int64 // the enclosing slices' ends, by depth
	for i := range out {
		if i > 0 && (out[i].Pid != out[i-1].Pid || out[i].Tid != out[i-1].Tid) {
			ends = ends[:0]
		}
		d := out[i].Depth
		if d > 0 && d <= len(ends) {
			out[i].End = min(out[i].End, ends[d-1])
		}
		ends = append(ends[:min(d, len(ends))], out[i].End)
	}
	sortSlices(out)
	return out
}

func (r *sliceRecorder) Write([]byte) (int, error) {
	return 0, errors.New("bytes written to a SliceSink")
}

func (r *sliceRecorder) Thread(pid, tid int64, name string) { r.threads[[2]int64{pid, tid}] = name }

func (r *sliceRecorder) Slice(pid, tid int64, name string, start, end int64, depth int, _ bool) error {
	r.slices = append(r.slices, pfSlice{Pid: pid, Tid: tid, Name: traceout.ValidUTF8(name), Start: start, End: end, Depth: depth})
	r.liftsAt = append(r.liftsAt, r.lifts[[2]int64{pid, tid}])
	return nil
}

// TestSliceSinkGetsThePerfettoSlices: for every input kind, a SliceSink
// (what --png draws from) gets the slices the Perfetto trace holds, with
// the same depths (a recording's unsorted, its lifts applied) and thread
// names, and no bytes are written.
func TestSliceSinkGetsThePerfettoSlices(t *testing.T) {
	names := testNames(t)
	for kind, data := range perfettoInputs(t) {
		t.Run(kind, func(t *testing.T) {
			var pf bytes.Buffer
			_, err := Decode(bytes.NewReader(data), &pf, Options{Format: FormatPerfetto, Names: names})
			require.NoError(t, err)
			want := readPerfetto(t, pf.Bytes())
			got := &sliceRecorder{threads: map[[2]int64]string{}, lifts: map[[2]int64]int{}}
			_, err = Decode(bytes.NewReader(data), got, Options{Format: FormatJSON, Names: names})
			require.NoError(t, err)
			require.Equal(t, want.Slices, got.final())
			require.NotEmpty(t, got.threads)
			for k, name := range got.threads {
				require.Equal(t, want.ThreadNames[k], name, "thread %v", k)
			}
		})
	}
}
