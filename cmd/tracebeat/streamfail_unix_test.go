//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// TestStreamThatCannotWriteHoldsNothing: a stream whose file stops taking
// writes (a full disk; here a pipe whose reader went away after its
// first chunks) loses the records from then on, says so, and holds none of
// them: a program of a hundred million records runs to its end in a
// 64 MiB heap, as it does without tracebeat.
func TestStreamThatCannotWriteHoldsNothing(t *testing.T) {
	javatest.RequireJava(t)
	dir := t.TempDir()
	classes := filepath.Join(dir, "dense")
	compileJava(t, classes, "../../jvmruntime/testdata/dense")
	out := filepath.Join(dir, "out")
	code, _, stderr := runCLI("instrument", "-o", out, "--method-map", filepath.Join(dir, "methodMapping.txt"), classes)
	require.Equal(t, exitOK, code, stderr)
	jar := filepath.Join(dir, "tracebeat-runtime.jar")
	code, _, stderr = runCLI("runtime", "-o", jar)
	require.Equal(t, exitOK, code, stderr)

	pipe := filepath.Join(dir, "stream.trace")
	require.NoError(t, syscall.Mkfifo(pipe, 0o600))
	go func() {
		f, err := os.Open(pipe) // waits for the JVM to open it
		if err != nil {
			return
		}
		io.ReadFull(f, make([]byte, 64<<10)) // the start and some chunks, then gone
		f.Close()
	}()
	// Holding the records, the heap fills and the JVM spends its time
	// collecting it: minutes, then an OutOfMemoryError.
	jvm := javatest.JVM{Classpath: []string{jar, filepath.Join(out, "dense")}, Flags: []string{"-Xmx64m"},
		Props: map[string]string{"tracebeat.mode": "stream", "tracebeat.trace": pipe}, Timeout: time.Minute}
	stdout, stderr, err := jvm.Run(t, "fixture.Dense", "36")
	require.NoError(t, err, "%s%s", stdout, stderr)
	require.Equal(t, "fib 36 = 14930352\n", stdout)
	require.Contains(t, stderr, "the recording stops here")
}
