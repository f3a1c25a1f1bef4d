package jario

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"
)

// TestEntrySeedLayout: an entry's sum is seeded with the hash of 15 bytes,
// 'z' then the method, CRC and size its header declares (little-endian),
// or 'f' and zeros for a file: the sums the cache keeps from one run to
// the next depend on it.
func TestEntrySeedLayout(t *testing.T) {
	fh := zip.FileHeader{Method: 0x0908, CRC32: 0x44332211, UncompressedSize64: 0x0102030405060708}
	want := []byte{'z'}
	want = binary.LittleEndian.AppendUint16(want, fh.Method)
	want = binary.LittleEndian.AppendUint32(want, fh.CRC32)
	want = binary.LittleEndian.AppendUint64(want, fh.UncompressedSize64)
	assert.Equal(t, xxh3.Hash(want), entrySeed(&Entry{ZipFile: &zip.File{FileHeader: fh}}))
	assert.Equal(t, xxh3.Hash(append([]byte{'f'}, make([]byte, 14)...)), entrySeed(&Entry{}))
}

// TestUnsealShortestFile: a file no longer than a sum holds no magic and
// no body, whatever its bytes: here they are the sum of nothing, after a
// one-byte magic that is the sum's own first byte.
func TestUnsealShortestFile(t *testing.T) {
	sum := SumOf(nil)
	body, ok := Unseal(sum[:], string(sum[:1]))
	assert.False(t, ok)
	assert.Nil(t, body)
}

// TestDirCheckKeepsItsSums: a class directory's check is the hash of each
// file's name, a NUL and the file's EntrySum, in the listing's order, and
// the sums stay for EntrySumOf, which reads no file again (one deleted
// since still answers).
func TestDirCheckKeepsItsSums(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"a/A.class": "alpha", "b.txt": "beta", "c/C.class": "gamma"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	in, err := OpenInput(dir)
	require.NoError(t, err)
	check, err := in.DirCheck()
	require.NoError(t, err)
	h := NewCheckHasher()
	var sums []Checksum
	for j := range in.Entries {
		data, err := os.ReadFile(in.Entries[j].file)
		require.NoError(t, err)
		sum := EntrySum(&in.Entries[j], data)
		sums = append(sums, sum)
		h.Write([]byte(in.Entries[j].Name))
		h.Write([]byte{0})
		h.Write(sum[:])
	}
	assert.Equal(t, h.Sum(), check)
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "a")))
	for j := range in.Entries {
		got, err := in.EntrySumOf(j)
		require.NoError(t, err, in.Entries[j].Name)
		assert.Equal(t, sums[j], got, in.Entries[j].Name)
	}
}

// centralRecord returns where the directory record of entry k of the
// jar's bytes begins.
func centralRecord(t *testing.T, jar []byte, k int) int {
	t.Helper()
	le := binary.LittleEndian
	end := jar[len(jar)-dirEndLen:]
	require.Equal(t, uint32(sigDirEnd), le.Uint32(end))
	return int(le.Uint32(end[16:])) + recordsAt(t, jar[le.Uint32(end[16:]):len(jar)-dirEndLen], k)
}

// TestEntrySumOfAtTheJarsEdges: an entry whose declared bytes reach the
// last byte of the jar is hashed to there, one byte more is past its end;
// an entry whose local header is damaged is an error, mapped or not.
func TestEntrySumOfAtTheJarsEdges(t *testing.T) {
	dir := t.TempDir()
	path := writeZip(t, dir, "a.jar", stored("a.txt", []byte("first")), stored("b.txt", []byte("second")))
	jar, err := os.ReadFile(path)
	require.NoError(t, err)
	in := openJar(t, path)
	off, err := in.Entries[1].ZipFile.DataOffset()
	require.NoError(t, err)
	in.Close()

	le := binary.LittleEndian
	rec := centralRecord(t, jar, 1)
	toEnd := bytes.Clone(jar)
	le.PutUint32(toEnd[rec+20:], uint32(int64(len(jar))-off))
	require.NoError(t, os.WriteFile(path, toEnd, 0o644))
	in = openJar(t, path)
	in.Jar.MapContents()
	if in.Jar.m == nil {
		t.Skip("no memory map here: the bound checked is the map's")
	}
	e := &in.Entries[1]
	sum, err := in.EntrySumOf(1)
	require.NoError(t, err)
	assert.Equal(t, EntrySum(e, toEnd[off:]), sum, "to the jar's last byte")
	e.ZipFile.CompressedSize64++
	_, err = in.EntrySumOf(1)
	assert.ErrorContains(t, err, "entry data past the end of the jar")

	damaged := bytes.Clone(jar)
	damaged[le.Uint32(jar[centralRecord(t, jar, 1)+dirRecordOffset:])] = 'X'
	require.NoError(t, os.WriteFile(path, damaged, 0o644))
	for _, mapped := range []bool{false, true} {
		in := openJar(t, path)
		if mapped {
			in.Jar.MapContents()
		}
		_, err := in.EntrySumOf(1)
		assert.ErrorIs(t, err, zip.ErrFormat, "mapped=%v", mapped)
	}
}

// TestReadSaysWhyItsBytesAreMissing: Read of an entry whose compressed
// bytes run past the jar says so (not that the entry is short).
func TestReadSaysWhyItsBytesAreMissing(t *testing.T) {
	in := openJar(t, writeZip(t, t.TempDir(), "a.jar", stored("a.txt", []byte("abc")), compressed(t, "b.class", classBytes)))
	for j := range in.Entries {
		in.Entries[j].ZipFile.CompressedSize64 = 1 << 20
		_, err := in.Entries[j].Read()
		assert.ErrorContains(t, err, "compressed data run past the end of the jar", in.Entries[j].Name)
	}
}

// TestCRCZeroIsNoCRC: a directory record with a CRC of 0 declares none
// (archive/zip then checks nothing, and neither does Java): the entry
// reads without being marked wrong; an empty entry's CRC is 0 truly.
func TestCRCZeroIsNoCRC(t *testing.T) {
	in := openJar(t, writeZip(t, t.TempDir(), "a.jar",
		zipEntry{"one.txt", zip.Store, []byte("x"), 0, 1},
		zipEntry{"two.txt", zip.Deflate, deflated(t, []byte("xy")), 0, 2},
		stored("empty.txt", nil)))
	for j, want := range []string{"x", "xy", ""} {
		e := &in.Entries[j]
		got, err := e.Read()
		require.NoError(t, err, e.Name)
		assert.Equal(t, want, string(got), e.Name)
		assert.False(t, e.HasWrongCRC(), e.Name)
	}
}

// TestOpenUnlistedRefusesWhatCannotOpen: a path that exists but cannot be
// opened as a file (a socket) is an error naming it.
func TestOpenUnlistedRefusesWhatCannotOpen(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a unix socket in the file system")
	}
	path := filepath.Join(t.TempDir(), "s.jar")
	l, err := net.Listen("unix", path)
	require.NoError(t, err)
	defer l.Close()
	in, err := OpenUnlisted(path)
	assert.Nil(t, in)
	assert.ErrorContains(t, err, path)
}

// TestCloseClosesTheFiles: an input's jar and the last jar are closed by
// their Close (and a nil last jar's Close does nothing).
func TestCloseClosesTheFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.jar")
	jarWriterFile(t, path, sampleEntries(3), "", 3)
	in := openJar(t, path)
	jar := in.Jar
	in.Close()
	assert.Nil(t, in.Jar)
	_, err := jar.f.Stat()
	assert.ErrorIs(t, err, os.ErrClosed)

	last := OpenLastJar(path)
	require.NotNil(t, last)
	last.Close()
	_, err = last.File.Stat()
	assert.ErrorIs(t, err, os.ErrClosed)
	(*LastJar)(nil).Close()
}

// TestIsDirName: a name ending in a slash, "/" itself included.
func TestIsDirName(t *testing.T) {
	for name, want := range map[string]bool{"/": true, "a/": true, "a/b/": true, "": false, "a": false, "a/b": false} {
		assert.Equal(t, want, IsDirName(name), "%q", name)
	}
}

// TestRecordSum: the sum of records is the same wherever their entries
// lie (their offsets), and differs for any other field before or after
// the offset; a record with any of its three 32-bit fields at the zip64
// mark has none.
func TestRecordSum(t *testing.T) {
	w := newJarWriter(nil, &bytes.Buffer{})
	require.NoError(t, w.entryBytes(&zip.FileHeader{Name: "a.class", CompressedSize64: 1, UncompressedSize64: 1}, []byte("x")))
	dir := w.dir
	le := binary.LittleEndian
	sum, ok := recordSum(dir)
	require.True(t, ok)
	change := func(f func(rec []byte)) []byte {
		rec := bytes.Clone(dir)
		f(rec)
		return rec
	}
	for name, rec := range map[string][]byte{
		"another offset":           change(func(r []byte) { le.PutUint32(r[dirRecordOffset:], 0x7f000001) }),
		"an offset's last byte":    change(func(r []byte) { r[dirRecordOffset+3] = 0x10 }),
		"an offset's first byte":   change(func(r []byte) { r[dirRecordOffset] = 0x10 }),
		"an offset of 0xffff_fffe": change(func(r []byte) { le.PutUint32(r[dirRecordOffset:], MaxUint32-1) }),
	} {
		got, ok := recordSum(rec)
		require.True(t, ok, name)
		assert.Equal(t, sum, got, name)
	}
	for name, rec := range map[string][]byte{
		"another CRC":              change(func(r []byte) { r[16] ^= 1 }),
		"a name's first byte":      change(func(r []byte) { r[dirRecordOffset+4] = 'b' }),
		"a name's last byte":       change(func(r []byte) { r[len(r)-1] = 'X' }),
		"attributes before offset": change(func(r []byte) { r[dirRecordOffset-1] ^= 1 }),
	} {
		got, ok := recordSum(rec)
		require.True(t, ok, name)
		assert.NotEqual(t, sum, got, name)
	}
	for _, field := range []int{20, 24, dirRecordOffset} {
		_, ok := recordSum(change(func(r []byte) { le.PutUint32(r[field:], MaxUint32) }))
		assert.False(t, ok, "field at %d", field)
		for _, other := range []int{20, 24, dirRecordOffset} {
			if other != field {
				_, ok := recordSum(change(func(r []byte) { le.PutUint32(r[other:], MaxUint32-1) }))
				assert.True(t, ok, "field at %d just under the mark", other)
			}
		}
	}
}

// TestLastJarAtItsEdges: the last jar may be empty (its end record alone)
// or hold its directory past 16 MiB; a span of one record gets it; a
// record at the span's end is not the span's.
func TestLastJarAtItsEdges(t *testing.T) {
	dir := t.TempDir()
	var empty bytes.Buffer
	require.NoError(t, zip.NewWriter(&empty).Close())
	require.Len(t, empty.Bytes(), dirEndLen)
	path := filepath.Join(dir, "empty.jar")
	require.NoError(t, os.WriteFile(path, empty.Bytes(), 0o644))
	last := OpenLastJar(path)
	require.NotNil(t, last, "an empty jar")
	assert.Equal(t, []int{0}, last.recPos)
	last.Close()

	big := sampleEntries(3)
	big[1].data = bytes.Repeat([]byte{7}, 17<<20)
	big[1].fh.CompressedSize64, big[1].fh.UncompressedSize64 = 17<<20, 17<<20
	_, spans := jarWriterFile(t, filepath.Join(dir, "big.jar"), big, "", 1, 2, 3)
	last = OpenLastJar(filepath.Join(dir, "big.jar"))
	require.NotNil(t, last, "a directory past 16 MiB")
	defer last.Close()
	for _, s := range spans {
		require.Equal(t, 1, s.Count)
		assert.NotNil(t, last.Records(s), "a span of one record")
	}
	two := Span{First: 0, Count: 2, Start: spans[0].Start, End: spans[1].Start}
	records := last.dir[last.recPos[0]:last.recPos[2]]
	two.RecordSum, _ = recordSum(records)
	assert.Nil(t, last.Records(two), "its second record lies at its end")
	two.End = spans[1].End
	assert.Equal(t, records, last.Records(two))
}

// TestUnmapReleasesTheMapping: on Linux, where /proc/self/maps lists a
// process's mappings, a file's mapping is gone once it is unmapped (a
// jar's map is address space a long build would otherwise keep).
func TestUnmapReleasesTheMapping(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/maps is Linux's")
	}
	path := filepath.Join(t.TempDir(), "mapped-"+t.Name())
	require.NoError(t, os.WriteFile(path, bytes.Repeat([]byte("m"), 8192), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	m, ok := mapFile(f, 8192)
	if !ok {
		t.Skip("no memory map here")
	}
	mapped := func() bool {
		maps, err := os.ReadFile("/proc/self/maps")
		require.NoError(t, err)
		return bytes.Contains(maps, []byte(path))
	}
	require.True(t, mapped())
	m.unmap()
	assert.False(t, mapped())
}

// TestEntrySumOfAJarCutUnderItsMap: a jar cut short after it was mapped
// is an error of the entry's sum (the read faults), not a sum of what
// the map shows.
func TestEntrySumOfAJarCutUnderItsMap(t *testing.T) {
	path := writeZip(t, t.TempDir(), "a.jar", stored("a.txt", bytes.Repeat([]byte("a"), 3*4096)))
	in := openJar(t, path)
	in.Jar.MapContents()
	if in.Jar.m == nil {
		t.Skip("no memory map here")
	}
	// The local header stays (its page does), the data's later pages go.
	require.NoError(t, os.Truncate(path, 4096))
	_, err := in.EntrySumOf(0)
	assert.ErrorIs(t, err, errFileShrank)
	_, err = in.Entries[0].Stored()
	assert.ErrorIs(t, err, errFileShrank)
	assert.ErrorContains(t, err, "reading compressed data", "not a jar cut short: the file changed under the read")
}

// TestInflateIntoAtItsEnds: a stream that ends before a single byte is
// cut short (io.ErrUnexpectedEOF, not io.EOF), one that goes on past the
// size declared is an error.
func TestInflateIntoAtItsEnds(t *testing.T) {
	assert.ErrorIs(t, inflateInto(make([]byte, 5), deflated(t, nil)), io.ErrUnexpectedEOF)
	assert.ErrorIs(t, inflateInto(make([]byte, 5), deflated(t, []byte("abc"))), io.ErrUnexpectedEOF)
	assert.ErrorContains(t, inflateInto(make([]byte, 2), deflated(t, []byte("abc"))), "entry is longer than its declared 2 bytes")
	assert.ErrorContains(t, inflateInto(make([]byte, 2), deflated(t, []byte("abcdef"))), "entry is longer than its declared 2 bytes", "more than a byte more")
	assert.NoError(t, inflateInto(make([]byte, 3), deflated(t, []byte("abc"))))
}

// TestReadThroughArchiveCutShort: an entry left to archive/zip (no CRC)
// that holds fewer bytes than it declares is an error.
func TestReadThroughArchiveCutShort(t *testing.T) {
	in := openJar(t, writeZip(t, t.TempDir(), "a.jar",
		zipEntry{"short.txt", zip.Store, []byte("abc"), 0, 5},
		zipEntry{"short.class", zip.Deflate, deflated(t, []byte("abc")), 0, 5}))
	for j := range in.Entries {
		_, err := in.Entries[j].Read()
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF, in.Entries[j].Name)
	}
}

// TestClassDirectoryPastPathMax: a class directory whose files or folders
// lie past the system's longest path (made through os.Root, which walks
// one name at a time) cannot be listed: an error naming the directory,
// not a listing that left them out.
func TestClassDirectoryPastPathMax(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("long paths are another matter on Windows")
	}
	// Each folder is made, and the file created, by one name in the
	// folder above: no call is given a path longer than a name.
	deep := func(t *testing.T, upTo int, file string) string {
		dir := t.TempDir()
		at, err := os.OpenRoot(dir)
		require.NoError(t, err)
		for depth := len(dir); depth < upTo; depth += 201 {
			name := strings.Repeat("d", 200)
			require.NoError(t, at.Mkdir(name, 0o755))
			next, err := at.OpenRoot(name)
			require.NoError(t, err)
			require.NoError(t, at.Close())
			at = next
		}
		defer at.Close()
		if file != "" {
			f, err := at.Create(file)
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}
		return dir
	}
	for name, dir := range map[string]string{
		"a folder past the longest path": deep(t, 4300, ""),
		"a file past the longest path":   deep(t, 3900, strings.Repeat("f", 240)+".class"),
	} {
		in, err := OpenInput(dir)
		assert.Nil(t, in, name)
		require.Error(t, err, name)
		assert.ErrorContains(t, err, dir, name)
	}
}
