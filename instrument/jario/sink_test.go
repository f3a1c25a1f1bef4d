package jario

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"

	"github.com/tracebeat/tracebeat/internal/outset"
)

// readJar reads every entry of a jar with archive/zip: name to contents.
func readJar(t *testing.T, path string) (map[string]string, []*zip.File) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	t.Cleanup(func() { zr.Close() })
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err, f.Name)
		b, err := io.ReadAll(rc)
		require.NoError(t, err, f.Name)
		rc.Close()
		out[f.Name] = string(b)
	}
	return out, zr.File
}

// tempFiles lists what is in dir but the names given.
func tempFiles(t *testing.T, dir string, but ...string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range ents {
		keep := true
		for _, b := range but {
			keep = keep && e.Name() != b
		}
		if keep {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestJarSink writes a jar of entries put stored and deflated and copied
// raw from another jar (a directory stored as a deflated empty stream
// among them), committed into place readable by archive/zip, with the
// headers its entries came with.
func TestJarSink(t *testing.T) {
	dir := t.TempDir()
	src := writeZip(t, dir, "src.jar",
		compressed(t, "raw/A.class", classBytes),
		stored("raw/s.txt", []byte("stored")))
	in := openJar(t, src)
	out := filepath.Join(dir, "sub", "out.jar")
	j, err := NewJarSink(out)
	require.NoError(t, err)
	assert.Equal(t, out, j.Where())
	require.NoError(t, j.CopyRaw(in.Entries[0].ZipFile))
	// archive/zip writes no data for a directory: one stored as a
	// deflated empty stream is copied stored and empty.
	require.NoError(t, j.CopyRaw(&zip.File{FileHeader: zip.FileHeader{Name: "raw/dir/", Method: zip.Deflate, Flags: 0x8, CRC32: 1, CompressedSize64: 2}}))
	require.NoError(t, j.CopyRaw(in.Entries[1].ZipFile))
	body := []byte("put stored")
	require.NoError(t, j.Put("put/s.txt", nil, body, false, crc32.ChecksumIEEE(body), len(body)))
	packed, err := DeflateBytes(classBytes)
	require.NoError(t, err)
	require.NoError(t, j.Put("put/D.class", &in.Entries[0], packed, true, crc32.ChecksumIEEE(classBytes), len(classBytes)))
	assert.False(t, j.Seen("a"))
	assert.True(t, j.Seen("a"))
	_, statErr := os.Stat(out)
	assert.True(t, os.IsNotExist(statErr), "nothing at the path before commit")
	require.NoError(t, j.Commit())
	assert.Equal(t, out, j.Where())
	got, files := readJar(t, out)
	assert.Equal(t, map[string]string{"raw/A.class": string(classBytes), "raw/dir/": "", "raw/s.txt": "stored",
		"put/s.txt": "put stored", "put/D.class": string(classBytes)}, got)
	methods := map[string]uint16{}
	for _, f := range files {
		methods[f.Name] = f.Method
		assert.Zero(t, f.Flags&0x8, "%s: sizes in the local header", f.Name)
	}
	assert.Equal(t, map[string]uint16{"raw/A.class": zip.Deflate, "raw/dir/": zip.Store, "raw/s.txt": zip.Store,
		"put/s.txt": zip.Store, "put/D.class": zip.Deflate}, methods)
	for _, f := range files {
		switch f.Name {
		case "put/s.txt":
			assert.Equal(t, time.Date(1980, 2, 1, 0, 0, 0, 0, time.UTC), f.Modified, "a directory's entry gets the fixed time")
			assert.Equal(t, uint16(zipVersion20), f.ReaderVersion)
			assert.Equal(t, uint16(zipVersion20), f.CreatorVersion&0xff)
			assert.Equal(t, os.FileMode(0o644), f.Mode())
		case "put/D.class":
			assert.Equal(t, in.Entries[0].ZipFile.Modified, f.Modified, "an entry put for a jar's keeps its header")
		}
	}
	if runtime.GOOS != "windows" {
		st, err := os.Stat(out)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())
	}
	assert.Equal(t, []string{"out.jar"}, tempFiles(t, filepath.Dir(out)), "no temporary file left")
}

// TestJarSinkAbortAndStage: an aborted sink leaves nothing; a staged one
// leaves its finished file to the set, which publishes it.
func TestJarSinkAbortAndStage(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jar")
	require.NoError(t, os.WriteFile(out, []byte("the last run's"), 0o644))
	j, err := NewJarSink(out)
	require.NoError(t, err)
	require.NoError(t, j.Put("a.txt", nil, []byte("a"), false, crc32.ChecksumIEEE([]byte("a")), 1))
	j.Abort()
	assert.Equal(t, []string{"out.jar"}, tempFiles(t, dir))
	last, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "the last run's", string(last), "an abort leaves the last output")

	j, err = NewJarSink(out)
	require.NoError(t, err)
	require.NoError(t, j.Put("a.txt", nil, []byte("a"), false, crc32.ChecksumIEEE([]byte("a")), 1))
	require.NoError(t, j.Finish())
	j.Abort() // finished: the temporary file goes
	assert.Equal(t, []string{"out.jar"}, tempFiles(t, dir))

	j, err = NewJarSink(out)
	require.NoError(t, err)
	sum := j.HashOutput()
	require.NoError(t, j.Put("a.txt", nil, []byte("a"), false, crc32.ChecksumIEEE([]byte("a")), 1))
	set := outset.New(dir)
	require.NoError(t, j.Stage(set))
	staged := j.Where()
	assert.NotEqual(t, out, staged)
	assert.Equal(t, filepath.Dir(out), filepath.Dir(staged))
	require.NoError(t, set.Publish())
	got, _ := readJar(t, out)
	assert.Equal(t, map[string]string{"a.txt": "a"}, got)
	fileSum, err := FileCheckSum(out)
	require.NoError(t, err)
	assert.Equal(t, fileSum, sum.Sum(), "the hash is of the bytes written")
}

// TestCopiedJar: the output is the pack's jar, byte for byte, committed
// or staged.
func TestCopiedJar(t *testing.T) {
	dir := t.TempDir()
	src := writeZip(t, dir, "pack.jar", stored("a.txt", []byte("a")))
	want, err := os.ReadFile(src)
	require.NoError(t, err)
	out := filepath.Join(dir, "out", "a.jar")
	c, err := NewCopiedJar(out, src)
	require.NoError(t, err)
	require.NoError(t, c.Commit())
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	staged := filepath.Join(dir, "out", "b.jar")
	c, err = NewCopiedJar(staged, src)
	require.NoError(t, err)
	set := outset.New(dir)
	require.NoError(t, c.Stage(set))
	require.NoError(t, set.Publish())
	got, err = os.ReadFile(staged)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	_, err = NewCopiedJar(filepath.Join(dir, "out", "c.jar"), filepath.Join(dir, "missing.jar"))
	assert.Error(t, err)
	assert.Equal(t, []string{"a.jar", "b.jar"}, tempFiles(t, filepath.Join(dir, "out")))
}

// TestDirSink writes a class directory into a temporary one that takes
// the target's place on commit; files keep the mode and time of those
// they came from; a compressed entry or a raw copy is refused.
func TestDirSink(t *testing.T) {
	dir := t.TempDir()
	srcDir := filepath.Join(dir, "src")
	require.NoError(t, os.MkdirAll(filepath.Join(srcDir, "a"), 0o755))
	orig := filepath.Join(srcDir, "a", "B.class")
	require.NoError(t, os.WriteFile(orig, []byte("old"), 0o640))
	when := time.Date(2020, 5, 6, 7, 8, 9, 0, time.UTC)
	require.NoError(t, os.Chtimes(orig, when, when))
	in, err := OpenInput(srcDir)
	require.NoError(t, err)

	target := filepath.Join(dir, "classes")
	require.NoError(t, os.MkdirAll(filepath.Join(target, "stale"), 0o755))
	d, err := NewDirSink(target)
	require.NoError(t, err)
	assert.False(t, d.Seen("a/B.class"))
	assert.True(t, d.Seen("a/B.class"))
	require.NoError(t, d.Put("a/B.class", &in.Entries[0], []byte("new"), false, 0, 3))
	require.NoError(t, d.Put("c/D.txt", nil, []byte("d"), false, 0, 1))
	assert.ErrorContains(t, d.Put("x", nil, []byte("x"), true, 0, 1), "compressed entry for a directory")
	assert.ErrorContains(t, d.CopyRaw(nil), "raw zip copy into a directory")
	assert.Equal(t, target, d.Where())
	require.NoError(t, d.Commit())
	got, err := os.ReadFile(filepath.Join(target, "a", "B.class"))
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
	st, err := os.Stat(filepath.Join(target, "a", "B.class"))
	require.NoError(t, err)
	assert.True(t, st.ModTime().Equal(when), "the time of the file it came from")
	_, err = os.Stat(filepath.Join(target, "stale"))
	assert.True(t, os.IsNotExist(err), "the last output replaced whole")
	if runtime.GOOS != "windows" {
		assert.Equal(t, os.FileMode(0o640), st.Mode().Perm())
		st, err = os.Stat(filepath.Join(target, "c", "D.txt"))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())
		st, err = os.Stat(target)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o755), st.Mode().Perm())
	}
	assert.Equal(t, []string{"classes", "src"}, tempFiles(t, dir))

	d, err = NewDirSink(target)
	require.NoError(t, err)
	require.NoError(t, d.Put("e.txt", nil, []byte("e"), false, 0, 1))
	set := outset.New(dir)
	require.NoError(t, d.Stage(set))
	assert.NotEqual(t, target, d.Where())
	require.NoError(t, set.Publish())
	got, err = os.ReadFile(filepath.Join(target, "e.txt"))
	require.NoError(t, err)
	assert.Equal(t, "e", string(got))

	d, err = NewDirSink(target)
	require.NoError(t, err)
	require.NoError(t, d.Put("f.txt", nil, []byte("f"), false, 0, 1))
	d.Abort()
	assert.Equal(t, []string{"classes", "src"}, tempFiles(t, dir, ".tracebeat-journal"))
	_, err = os.Stat(filepath.Join(target, "e.txt"))
	assert.NoError(t, err, "an abort leaves the last output")
}

// TestChecksums: a sealed file opens only with its magic and its sum;
// a file's checksum is its bytes'; an entry's sum depends on its header.
func TestChecksums(t *testing.T) {
	body := []byte("what the cache keeps")
	sum := SumOf(append([]byte("MAGIC"), body...))
	sealed := append(append([]byte("MAGIC"), body...), sum[:]...)
	got, ok := Unseal(sealed, "MAGIC")
	assert.True(t, ok)
	assert.Equal(t, body, got)
	for name, data := range map[string][]byte{
		"another magic":   append([]byte("MAGIX"), sealed[5:]...),
		"a changed byte":  append(append([]byte("MAGIC"), []byte("What the cache keeps")...), sum[:]...),
		"shorter than 32": sealed[:36],
		"empty":           nil,
	} {
		_, ok := Unseal(data, "MAGIC")
		assert.False(t, ok, name)
	}
	just := SumOf([]byte("M"))
	got, ok = Unseal(append([]byte("M"), just[:]...), "M")
	assert.True(t, ok, "nothing between the magic and the sum")
	assert.Empty(t, got)

	path := filepath.Join(t.TempDir(), "f")
	data := bytes.Repeat([]byte("0123456789"), 20000)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	fs, err := FileCheckSum(path)
	require.NoError(t, err)
	assert.Equal(t, SumOf(data), fs)
	h := NewCheckHasher()
	require.NoError(t, hashFrom(h, bytes.NewReader(data)))
	assert.Equal(t, fs, h.Sum())
	_, err = FileCheckSum(path + ".missing")
	assert.Error(t, err)
	assert.NotEqual(t, Checksum{}, fs)
	assert.Equal(t, Checksum{}, Checksum(append(fs[16:], make([]byte, 16)...)), "the second half is zero")

	raw := []byte("stored bytes")
	file := &Entry{Name: "a"}
	base := &Entry{Name: "a", ZipFile: &zip.File{FileHeader: zip.FileHeader{Method: zip.Store, CRC32: 7, UncompressedSize64: 12}}}
	sums := map[Checksum]string{EntrySum(file, raw): "file", EntrySum(base, raw): "zip"}
	for name, change := range map[string]func(*zip.FileHeader){
		"method": func(f *zip.FileHeader) { f.Method = zip.Deflate },
		"crc":    func(f *zip.FileHeader) { f.CRC32 = 8 },
		"size":   func(f *zip.FileHeader) { f.UncompressedSize64 = 13 },
		"big":    func(f *zip.FileHeader) { f.UncompressedSize64 = 12 | 1<<40 },
	} {
		e := &Entry{Name: "a", ZipFile: &zip.File{FileHeader: base.ZipFile.FileHeader}}
		change(&e.ZipFile.FileHeader)
		s := EntrySum(e, raw)
		assert.NotContains(t, sums, s, name)
		sums[s] = name
	}
	assert.Equal(t, EntrySum(base, raw), EntrySum(&Entry{Name: "b", ZipFile: &zip.File{FileHeader: base.ZipFile.FileHeader}}, raw), "the name is not in it")
	assert.NotEqual(t, EntrySum(base, raw), EntrySum(base, []byte("stored bytez")))
}

// TestEntrySumOf: a jar entry's sum from the jar's map is the sum of its
// stored bytes; past the end of the jar it is an error.
func TestEntrySumOf(t *testing.T) {
	dir := t.TempDir()
	jar := writeZip(t, dir, "a.jar", compressed(t, "a.class", classBytes), stored("b.txt", []byte("b")))
	for _, mapped := range []bool{false, true} {
		in := openJar(t, jar)
		if mapped {
			in.Jar.MapContents()
		}
		for j := range in.Entries {
			e := &in.Entries[j]
			sum, err := in.EntrySumOf(j)
			require.NoError(t, err)
			assert.Equal(t, EntrySum(e, mustStored(t, e)), sum, "%s mapped=%v", e.Name, mapped)
		}
		in.Entries[1].ZipFile.CompressedSize64 = 1 << 20
		_, err := in.EntrySumOf(1)
		assert.Error(t, err, "mapped=%v", mapped)
		if mapped && in.Jar.m != nil {
			assert.ErrorContains(t, err, "entry data past the end of the jar")
		}
	}
}

// TestChecksumLayout: a checksum is XXH3-128's high half then its low
// half, big-endian, in the first 16 of its 32 bytes.
func TestChecksumLayout(t *testing.T) {
	data := []byte("layout")
	h := xxh3.Hash128(data)
	var want Checksum
	binary.BigEndian.PutUint64(want[:8], h.Hi)
	binary.BigEndian.PutUint64(want[8:16], h.Lo)
	assert.Equal(t, want, SumOf(data))
}

// TestDeflateAndCheck: what DeflateBytes writes inflates back; entries
// other than classes and directories are checked before a raw copy, and
// the check reads them whole (a wrong size is an error).
func TestDeflateAndCheck(t *testing.T) {
	for _, n := range []int{0, 1, 100, 100_000} {
		data := bytes.Repeat([]byte("abc"), n)
		packed, err := DeflateBytes(data)
		require.NoError(t, err)
		got := make([]byte, len(data))
		require.NoError(t, inflateInto(got, packed))
		assert.Equal(t, data, got)
	}
	dir := t.TempDir()
	short := compressed(t, "res/r.txt", classBytes)
	short.usize++
	in := openJar(t, writeZip(t, dir, "a.jar", compressed(t, "a/B.class", classBytes), stored("d/", nil),
		compressed(t, "res/ok.txt", classBytes), short))
	var needs []bool
	for i := range in.Entries {
		needs = append(needs, in.Entries[i].NeedsCheck())
	}
	assert.Equal(t, []bool{false, false, true, true}, needs)
	assert.NoError(t, in.Entries[2].Check())
	assert.Error(t, in.Entries[3].Check())
	assert.False(t, (&Entry{Name: "res/x.txt"}).NeedsCheck(), "a directory's file is read when copied")
}
