// Command jdklib writes the JDK's java.base classes as a jar ProGuard 6 can
// read with -libraryjars (class files patched to version 52). The demo
// script runs it; tests use the same code through internal/proguardtest.
//
//	go run ./internal/tools/jdklib -o lib.jar
//
// The JDK is $JAVA_HOME, else the one of the javac on PATH.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/tracebeat/tracebeat/internal/proguardtest"
)

func main() {
	out := flag.String("o", "", "jar to write (required)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: jdklib -o LIB.jar")
		os.Exit(2)
	}
	if err := proguardtest.WriteLibraryJar(proguardtest.JDKHomes(), *out); err != nil {
		fmt.Fprintf(os.Stderr, "jdklib: %s: %v\n", *out, err)
		os.Exit(1)
	}
}
