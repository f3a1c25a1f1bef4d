package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat/internal/atomicfile"
	"github.com/tracebeat/tracebeat/jvmruntime"
)

func init() {
	register(command{
		name:    "runtime",
		summary: "write the recording runtime jar for running instrumented code on a plain JVM",
		run:     runRuntime,
	})
}

const runtimeHelp = `usage: tracebeat runtime -o FILE.jar [--beat-class NAME] [--android] [--set KEY=VALUE]...

Writes the jar that instrumented code needs on a plain JVM (Java 8 or
newer). It holds com.tencent.matrix.trace.core.AppMethodBeat (beat mode),
android.os.Trace (systrace mode) and the recorder they call. Put it on the
class path next to the instrumented jars:

  java -Dtracebeat.trace=app.trace -cp tracebeat-runtime.jar:app.jar Main
  tracebeat decode --map methodMapping.txt app.trace

The recorder keeps every thread's calls in a ring buffer of its own within
one budget (-Dtracebeat.budget=16m: about four million records in dense
code); a full ring loses its oldest records, and decode says how many. An
ended thread gives its ring back. Times come from a shared clock, and
decode states how late one may be (-Dtracebeat.clock=precise reads it for every record:
docs/runtime.md). The recording names the builds whose code ran, so that
decode can refuse another build's map. It writes the file named by
-Dtracebeat.trace at exit, and whenever the program calls
com.github.tracebeat.runtime.Recorder.write(path).
On Android (--android: the jar without android.os.Trace, the framework's
own) it records in place of Matrix's matrix-trace-canary: every thread, on
the boot clock, under the Linux tids; the main looper's slow messages and
ANRs reported; the recording in the app's files folder (docs/android.md).
An app has no command line: --set puts settings in the jar (-D wins).

Examples:
  tracebeat runtime -o tracebeat-runtime.jar
  tracebeat runtime --beat-class com.example.trace.Beat -o tracebeat-runtime.jar
  tracebeat runtime --android --set mode=stream --set slow=500ms -o app/libs/tracebeat-runtime.jar

Flags:
  -o, --output FILE.jar   the jar to write (required)
      --beat-class NAME   the class instrument's --beat-class named, if not
                          Matrix's: the jar then has that class instead
      --android           for an Android app: without android.os.Trace
      --set KEY=VALUE     a setting the jar carries, as -Dtracebeat.KEY says it
                          (repeatable; the keys: docs/runtime.md)
  -h, --help              show this help

Exit status: 0 ok, 1 the jar could not be written, 2 usage.
`

func runRuntime(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("runtime", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	output := fs.StringP("output", "o", "", "")
	beatClass := fs.String("beat-class", jvmruntime.DefaultBeatClass, "")
	android := fs.Bool("android", false, "")
	set := fs.StringArray("set", nil, "")
	help := fs.BoolP("help", "h", false, "")
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tracebeat runtime: "+format+"\nRun 'tracebeat runtime --help' for usage.\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return usageErr("%s", flagMessage(err))
	}
	if *help {
		fmt.Fprint(stdout, runtimeHelp)
		return exitOK
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	if *output == "" {
		return usageErr("-o FILE.jar is required")
	}
	if err := checkClassName(*beatClass); err != nil {
		return usageErr("--beat-class: %v", err)
	}
	if st, err := os.Stat(*output); err == nil && st.IsDir() {
		fmt.Fprintf(stderr, "tracebeat runtime: %s is a folder: -o names the jar to write (e.g. -o %s)\n", *output, filepath.Join(*output, "tracebeat-runtime.jar"))
		return exitFailure
	}
	settings, err := jvmruntime.ParseSettings(*set)
	if err != nil {
		return usageErr("--set %v", err)
	}
	name := strings.ReplaceAll(*beatClass, ".", "/")
	err = atomicfile.Write(*output, 0o644, func(w io.Writer) error {
		return jvmruntime.WriteJar(w, jvmruntime.JarOptions{BeatClass: name, Android: *android, Settings: settings})
	})
	if err != nil {
		// The error may name the temporary file beside the jar: the user named the jar.
		fmt.Fprintf(stderr, "tracebeat runtime: %s: %v\n", *output, unwrapPathError(err))
		return exitFailure
	}
	fmt.Fprintf(stderr, "tracebeat runtime: wrote %s (beat class %s)\n", *output, strings.ReplaceAll(name, "/", "."))
	return exitOK
}
