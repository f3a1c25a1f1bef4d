package decode

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tracebeat/tracebeat/decode/traceout"

	"github.com/tracebeat/tracebeat/decode/recording"

	"github.com/tracebeat/tracebeat/internal/english"
)

// ThreadResult is what decoding found in one thread of a recording.
type ThreadResult struct {
	Thread recording.Thread
	Stats  PairStats
}

// RecordingResult tells what decoding a recording found.
type RecordingResult struct {
	Header   *recording.Recording
	Threads  []ThreadResult
	Unknown  UnknownIDs
	TopLevel int64
	// report rebuilds a report's call (text summary only).
	report *reportCall
	// BuildNotes say what the check of the map against the recording's
	// builds could not settle.
	BuildNotes []string
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
	thread *recording.Thread
}

// DecodeRecording reads a recording of tracebeat's JVM runtime and writes
// the slowest call trees of all its threads (text) or trace events with
// one track per thread (json). Each thread is paired on its own, as the
// runtime recorded it; calls still open when the file was written are
// closed at its end and marked.
func DecodeRecording(r *bufio.Reader, out io.Writer, src string, opts BufferOptions) (*RecordingResult, error) {
	switch opts.Format {
	case FormatText, "", FormatJSON, FormatPerfetto, FormatArt, FormatSpeedscope, FormatHTML:
	default:
		return nil, fmt.Errorf("%s: format %q is not supported for recordings (text, json, perfetto, art, speedscope or html)", src, opts.Format)
	}
	rec, err := recording.ReadAt(r, opts.At, opts.Size, src)
	if err != nil {
		return nil, err
	}
	defer rec.Close()
	res := &RecordingResult{Header: rec}
	note, err := CheckBuild(src, rec, opts.Map)
	if err != nil {
		return nil, err
	}
	if note != "" {
		res.BuildNotes = append(res.BuildNotes, note)
	}
	name := func(id int) string {
		if i, ok := recording.SectionIndex(id); ok {
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
	var events traceout.Sink
	if eventFormat(opts.Format) && direct == nil {
		events = newEventSink(opts.Format, out)
		if p, ok := events.(interface{ SetPageCalls(int) }); ok {
			p.SetPageCalls(opts.PageCalls) // past them, the page draws levels of detail
		}
		if o, ok := events.(traceout.OriginSink); ok {
			o.Origin(rec.TimeSource, rec.Origin, rec.Pid, recordingPid)
		}
		// The process's own id is in its name; events carry a 1, which
		// takes 4 to 6 bytes fewer in each of millions of JSON slices.
		events.Write(traceout.Event{Name: "process_name", Ph: 'M', Pid: recordingPid, Tid: 0,
			Args: []traceout.Arg{traceout.StrArg("name", fmt.Sprintf("java (pid %d)%s", rec.Pid, coarseTag(rec.Clock)))}})
		writeClockEvent(events, rec)
	}
	var stacks []threadStack
	var lanes laneSet
	top := orDefault(opts.Top, DefaultTop)
	if rec.Report != nil && !eventFormat(opts.Format) && direct == nil {
		res.report = newReportCall(rec.Report, orDefault(opts.MaxStack, DefaultMaxStack))
	}
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
		var span threadSpan
		var held []Frame // a virtual thread's, for the SliceSink: its lane is known at its end
		var heldNames []string
		consume := func(f Frame) error { slowest.Add(f); return nil }
		switch {
		case direct != nil && t.Virtual:
			consume = func(f Frame) error {
				span.add(f)
				held, heldNames = append(held, f), append(heldNames, name(f.MethodID))
				return nil
			}
		case direct != nil:
			direct.Thread(recordingPid, t.Tid, t.Name)
			consume = func(f Frame) error { return sliceOfFrame(direct, recordingPid, t.Tid, name(f.MethodID), f) }
		case events != nil:
			sorter = newFrameSorter(opts.TempDir, opts.SortChunk)
			consume = func(f Frame) error { span.add(f); return sorter.add(f) }
		default:
			slowest = NewSlowestCalls(top, orDefault(opts.MaxStack, DefaultMaxStack))
		}
		var pairer *Pairer
		var rc *reportCall
		if res.report != nil && t.Tid == rec.Report.Tid {
			rc = res.report
		}
		pairer = NewPairer(func(f Frame) error {
			if _, ok := recording.SectionIndex(f.MethodID); !ok {
				res.Unknown.Note(opts.Names, f.MethodID)
			}
			if rc != nil {
				rc.frame(f, func() []int { ids := pairer.OpenIDs(); return ids[:min(rc.depth, len(ids))] })
			}
			return consume(f)
		}, rec.Where)
		rec.OnOpen = pairer.CloseAbove
		add := pairer.AddCall
		if rc != nil {
			add = rc.wrap(pairer, add)
		}
		err = rec.Records(add)
		if err == nil {
			err = pairer.FinishAt(rec.End)
		}
		track := threadTrack{pid: recordingPid, tid: t.Tid, name: t.Name, named: true}
		if t.Virtual && span.any && (events != nil || direct != nil) {
			lane, fresh := lanes.place(span.start, span.end)
			track = threadTrack{pid: virtualPid, tid: int64(lane), name: laneName(lane), named: fresh, virtual: t}
			if fresh && events != nil && lane == 1 {
				events.Write(traceout.Event{Name: "process_name", Ph: 'M', Pid: virtualPid, Tid: 0,
					Args: []traceout.Arg{traceout.StrArg("name", fmt.Sprintf("virtual threads of java (pid %d)%s", rec.Pid, coarseTag(rec.Clock)))}})
			}
			if direct != nil && err == nil {
				if fresh {
					direct.Thread(virtualPid, int64(lane), track.name)
				}
				err = laneSlices(direct, int64(lane), held, heldNames)
			}
		}
		if err == nil && events != nil && (span.any || !t.Virtual) {
			err = writeThreadEvents(events, sorter, track, t, name, opts.IDs)
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
			if len(stacks) > 4*top {
				// Only the slowest are shown: a hundred thousand threads
				// need not keep theirs meanwhile.
				stacks = slowestStacks(stacks, top)
			}
		}
	}
	if direct != nil {
		return res, nil
	}
	if events != nil {
		if ns, ok := events.(traceout.NoteSink); ok {
			for _, n := range append(slices.Clone(res.BuildNotes), recordingNotes(res)...) {
				ns.Note(n)
			}
		}
		if ss, ok := events.(traceout.SpanSink); ok && res.Header != nil {
			h := res.Header
			lost := h.Cut || h.Dropped != nil || slices.ContainsFunc(res.Threads, func(t ThreadResult) bool { return t.Thread.Lost > 0 })
			ss.Span(int64(min(h.End, math.MaxInt64)), lost)
		}
		return res, events.Close()
	}
	stacks = slowestStacks(stacks, top)
	return res, writeRecordingSummary(out, res, stacks, name, opts)
}

// slowestStacks keeps the n slowest; a stable sort keeps earlier threads
// first on ties.
func slowestStacks(stacks []threadStack, n int) []threadStack {
	slices.SortStableFunc(stacks, func(a, b threadStack) int { return cmp.Compare(b.stack.Cost(), a.stack.Cost()) })
	return slices.Clip(stacks[:min(len(stacks), n)])
}

// threadTrack is where a thread's events go: its own track, or for a
// virtual thread a lane (see lanes.go); named says whether the track's
// name is still to be given.
type threadTrack struct {
	pid, tid int64
	name     string
	named    bool
	virtual  *recording.Thread // the thread on the lane, named in each slice's args
}

// writeClockEvent says how the recording was timed, where a viewer shows
// it: an instant at the start on a track of its own ("tracebeat", tid 0).
func writeClockEvent(w traceout.Sink, rec *recording.Recording) {
	w.Write(traceout.Event{Name: "thread_name", Ph: 'M', Pid: recordingPid, Tid: 0, Args: []traceout.Arg{traceout.StrArg("name", "tracebeat")}})
	w.Write(traceout.Event{Name: rec.Clock.String(), Ph: 'i', Pid: recordingPid, Tid: 0,
		Args: []traceout.Arg{traceout.IntArg("resolution_ns", int64(rec.Clock.Resolution()))}})
}

// coarseTag is what a process's name says of coarse times, so that a
// viewer shows it next to every track: "" when the times are fine.
func coarseTag(c recording.RecordingClock) string {
	if !c.Coarse() {
		return ""
	}
	return fmt.Sprintf(", times ± %s (%s)", recording.FormatDuration(c.Resolution()), c.Advice())
}

// recordingPid is the process id a recording's events carry.
const recordingPid = 1

func writeThreadEvents(w traceout.Sink, sorter *frameSorter, track threadTrack, t *recording.Thread, name func(int) string, ids bool) error {
	if track.named {
		w.Write(traceout.Event{Name: "thread_name", Ph: 'M', Pid: track.pid, Tid: track.tid, Args: []traceout.Arg{traceout.StrArg("name", track.name)}})
	}
	var who []traceout.Arg // on a lane, the virtual thread
	if v := track.virtual; v != nil {
		who = append(who, traceout.IntArg("vtid", v.Tid))
		if v.Name != "" {
			who = append(who, traceout.StrArg("thread", v.Name))
		}
	}
	first := true
	return sorter.each(func(f Frame) error {
		if first && t.Lost > 0 {
			// An instant event where the kept records start says what is missing.
			w.Write(traceout.Event{Name: fmt.Sprintf("%d earlier records lost (buffer full)", t.Lost), Cat: "tracebeat",
				Ph: 'i', TsNs: Int64(f.Start), Pid: track.pid, Tid: track.tid, Args: append([]traceout.Arg{traceout.IntArg("lost", t.Lost)}, who...)})
		}
		first = false
		args := frameArgs(f, ids)
		if _, ok := recording.SectionIndex(f.MethodID); ok {
			args = appendFrameFlags(nil, f) // a section has no method id
		}
		if who != nil {
			args = append(args, who...)
		}
		return w.Write(traceout.Event{Name: name(f.MethodID), Ph: 'X',
			TsNs: Int64(f.Start), DurNs: Int64(f.Cost()), Pid: track.pid, Tid: track.tid, Args: args})
	})
}

// summaryThreads is how many threads the text summary lists one by one
// (those with the most calls); the rest, and every virtual thread, are
// counted in a line each.
const summaryThreads = 20

func writeRecordingSummary(out io.Writer, res *RecordingResult, stacks []threadStack, name func(int) string, opts BufferOptions) error {
	bw := bufio.NewWriter(out)
	h := res.Header
	var platform []*ThreadResult
	var virtual threadGroup
	for i := range res.Threads {
		if t := &res.Threads[i]; t.Thread.Virtual {
			virtual.add(t)
		} else {
			platform = append(platform, t)
		}
	}
	threads := english.Count(len(res.Threads), "thread")
	if virtual.threads > 0 {
		threads += fmt.Sprintf(" (%d virtual)", virtual.threads)
	}
	fmt.Fprintf(bw, "tracebeat recording: pid %d, started %s, %s long, %s, %s\n",
		h.Pid, h.Start.Format("2006-01-02 15:04:05.000 MST"), formatNs(h.End), threads, english.Count(res.Calls(), "call"))
	fmt.Fprintf(bw, "%s\n", h.Clock)
	if h.Clock.Coarse() {
		fmt.Fprintf(bw, "times below are rough by up to %s: a short call may show 0, or the time of what ran before it; %s\n",
			recording.FormatDuration(h.Clock.Resolution()), h.Clock.Advice())
	}
	if rc := res.report; rc != nil {
		thread := fmt.Sprintf("tid %d %q", rc.rep.Tid, rc.rep.Thread)
		rc.write(bw, h, name, thread)
		fmt.Fprintf(bw, "the report's window, every thread:\n")
	}
	if len(platform) > summaryThreads {
		slices.SortStableFunc(platform, func(a, b *ThreadResult) int { return cmp.Compare(b.Stats.Frames, a.Stats.Frames) })
	}
	var rest threadGroup
	for i, t := range platform {
		if i >= summaryThreads {
			rest.add(t)
			continue
		}
		fmt.Fprintf(bw, "  %s: %s\n", t.Thread.Label(), threadLine(t.Thread.Lost, t.Stats))
	}
	if rest.threads > 0 {
		fmt.Fprintf(bw, "  %s more (fewer calls each): %s\n", english.Count(rest.threads, "thread"), rest.line())
	}
	if virtual.threads > 0 {
		fmt.Fprintf(bw, "  %s: %s\n", english.Count(virtual.threads, "virtual thread"), virtual.line())
	}
	return writeSlowest(bw, &res.Unknown, res.TopLevel, len(stacks), opts, name, func(i int) (string, Stack) {
		return fmt.Sprintf("stack %d of %d, %s", i+1, len(stacks), stacks[i].thread.Label()), stacks[i].stack
	})
}

// threadLine says what decoding found in a thread or a group of threads.
func threadLine(lost int64, st PairStats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, max depth %d", english.Count(st.Frames, "call"), st.MaxDepth)
	if lost > 0 {
		fmt.Fprintf(&b, ", %s lost (buffer full)", english.Count(lost, "record"))
	}
	if st.NoEnter > 0 {
		fmt.Fprintf(&b, ", %d started before the kept records", st.NoEnter)
	}
	if st.Unclosed > 0 {
		fmt.Fprintf(&b, ", %d unclosed", st.Unclosed)
	}
	if st.StrayExits > 0 {
		fmt.Fprintf(&b, ", %s", english.Count(st.StrayExits, "stray exit"))
	}
	return b.String()
}

// threadGroup adds up threads the summary does not list one by one.
type threadGroup struct {
	threads int
	lost    int64
	stats   PairStats
}

func (g *threadGroup) add(t *ThreadResult) {
	g.threads++
	g.lost += t.Thread.Lost
	st := t.Stats
	g.stats.Frames += st.Frames
	g.stats.MaxDepth = max(g.stats.MaxDepth, st.MaxDepth)
	g.stats.NoEnter += st.NoEnter
	g.stats.Unclosed += st.Unclosed
	g.stats.StrayExits += st.StrayExits
}

func (g *threadGroup) line() string { return threadLine(g.lost, g.stats) }

// formatNs shows a duration in nanoseconds as milliseconds with three
// decimals.
func formatNs(ns uint64) string {
	return fmt.Sprintf("%d.%03d ms", ns/1e6, ns/1e3%1e3)
}

// recordingNotes are the warnings worth a line on stderr: one line per
// kind, naming the threads when they are few and counting them when they
// are many (a hundred thousand virtual threads).
func recordingNotes(res *RecordingResult) []string {
	var lost, unclosed, stray, backwards threadCounts
	for i := range res.Threads {
		t := &res.Threads[i]
		st := t.Stats
		lost.add(t, t.Thread.Lost, "")
		unclosed.add(t, st.Unclosed, "")
		stray.add(t, st.StrayExits, st.FirstStray)
		backwards.add(t, st.TimeBackwards, st.FirstBackward)
	}
	notes := slices.Clone(res.Header.Notes)
	notes = lost.note(notes, "record", "%s lost", fmt.Sprintf("its buffer was full, the oldest went (budget %s; -Dtracebeat.budget raises it, -Dtracebeat.mode=stream keeps the whole run)", formatBytes(res.Header.Budget)))
	notes = unclosed.note(notes, "call", "%s still open when the recording was written, or missing an exit record", "closed at the caller's exit or at the end (args.unclosed)")
	notes = stray.note(notes, "exit record", "%s with no open call to match", "ignored")
	notes = backwards.note(notes, "time", "time went backwards %s", "")
	return notes
}

// noteThreads is how many threads a note names one by one.
const noteThreads = 3

// threadCounts gathers one kind of trouble over the threads.
type threadCounts struct {
	named   []string // "tid 1 "main": 3" for the first few
	threads int
	total   int64
	most    int64
	least   int64
	virtual int
	first   string // where the first of them is, for the messages that say it
}

func (c *threadCounts) add(t *ThreadResult, n int64, where string) {
	if n <= 0 {
		return
	}
	if c.threads == 0 {
		c.least, c.first = n, where
	}
	c.threads++
	c.total += n
	c.most, c.least = max(c.most, n), min(c.least, n)
	if t.Thread.Virtual {
		c.virtual++
	}
	if len(c.named) < noteThreads {
		c.named = append(c.named, t.Thread.Label())
	}
}

// note appends the kind's line, what with the count in place of its %s:
// `tid 1 "main": 3 records lost: why` for one thread, `96,000 threads
// (96,000 virtual; tid 31 "", ...): 2 records each lost: why` for many.
func (c *threadCounts) note(notes []string, unit, what, why string) []string {
	if c.threads == 0 {
		return notes
	}
	var b strings.Builder
	if c.threads == 1 {
		fmt.Fprintf(&b, "%s: %s", c.named[0], fmt.Sprintf(what, english.Count(c.total, unit)))
	} else {
		fmt.Fprintf(&b, "%s (", english.Count(c.threads, "thread"))
		if c.virtual > 0 {
			fmt.Fprintf(&b, "%d virtual; ", c.virtual)
		}
		b.WriteString(strings.Join(c.named, ", "))
		if c.threads > noteThreads {
			b.WriteString(", ...")
		}
		count := fmt.Sprintf("%s each", english.Count(c.most, unit))
		if c.most != c.least {
			count = fmt.Sprintf("%s in all (%d to %d a thread)", english.Count(c.total, unit), c.least, c.most)
		}
		fmt.Fprintf(&b, "): %s", fmt.Sprintf(what, count))
	}
	if why != "" {
		fmt.Fprintf(&b, ": %s", why)
	}
	if c.first != "" {
		fmt.Fprintf(&b, " (first at %s)", c.first)
	}
	return append(notes, b.String())
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
