package main

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// testZipEntry is one entry of a hand-built jar. raw, when set, is written as
// the entry's compressed bytes with the header claiming body's size and
// CRC, which is how a damaged jar looks.
type testZipEntry struct {
	name string
	body []byte
	raw  []byte
}

func buildTestJar(t *testing.T, dir, name string, entries ...testZipEntry) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		if e.raw == nil {
			w, err := zw.Create(e.name)
			require.NoError(t, err)
			_, err = w.Write(e.body)
			require.NoError(t, err)
			continue
		}
		w, err := zw.CreateRaw(&zip.FileHeader{
			Name: e.name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(e.body),
			CompressedSize64: uint64(len(e.raw)), UncompressedSize64: uint64(len(e.body)),
		})
		require.NoError(t, err)
		_, err = w.Write(e.raw)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, buf.Bytes(), 0o644))
	return p
}

func deflateForTest(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// fixtureClass returns the bytes of one compiled fixture class.
func insFixtureClass(t *testing.T, entry string) []byte {
	t.Helper()
	classes := javatest.ClassFiles(t, insFixtureClasses(t))
	data, ok := classes[entry]
	require.True(t, ok, "fixture %s", entry)
	return data
}

// leftovers lists everything under dir, to show that a failed run
// created nothing: no output, no map, no temporary file.
func leftoverFiles(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			found = append(found, rel)
		}
		return nil
	})
	require.NoError(t, err)
	return found
}

// TestInstrumentErrors feeds bad inputs and checks that each error names
// the file, the entry or line, and the reason; that nothing panics or
// prints a stack; and that a failed run leaves nothing in the output
// directory's parent.
func TestInstrumentErrors(t *testing.T) {
	in := t.TempDir()
	good := insFixtureClass(t, "ins/Throwing.class")
	goodJar := buildTestJar(t, in, "good.jar", testZipEntry{name: "ins/Throwing.class", body: good})
	notZip := filepath.Join(in, "notzip.jar")
	require.NoError(t, os.WriteFile(notZip, []byte("this is no zip file\n"), 0o644))

	comp := deflateForTest(t, good)
	corrupt := append([]byte(nil), comp...)
	for i := len(corrupt) / 3; i < len(corrupt)/3+32; i++ {
		corrupt[i] ^= 0xA5
	}
	corruptJar := buildTestJar(t, in, "corrupt.jar",
		testZipEntry{name: "META-INF/MANIFEST.MF", body: []byte("Manifest-Version: 1.0\n")},
		testZipEntry{name: "ins/Throwing.class", body: good, raw: corrupt})
	truncatedJar := buildTestJar(t, in, "truncated.jar",
		testZipEntry{name: "ins/Throwing.class", body: good, raw: comp[:len(comp)/2]})
	badClass := append([]byte(nil), good[:40]...) // the constant pool breaks off
	badClassJar := buildTestJar(t, in, "badclass.jar",
		testZipEntry{name: "ins/Throwing.class", body: good},
		testZipEntry{name: "ins/Broken.class", body: badClass})

	badMapping := writeTestFile(t, in, "mapping.txt", "ins.Throwing -> a.a:\n    this is not a member line\n")
	badBlacklist := writeTestFile(t, in, "blacklist.txt", "[package]\n-keeppackage ins/\n-keepall x\n")
	badBase := writeTestFile(t, in, "base.txt", "1,1,ins.Throwing run ()V\n2,1 ins.Throwing\n")
	aFile := writeTestFile(t, in, "plain-file", "x")

	classDir := filepath.Join(in, "classes")
	writeTestFile(t, classDir, "ins/Throwing.class", string(good))

	missing := filepath.Join(in, "missing.jar")
	tests := []struct {
		name    string
		args    func(out string) []string
		code    int
		wantErr []string // substrings of stderr
	}{
		{"missing input", func(out string) []string { return []string{"-o", out, goodJar, missing} },
			exitFailure, []string{"input " + missing + ": no such file or directory"}},
		{"missing classpath jar", func(out string) []string { return []string{"-o", out, "--classpath", missing, goodJar} },
			exitFailure, []string{"classpath " + missing + ": no such file or directory"}},
		{"not a zip", func(out string) []string { return []string{"-o", out, goodJar, notZip} },
			exitFailure, []string{notZip + ": not a readable jar: zip: not a valid zip file"}},
		{"corrupt deflate stream", func(out string) []string { return []string{"-o", out, corruptJar} },
			exitFailure, []string{corruptJar + ": ins/Throwing.class: flate: corrupt input"}},
		{"truncated deflate stream", func(out string) []string { return []string{"-o", out, truncatedJar} },
			exitFailure, []string{truncatedJar + ": ins/Throwing.class: unexpected EOF"}},
		{"unparsable class, strict", func(out string) []string { return []string{"--strict", "-o", out, badClassJar} },
			exitFailure, []string{badClassJar + ": ins/Broken.class: "}},
		{"missing mapping", func(out string) []string { return []string{"--mapping", missing, "-o", out, goodJar} },
			exitFailure, []string{"mapping " + missing + ": no such file or directory"}},
		{"malformed mapping", func(out string) []string { return []string{"--mapping", badMapping, "-o", out, goodJar} },
			exitFailure, []string{badMapping + ":2: "}},
		{"missing blacklist, strict", func(out string) []string { return []string{"--strict", "--blacklist", missing, "-o", out, goodJar} },
			exitFailure, []string{"blacklist " + missing + ": no such file or directory"}},
		{"malformed blacklist, strict", func(out string) []string {
			return []string{"--strict", "--blacklist", badBlacklist, "-o", out, goodJar}
		},
			exitFailure, []string{badBlacklist + ":3: ", `"-keepall"`}},
		{"missing base map, strict", func(out string) []string { return []string{"--strict", "--base-map", missing, "-o", out, goodJar} },
			exitFailure, []string{"base map " + missing + ": no such file or directory"}},
		{"malformed base map", func(out string) []string { return []string{"--base-map", badBase, "-o", out, goodJar} },
			exitFailure, []string{badBase + ": line 2: "}},
		{"output inside an input directory", func(string) []string { return []string{"-o", filepath.Join(classDir, "out"), classDir} },
			exitFailure, []string{"output " + filepath.Join(classDir, "out", filepath.Base(classDir)) + " would overwrite input " + classDir}},
		{"output directory holds an input jar", func(string) []string { return []string{"-o", in, goodJar} },
			exitFailure, []string{"output " + filepath.Join(in, filepath.Base(goodJar)) + " would overwrite input " + goodJar}},
		{"merged output is an input", func(string) []string { return []string{"--merge", "-o", goodJar, goodJar} },
			exitFailure, []string{"output " + goodJar + " would overwrite input " + goodJar}},
		{"method map under a file", func(out string) []string {
			return []string{"--method-map", filepath.Join(aFile, "m.txt"), "-o", out, goodJar}
		}, exitFailure, []string{"method map " + filepath.Join(aFile, "m.txt") + ": " + aFile + " is not a directory"}},
		{"report is a directory", func(out string) []string { return []string{"--report", in, "-o", out, goodJar} },
			exitFailure, []string{"report " + in + ": is a directory"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			out := filepath.Join(base, "out")
			before := leftoverFiles(t, in)
			code, stdout, stderr := runCLI(append([]string{"instrument"}, tc.args(out)...)...)
			assert.Equal(t, tc.code, code, stderr)
			assert.Empty(t, stdout)
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			assert.Len(t, lines, 1, "one error line, no stack:\n%s", stderr)
			assert.True(t, strings.HasPrefix(stderr, "tracebeat instrument: "), stderr)
			for _, w := range tc.wantErr {
				assert.Contains(t, stderr, w)
			}
			assert.NotContains(t, stderr, "goroutine")
			assert.Empty(t, leftoverFiles(t, base), "a failed run leaves nothing behind")
			assert.Equal(t, before, leftoverFiles(t, in), "inputs are not touched")
		})
	}
}

// TestUnparsableClassIsCopied checks the default for a class that does not
// parse: a warning naming jar and entry, the entry copied byte for byte,
// and the run succeeds.
func TestUnparsableClassIsCopied(t *testing.T) {
	in := t.TempDir()
	good := insFixtureClass(t, "ins/Throwing.class")
	broken := append([]byte(nil), good[:40]...)
	jar := buildTestJar(t, in, "app.jar",
		testZipEntry{name: "ins/Broken.class", body: broken},
		testZipEntry{name: "ins/Throwing.class", body: good})
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runCLI("instrument", "-o", out, jar)
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `(?m)^warn\s+`+regexp.QuoteMeta(jar)+`: ins/Broken\.class: cannot parse, copied untouched: `, stderr)
	assert.Contains(t, stdout, "  warnings:   1 (see stderr)")
	classes := javatest.ClassFiles(t, filepath.Join(out, "app.jar"))
	assert.Equal(t, broken, classes["ins/Broken.class"], "copied untouched")
	assert.NotEqual(t, good, classes["ins/Throwing.class"], "the good class is still instrumented")
}

// TestFailedCommitLeavesNoTempFiles makes the last step fail: an output
// jar's place is taken by a directory, so its rename fails after every
// temporary file was written.
func TestFailedCommitLeavesNoTempFiles(t *testing.T) {
	in := t.TempDir()
	good := insFixtureClass(t, "ins/Throwing.class")
	jar := buildTestJar(t, in, "app.jar", testZipEntry{name: "ins/Throwing.class", body: good})
	out := filepath.Join(t.TempDir(), "out")
	blocker := filepath.Join(out, "app.jar", "occupied")
	require.NoError(t, os.MkdirAll(blocker, 0o755))

	code, stdout, stderr := runCLI("instrument", "-o", out, jar)
	assert.Equal(t, exitFailure, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "app.jar")
	assert.Equal(t, []string{"app.jar", filepath.Join("app.jar", "occupied")}, leftoverFiles(t, out),
		"no temporary file and no map is left beside what was there")
}

// TestCorruptResourceEntry is a jar whose non-class entry has a broken
// deflate stream: non-class entries are copied raw, but inflated first to
// check them, so the run fails naming the entry and leaves nothing. Among
// many entries, the failure comes while batches of entries are with the
// workers and waiting for the writer.
func TestCorruptResourceEntry(t *testing.T) {
	good := insFixtureClass(t, "ins/Throwing.class")
	text := bytes.Repeat([]byte("resource text "), 200)
	comp := deflateForTest(t, text)
	for i := len(comp) / 3; i < len(comp)/3+16; i++ {
		comp[i] ^= 0xA5
	}
	for _, around := range []int{0, 500} {
		t.Run(fmt.Sprintf("%d entries around it", 2*around), func(t *testing.T) {
			in := t.TempDir()
			entries := []testZipEntry{{name: "ins/Throwing.class", body: good}}
			for k := range around {
				entries = append(entries, testZipEntry{name: fmt.Sprintf("res/a%03d.txt", k), body: text})
			}
			entries = append(entries, testZipEntry{name: "res/strings.txt", body: text, raw: comp})
			for k := range around {
				entries = append(entries, testZipEntry{name: fmt.Sprintf("res/z%03d.txt", k), body: text})
			}
			jar := buildTestJar(t, in, "app.jar", entries...)
			base := t.TempDir()
			code, _, stderr := runCLI("instrument", "-o", filepath.Join(base, "out"), jar)
			assert.Equal(t, exitFailure, code)
			assert.Contains(t, stderr, jar+": res/strings.txt: ")
			assert.Empty(t, leftoverFiles(t, base))
		})
	}
}
