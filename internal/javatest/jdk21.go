package javatest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/tracebeat/tracebeat/internal/ci"
)

// JDK21 returns the home of a JDK of version 21 or newer (virtual
// threads): $TRACEBEAT_JAVA25, the JDK on PATH when it is one, else the
// newest under /usr/lib/jvm. Without one the test is skipped, and fails
// on CI (CI=true), whose machines have Temurin 25.
func JDK21(tb testing.TB) string {
	tb.Helper()
	var candidates []string
	if d := os.Getenv("TRACEBEAT_JAVA25"); d != "" {
		candidates = append(candidates, d)
	}
	if h := javaHome(); h != "" {
		candidates = append(candidates, h)
	}
	for _, pattern := range []string{"/usr/lib/jvm/temurin-2*", "/usr/lib/jvm/java-2*"} {
		found, _ := filepath.Glob(pattern)
		for i := len(found) - 1; i >= 0; i-- { // the newest first
			candidates = append(candidates, found[i])
		}
	}
	for _, home := range candidates {
		if jdkVersion(home) >= 21 {
			return home
		}
	}
	if ci.On() {
		tb.Fatalf("javatest: no JDK 21+ (javac and java) on PATH or under /usr/lib/jvm, and CI=true requires one")
	}
	tb.Skipf("javatest: no JDK 21+ on PATH or under /usr/lib/jvm (TRACEBEAT_JAVA25 names one): install one to run this test")
	return ""
}

var versionLine = regexp.MustCompile(`javac (\d+)`)

// jdkVersion is the major version of the javac in home, or 0.
func jdkVersion(home string) int {
	out, err := exec.Command(filepath.Join(home, "bin", "javac"), "-version").CombinedOutput()
	if err != nil {
		return 0
	}
	m := versionLine.FindSubmatch(out)
	if m == nil {
		return 0
	}
	v, _ := strconv.Atoi(string(m[1]))
	return v
}
