package proguardtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tracebeat/tracebeat/internal/ci"
)

// Timeout bounds one ProGuard run; a run takes a few seconds.
const Timeout = 3 * time.Minute

// Require makes the test depend on java, javac and proguard on PATH: it is
// skipped without them, or fails on CI.
func Require(tb testing.TB) {
	tb.Helper()
	var missing []string
	for _, tool := range []string{"java", "javac", "proguard"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		SkipOrFailOnCI(tb, fmt.Sprintf("%s not on PATH (Debian: apt-get install -y openjdk-17-jdk-headless proguard-cli)",
			strings.Join(missing, ", ")))
	}
}

// SkipOrFailOnCI skips the test, except on CI (CI=true) where a missing
// tool must be noticed rather than silently skipped.
func SkipOrFailOnCI(tb testing.TB, reason string) {
	tb.Helper()
	if ci.On() {
		tb.Fatal(reason)
	}
	tb.Skip(reason)
}

// LibraryJar writes the JDK's java.base classes for -libraryjars into a
// test temp dir and returns its path (see WriteLibraryJar). Without them
// (a JRE, a JDK image without jmods) the test is skipped, or fails on CI.
func LibraryJar(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "java-base.jar")
	err := WriteLibraryJar(JDKHomes(), path)
	if errors.Is(err, ErrNoJDKClasses) {
		SkipOrFailOnCI(tb, err.Error())
	}
	if err != nil {
		tb.Fatalf("proguardtest: library jar: %v", err)
	}
	return path
}

// Run writes the configuration lines to dir/proguard.pro and runs ProGuard
// on it; a failure fails the test with ProGuard's output. It returns that
// output (ProGuard's notes and summary).
func Run(tb testing.TB, dir string, config ...string) string {
	tb.Helper()
	configPath := filepath.Join(dir, "proguard.pro")
	if err := os.WriteFile(configPath, []byte(strings.Join(config, "\n")+"\n"), 0o644); err != nil {
		tb.Fatalf("proguardtest: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "proguard", "@"+configPath)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("proguardtest: proguard @%s: %v\nconfiguration:\n%s\noutput:\n%s",
			configPath, err, strings.Join(config, "\n"), out)
	}
	return string(out)
}

// Quote quotes a file name for a ProGuard configuration.
func Quote(path string) string { return "'" + path + "'" }
