package decode

import (
	"fmt"
	"io"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

// MergeSystemTrace writes one Perfetto trace: the system trace's packets
// as they are, then the recording's (in) with its times placed on the
// machine's clock by the recording's origin (CLOCK_MONOTONIC for
// System.nanoTime, CLOCK_BOOTTIME on Android), in its own process (the
// recording's pid), on its threads' tids, on sequences numbered apart from
// the system's. Perfetto lines the two up through the system trace's clock
// snapshots, and puts a thread's slices beside the system's tracks of the
// same tid. A Perfetto trace is its packets one after another, so the two
// are joined as they are.
func MergeSystemTrace(system []byte, systemName string, in io.Reader, w io.Writer, opts Options) (*Result, error) {
	if err := traceout.CheckPackets(system); err != nil {
		return nil, fmt.Errorf("%s: not a Perfetto trace: %w", systemName, err)
	}
	opts.Format = FormatPerfetto
	if _, err := w.Write(system); err != nil {
		return nil, err
	}
	res, err := Decode(in, EventsTo(traceout.NewPerfettoMergeWriter(w)), opts)
	if err != nil {
		return nil, err
	}
	if res.Kind != KindRecording || res.Version < 4 {
		return nil, fmt.Errorf("%s: --merge takes a recording of tracebeat's runtime of format 4 or later (it says where its times start on the machine's clock), not %s", opts.Source, describeInput(res))
	}
	return res, nil
}

func describeInput(res *Result) string {
	if res.Kind == KindRecording {
		return fmt.Sprintf("a recording of format %d", res.Version)
	}
	return string(res.Kind)
}
