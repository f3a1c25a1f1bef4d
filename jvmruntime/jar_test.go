package jvmruntime

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/blacklist"
	"github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// compileSources compiles java/ as scripts/build-runtime.sh does.
func compileSources(t *testing.T) string {
	t.Helper()
	javatest.RequireJava(t)
	stub, err := filepath.Abs("stub")
	require.NoError(t, err)
	return javatest.Javac(t, javatest.Options{Release: 8,
		Args: []string{"-Xlint:all", "-Werror", "-implicit:none", "-sourcepath", stub}}, "java")
}

// TestEmbeddedJarMatchesSources: the jar the binary carries is what the
// sources compile to. With another javac major version than the one that
// built it, the bytes may differ; then the same classes must at least be
// there with the same methods.
func TestEmbeddedJarMatchesSources(t *testing.T) {
	classes := compileSources(t)
	built, err := BuildJar(classes)
	require.NoError(t, err)
	recorded, err := os.ReadFile("javac-version.txt")
	require.NoError(t, err)
	out, err := exec.Command("javac", "-version").CombinedOutput()
	require.NoError(t, err)
	local := regexp.MustCompile(`javac (\d+)`).FindStringSubmatch(string(out))
	require.NotNil(t, local, "javac -version: %s", out)
	if local[1] == strings.TrimSpace(string(recorded)) {
		require.True(t, bytes.Equal(built, Jar()),
			"jvmruntime/tracebeat-runtime.jar is not what jvmruntime/java compiles to: run scripts/build-runtime.sh")
		return
	}
	t.Logf("javac %s here, %s built the embedded jar: comparing classes and methods, not bytes", local[1], recorded)
	want, err := Classes(built)
	require.NoError(t, err)
	got, err := Classes(Jar())
	require.NoError(t, err)
	require.Equal(t, signatures(t, want), signatures(t, got))
}

func signatures(t *testing.T, classes map[string][]byte) map[string][]string {
	sigs := map[string][]string{}
	for name, data := range classes {
		c, err := classfile.Parse(data)
		require.NoError(t, err, name)
		for i := range c.Methods {
			n, d, err := c.MemberName(&c.Methods[i])
			require.NoError(t, err)
			sigs[name] = append(sigs[name], n+d)
		}
	}
	return sigs
}

// TestJarHoldsWhatInstrumentedCodeCalls: the static methods both modes
// inject, with their exact descriptors, and no android.app.Activity (the
// platform's on Android; never loaded on a JVM).
func TestJarHoldsWhatInstrumentedCodeCalls(t *testing.T) {
	classes, err := Classes(Jar())
	require.NoError(t, err)
	sigs := signatures(t, classes)
	require.Subset(t, sigs[DefaultBeatClass+".class"], []string{"i(I)V", "o(I)V", "at(Landroid/app/Activity;Z)V"})
	require.Subset(t, sigs["android/os/Trace.class"], []string{"beginSection(Ljava/lang/String;)V", "endSection()V"})
	require.NotContains(t, classes, "android/app/Activity.class")
	zr, err := zip.NewReader(bytes.NewReader(Jar()), int64(len(Jar())))
	require.NoError(t, err)
	require.Equal(t, "META-INF/MANIFEST.MF", zr.File[0].Name)
}

// TestRenamedBeatClass: --beat-class gets the same class under its name,
// and the jar is otherwise unchanged.
func TestRenamedBeatClass(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteJar(&buf, JarOptions{BeatClass: "com/acme/Beat"}))
	classes, err := Classes(buf.Bytes())
	require.NoError(t, err)
	orig, err := Classes(Jar())
	require.NoError(t, err)
	require.NotContains(t, classes, DefaultBeatClass+".class")
	c, err := classfile.Parse(classes["com/acme/Beat.class"])
	require.NoError(t, err)
	name, err := c.Name()
	require.NoError(t, err)
	require.Equal(t, "com/acme/Beat", name)
	require.Equal(t, signatures(t, map[string][]byte{"x": orig[DefaultBeatClass+".class"]}),
		signatures(t, map[string][]byte{"x": classes["com/acme/Beat.class"]}))
	for n, data := range orig {
		if n != DefaultBeatClass+".class" {
			require.Equal(t, data, classes[n], n)
		}
	}

	buf.Reset()
	require.NoError(t, WriteJar(&buf, JarOptions{}))
	require.Equal(t, Jar(), buf.Bytes())
	require.ErrorContains(t, WriteJar(&buf, JarOptions{BeatClass: RecorderPackage + "Recorder"}), "belongs to the runtime")
}

// TestAndroidJar: the jar for an Android app is the runtime's without
// android.os.Trace (the framework's own), every other class the same
// bytes; with --beat-class too.
func TestAndroidJar(t *testing.T) {
	orig, err := Classes(Jar())
	require.NoError(t, err)
	require.Contains(t, orig, TraceClass+".class")
	for _, beat := range []string{"", "com/acme/Beat"} {
		var buf bytes.Buffer
		require.NoError(t, WriteJar(&buf, JarOptions{BeatClass: beat, Android: true}))
		classes, err := Classes(buf.Bytes())
		require.NoError(t, err)
		require.NotContains(t, classes, TraceClass+".class", beat)
		require.Len(t, classes, len(orig)-1, beat)
		for n, data := range orig {
			if n != TraceClass+".class" && n != DefaultBeatClass+".class" {
				require.Equal(t, data, classes[n], n)
			}
		}
		if beat == "" {
			require.Equal(t, orig[DefaultBeatClass+".class"], classes[DefaultBeatClass+".class"])
		} else {
			require.Contains(t, classes, beat+".class")
		}
	}
}

// TestBuiltInRulesKeepTheRecorderUntraced: instrumenting a jar that
// bundles the runtime must not make the recorder record itself.
func TestBuiltInRulesKeepTheRecorderUntraced(t *testing.T) {
	for _, beat := range []string{"", "com/acme/Beat"} {
		l, err := blacklist.New(beat)
		require.NoError(t, err)
		classes, err := Classes(Jar())
		require.NoError(t, err)
		for name := range classes {
			cls := strings.TrimSuffix(name, ".class")
			_, blocked := l.Blocked(cls)
			require.True(t, blocked, "%s is traced with beat class %q", cls, beat)
		}
	}
}

// TestRecordStaysTooBigToInline: ThreadLog.record is kept over 325 bytes
// of bytecode (HotSpot's FreqInlineSize) so that the JIT calls it rather
// than inlining it into every traced method (see its comment); an edit
// that shrinks it below would bring the compile cost back unnoticed.
func TestRecordStaysTooBigToInline(t *testing.T) {
	classes, err := Classes(Jar())
	require.NoError(t, err)
	c, err := classfile.Parse(classes["com/github/tracebeat/runtime/ThreadLog.class"])
	require.NoError(t, err)
	for i := range c.Methods {
		m := &c.Methods[i]
		name, desc, err := c.MemberName(m)
		require.NoError(t, err)
		if name+desc != "record(I)V" {
			continue
		}
		for _, a := range m.Attributes {
			if n, _ := c.Pool.Utf8(a.Name); n == "Code" {
				length := binary.BigEndian.Uint32(a.Data[4:8])
				require.Greater(t, length, uint32(325), "bytes of bytecode in ThreadLog.record(int)")
				return
			}
		}
	}
	t.Fatal("no ThreadLog.record(int) with code")
}
