package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat/internal/english"
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
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tracebeat record: "+format+"\n", a...)
		return exitFailure
	}
	dir, err := filepath.Abs(*outDir)
	if err != nil {
		return fail("%v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail("%v", err)
	}
	old, _ := filepath.Glob(filepath.Join(dir, "run-*.trace"))
	if len(old) > 0 {
		if !*replace {
			return fail("%s holds %d recordings already (%s): give an empty folder, or --replace to remove them", dir, len(old), filepath.Base(old[0]))
		}
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return fail("%v", err)
			}
		}
	}
	var walls []float64
	for k := 1; k <= *n; k++ {
		trace := filepath.Join(dir, fmt.Sprintf("run-%d.trace", k))
		cmd := exec.Command(command[0], substitute(command[1:], trace)...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
		cmd.Env = os.Environ()
		if !slices.ContainsFunc(command, func(a string) bool { return strings.Contains(a, "{trace}") }) {
			cmd.Env = withJavaToolOption(cmd.Env, "-Dtracebeat.trace="+trace)
		}
		start := time.Now()
		err := cmd.Run()
		wall := time.Since(start).Seconds()
		if err != nil {
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				return fail("run %d of %d: %s exited with %d; the recordings so far are in %s", k, *n, command[0], exit.ExitCode(), dir)
			}
			return fail("run %d of %d: %v", k, *n, err)
		}
		st, err := os.Stat(trace)
		if err != nil {
			return fail("run %d of %d ran, but wrote no %s: is the program instrumented, and tracebeat-runtime.jar on its class path?", k, *n, trace)
		}
		walls = append(walls, wall)
		fmt.Fprintf(stderr, "tracebeat record: run %d of %d: %.2f s, %s (%d bytes)\n", k, *n, wall, trace, st.Size())
	}
	slices.Sort(walls)
	fmt.Fprintf(stderr, "tracebeat record: %s in %s, %.2f to %.2f s (median %.2f s)\n",
		english.Count(*n, "run"), dir, walls[0], walls[len(walls)-1], walls[len(walls)/2])
	return exitOK
}

// substitute puts trace in place of {trace} in the arguments.
func substitute(args []string, trace string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, "{trace}", trace)
	}
	return out
}

// withJavaToolOption adds opt to JAVA_TOOL_OPTIONS in env (quoted when it
// holds a blank: the JVM splits the variable at blanks).
func withJavaToolOption(env []string, opt string) []string {
	if strings.ContainsAny(opt, " \t") {
		opt = `"` + opt + `"`
	}
	const key = "JAVA_TOOL_OPTIONS="
	for i, e := range env {
		if v, ok := strings.CutPrefix(e, key); ok {
			env[i] = key + strings.TrimSpace(v+" "+opt)
			return env
		}
	}
	return append(env, key+opt)
}
