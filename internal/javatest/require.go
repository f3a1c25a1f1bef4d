package javatest

import (
	"os/exec"
	"testing"

	"github.com/tracebeat/tracebeat/internal/ci"
)

// RequireJava makes the test depend on javac and java being on PATH. On a CI
// machine (CI=true) a missing JDK is a failure, because silently skipped
// verification tests would let broken bytecode through; elsewhere the test
// is skipped.
func RequireJava(tb testing.TB) {
	tb.Helper()
	var missing []string
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) == 0 {
		return
	}
	if ci.On() {
		tb.Fatalf("javatest: %v not found on PATH, and CI=true requires a JDK (17+)", missing)
	}
	tb.Skipf("javatest: %v not found on PATH; install a JDK 17+ to run this test", missing)
}
