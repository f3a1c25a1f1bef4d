package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat/internal/dumpreq"
	"github.com/tracebeat/tracebeat/internal/proc"
)

func init() {
	register(command{name: "dump", summary: "ask a running program for its recording so far, without stopping it", run: runDump})
}

const dumpUsage = `usage: tracebeat dump PID [-o FILE]
       tracebeat dump --list

Asks a running JVM that records with tracebeat's runtime for a dump, and
waits until it is on disk. The program goes on recording. In ring mode (the
default) the dump holds what every thread's ring holds now; in stream mode
(-Dtracebeat.mode=stream) the recording itself is brought up to date, and
-o FILE also writes a copy of it up to now, with its footer.

Without -o the ring's dump goes beside the program's recording
(app.trace gives app-dump-1.trace, app-dump-2.trace, ...), or into the
program's working folder when it records to no file.

The request goes through a folder of the user's own in the temporary
folder (tracebeat-USER), which every recording program looks at ten times
a second; --dir names another (the program's -Dtracebeat.dump.dir). Without
this command: 'touch app.trace.dump' (the program's recording plus
".dump"), or 'kill -USR2 PID' where the JVM lets the runtime handle it (not
on Windows).

Exit status: 0 the dump is written (its path on standard output), 1 the
program refused or failed it, or did not answer, 2 usage errors.

Examples:
  tracebeat dump 4242
  tracebeat dump 4242 -o /tmp/checkout-slow.trace
  tracebeat dump --list

Flags:
`

// dumpPoll is how often dump looks for the program's answer.

func runDump(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("dump", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	output := fs.StringP("output", "o", "", "write the dump to this file (ring mode), or a copy of the stream up to now (stream mode)")
	dir := fs.String("dir", "", "the folder the program looks for requests in (its -Dtracebeat.dump.dir, plus tracebeat-USER)")
	timeout := fs.Duration("timeout", 30*time.Second, "how long to wait for the program's answer")
	list := fs.Bool("list", false, "list the programs recording now that a dump can be asked from")
	help := fs.BoolP("help", "h", false, "show this help")
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tracebeat dump: "+format+"\nRun 'tracebeat dump --help' for usage.\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return usageErr("%s", flagMessage(err))
	}
	if *help {
		fs.SetOutput(stdout)
		fmt.Fprint(stdout, dumpUsage)
		fs.PrintDefaults()
		return exitOK
	}
	dirs := dumpreq.Dirs(*dir)
	if *list {
		if fs.NArg() != 0 {
			return usageErr("--list takes no PID")
		}
		dumpreq.List(dirs, stdout)
		return exitOK
	}
	if fs.NArg() != 1 {
		return usageErr("expected the PID of a program that records with tracebeat's runtime, got %d arguments", fs.NArg())
	}
	pid, err := strconv.Atoi(fs.Arg(0))
	if err != nil || pid <= 0 {
		return usageErr("%q is not a process id", fs.Arg(0))
	}
	if *timeout <= 0 {
		return usageErr("--timeout must be above 0")
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tracebeat dump: "+format+"\n", a...)
		return exitFailure
	}
	if !proc.Alive(pid) {
		return fail("no process %d", pid)
	}
	found := ""
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, strconv.Itoa(pid)+".alive")); err == nil {
			found = d
			break
		}
	}
	if found == "" {
		return fail("process %d is not recording with tracebeat's runtime (no %d.alive in %s; a program with -Dtracebeat.dump.dir=DIR is asked with --dir DIR)",
			pid, pid, strings.Join(dirs, " or "))
	}
	target := ""
	if *output != "" {
		if target, err = filepath.Abs(*output); err != nil {
			return fail("%v", err)
		}
	}
	path, err := dumpreq.Ask(found, pid, target, *timeout)
	if err != nil {
		return fail("process %d: %v", pid, err)
	}
	fmt.Fprintln(stdout, path)
	if info := dumpreq.Info(filepath.Join(found, strconv.Itoa(pid)+".alive")); info["mode"] == "stream" && target == "" {
		fmt.Fprintf(stderr, "tracebeat dump: process %d records in stream mode: %s is up to date (-o FILE writes a copy)\n", pid, path)
	}
	return exitOK
}
