package decode

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/tracebeat/tracebeat/decode/traceout"

	"github.com/tracebeat/tracebeat/internal/english"
)

// BufferOptions control decoding of AppMethodBeat buffers.
type BufferOptions struct {
	Format   Format
	Names    *MethodNames
	Top      int    // slowest top-level calls in the text summary (default 5)
	MaxStack int    // calls kept per stack in the summary (default 30, as Matrix)
	TempDir  string // where the JSON/systrace writers spill sorted runs ("" = os.TempDir)
	// SortChunk is the number of frames sorted in memory before spilling
	// (0 = default); tests lower it to exercise the merge.
	SortChunk int
	// IDs puts each slice's method id in its args (json and perfetto);
	// without it a slice carries its name alone, which keeps files small.
	IDs bool
	// Map is the map given for the names, checked against a recording's
	// builds.
	Map MapBuild
	// At reads the input in place when it is a file (a version 4
	// recording's chunks), of Size bytes; nil copies it to a temporary file.
	At   io.ReaderAt
	Size int64
	// PageCalls: html, the calls the page holds one by one (0: the
	// default); past them it draws levels of detail.
	PageCalls int
}

// Buffer defaults.
const (
	DefaultTop      = 5
	DefaultMaxStack = 30 // Matrix's TARGET_EVIL_METHOD_STACK
	bufferPid       = 1
	bufferTid       = 1
	bufferTrackName = "AppMethodBeat"
)

// BufferResult tells what decoding a buffer found.
type BufferResult struct {
	Stats    PairStats
	Unknown  UnknownIDs
	TopLevel int64
}

// DecodeBuffer pairs the records of rr and writes the result in opts.Format:
// text (summary of the slowest call trees), json (trace events) or
// systrace (ftrace text).
func DecodeBuffer(rr RecordReader, out io.Writer, opts BufferOptions) (*BufferResult, error) {
	res := &BufferResult{}
	var consume func(Frame) error
	var slowest *SlowestCalls
	var sorter *frameSorter
	switch opts.Format {
	case FormatText, "":
		slowest = NewSlowestCalls(orDefault(opts.Top, DefaultTop), orDefault(opts.MaxStack, DefaultMaxStack))
		consume = func(f Frame) error { slowest.Add(f); return nil }
	case FormatJSON, FormatSystrace, FormatPerfetto, FormatArt, FormatSpeedscope, FormatHTML:
		sorter = newFrameSorter(opts.TempDir, opts.SortChunk)
		defer sorter.cleanup()
		consume = sorter.add
	default:
		return nil, fmt.Errorf("format %q is not supported for buffers", opts.Format)
	}
	pairer := NewPairer(func(f Frame) error {
		res.Unknown.Note(opts.Names, f.MethodID)
		return consume(f)
	}, rr.Where)
	for {
		r, err := rr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := pairer.Add(r); err != nil {
			return nil, err
		}
	}
	if err := pairer.Finish(); err != nil {
		return nil, err
	}
	res.Stats = pairer.Stats()
	switch opts.Format {
	case FormatJSON, FormatPerfetto, FormatArt, FormatSpeedscope, FormatHTML:
		return res, writeFramesEvents(out, opts.Format, sorter, opts.Names, opts.IDs, bufferNotes(res.Stats))
	case FormatSystrace:
		return res, writeFramesSystrace(out, sorter, opts.Names, pairer.Orphans())
	}
	res.TopLevel = slowest.TopLevelCalls()
	return res, writeBufferSummary(out, res, slowest.Stacks(), opts)
}

func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

func frameArgs(f Frame, ids bool) []traceout.Arg {
	if !ids {
		return appendFrameFlags(nil, f)
	}
	return appendFrameFlags([]traceout.Arg{traceout.IntArg("id", int64(f.MethodID))}, f)
}

// appendFrameFlags adds the marks of a frame rebuilt with a record missing.
func appendFrameFlags(args []traceout.Arg, f Frame) []traceout.Arg {
	if f.Unclosed {
		args = append(args, traceout.BoolArg("unclosed"))
	}
	if f.NoEnter {
		args = append(args, traceout.BoolArg("startedBeforeBuffer"))
	}
	return args
}

func writeFramesEvents(out io.Writer, format Format, sorter *frameSorter, names *MethodNames, ids bool, notes []string) error {
	w := newEventSink(format, out)
	if ns, ok := w.(traceout.NoteSink); ok {
		for _, n := range notes {
			ns.Note(n)
		}
	}
	w.Write(traceout.Event{Name: "process_name", Ph: 'M', Pid: bufferPid, Tid: bufferTid, Args: []traceout.Arg{traceout.StrArg("name", "tracebeat decode")}})
	w.Write(traceout.Event{Name: "thread_name", Ph: 'M', Pid: bufferPid, Tid: bufferTid, Args: []traceout.Arg{traceout.StrArg("name", bufferTrackName)}})
	err := sorter.each(func(f Frame) error {
		return w.Write(traceout.Event{Name: names.Name(f.MethodID), Ph: 'X',
			TsNs: Int64(msToNs(f.Start)), DurNs: Int64(msToNs(f.Cost())),
			Pid: bufferPid, Tid: bufferTid, Args: frameArgs(f, ids)})
	})
	if err != nil {
		return err
	}
	return w.Close()
}

func writeFramesSystrace(out io.Writer, sorter *frameSorter, names *MethodNames, orphans int64) error {
	fw := traceout.NewFtraceWriter(out)
	type open struct {
		depth int
		endNs int64
	}
	var stack []open
	closeTo := func(depth int) {
		for len(stack) > 0 && stack[len(stack)-1].depth >= depth {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			fw.End(bufferTrackName, bufferTid, bufferPid, top.endNs)
		}
	}
	err := sorter.each(func(f Frame) error {
		d := f.AbsoluteDepth(orphans)
		closeTo(d)
		fw.Begin(bufferTrackName, bufferTid, bufferPid, Int64(msToNs(f.Start)), names.Name(f.MethodID))
		stack = append(stack, open{depth: d, endNs: Int64(msToNs(max(f.End, f.Start)))})
		return fw.Err()
	})
	if err != nil {
		return err
	}
	closeTo(0)
	return fw.Flush()
}

func writeBufferSummary(out io.Writer, res *BufferResult, stacks []Stack, opts BufferOptions) error {
	bw := bufio.NewWriter(out)
	st := res.Stats
	calls := st.Frames
	fmt.Fprintf(bw, "AppMethodBeat buffer: %s, %s", english.Count(st.Records, "record"), english.Count(calls, "call"))
	if st.HaveTime {
		fmt.Fprintf(bw, ", %d..%d ms", st.First, st.Last)
	}
	fmt.Fprintf(bw, ", max depth %d\n", st.MaxDepth)
	if st.EmptySlots > 0 {
		fmt.Fprintf(bw, "  empty slots skipped: %d\n", st.EmptySlots)
	}
	if st.NoEnter > 0 {
		fmt.Fprintf(bw, "  calls started before the buffer (ring-buffer wrap): %d\n", st.NoEnter)
	}
	if st.Unclosed > 0 {
		fmt.Fprintf(bw, "  calls without exit record: %d (closed at their caller's exit or at %d ms)\n", st.Unclosed, st.Last)
	}
	if st.StrayExits > 0 {
		fmt.Fprintf(bw, "  exit records matching no open call (ignored): %d, first at %s\n", st.StrayExits, st.FirstStray)
	}
	if st.TimeBackwards > 0 {
		fmt.Fprintf(bw, "  time went backwards: %s, first at %s\n", english.Count(st.TimeBackwards, "time"), st.FirstBackward)
	}
	return writeSlowest(bw, &res.Unknown, res.TopLevel, len(stacks), opts, opts.Names.Name,
		func(i int) (string, Stack) { return fmt.Sprintf("stack %d of %d", i+1, len(stacks)), stacks[i] })
}

// writeSlowest ends a summary: the unknown ids, then the n slowest stacks
// (stack(i) gives each with its title), and flushes bw.
func writeSlowest(bw *bufio.Writer, unknown *UnknownIDs, topLevel int64, n int, opts BufferOptions, name func(int) string, stack func(i int) (string, Stack)) error {
	if u := unknown.String(); u != "" {
		fmt.Fprintf(bw, "  %s\n", u)
	}
	if n == 0 {
		fmt.Fprintln(bw, "no calls")
		return bw.Flush()
	}
	fmt.Fprintf(bw, "top-level calls: %d; the %d slowest, each trimmed to its %d costliest calls:\n",
		topLevel, n, orDefault(opts.MaxStack, DefaultMaxStack))
	fmt.Fprintf(bw, "(count: the calls of a method merged into its line, of the calls the trim kept; cost: their total)\n")
	for i := 0; i < n; i++ {
		bw.WriteString("\n")
		title, s := stack(i)
		writeStackText(bw, title, s, name)
	}
	return bw.Flush()
}

// msToNs is a buffer's milliseconds in nanoseconds, saturated.
func msToNs(ms uint64) uint64 {
	if ms > math.MaxUint64/1_000_000 {
		return math.MaxUint64
	}
	return ms * 1e6
}
