package main

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/internal/proguardtest"
)

// TestProGuardWholeRun records all of ProGuard 6 obfuscating commons-lang3
// (about 62 million calls) in stream mode and checks that every call is
// there: the recording decodes to as many enters and exits as a runtime
// that only counts them (jvmruntime/testdata/counting) saw in the same
// program, with no record lost, and ProGuard's output is the same in the
// plain, the counted and the recorded run. About a minute:
// TRACEBEAT_LONG_TESTS=1 (scripts/long-tests.sh) runs it.
func TestProGuardWholeRun(t *testing.T) {
	if os.Getenv("TRACEBEAT_LONG_TESTS") == "" || testing.Short() {
		t.Skip("set TRACEBEAT_LONG_TESTS=1 to record a whole ProGuard run")
	}
	proguardtest.Require(t)
	const proguardJar = "/usr/share/java/proguard.jar"
	for _, f := range []string{proguardJar, integCommonsLang3} {
		if _, err := os.Stat(f); err != nil {
			proguardtest.SkipOrFailOnCI(t, f+" missing (Debian: apt-get install -y proguard-cli libcommons-lang3-java)")
		}
	}
	dir := t.TempDir()
	lib := proguardtest.LibraryJar(t)
	code, _, stderr := runCLI("instrument", "-q", "-o", filepath.Join(dir, "inst"), proguardJar)
	require.Equal(t, exitOK, code, stderr)
	traced := filepath.Join(dir, "inst", "proguard.jar")
	runtimeJar := filepath.Join(dir, "tracebeat-runtime.jar")
	code, _, stderr = runCLI("runtime", "-o", runtimeJar)
	require.Equal(t, exitOK, code, stderr)
	// The Activity stand-in its at() names is compiled against, not packed.
	counting := javatest.Javac(t, javatest.Options{Release: 8, Args: []string{"-sourcepath", "../../jvmruntime/stub", "-implicit:none"}},
		"../../jvmruntime/testdata/counting")

	run := func(name string, cp string, props ...string) (digest, errOut string) {
		t.Helper()
		out := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(out, 0o755))
		conf := filepath.Join(out, "proguard.pro")
		require.NoError(t, os.WriteFile(conf, []byte(fmt.Sprintf("-injars %s\n-outjars %s\n-libraryjars %s\n-dontshrink\n-dontoptimize\n-dontnote\n-dontwarn java.beans.**\n-printmapping %s\n",
			integCommonsLang3, filepath.Join(out, "out.jar"), lib, filepath.Join(out, "mapping.txt"))), 0o644))
		cmd := exec.Command("java", append(append([]string{"-Xmx2g"}, props...), "-cp", cp, "proguard.ProGuard", "@"+conf)...)
		msg, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s:\n%s", name, msg)
		h := sha256.New()
		for _, f := range []string{"mapping.txt"} {
			data, err := os.ReadFile(filepath.Join(out, f))
			require.NoError(t, err)
			h.Write(data)
		}
		for _, e := range jarEntries(t, filepath.Join(out, "out.jar")) {
			h.Write([]byte(e))
		}
		return fmt.Sprintf("%x", h.Sum(nil)[:8]), string(msg)
	}
	plain, _ := run("plain", proguardJar)
	counted, countOut := run("counted", counting+string(os.PathListSeparator)+traced)
	trace := filepath.Join(dir, "whole.trace")
	recorded, _ := run("recorded", runtimeJar+string(os.PathListSeparator)+traced, "-Dtracebeat.trace="+trace, "-Dtracebeat.mode=stream")
	assert.Equal(t, plain, counted, "ProGuard's output with the counting runtime")
	assert.Equal(t, plain, recorded, "ProGuard's output recorded")

	m := regexp.MustCompile(`counting: enters=(\d+) exits=(\d+)`).FindStringSubmatch(countOut)
	require.NotNil(t, m, countOut)
	wantEnters, _ := strconv.ParseInt(m[1], 10, 64)
	wantExits, _ := strconv.ParseInt(m[2], 10, 64)

	f, err := os.Open(trace)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	rec, err := recording.ReadAt(bufio.NewReaderSize(f, 1<<16), f, st.Size(), trace)
	require.NoError(t, err)
	defer rec.Close()
	var enters, exits, lost int64
	for {
		th, err := rec.NextThread()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		require.NoError(t, rec.Records(func(enter bool, _ int, _ uint64) error {
			if enter {
				enters++
			} else {
				exits++
			}
			return nil
		}))
		lost += th.Lost
	}
	t.Logf("whole run: %d enters, %d exits counted; %d and %d decoded from %d bytes (%.3f bytes a record), %d lost; notes %v",
		wantEnters, wantExits, enters, exits, st.Size(), float64(st.Size())/float64(enters+exits), lost, rec.Notes)
	assert.Zero(t, lost)
	assert.Empty(t, rec.Notes)
	assert.Equal(t, wantEnters, enters, "every call recorded")
	assert.Equal(t, wantExits, exits)
	assert.Greater(t, wantEnters, int64(50_000_000))
}

// jarEntries is each entry of a jar as "name:sha256", in name order.
func jarEntries(t *testing.T, jar string) []string {
	t.Helper()
	var out []string
	for name, data := range javatest.ClassFiles(t, jar) {
		out = append(out, fmt.Sprintf("%s:%x", name, sha256.Sum256(data)))
	}
	slices.Sort(out)
	return out
}
