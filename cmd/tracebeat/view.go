package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat/decode"
	"github.com/tracebeat/tracebeat/internal/english"
	"github.com/tracebeat/tracebeat/methodmap"
	"github.com/tracebeat/tracebeat/view"
)

func init() {
	register(command{name: "view", summary: "serve a recording of any size to the browser, its calls loaded as the page shows them", run: runView})
}

const viewUsage = `usage: tracebeat view [--map FILE] [--port N] TRACE

Reads TRACE (a recording, an AppMethodBeat buffer, systrace) once, keeps
every call in memory (about 46 bytes a call), and serves the page of
'decode --format html' from http://127.0.0.1:PORT/: the flame graph of
the whole run at once, and a timeline that asks for the calls of the
window it shows as it shows them (calls narrower than a pixel merged), so
a recording of a whole run is explored down to single calls. It prints the
address and opens nothing; Ctrl-C stops it. It answers on 127.0.0.1 only,
and only requests for that address.

For a trace that fits one page (up to a few million calls), decode
--format html writes a file to keep and send.

Examples:
  tracebeat view --map traced/methodMapping.txt app.trace
  tracebeat view --map traced/methodMapping.txt --port 8080 server.trace

Flags:
`

// viewContext is what stops the server: Ctrl-C or SIGTERM (tests swap it).
var viewContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func runView(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("view", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	mapPath := fs.String("map", "", "methodMapping.txt of the build: method names instead of ids")
	anyMap := fs.Bool("any-map", false, "use --map although the recording names another build")
	port := fs.Int("port", 0, "the port to listen on, on 127.0.0.1 (0: a free one)")
	help := fs.BoolP("help", "h", false, "show this help")
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tracebeat view: "+format+"\nRun 'tracebeat view --help' for usage.\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return usageErr("%s", flagMessage(err))
	}
	if *help {
		fmt.Fprint(stdout, viewUsage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return exitOK
	}
	if fs.NArg() != 1 {
		return usageErr("expected exactly one TRACE, got %d", fs.NArg())
	}
	if *port < 0 || *port > 65535 {
		return usageErr("--port must be 0 to 65535, not %d", *port)
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "tracebeat view: %v\n", err)
		return exitFailure
	}
	opts := decode.Options{Format: decode.FormatHTML, Source: fs.Arg(0), Top: 1, MaxStack: 1}
	if *mapPath != "" {
		names, err := decode.LoadMethodNames(*mapPath)
		if err != nil {
			return fail(err)
		}
		id, err := methodmap.ReadBuildID(*mapPath)
		if err != nil {
			return fail(err)
		}
		opts.Names, opts.Map = names, decode.MapBuild{Path: *mapPath, ID: id, Force: *anyMap}
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return fail(err)
	}
	start := time.Now()
	x := view.NewIndex()
	res, err := decode.Decode(f, decode.EventsTo(x), opts)
	f.Close()
	if err != nil {
		return fail(err)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(stderr, "tracebeat view: note: %s\n", n)
	}
	fmt.Fprintf(stderr, "tracebeat view: %s of %s read in %.1f s; serving (Ctrl-C stops)\n",
		english.Count(x.Calls, "call"), english.Count(len(x.Threads), "thread"), time.Since(start).Seconds())
	ctx, stop := viewContext()
	defer stop()
	if err := x.Serve(ctx, *port, "tracebeat view: "+filepath.Base(fs.Arg(0)), stdout); err != nil {
		return fail(err)
	}
	return exitOK
}
