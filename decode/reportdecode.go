package decode

import (
	"bufio"
	"fmt"
	"strings"
	"time"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// reportCall finds, in a report's thread, the call the report is about,
// and rebuilds its tree as Matrix's EvilMethodTracer reports a slow
// message: the call at depth 0, trimmed to its costliest calls (30), with
// the key its backend groups reports by (KeyMethods). A stall's call is
// still open: its tree is what ran inside it up to the report.
type reportCall struct {
	rep    *recording.Report
	seq    int64 // the call's Seq once its enter was seen, else -1
	depth  int   // the calls open when it was entered
	done   bool
	calls  *SlowestCalls
	stack  *Stack
	opened []int // the ids of the calls open around it, outermost first
}

func newReportCall(rep *recording.Report, maxStack int) *reportCall {
	return &reportCall{rep: rep, seq: -1, calls: NewSlowestCalls(1, maxStack)}
}

// wrap watches the thread's records on their way to the pairer: the
// report's call is the enter of its id at its time.
func (r *reportCall) wrap(p *Pairer, add func(bool, int, uint64) error) func(bool, int, uint64) error {
	return func(enter bool, id int, t uint64) error {
		if r.seq < 0 && enter && id == r.rep.ID && t == r.rep.Entered {
			r.seq = p.Stats().Enters
			r.depth = p.Open()
		}
		return add(enter, id, t)
	}
}

// frame takes each frame the pairer closes: the call's and those inside it.
func (r *reportCall) frame(f Frame, open func() []int) {
	if r.seq < 0 || r.done || f.NoEnter || f.Seq < r.seq || f.Depth < r.depth {
		return
	}
	g := f
	g.Depth -= r.depth
	g.OrphansBefore = 0
	r.calls.Add(g)
	if f.Seq == r.seq {
		r.done = true
		r.opened = open()
		if st := r.calls.Stacks(); len(st) > 0 {
			s := st[0]
			s.Unit = time.Nanosecond
			r.stack = &s
		}
	}
}

// write says what the report is about, and the call's stack.
func (r *reportCall) write(bw *bufio.Writer, h *recording.Recording, names func(int) string, thread string) {
	rep := r.rep
	name := func(id int) string {
		if id < 0 {
			return "a call whose start its thread's ring no longer held"
		}
		return names(id)
	}
	if rep.Kind == recording.ReportStartup {
		writeStartup(bw, rep, name(rep.ID), thread)
		return
	}
	span := fmt.Sprintf("from %s to %s after the start", formatNs(rep.Entered), formatNs(rep.End))
	if rep.Kind == recording.ReportWarm {
		// Its section marks the focus: no call of its own to make a stack
		// of; the report's records are every thread's calls of the span.
		fmt.Fprintf(bw, "tracebeat report: a warm start: %s from the creation of %s to its first focus, on %s, %s\n\n",
			formatNs(rep.End-rep.Entered), strings.TrimPrefix(name(rep.ID), "warm start "), thread, span)
		return
	}
	threshold := recording.FormatDuration(rep.Threshold)
	switch rep.Kind {
	case recording.ReportSlow:
		fmt.Fprintf(bw, "tracebeat report: a slow call: %s took %s on %s (over %s), %s\n",
			name(rep.ID), formatNs(rep.End-rep.Entered), thread, threshold, span)
	case recording.ReportStall:
		fmt.Fprintf(bw, "tracebeat report: a stall: %s was stuck in %s for %s when the report was written (over %s), %s; the call was still open\n",
			thread, name(rep.ID), formatNs(rep.End-rep.Entered), threshold, span)
	case recording.ReportANR:
		fmt.Fprintf(bw, "tracebeat report: an ANR: the main looper's %s had run for %s on %s when the report was written (over %s), %s; it was still running\n",
			name(rep.ID), formatNs(rep.End-rep.Entered), thread, threshold, span)
	default:
		fmt.Fprintf(bw, "tracebeat report of kind %d on %s, %s\n", rep.Kind, thread, span)
	}
	if len(r.opened) > 0 {
		names := make([]string, len(r.opened))
		for i, id := range r.opened {
			names[i] = name(id)
		}
		fmt.Fprintf(bw, "called from: %s\n", strings.Join(names, " > "))
	}
	if r.stack == nil {
		fmt.Fprintf(bw, "the report's records do not hold the call's start (its thread's ring had lost it): no stack\n\n")
		return
	}
	writeStackText(bw, fmt.Sprintf("the call, as Matrix reports it (trimmed to %d calls)", r.calls.maxStack), *r.stack, names)
	bw.WriteString("\n")
}

// writeStartup says what a cold start's report holds: its phases, in the
// order they ran (Report.StartupPhases).
func writeStartup(bw *bufio.Writer, rep *recording.Report, section, thread string) {
	fmt.Fprintf(bw, "tracebeat report: a cold start: %s from the first traced call to the first focus of %s, on %s\n",
		formatNs(rep.End), strings.TrimPrefix(section, "cold start "), thread)
	for _, p := range rep.StartupPhases() {
		took := p.Why
		if p.Why == "" {
			took = formatNs(p.Ns)
		}
		fmt.Fprintf(bw, "  %s: %s\n", p.Name, took)
	}
	bw.WriteString("\n")
}
