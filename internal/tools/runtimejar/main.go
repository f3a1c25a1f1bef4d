// Command runtimejar packs javac's output for the runtime's sources as
// jvmruntime/tracebeat-runtime.jar. scripts/build-runtime.sh runs it:
//
//	go run ./internal/tools/runtimejar CLASS_DIR OUT.jar
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/tracebeat/tracebeat/internal/atomicfile"
	"github.com/tracebeat/tracebeat/jvmruntime"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: runtimejar CLASS_DIR OUT.jar")
		os.Exit(2)
	}
	jar, err := jvmruntime.BuildJar(os.Args[1])
	if err == nil {
		err = atomicfile.Write(os.Args[2], 0o644, func(w io.Writer) error {
			_, err := w.Write(jar)
			return err
		})
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "runtimejar: %v\n", err)
		os.Exit(1)
	}
}
