package jario

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zipEntry is an entry written raw: its header says what the test wants,
// true or not.
type zipEntry struct {
	name   string
	method uint16
	data   []byte // as stored
	crc    uint32
	usize  uint64
}

// deflated compresses b with compress/flate.
func deflated(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(b)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// stored and compressed are honest entries of content.
func stored(name string, content []byte) zipEntry {
	return zipEntry{name, zip.Store, content, crc32.ChecksumIEEE(content), uint64(len(content))}
}

func compressed(t *testing.T, name string, content []byte) zipEntry {
	return zipEntry{name, zip.Deflate, deflated(t, content), crc32.ChecksumIEEE(content), uint64(len(content))}
}

// writeZip writes entries raw into a jar under dir.
func writeZip(t *testing.T, dir, name string, entries ...zipEntry) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: e.method, CRC32: e.crc,
			CompressedSize64: uint64(len(e.data)), UncompressedSize64: e.usize})
		require.NoError(t, err)
		_, err = w.Write(e.data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

// openJar opens a jar input, closed at the end of the test.
func openJar(t *testing.T, path string) *Input {
	t.Helper()
	in, err := OpenInput(path)
	require.NoError(t, err)
	t.Cleanup(in.Close)
	return in
}

var classBytes = bytes.Repeat([]byte("\xca\xfe\xba\xbe class bytes "), 40)

// TestReadJarEntries: stored and deflated entries read back, in the zip's
// order, with what they store; an empty entry; a directory.
func TestReadJarEntries(t *testing.T) {
	dir := t.TempDir()
	jar := writeZip(t, dir, "a.jar",
		compressed(t, "a/B.class", classBytes),
		stored("a/C.class", classBytes[:100]),
		stored("empty.txt", nil),
		stored("a/", nil),
		compressed(t, "res/r.txt", []byte("resource")))
	in := openJar(t, jar)
	assert.False(t, in.IsDir)
	assert.Equal(t, jar, in.Path)
	var names []string
	for i := range in.Entries {
		names = append(names, in.Entries[i].Name)
	}
	assert.Equal(t, []string{"a/B.class", "a/C.class", "empty.txt", "a/", "res/r.txt"}, names)
	for i, want := range [][]byte{classBytes, classBytes[:100], {}, {}, []byte("resource")} {
		e := &in.Entries[i]
		got, err := e.Read()
		require.NoError(t, err, e.Name)
		assert.Equal(t, want, got, e.Name)
		assert.False(t, e.HasWrongCRC(), e.Name)
		raw, err := e.Stored()
		require.NoError(t, err)
		assert.Equal(t, int(e.ZipFile.CompressedSize64), len(raw), e.Name)
		assert.Equal(t, strings.HasSuffix(e.Name, ".class"), e.IsClass())
	}
	assert.Equal(t, deflated(t, classBytes), mustStored(t, &in.Entries[0]))
	assert.NoError(t, in.List(), "listed once")
	assert.Len(t, in.Entries, 5)
}

func mustStored(t *testing.T, e *Entry) []byte {
	t.Helper()
	raw, err := e.Stored()
	require.NoError(t, err)
	return raw
}

// TestReadDamagedEntries: what a jar's header says and its data do not
// agree on is refused, naming what is wrong, but for a CRC: Java never
// checks it, so the entry reads and is marked.
func TestReadDamagedEntries(t *testing.T) {
	dir := t.TempDir()
	good := compressed(t, "x", classBytes)
	longer := good
	longer.usize-- // the stream holds one byte more than declared
	shorter := good
	shorter.usize++
	wrongCRC := good
	wrongCRC.crc++
	storedWrongCRC := stored("x", classBytes)
	storedWrongCRC.crc++
	storedShort := stored("x", classBytes)
	storedShort.usize++
	huge := good
	huge.usize = MaxEntrySize + 1
	inflated := good
	inflated.usize = uint64(len(good.data))*maxDeflateRatio + 65
	for _, tc := range []struct {
		name  string
		entry zipEntry
		err   string // "" reads
		crc   bool   // read, marked with a wrong CRC
	}{
		{"a stream longer than declared", longer, "entry is longer than its declared", false},
		{"a stream shorter than declared", shorter, "unexpected EOF", false},
		{"a wrong CRC", wrongCRC, "", true},
		{"a stored entry with a wrong CRC", storedWrongCRC, "", true},
		{"a stored entry shorter than declared", storedShort, "stored entry has 680 bytes, its header declares 681", false},
		{"more than an entry may hold", huge, "more than 1073741824", false},
		{"more than deflate can make of its bytes", inflated, "more than deflate can produce", false},
		{"a bad stream", zipEntry{"x", zip.Deflate, []byte{0xff, 0xff, 0xff}, 1, 10}, "corrupt input", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := openJar(t, writeZip(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".jar", tc.entry))
			e := &in.Entries[0]
			got, err := e.Read()
			if tc.err != "" {
				assert.ErrorContains(t, err, tc.err)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, classBytes, got)
			assert.Equal(t, tc.crc, e.HasWrongCRC())
		})
	}
	inflatedAtTheBound := good
	inflatedAtTheBound.usize = uint64(len(good.data))*maxDeflateRatio + 64
	in := openJar(t, writeZip(t, dir, "bound.jar", inflatedAtTheBound))
	_, err := in.Entries[0].Read()
	assert.NotContains(t, err.Error(), "more than deflate can produce", "at the bound the stream is read")
}

// TestReadThroughArchive: entries the fast path leaves to archive/zip
// (no CRC in the directory, another method) read as archive/zip reads
// them, a wrong CRC marked, sizes checked.
func TestReadThroughArchive(t *testing.T) {
	dir := t.TempDir()
	noCRC := compressed(t, "x", classBytes)
	noCRC.crc = 0 // archive/zip then checks nothing
	wrong := stored("x", classBytes)
	wrong.crc = 0
	in := openJar(t, writeZip(t, dir, "nocrc.jar", noCRC, wrong))
	for i := range in.Entries {
		e := &in.Entries[i]
		assert.False(t, e.fastPath())
		got, err := e.Read()
		require.NoError(t, err)
		assert.Equal(t, classBytes, got)
		got, err = e.Contents(nil)
		require.NoError(t, err)
		assert.Equal(t, classBytes, got)
		assert.False(t, e.HasWrongCRC())
	}

	// A data descriptor whose CRC is wrong: the header has none, so
	// archive/zip checks the descriptor's.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("d.class")
	require.NoError(t, err)
	_, err = w.Write(classBytes)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	data := buf.Bytes()
	crc := crc32.ChecksumIEEE(classBytes)
	var le [4]byte
	le[0], le[1], le[2], le[3] = byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24)
	at := bytes.Index(data, append([]byte("PK\x07\x08"), le[:]...))
	require.Positive(t, at)
	data[at+4]++ // the descriptor's CRC only; the directory keeps the right one
	path := filepath.Join(dir, "descriptor.jar")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	in = openJar(t, path)
	e := &in.Entries[0]
	got, err := e.readThroughArchive()
	require.NoError(t, err)
	assert.Equal(t, classBytes, got)
	assert.True(t, e.HasWrongCRC())

	short := compressed(t, "x", classBytes)
	short.crc, short.usize = 0, uint64(len(classBytes))-1
	long := compressed(t, "x", classBytes)
	long.crc, long.usize = 0, uint64(len(classBytes))+1
	huge := stored("x", classBytes)
	huge.crc, huge.usize = 0, MaxEntrySize+1
	in = openJar(t, writeZip(t, dir, "sizes.jar", short, long, huge))
	_, err = in.Entries[0].Read()
	assert.ErrorIs(t, err, zip.ErrFormat, "archive/zip's own check of the size")
	_, err = in.Entries[1].Read()
	assert.ErrorContains(t, err, "unexpected EOF")
	_, err = in.Entries[2].Read()
	assert.ErrorContains(t, err, "more than 1073741824")
	_, err = in.Entries[2].Contents(nil)
	assert.ErrorContains(t, err, "more than 1073741824")

	odd := stored("x", classBytes)
	odd.method = 99
	in = openJar(t, writeZip(t, dir, "method.jar", odd))
	_, err = in.Entries[0].Read()
	assert.ErrorIs(t, err, zip.ErrAlgorithm)
}

// TestRawBytesPastTheEnd: compressed data the jar cuts short.
func TestRawBytesPastTheEnd(t *testing.T) {
	dir := t.TempDir()
	in := openJar(t, writeZip(t, dir, "a.jar", stored("x", classBytes)))
	e := &in.Entries[0]
	e.ZipFile.CompressedSize64 = 1 << 20
	_, err := e.Stored()
	assert.ErrorContains(t, err, "its 1048576 bytes of compressed data run past the end of the jar")
	e.ZipFile.CompressedSize64 = MaxEntrySize + 1
	_, err = e.Stored()
	assert.ErrorContains(t, err, "bytes compressed, more than")
}

// TestOpenInputRefuses: a path that is not there, a file that is no jar,
// an entry name that is not UTF-8.
func TestOpenInputRefuses(t *testing.T) {
	dir := t.TempDir()
	_, err := OpenInput(filepath.Join(dir, "missing.jar"))
	assert.ErrorContains(t, err, "missing.jar")
	notJar := filepath.Join(dir, "not.jar")
	require.NoError(t, os.WriteFile(notJar, []byte("not a zip"), 0o644))
	_, err = OpenInput(notJar)
	assert.ErrorContains(t, err, notJar+": not a readable jar")
	bad := writeZip(t, dir, "cp437.jar", stored("ok.class", nil), stored("caf\x82.class", nil))
	_, err = OpenInput(bad)
	assert.ErrorContains(t, err, "entry name is not UTF-8")
	in, err := OpenUnlisted(bad)
	require.NoError(t, err, "not read until listed")
	defer in.Close()
	assert.Empty(t, in.Entries)
}

// TestDirectoryInput: a directory's regular files, sorted by path, read
// and stored as they are; its check changes with a file's bytes or name.
func TestDirectoryInput(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"b/Z.class": "z", "a/Y.class": "y", "a.txt": "text", "a/b/X.class": "x"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "empty"), 0o755))
	if runtime.GOOS != "windows" {
		require.NoError(t, os.Symlink(filepath.Join(dir, "a.txt"), filepath.Join(dir, "link.txt")))
	}
	in, err := OpenInput(dir)
	require.NoError(t, err)
	assert.True(t, in.IsDir)
	var names []string
	for i := range in.Entries {
		names = append(names, in.Entries[i].Name)
	}
	assert.Equal(t, []string{"a.txt", "a/Y.class", "a/b/X.class", "b/Z.class"}, names)
	for i, want := range []string{"text", "y", "x", "z"} {
		e := &in.Entries[i]
		got, err := e.Read()
		require.NoError(t, err)
		assert.Equal(t, want, string(got))
		raw, err := e.Stored()
		require.NoError(t, err)
		assert.Equal(t, want, string(raw))
		assert.Equal(t, os.FileMode(0o644), e.mode.Perm())
	}
	in.Drop()
	require.NoError(t, in.Load(), "a directory has nothing to load")
	assert.Equal(t, "a.txt", in.Entries[0].Name)

	check, err := in.DirCheck()
	require.NoError(t, err)
	sum, err := in.EntrySumOf(1)
	require.NoError(t, err)
	assert.Equal(t, EntrySum(&in.Entries[1], []byte("y")), sum)
	again, err := OpenInput(dir)
	require.NoError(t, err)
	same, err := again.DirCheck()
	require.NoError(t, err)
	assert.Equal(t, check, same)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "Y.class"), []byte("Y"), 0o644))
	changed, err := again.DirCheck()
	require.NoError(t, err)
	assert.NotEqual(t, check, changed)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "Y.class"), []byte("y"), 0o644))
	require.NoError(t, os.Rename(filepath.Join(dir, "b"), filepath.Join(dir, "c")))
	renamed, err := OpenInput(dir)
	require.NoError(t, err)
	moved, err := renamed.DirCheck()
	require.NoError(t, err)
	assert.NotEqual(t, check, moved, "a file's name is part of the check")
	require.NoError(t, os.Remove(filepath.Join(dir, "a.txt")))
	_, err = renamed.DirCheck()
	assert.ErrorContains(t, err, dir)
}

// TestDropAndLoad: a dropped jar's directory is read again and must list
// what it listed; a jar changed in between, or closed, is an error.
func TestDropAndLoad(t *testing.T) {
	dir := t.TempDir()
	path := writeZip(t, dir, "a.jar", stored("a.class", []byte("a")), stored("b.class", []byte("b")))
	in := openJar(t, path)
	in.Drop()
	assert.Nil(t, in.Zip)
	for i := range in.Entries {
		assert.Nil(t, in.Entries[i].ZipFile)
	}
	assert.Equal(t, "b.class", in.Entries[1].Name, "names stay")
	require.NoError(t, in.Load())
	require.NotNil(t, in.Zip)
	got, err := in.Entries[1].Read()
	require.NoError(t, err)
	assert.Equal(t, "b", string(got))
	require.NoError(t, in.Load(), "loaded already")

	for _, tc := range []struct {
		name    string
		entries []zipEntry
		err     string
	}{
		{"renamed", []zipEntry{stored("a.class", []byte("a")), stored("c.class", []byte("b"))}, "jar changed while being instrumented (entry 1: b.class, then c.class)"},
		{"shorter", []zipEntry{stored("a.class", []byte("a"))}, "jar changed while being instrumented (2 entries, then 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeZip(t, t.TempDir(), "a.jar", stored("a.class", []byte("a")), stored("b.class", []byte("b")))
			in := openJar(t, p)
			in.Drop()
			data, err := os.ReadFile(writeZip(t, t.TempDir(), "b.jar", tc.entries...))
			require.NoError(t, err)
			// The same file, written over in place (the reader stays open).
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
			require.NoError(t, err)
			_, err = f.Write(data)
			require.NoError(t, err)
			require.NoError(t, f.Close())
			in.Jar.size = int64(len(data))
			assert.ErrorContains(t, in.Load(), tc.err)
		})
	}
	closed := openJar(t, path)
	closed.Close()
	assert.Nil(t, closed.Jar)
	assert.ErrorContains(t, closed.Load(), "jar read after it was closed")
	notJar := openJar(t, path)
	notJar.Drop()
	require.NoError(t, os.WriteFile(path, bytes.Repeat([]byte{'x'}, 100), 0o644))
	notJar.Jar.size = 100
	assert.ErrorContains(t, notJar.Load(), path)
}

// TestEntryNames: signature files, multi-release variants, directories.
func TestEntryNames(t *testing.T) {
	for name, want := range map[string]bool{
		"META-INF/CERT.SF": true, "META-INF/cert.rsa": true, "META-INF/A.DSA": true, "META-INF/A.EC": true,
		"META-INF/SIG-X": true, "META-INF/sig-x.txt": true, "META-INF/MANIFEST.MF": false,
		"META-INF/sub/CERT.SF": false, "CERT.SF": false, "META-INF/": false, "a/META-INF/CERT.SF": false,
	} {
		assert.Equal(t, want, IsSignatureFile(name), name)
	}
	for name, want := range map[string]string{"META-INF/versions/11/a/B.class": "11", "META-INF/versions/9/B.class": "9"} {
		got, ok := VersionedClass(name)
		assert.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	for _, name := range []string{"a/B.class", "META-INF/versions/11", "META-INF/B.class"} {
		_, ok := VersionedClass(name)
		assert.False(t, ok, name)
	}
	assert.True(t, IsDirName("a/"))
	assert.False(t, IsDirName("a"))
	assert.False(t, IsDirName(""))
}
