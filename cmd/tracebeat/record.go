package main

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat/internal/repeat"
)

func init() {
	register(command{name: "record", summary: "run a traced program N times, a recording a run (the repetitions diff needs)", run: runRecord})
}

const recordUsage = `usage: tracebeat record -n N -o DIR [flags] -- COMMAND [ARGS...]
       tracebeat record -n N -o BASE -o NEW [flags] -- COMMAND_A [ARGS...] ::: COMMAND_B [ARGS...]

Runs COMMAND N times, one after the other, each run recording with
tracebeat's runtime into DIR/run-K.trace: the repetitions that
'tracebeat diff' needs to tell a change from the runs' noise.

With two folders and two commands (the second after a lone :::) it runs
the two builds in turns, A B, B A, A B, ..., each into its own folder:
a machine whose load changes while they run then slows both alike, and
diff compares builds, not moments (it notes sides recorded one after the
other). The
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
  tracebeat record -n 5 -o v1-runs -o v2-runs -- java -cp v1.jar:tracebeat-runtime.jar app.Main ::: java -cp v2.jar:tracebeat-runtime.jar app.Main

Flags:
`

func runRecord(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("record", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(false)
	n := fs.IntP("runs", "n", 5, "how many runs")
	outDirs := fs.StringArrayP("output", "o", nil, "the folder the recordings go to (made when missing); twice: BASE's and NEW's, in turns")
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
	commands := splitCommands(command)
	switch {
	case len(command) == 0:
		return usageErr("expected the command to run after --")
	case slices.ContainsFunc(commands, func(c []string) bool { return len(c) == 0 }):
		return usageErr("%s stands between two commands: one is empty", commandSeparator)
	case len(*outDirs) == 0:
		return usageErr("-o DIR is needed: where the recordings go")
	case len(*outDirs) > 2 || len(commands) > 2:
		return usageErr("record takes one build or two in turns, not %d", max(len(*outDirs), len(commands)))
	case len(*outDirs) == 2 && len(commands) == 1:
		return usageErr("two folders take two commands, the second after a lone %s", commandSeparator)
	case len(*outDirs) == 1 && len(commands) == 2:
		return usageErr("two commands take two folders: -o BASE -o NEW")
	case *n < 1:
		return usageErr("-n must be at least 1")
	}
	runs := repeat.Runs{N: *n, Replace: *replace, Stdin: os.Stdin, Stdout: stdout, Stderr: stderr}
	for i, dir := range *outDirs {
		if dir == "" {
			return usageErr("-o needs a folder")
		}
		runs.Sides = append(runs.Sides, repeat.Side{Dir: dir, Command: commands[i]})
	}
	if err := runs.Record(); err != nil {
		fmt.Fprintf(stderr, "tracebeat record: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// commandSeparator stands between the two builds' commands: not --,
// which a command's own arguments may hold.
const commandSeparator = ":::"

// splitCommands splits the arguments at each lone separator.
func splitCommands(args []string) [][]string {
	var out [][]string
	start := 0
	for i, a := range args {
		if a == commandSeparator {
			out = append(out, args[start:i])
			start = i + 1
		}
	}
	return append(out, args[start:])
}
