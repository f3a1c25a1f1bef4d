package decode

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/tracebeat/tracebeat/internal/english"
)

// ThreadResult is what decoding found in one thread of a recording.
type ThreadResult struct {
	Thread RecordingThread
	Stats  PairStats
}

// RecordingResult tells what decoding a recording found.
type RecordingResult struct {
	Header   *Recording
	Threads  []ThreadResult
	Unknown  UnknownIDs
	TopLevel int64
}

// Calls is the number of calls rebuilt in all threads.
func (r *RecordingResult) Calls() int64 {
	var n int64
	for _, t := range r.Threads {
		n += t.Stats.Frames
	}
	return n
}

// threadStack is a slowest-call stack and the thread it ran on.
type threadStack struct {
	stack  Stack
	thread *RecordingThread
}

// DecodeRecording reads a recording of tracebeat's JVM runtime and writes
// the slowest call trees of all its threads (text) or trace events with
// one track per thread (json). Each thread is paired on its own, as the
// runtime recorded it; calls still open when the file was written are
// closed at its end and marked.
func DecodeRecording(r *bufio.Reader, out io.Writer, src string, opts BufferOptions) (*RecordingResult, error) {
	switch opts.Format {
	case FormatText, "", FormatJSON, FormatPerfetto:
	default:
		return nil, fmt.Errorf("%s: format %q is not supported for recordings (text, json or perfetto)", src, opts.Format)
	}
	rec, err := ReadRecording(r, src)
	if err != nil {
		return nil, err
	}
	res := &RecordingResult{Header: rec}
	name := func(id int) string {
		if i, ok := sectionIndex(id); ok {
			if s, ok := rec.Sections[i]; ok {
				return s
			}
			return fmt.Sprintf("<section %d>", i)
		}
		return opts.Names.Name(id)
	}
	// A SliceSink (the PNG) needs depths, not entry order: it takes
	// frames as the pairer closes them, without the sort.
	direct, _ := out.(SliceSink)
	var events eventSink
	if eventFormat(opts.Format) && direct == nil {
		events = newEventSink(opts.Format, out)
		// The process's own id is in its name; events carry a 1, which
		// takes 4 to 6 bytes fewer in each of millions of JSON slices.
		events.write(traceEvent{Name: "process_name", Ph: 'M', Pid: recordingPid, Tid: 0,
			Args: []eventArg{strArg("name", fmt.Sprintf("java (pid %d)", rec.Pid))}})
		writeClockEvent(events, rec)
	}
	var stacks []threadStack
	for {
		t, err := rec.NextThread()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		var slowest *SlowestCalls
		var sorter *frameSorter
		consume := func(f Frame) error { slowest.Add(f); return nil }
		switch {
		case direct != nil:
			direct.Thread(recordingPid, t.Tid, t.Name)
			consume = func(f Frame) error { return sliceOfFrame(direct, recordingPid, t.Tid, name(f.MethodID), f) }
		case events != nil:
			sorter = newFrameSorter(opts.TempDir, opts.SortChunk)
			consume = sorter.add
		default:
			slowest = NewSlowestCalls(orDefault(opts.Top, DefaultTop), orDefault(opts.MaxStack, DefaultMaxStack))
		}
		pairer := NewPairer(func(f Frame) error {
			if _, ok := sectionIndex(f.MethodID); !ok {
				res.Unknown.Note(opts.Names, f.MethodID)
			}
			return consume(f)
		}, rec.Where)
		err = rec.Records(pairer.AddCall)
		if err == nil {
			err = pairer.FinishAt(rec.End)
		}
		if err == nil && events != nil {
			err = writeThreadEvents(events, sorter, rec, t, name, opts.IDs)
		}
		if sorter != nil {
			sorter.cleanup()
		}
		if err != nil {
			return nil, err
		}
		res.Threads = append(res.Threads, ThreadResult{Thread: *t, Stats: pairer.Stats()})
		if slowest != nil {
			res.TopLevel += slowest.TopLevelCalls()
			tr := &res.Threads[len(res.Threads)-1].Thread
			for _, s := range slowest.Stacks() {
				s.Unit = time.Nanosecond
				stacks = append(stacks, threadStack{stack: s, thread: tr})
			}
		}
	}
	if direct != nil {
		return res, nil
	}
	if events != nil {
		return res, events.close()
	}
	// The slowest overall; a stable sort keeps earlier threads first on ties.
	slices.SortStableFunc(stacks, func(a, b threadStack) int { return cmp.Compare(b.stack.Cost(), a.stack.Cost()) })
	stacks = stacks[:min(len(stacks), orDefault(opts.Top, DefaultTop))]
	return res, writeRecordingSummary(out, res, stacks, name, opts)
}

// writeClockEvent says how the recording was timed, where a viewer shows
// it: an instant at the start on a track of its own ("tracebeat", tid 0).
func writeClockEvent(w eventSink, rec *Recording) {
	w.write(traceEvent{Name: "thread_name", Ph: 'M', Pid: recordingPid, Tid: 0, Args: []eventArg{strArg("name", "tracebeat")}})
	w.write(traceEvent{Name: rec.Clock.String(), Ph: 'i', Pid: recordingPid, Tid: 0,
		Args: []eventArg{intArg("resolution_ns", int64(rec.Clock.Resolution()))}})
}

// recordingPid is the process id a recording's events carry.
const recordingPid = 1

func writeThreadEvents(w eventSink, sorter *frameSorter, rec *Recording, t *RecordingThread, name func(int) string, ids bool) error {
	w.write(traceEvent{Name: "thread_name", Ph: 'M', Pid: recordingPid, Tid: t.Tid, Args: []eventArg{strArg("name", t.Name)}})
	first := true
	return sorter.each(func(f Frame) error {
		if first && t.Lost > 0 {
			// An instant event where the kept records start says what is missing.
			w.write(traceEvent{Name: fmt.Sprintf("%d earlier records lost (buffer full)", t.Lost), Cat: "tracebeat",
				Ph: 'i', TsNs: int64(f.Start), Pid: recordingPid, Tid: t.Tid, Args: []eventArg{intArg("lost", t.Lost)}})
		}
		first = false
		args := frameArgs(f, ids)
		if _, ok := sectionIndex(f.MethodID); ok {
			args = appendFrameFlags(nil, f) // a section has no method id
		}
		return w.write(traceEvent{Name: name(f.MethodID), Ph: 'X',
			TsNs: int64(f.Start), DurNs: int64(f.Cost()), Pid: recordingPid, Tid: t.Tid, Args: args})
	})
}

func writeRecordingSummary(out io.Writer, res *RecordingResult, stacks []threadStack, name func(int) string, opts BufferOptions) error {
	bw := bufio.NewWriter(out)
	h := res.Header
	fmt.Fprintf(bw, "tracebeat recording: pid %d, started %s, %s long, %s, %s\n",
		h.Pid, h.Start.Format("2006-01-02 15:04:05.000 MST"), formatNs(h.End), english.Count(len(res.Threads), "thread"), english.Count(res.Calls(), "call"))
	fmt.Fprintf(bw, "%s\n", h.Clock)
	for _, t := range res.Threads {
		st := t.Stats
		fmt.Fprintf(bw, "  %s: %s, max depth %d", t.Thread.Label(), english.Count(st.Frames, "call"), st.MaxDepth)
		if t.Thread.Lost > 0 {
			fmt.Fprintf(bw, ", %s lost (buffer full)", english.Count(t.Thread.Lost, "record"))
		}
		if st.NoEnter > 0 {
			fmt.Fprintf(bw, ", %d started before the kept records", st.NoEnter)
		}
		if st.Unclosed > 0 {
			fmt.Fprintf(bw, ", %d unclosed", st.Unclosed)
		}
		if st.StrayExits > 0 {
			fmt.Fprintf(bw, ", %s", english.Count(st.StrayExits, "stray exit"))
		}
		bw.WriteString("\n")
	}
	return writeSlowest(bw, &res.Unknown, res.TopLevel, len(stacks), opts, name, func(i int) (string, Stack) {
		return fmt.Sprintf("stack %d of %d, %s", i+1, len(stacks), stacks[i].thread.Label()), stacks[i].stack
	})
}

// formatNs shows a duration in nanoseconds as milliseconds with three
// decimals.
func formatNs(ns uint64) string {
	return fmt.Sprintf("%d.%03d ms", ns/1e6, ns/1e3%1e3)
}

// recordingNotes are the warnings worth a line on stderr.
func recordingNotes(res *RecordingResult) []string {
	var notes []string
	for _, t := range res.Threads {
		if t.Thread.Lost > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s lost: its buffer was full, the oldest went (budget %s; -Dtracebeat.budget raises it)",
				t.Thread.Label(), english.Count(t.Thread.Lost, "record"), formatBytes(res.Header.Budget)))
		}
		st := t.Stats
		if st.Unclosed > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s still open when the recording was written, or missing an exit record: closed at the caller's exit or at the end (args.unclosed)", t.Thread.Label(), english.Count(st.Unclosed, "call")))
		}
		if st.StrayExits > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s with no open call to match, ignored (first at %s)", t.Thread.Label(), english.Count(st.StrayExits, "exit record"), st.FirstStray))
		}
		if st.TimeBackwards > 0 {
			notes = append(notes, fmt.Sprintf("%s: time went backwards %s (first at %s)", t.Thread.Label(), english.Count(st.TimeBackwards, "time"), st.FirstBackward))
		}
	}
	return notes
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
