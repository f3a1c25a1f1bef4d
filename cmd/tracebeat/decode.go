package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat/decode"
	"github.com/tracebeat/tracebeat/decode/flamepng"
	"github.com/tracebeat/tracebeat/internal/atomicfile"
	"github.com/tracebeat/tracebeat/methodmap"
	"github.com/tracebeat/tracebeat/profile"
)

func init() {
	register(command{name: "decode", summary: "turn recorded traces (recordings, Matrix stacks, AppMethodBeat buffers, systrace) back into names", run: runDecode})
}

const decodeUsage = `usage: tracebeat decode [--map methodMapping.txt] [flags] INPUT

Decodes what a traced app recorded. INPUT is a file, or - for standard input.
The input kind is detected (--input-kind forces it):

  recording    what tracebeat's JVM runtime writes (tracebeat runtime):
               every thread's calls with nanosecond times
               -> text: per-thread counts and the slowest call trees;
                  json: trace events, one track per thread
  stack        Matrix stack lines "depth,methodId,count,cost", or the issue
               JSON carrying them in "stack" and "stackKey"
               -> indented call tree with names; key methods marked '*'
  buffer       binary AppMethodBeat buffer, 8-byte records, either byte order
  buffer-text  the same records as numbers, one per line (decimal or 0x hex)
               -> text: the slowest call trees; json: trace events;
                  systrace: ftrace text
  systrace     systrace/atrace text (or HTML) with method ids as section names
               -> the same text, ids replaced by names; json: trace events
  marker       raw trace_marker dump, one event per line:
                 <seconds>.<fraction>[:] [<thread>-<tid>] B|<pid>|<name>
                 <seconds>.<fraction>[:] [<thread>-<tid>] E|<pid>
               -> ftrace text the Perfetto UI opens; json: trace events

--format html -o trace.html writes one page that opens offline in a browser:
a flame graph (click to zoom, 0 to reset, invert, regex search with the
share it matched, a tooltip per frame) and a timeline per thread (wheel to
zoom, drag to move), with decode's notes. Past --page-calls calls (a
recording's), the timeline holds levels of detail instead: calls narrower
than a pixel merged, and the page says where detail stops.

Other tools' formats (--format, each read in tests by the tool itself):
  art          Android's method trace (.trace, version 3): Android Studio's
               CPU profiler, Perfetto and dmtracedump open it
  speedscope   speedscope's evented JSON, a profile per thread
  pprof        pprof's profile.proto, gzipped: calls and self time per
               call path (go tool pprof -top app.pb.gz)
  collapsed    folded stacks, self time in µs: FlameGraph, inferno
  (pprof and collapsed add up recordings and AppMethodBeat buffers)

Ids missing from the map are shown as "<unknown id N>" and counted on stderr.
A recording names the builds it ran (the identity instrument prints as
build=ID); decode refuses a --map of another build (--any-map overrides).
JSON output is the Chrome trace-event format (ui.perfetto.dev, chrome://tracing).
Perfetto output (--format perfetto, recordings, buffers, systrace and marker
input) is Perfetto's own protobuf trace, which ui.perfetto.dev and
trace_processor open natively: one track per thread, interned names,
delta timestamps, several times smaller than the JSON.

Examples:
  tracebeat decode --map methodMapping.txt app.trace
  tracebeat decode --map methodMapping.txt --format json -o app.json --png app.png app.trace
  tracebeat decode --map methodMapping.txt evil-method.json
  tracebeat decode --map methodMapping.txt --format json -o trace.json beat.bin
  tracebeat decode --map methodMapping.txt --format perfetto -o app.pftrace app.trace
  tracebeat decode --map methodMapping.txt --png trace.png beat.bin
  tracebeat decode --map methodMapping.txt -o named.trace atrace.txt
  adb shell cat /sdcard/marker.txt | tracebeat decode --map methodMapping.txt - > trace.ftrace

Flags:
`

func runDecode(args []string, stdout, stderr io.Writer) int {
	// decode holds little besides buffers and one sorted chunk; a lower
	// collection target keeps its peak within twice a small recording.
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	fs := pflag.NewFlagSet("decode", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	mapPath := fs.String("map", "", "methodMapping.txt giving method names for ids")
	format := fs.String("format", "", "output format: text, json, perfetto, systrace, html (a page to look at), art (Android's method trace), speedscope, pprof or collapsed (default: text; ftrace text for marker input)")
	output := fs.StringP("output", "o", "", "write the output to this file instead of standard output")
	kind := fs.String("input-kind", "auto", "input kind: auto, "+strings.Join(kindNames(), ", "))
	byteOrder := fs.String("byte-order", "auto", "byte order of binary buffers: auto, big or little")
	top := fs.Int("top", decode.DefaultTop, "buffers and recordings, text format: number of slowest top-level calls shown")
	maxStack := fs.Int("max-stack", decode.DefaultMaxStack, "buffers and recordings, text format: calls kept per call tree (cheapest dropped first)")
	ids := fs.Bool("ids", false, "json and perfetto: put each slice's method id in its args (left out by default: names say it, and files stay smaller)")
	pngPath := fs.String("png", "", "also draw a flame chart of the trace to this PNG file (recording, buffer, systrace and marker input)")
	pngDepth := fs.Int("png-depth", 40, "depth rows the PNG draws per thread; deeper calls are left out, and the picture and stderr say so")
	anyMap := fs.Bool("any-map", false, "decode a recording with --map although the recording names another build (the names may then be wrong)")
	merge := fs.String("merge", "", "with --format perfetto: a system trace (Perfetto's) to write first, the recording's threads beside its own (docs/decoding.md)")
	pageCalls := fs.Int("page-calls", decode.DefaultPageCalls, "html: the calls the page holds one by one; past them, levels of detail")
	help := fs.BoolP("help", "h", false, "show this help")
	fs.Usage = func() {} // errors get a one-line hint below instead
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "tracebeat decode: %s\nRun 'tracebeat decode --help' for usage.\n", flagMessage(err))
		return exitUsage
	}
	if *help {
		fmt.Fprint(stdout, decodeUsage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return exitOK
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tracebeat decode: "+format+"\n", a...)
		fmt.Fprintln(stderr, "Run 'tracebeat decode --help' for usage.")
		return exitUsage
	}
	if fs.NArg() != 1 {
		return usageErr("expected exactly one INPUT (a file or -), got %d", fs.NArg())
	}
	if *pageCalls < 1 {
		return usageErr("--page-calls must be at least 1, not %d", *pageCalls)
	}
	opts := decode.Options{Top: *top, MaxStack: *maxStack, IDs: *ids, PageCalls: *pageCalls}
	switch *format {
	case "", "text", "json", "systrace", "perfetto", "art", "speedscope", "pprof", "collapsed", "html":
		opts.Format = decode.Format(*format)
	default:
		return usageErr("--format must be text, json, perfetto, systrace, html, art, speedscope, pprof or collapsed, not %q", *format)
	}
	if *kind != "auto" {
		if !slices.Contains(kindNames(), *kind) {
			return usageErr("--input-kind must be auto or one of %s, not %q", strings.Join(kindNames(), ", "), *kind)
		}
		opts.Kind = decode.InputKind(*kind)
	}
	switch *byteOrder {
	case "auto":
	case "big":
		opts.ByteOrder = binary.BigEndian
	case "little":
		opts.ByteOrder = binary.LittleEndian
	default:
		return usageErr("--byte-order must be auto, big or little, not %q", *byteOrder)
	}
	if *top < 1 || *maxStack < 1 {
		return usageErr("--top and --max-stack must be at least 1")
	}
	if *pngDepth < 1 || *pngDepth > 2000 {
		return usageErr("--png-depth must be 1 to 2000, not %d", *pngDepth)
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "tracebeat decode: %v\n", err)
		return exitFailure
	}
	if *mapPath != "" {
		names, err := decode.LoadMethodNames(*mapPath)
		if err != nil {
			return fail(err)
		}
		opts.Names = names
		id, err := methodmap.ReadBuildID(*mapPath)
		if err != nil {
			return fail(err)
		}
		opts.Map = decode.MapBuild{Path: *mapPath, ID: id, Force: *anyMap}
	} else if *anyMap {
		return usageErr("--any-map needs --map")
	}

	if binaryFormat[*format] != "" && *output == "" && isTerminal(stdout) {
		return usageErr("--format %s writes a binary file: name it with -o (e.g. -o app%s), or redirect standard output", *format, binaryFormat[*format])
	}
	input := fs.Arg(0)
	inPath := input
	profiled := *format == "pprof" || *format == "collapsed"
	if input == "-" {
		opts.Source = "standard input"
		if *pngPath != "" || profiled {
			// The picture needs a second pass over the input.
			spooled, err := spoolToTemp(os.Stdin)
			if err != nil {
				return fail(err)
			}
			defer os.Remove(spooled)
			inPath = spooled
		}
	} else {
		opts.Source = input
	}

	if profiled {
		// Call paths added up (package profile), not a stream of events.
		if *pngPath != "" {
			return usageErr("--png goes with the formats that keep the timeline, not --format %s", *format)
		}
		return writeProfile(inPath, *output, *format, opts, stdout, stderr)
	}
	if *merge != "" {
		if *format != "perfetto" || *pngPath != "" || input == "-" {
			return usageErr("--merge goes with --format perfetto and a recording's file, not %q", *format)
		}
		return mergeTo(*merge, inPath, *output, stdout, stderr, opts)
	}
	res, err := decodeTo(inPath, *output, stdout, opts)
	if err != nil {
		return fail(err)
	}
	if res.ByteOrder != nil && opts.ByteOrder == nil {
		fmt.Fprintf(stderr, "tracebeat decode: note: binary buffer read as %s (guessed; --byte-order forces it)\n", orderName(res.ByteOrder))
	}
	for _, n := range res.Notes {
		fmt.Fprintf(stderr, "tracebeat decode: note: %s\n", n)
	}
	if u := res.Unknown.String(); u != "" {
		hint := ""
		if opts.Names == nil {
			hint = " (no --map given)"
		}
		fmt.Fprintf(stderr, "tracebeat decode: warning: %s%s\n", u, hint)
	}
	if *pngPath != "" {
		if res.Kind == decode.KindStack {
			return fail(errors.New("--png needs a timeline (recording, buffer, systrace or marker input); stack reports have no timestamps"))
		}
		pngOpts := opts
		pngOpts.Kind, pngOpts.Format = res.Kind, decode.FormatJSON
		title := filepath.Base(opts.Source)
		if n := res.CoarseNote(); n != "" {
			title += " (" + n + ")" // next to the numbers, as every output says it
		}
		if err := renderPNG(inPath, *pngPath, title, res.Notes, *pngDepth, pngOpts, stderr); err != nil {
			return fail(err)
		}
	}
	return exitOK
}

// binaryFormat gives the formats that are no text their usual file suffix.
var binaryFormat = map[string]string{"perfetto": ".pftrace", "art": ".trace", "pprof": ".pb.gz"}

// writeProfile writes the call paths of a recording or an AppMethodBeat
// buffer as pprof's profile or folded stacks.
func writeProfile(inPath, outPath, format string, opts decode.Options, stdout, stderr io.Writer) int {
	p, err := profile.Read(inPath, opts.Names, opts.Map)
	if err != nil {
		fmt.Fprintf(stderr, "tracebeat decode: %v\n", err)
		return exitFailure
	}
	write := p.WriteCollapsed
	if format == "pprof" {
		write = p.WritePprof
	}
	if err := writeTo(outPath, stdout, write); err != nil {
		fmt.Fprintf(stderr, "tracebeat decode: %v\n", err)
		return exitFailure
	}
	for _, n := range append(slices.Clone(p.Missing), p.Notes...) {
		fmt.Fprintf(stderr, "tracebeat decode: note: %s\n", n)
	}
	if p.Partial > 0 {
		fmt.Fprintf(stderr, "tracebeat decode: note: %d calls whose enter the trace lost (a buffer that wrapped) are left out: their time is unknown\n", p.Partial)
	}
	return exitOK
}

func orderName(o binary.ByteOrder) string {
	if o == binary.LittleEndian {
		return "little-endian"
	}
	return "big-endian"
}

func kindNames() []string {
	names := make([]string, len(decode.Kinds))
	for i, k := range decode.Kinds {
		names[i] = string(k)
	}
	return names
}

// decodeTo decodes inPath ("-" = stdin) to outPath, or to stdout when
// outPath is empty. A file output appears only when complete.
func decodeTo(inPath, outPath string, stdout io.Writer, opts decode.Options) (*decode.Result, error) {
	var in io.Reader = os.Stdin
	if inPath != "-" {
		f, err := os.Open(inPath)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		in = f
	}
	var res *decode.Result
	err := writeTo(outPath, stdout, func(w io.Writer) error {
		var err error
		res, err = decode.Decode(in, w, opts)
		return err
	})
	return res, err
}

func spoolToTemp(r io.Reader) (string, error) {
	f, err := os.CreateTemp("", "tracebeat-stdin-*")
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("reading standard input: %w", err)
	}
	return f.Name(), f.Close()
}

// renderPNG decodes the input again, handing its slices to the flame
// chart's collector, and draws them.
func renderPNG(inPath, pngPath, title string, notes []string, depth int, opts decode.Options, stderr io.Writer) error {
	collector, err := flamepng.NewCollector(opts.TempDir)
	if err != nil {
		return err
	}
	defer collector.Close()
	in, err := os.Open(inPath)
	if err != nil {
		return err
	}
	defer in.Close()
	if _, err := decode.Decode(in, collector, opts); err != nil {
		return err
	}
	var cuts []flamepng.Cut
	err = atomicfile.Write(pngPath, 0o644, func(w io.Writer) error {
		cuts, err = collector.Render(w, flamepng.Options{Title: "tracebeat decode: " + title, Notes: notes, MaxRows: depth,
			CutHint: func(maxDepth int) string { return fmt.Sprintf("--png-depth %d draws them", maxDepth+1) }})
		return err
	})
	for _, c := range cuts {
		fmt.Fprintf(stderr, "tracebeat decode: note: %s: %s: calls deeper than %d rows not drawn (deepest at depth %d); --png-depth %d draws them\n",
			pngPath, c.Track, c.Rows, c.MaxDepth+1, c.MaxDepth+1)
	}
	return err
}

// mergeTo writes the system trace and the recording as one Perfetto trace
// (decode.MergeSystemTrace).
func mergeTo(systemPath, inPath, outPath string, stdout, stderr io.Writer, opts decode.Options) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "tracebeat decode: %v\n", err)
		return exitFailure
	}
	system, err := os.ReadFile(systemPath)
	if err != nil {
		return fail(err)
	}
	in, err := os.Open(inPath)
	if err != nil {
		return fail(err)
	}
	defer in.Close()
	var res *decode.Result
	if err := writeTo(outPath, stdout, func(w io.Writer) error {
		res, err = decode.MergeSystemTrace(system, systemPath, in, w, opts)
		return err
	}); err != nil {
		return fail(err)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(stderr, "tracebeat decode: note: %s\n", n)
	}
	return exitOK
}

// writeTo writes to the file outPath whole (atomicfile: never half), or
// to stdout when there is none.
func writeTo(outPath string, stdout io.Writer, write func(io.Writer) error) error {
	if outPath == "" {
		return write(stdout)
	}
	return atomicfile.Write(outPath, 0o644, write)
}
