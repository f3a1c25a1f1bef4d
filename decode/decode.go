package decode

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tracebeat/tracebeat/decode/traceout"

	"github.com/tracebeat/tracebeat/decode/recording"

	"github.com/tracebeat/tracebeat/internal/english"
)

// Format is an output format.
type Format string

// Output formats.
const (
	FormatText     Format = "text"     // names: call trees, summaries, rewritten systrace
	FormatJSON     Format = "json"     // Chrome trace-event JSON (stacks: a JSON tree)
	FormatSystrace Format = "systrace" // ftrace text for the Perfetto UI
	FormatPerfetto Format = "perfetto" // Perfetto's protobuf trace (ui.perfetto.dev, trace_processor)
	// FormatArt is Android's method-trace format (.trace, version 3): Android
	// Studio's CPU profiler, Perfetto and dmtracedump open it.
	FormatArt Format = "art"
	// FormatSpeedscope is speedscope's evented JSON, a profile per thread.
	FormatSpeedscope Format = "speedscope"
)

// Options control Decode.
type Options struct {
	Kind      InputKind        // KindAuto detects it
	Format    Format           // "" = FormatText
	ByteOrder binary.ByteOrder // binary buffers; nil guesses it
	Names     *MethodNames     // nil: every id is shown as unknown
	Source    string           // input name for messages
	Top       int              // buffers: slowest calls shown (DefaultTop)
	MaxStack  int              // buffers: calls per stack (DefaultMaxStack)
	TempDir   string           // buffers: spill directory for sorting
	IDs       bool             // json and perfetto: each slice's method id in its args
	Map       MapBuild         // the map of Names, checked against a recording's builds
	PageCalls int              // html: the calls the page holds one by one (0: traceout.DefaultPageCalls)
}

// DefaultPageCalls is how many calls the html page holds one by one;
// past them it draws levels of detail.
const DefaultPageCalls = traceout.DefaultPageCalls

// Result tells what Decode did; Notes are for the user (stderr).
type Result struct {
	Kind      InputKind
	ByteOrder binary.ByteOrder // binary buffers only
	Unknown   UnknownIDs
	Notes     []string
	// Clock is how a recording was timed (nil for other inputs).
	Clock *recording.RecordingClock
	// Version is a recording's format version (0 for other inputs).
	Version int
}

// CoarseNote is what a picture of the trace says beside its title when
// its times are rough: "" when they are fine (or not a recording's).
func (r *Result) CoarseNote() string {
	if r.Clock == nil || !r.Clock.Coarse() {
		return ""
	}
	// ASCII only: the PNG's font has no "±" (nor "µ": FormatDuration gives ms here).
	return fmt.Sprintf("times may be up to %s late: %s", recording.FormatDuration(r.Clock.Resolution()), r.Clock.Advice())
}

// readerAt is in's random access when it is a regular file (a version 4
// recording reads its chunks in place), or nil.
func readerAt(in io.Reader) (io.ReaderAt, int64) {
	f, ok := in.(*os.File)
	if !ok {
		return nil, 0
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, 0
	}
	return f, st.Size()
}

// Decode reads one input of any kind and writes it decoded to out.
func Decode(in io.Reader, out io.Writer, opts Options) (*Result, error) {
	src := opts.Source
	if src == "" {
		src = "input"
	}
	br := bufio.NewReaderSize(in, DetectSample)
	kind := opts.Kind
	if kind == KindAuto {
		head, err := br.Peek(DetectSample)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		kind, err = DetectKind(head)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
	}
	format := opts.Format
	if format == "" {
		format = FormatText
	}
	res := &Result{Kind: kind}
	if kind != KindRecording {
		if n := UncheckedBuildNote(src, opts.Map); n != "" {
			res.Notes = append(res.Notes, n)
		}
	}
	switch kind {
	case KindRecording:
		bo := BufferOptions{Format: format, Names: opts.Names, Top: opts.Top,
			MaxStack: opts.MaxStack, TempDir: opts.TempDir, IDs: opts.IDs, Map: opts.Map, PageCalls: opts.PageCalls}
		bo.At, bo.Size = readerAt(in)
		rres, err := DecodeRecording(br, out, src, bo)
		if err != nil {
			return nil, err
		}
		res.Unknown = rres.Unknown
		res.Notes = append(rres.BuildNotes, recordingNotes(rres)...)
		res.Clock = &rres.Header.Clock
		res.Version = rres.Header.Version
		return res, nil
	case KindStack:
		stacks, err := ReadStackReports(br, src)
		if err != nil {
			return nil, err
		}
		for _, s := range stacks {
			for _, l := range s.Lines {
				res.Unknown.Note(opts.Names, l.MethodID)
			}
		}
		switch format {
		case FormatText:
			err = WriteStacksText(out, stacks, opts.Names)
		case FormatJSON:
			err = WriteStacksJSON(out, stacks, opts.Names)
		case FormatPerfetto, FormatArt, FormatSpeedscope, FormatHTML:
			err = writeStacksEvents(out, format, stacks, opts.Names)
		default:
			return nil, fmt.Errorf("%s: format %q is not supported for stack reports (text, json, perfetto, art, speedscope or html)", src, format)
		}
		return res, err
	case KindBuffer, KindBufferText:
		var rr RecordReader
		if kind == KindBuffer {
			var err error
			rr, res.ByteOrder, err = NewBinaryRecordReader(br, opts.ByteOrder, opts.Names)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", src, err)
			}
		} else {
			rr = NewTextRecordReader(br, src)
		}
		bres, err := DecodeBuffer(rr, out, BufferOptions{Format: format, Names: opts.Names, Top: opts.Top,
			MaxStack: opts.MaxStack, TempDir: opts.TempDir, IDs: opts.IDs})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		res.Unknown = bres.Unknown
		res.Notes = append(res.Notes, bufferNotes(bres.Stats)...)
		return res, nil
	case KindSystrace, KindMarker:
		var mr *MarkerResult
		var err error
		if kind == KindSystrace {
			mr, err = DecodeSystrace(br, out, format, opts.Names)
		} else {
			mr, err = DecodeMarkerDump(br, out, format, opts.Names)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		res.Unknown = mr.Unknown
		res.Notes = append(res.Notes, markerNotes(mr)...)
		return res, nil
	}
	return nil, fmt.Errorf("unknown input kind %q (one of %s)", kind, kindList())
}

func bufferNotes(st PairStats) []string {
	var notes []string
	if st.NoEnter > 0 {
		notes = append(notes, fmt.Sprintf("%s started before the buffer (ring-buffer wrap): drawn from the first timestamp", english.Count(st.NoEnter, "call")))
	}
	if st.Unclosed > 0 {
		notes = append(notes, fmt.Sprintf("%s without an exit record: closed at their caller's exit or at the last timestamp", english.Count(st.Unclosed, "call")))
	}
	if st.StrayExits > 0 {
		notes = append(notes, fmt.Sprintf("%s with no open call to match, ignored (first at %s)", english.Count(st.StrayExits, "exit record"), st.FirstStray))
	}
	if st.TimeBackwards > 0 {
		notes = append(notes, fmt.Sprintf("time went backwards %s (first at %s)", english.Count(st.TimeBackwards, "time"), st.FirstBackward))
	}
	return notes
}

func markerNotes(mr *MarkerResult) []string {
	var notes []string
	if mr.EndWithoutBegin > 0 {
		notes = append(notes, fmt.Sprintf("%d E events had no open B on their thread and were dropped", mr.EndWithoutBegin))
	}
	if mr.UnclosedBegins > 0 {
		notes = append(notes, fmt.Sprintf("%d B events were never ended; closed at the last timestamp (args.unclosed)", mr.UnclosedBegins))
	}
	if mr.Skipped > 0 {
		notes = append(notes, fmt.Sprintf("%d marker events have no JSON form here (async S/F, non-integer counters) and were skipped", mr.Skipped))
	}
	if mr.Unparsed > 0 {
		notes = append(notes, fmt.Sprintf("%d tracing_mark_write lines could not be parsed and were skipped", mr.Unparsed))
	}
	return notes
}

// newEventSink returns the sink of an event format (FormatJSON or
// FormatPerfetto), or the slices adapter when w is a SliceSink.
func newEventSink(format Format, w io.Writer) traceout.Sink {
	if s, ok := w.(SliceSink); ok {
		return newSliceAdapter(s)
	}
	if s, ok := w.(EventSinker); ok {
		return s.EventSink()
	}
	switch format {
	case FormatPerfetto:
		return traceout.NewPerfettoWriter(w)
	case FormatArt:
		return traceout.NewArtWriter(w)
	case FormatSpeedscope:
		return traceout.NewSpeedscopeWriter(w)
	case FormatHTML:
		return traceout.NewHTMLWriter(w, "tracebeat decode")
	}
	return traceout.NewJSONWriter(w)
}

// EventSinker is an output that takes decode's events itself (in an
// event format, whichever is asked): view's index of a recording, a
// trace merged with a system trace.
type EventSinker interface {
	io.Writer
	EventSink() traceout.Sink
}

// EventsTo is an output for Decode whose events go to s: it writes no
// bytes of its own.
func EventsTo(s traceout.Sink) io.Writer { return eventsOutput{s} }

type eventsOutput struct{ sink traceout.Sink }

func (o eventsOutput) Write(p []byte) (int, error) { return len(p), nil }
func (o eventsOutput) EventSink() traceout.Sink    { return o.sink }

// eventFormat reports whether a format is written through an eventSink.
func eventFormat(f Format) bool {
	return f == FormatJSON || f == FormatPerfetto || f == FormatArt || f == FormatSpeedscope || f == FormatHTML
}

// FormatHTML is one self-contained HTML page: a flame graph and a timeline
// per thread, searchable and zoomable, drawn on a canvas (decode/htmlview).
const FormatHTML Format = "html"
