package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat/internal/repeat"
)

func init() {
	register(command{name: "record", summary: "run a traced program N times, a recording a run (the repetitions diff needs)", run: runRecord})
}

const recordUsage = `usage: tracebeat record -n N -o DIR [flags] -- COMMAND [ARGS...]

Runs COMMAND N times, one after the other, each run recording with
tracebeat's runtime into DIR/run-K.trace: the repetitions that
'tracebeat diff' needs to tell a change from the runs' noise. The
recording is switched on through JAVA_TOOL_OPTIONS (-Dtracebeat.trace=...,
added to what it holds), which every JVM the command starts reads; or,
when an argument holds {trace}, that argument gets the path instead.
COMMAND's input and output are its own.

It stops at the first run that fails (a recording it could not write is a
failure too), and says which. DIR must hold no run-*.trace yet (--replace
removes them first): runs of two sittings are not one sample.

Exit status: 0 every run ran and recorded, 1 a run failed, 2 usage errors.

Examples:
  tracebeat record -n 5 -o runs/ -- java -cp traced/app.jar:tracebeat-runtime.jar app.Main
  tracebeat record -n 5 -o runs/ -- java -Dtracebeat.trace={trace} -Dtracebeat.clock=precise -cp ... app.Main
  tracebeat record -n 5 -o runs/ -- ./gradlew test --no-daemon

Flags:
`

func runRecord(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("record", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(false)
	n := fs.IntP("runs", "n", 5, "how many runs")
	outDir := fs.StringP("output", "o", "", "the folder the recordings go to (made when missing)")
	replace := fs.Bool("replace", false, "remove the run-*.trace files DIR holds first")
	help := fs.BoolP("help", "h", false, "show this help")
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tracebeat record: "+format+"\nRun 'tracebeat record --help' for usage.\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return usageErr("%s", flagMessage(err))
	}
	if *help {
		fs.SetOutput(stdout)
		fmt.Fprint(stdout, recordUsage)
		fs.PrintDefaults()
		return exitOK
	}
	command := fs.Args()
	if len(command) > 0 && command[0] == "--" {
		command = command[1:]
	}
	switch {
	case len(command) == 0:
		return usageErr("expected the command to run after --")
	case *outDir == "":
		return usageErr("-o DIR is needed: where the recordings go")
	case *n < 1:
		return usageErr("-n must be at least 1")
	}
	runs := repeat.Runs{N: *n, Dir: *outDir, Replace: *replace, Command: command, Stdin: os.Stdin, Stdout: stdout, Stderr: stderr}
	if err := runs.Record(); err != nil {
		fmt.Fprintf(stderr, "tracebeat record: %v\n", err)
		return exitFailure
	}
	return exitOK
}
