package javatest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

//go:embed java/VerifyHarness.java
var verifyHarnessSource []byte

// VerifyResult is HotSpot's verdict on every class of one jar. Class names
// are binary names with dots ("com.example.Outer$Inner").
type VerifyResult struct {
	// Classes are all class entries of the jar the harness tried, sorted.
	Classes []string
	// OK are the classes that linked with no error and were not failed
	// over to the old verifier.
	OK []string
	// Verified are the classes HotSpot logged as verified ("End class
	// verification for"), proof that the verifier actually ran on them.
	Verified []string
	// VerifyErrors maps a class to the VerifyError linking it raised. When
	// the error is about another class (a failing superclass), the entry is
	// under LinkErrors instead, so each broken class is counted once.
	VerifyErrors map[string]string
	// Failovers are version <= 50 classes whose StackMapTable check failed
	// and that HotSpot silently re-verified with the old verifier. They count
	// as failures: the frames tracebeat wrote were wrong.
	Failovers []string
	// LinkErrors maps a class to any other error while loading or linking
	// it (NoClassDefFoundError, ClassFormatError, a superclass's
	// VerifyError, ...).
	LinkErrors map[string]string
}

// Failures counts the classes that did not pass: verify errors, failovers
// and link errors.
func (r VerifyResult) Failures() int {
	return len(r.VerifyErrors) + len(r.Failovers) + len(r.LinkErrors)
}

// String summarises the result with every failure and its message.
func (r VerifyResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d classes: %d ok, %d verified, %d verify errors, %d failovers, %d link errors",
		len(r.Classes), len(r.OK), len(r.Verified), len(r.VerifyErrors), len(r.Failovers), len(r.LinkErrors))
	for _, name := range sortedKeys(r.VerifyErrors) {
		fmt.Fprintf(&b, "\n  verify error: %s: %s", name, r.VerifyErrors[name])
	}
	for _, name := range r.Failovers {
		fmt.Fprintf(&b, "\n  failover to old verifier: %s", name)
	}
	for _, name := range sortedKeys(r.LinkErrors) {
		fmt.Fprintf(&b, "\n  link error: %s: %s", name, r.LinkErrors[name])
	}
	return b.String()
}

// Verify links every class of jar in one HotSpot JVM (deps are further jars
// or directories on the same class loader) and reports the verifier's
// verdict per class. Static initializers do not run. The JVM runs with the
// default verification settings, under which classes from a URLClassLoader
// are always verified, with class+init logging to catch failovers, and with
// --enable-preview so preview fixtures load.
func Verify(tb testing.TB, jar string, deps ...string) VerifyResult {
	tb.Helper()
	return VerifyWith(tb, JVM{}, jar, deps...)
}

// VerifyWith is Verify on another JVM: jvm.Java names the java binary
// (Temurin 25 for class files newer than Java 17's), jvm.Flags adds
// options (-Xverify:all) and jvm.Timeout bounds a large jar's run.
func VerifyWith(tb testing.TB, base JVM, jar string, deps ...string) VerifyResult {
	tb.Helper()
	harness := harnessClasses(tb)
	logFile := filepath.Join(tb.TempDir(), "class-init.log")
	jvm := JVM{
		Java:      base.Java,
		Timeout:   base.Timeout,
		Classpath: []string{harness},
		Flags: []string{
			// No verification flags: HotSpot's default (BytecodeVerificationRemote,
			// a diagnostic option in JDK 17) already verifies every class of a
			// URLClassLoader. Do not add -Xverify:none or -XX:-BytecodeVerification*.
			// Lets preview class files (minor 0xFFFF) of this JDK load; no
			// effect on any other class.
			"--enable-preview",
			"-Xlog:class+init=info:file=" + logFile,
		},
	}
	jvm.Flags = append(jvm.Flags, base.Flags...)
	stdout, stderr, err := jvm.Run(tb, "VerifyHarness", append([]string{jar}, deps...)...)
	if err != nil {
		tb.Fatalf("javatest: verify %s: %v\nstderr:\n%s", jar, err, stderr)
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		tb.Fatalf("javatest: verify %s: class+init log: %v", jar, err)
	}
	result, err := parseVerifyOutput(stdout, string(log))
	if err != nil {
		tb.Fatalf("javatest: verify %s: %v\nstderr:\n%s", jar, err, stderr)
	}
	return result
}

// RequireVerified runs Verify and fails the test unless every class passed.
func RequireVerified(tb testing.TB, jar string, deps ...string) VerifyResult {
	tb.Helper()
	r := Verify(tb, jar, deps...)
	if r.Failures() != 0 || len(r.Classes) == 0 {
		tb.Fatalf("javatest: HotSpot rejected %s: %s", jar, r)
	}
	return r
}

// harnessClasses compiles the embedded VerifyHarness.java (cached like any
// other Javac call).
func harnessClasses(tb testing.TB) string {
	tb.Helper()
	return embeddedClasses(tb, "VerifyHarness.java", verifyHarnessSource)
}

// embeddedClasses compiles one embedded Java source. The source is written
// under the cache root at a path named after its content, so the Javac
// cache key stays stable across runs.
func embeddedClasses(tb testing.TB, name string, source []byte) string {
	tb.Helper()
	path, err := writeEmbeddedSource(name, source)
	if err != nil {
		tb.Fatalf("javatest: %s: %v", name, err)
	}
	return Javac(tb, Options{Release: 17}, path)
}

func writeEmbeddedSource(name string, source []byte) (string, error) {
	root, err := cacheRoot()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(source)
	dir := filepath.Join(root, "harness-src-"+hex.EncodeToString(sum[:8]))
	path := filepath.Join(dir, name)
	if data, err := os.ReadFile(path); err == nil && bytes.Equal(data, source) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, "tmp-")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(source)
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return path, nil
}

func parseVerifyOutput(stdout, log string) (VerifyResult, error) {
	r := VerifyResult{VerifyErrors: map[string]string{}, LinkErrors: map[string]string{}}
	inJar := map[string]bool{}
	done := false
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), "\t", 3)
		switch {
		case fields[0] == "DONE" && len(fields) == 2:
			done = true
			continue
		case fields[0] == "OK" && len(fields) == 2:
			r.OK = append(r.OK, fields[1])
		case (fields[0] == "VERIFY" || fields[0] == "LINK" || fields[0] == "ERROR") && len(fields) == 3:
			msg := unescapeHarness(fields[2])
			if fields[0] == "VERIFY" {
				if at := verifyErrorClass(msg); at == "" || at == fields[1] {
					r.VerifyErrors[fields[1]] = msg
					break
				}
				msg = "depends on a class that failed verification: " + msg
			}
			r.LinkErrors[fields[1]] = msg
		default:
			return r, fmt.Errorf("harness output: unexpected line %q", sc.Text())
		}
		r.Classes = append(r.Classes, fields[1])
		inJar[fields[1]] = true
	}
	if err := sc.Err(); err != nil {
		return r, fmt.Errorf("harness output: %w", err)
	}
	if !done {
		return r, fmt.Errorf("harness output ends before DONE:\n%s", stdout)
	}

	failedOver := map[string]bool{}
	for _, line := range strings.Split(log, "\n") {
		if name, ok := logSubject(line, "Fail over class verification to old verifier for: "); ok && inJar[name] && !failedOver[name] {
			failedOver[name] = true
			r.Failovers = append(r.Failovers, name)
		}
		if name, ok := logSubject(line, "End class verification for: "); ok && inJar[name] {
			r.Verified = append(r.Verified, name)
		}
	}
	ok := r.OK[:0]
	for _, name := range r.OK {
		if !failedOver[name] {
			ok = append(ok, name)
		}
	}
	r.OK = ok
	sort.Strings(r.Classes)
	sort.Strings(r.OK)
	sort.Strings(r.Failovers)
	r.Verified = dedupSorted(r.Verified)
	return r, nil
}

// logSubject returns the class name after marker in a -Xlog line.
func logSubject(line, marker string) (string, bool) {
	i := strings.Index(line, marker)
	if i < 0 {
		return "", false
	}
	return strings.TrimSpace(line[i+len(marker):]), true
}

// verifyErrorClass extracts the class a split-verifier VerifyError is about
// from its "Location:" section ("  Location:\n    p/A.m()V @3: ..."), or
// returns "" when the message has no location.
func verifyErrorClass(msg string) string {
	const marker = "Location:\n"
	i := strings.Index(msg, marker)
	if i < 0 {
		return ""
	}
	loc := strings.TrimLeft(msg[i+len(marker):], " ")
	end := strings.IndexAny(loc, ".(\n ")
	if end <= 0 {
		return ""
	}
	return strings.ReplaceAll(loc[:end], "/", ".")
}

func unescapeHarness(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func dedupSorted(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
