package jario

import (
	"archive/zip"
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/outset"
)

// openFiles counts the files the process has open, where /proc says.
func openFiles(t *testing.T) int {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/fd is Linux's")
	}
	fds, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(fds)
}

// TestSinksMakeOrdinaryFolders: the folders a sink makes for its output
// are 0755 (less the umask), as is a class directory's output itself.
func TestSinksMakeOrdinaryFolders(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	dir := t.TempDir()
	mask := umask()
	mode := func(path string) fs.FileMode {
		st, err := os.Stat(path)
		require.NoError(t, err)
		return st.Mode().Perm()
	}
	j, err := NewJarSink(filepath.Join(dir, "jar", "out.jar"))
	require.NoError(t, err)
	j.Abort()
	assert.Equal(t, 0o755&^mask, mode(filepath.Join(dir, "jar")))

	d, err := NewDirSink(filepath.Join(dir, "classes", "out"))
	require.NoError(t, err)
	assert.Equal(t, 0o755&^mask, mode(filepath.Join(dir, "classes")))
	require.NoError(t, d.Put("a/b/C.class", nil, []byte("c"), false, 0, 1))
	assert.Equal(t, 0o755&^mask, mode(filepath.Join(d.tmp, "a", "b")))
	set := outset.New(dir)
	require.NoError(t, d.Stage(set))
	assert.Equal(t, fs.FileMode(0o755), mode(d.Where()), "the staged folder, whatever the umask")
	require.NoError(t, set.Publish())
}

// TestSinksRefuseNamesTooLong: an output whose temporary file or folder
// cannot be made (a name past the file system's 255 bytes) is an error,
// not a sink without a file.
func TestSinksRefuseNamesTooLong(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("n", 300)+".jar")
	j, err := NewJarSink(long)
	assert.Error(t, err)
	assert.Nil(t, j)
	c, err := NewCopiedJar(long, long)
	assert.Error(t, err)
	assert.Nil(t, c)
	d, err := NewDirSink(long)
	assert.Error(t, err)
	assert.Nil(t, d)
}

// TestCopyRawDirectories: a directory entry holding bytes (one stored
// byte, or a deflated empty stream) is copied stored and empty, its flags
// but the data descriptor's kept.
func TestCopyRawDirectories(t *testing.T) {
	dir := t.TempDir()
	// archive/zip writes no bytes for a directory: the entries are written
	// under other names, then renamed in place.
	src := writeZip(t, dir, "src.jar",
		zipEntry{"one#", zip.Store, []byte("x"), crc32.ChecksumIEEE([]byte("x")), 1},
		zipEntry{"two#", zip.Deflate, deflated(t, nil), 0, 0})
	jar, err := os.ReadFile(src)
	require.NoError(t, err)
	jar = bytes.ReplaceAll(bytes.ReplaceAll(jar, []byte("one#"), []byte("one/")), []byte("two#"), []byte("two/"))
	require.NoError(t, os.WriteFile(src, jar, 0o644))
	zr, err := zip.OpenReader(src)
	require.NoError(t, err)
	defer zr.Close()
	out := filepath.Join(dir, "out.jar")
	j, err := NewJarSink(out)
	require.NoError(t, err)
	for _, f := range zr.File {
		f.Flags = 0x80f
		require.NoError(t, j.CopyRaw(f), f.Name)
	}
	require.NoError(t, j.Commit())
	got, files := readJar(t, out)
	assert.Equal(t, map[string]string{"one/": "", "two/": ""}, got)
	for _, f := range files {
		assert.Equal(t, uint16(zip.Store), f.Method, f.Name)
		assert.Zero(t, f.CompressedSize64, f.Name)
		assert.Zero(t, f.UncompressedSize64, f.Name)
		assert.Zero(t, f.CRC32, f.Name)
		assert.Equal(t, uint16(0x807), f.Flags, f.Name)
	}
}

// TestCopyRawOfADamagedEntry: an entry whose local header is damaged is
// an error of the copy.
func TestCopyRawOfADamagedEntry(t *testing.T) {
	dir := t.TempDir()
	path := writeZip(t, dir, "src.jar", stored("a.txt", []byte("abc")))
	jar, err := os.ReadFile(path)
	require.NoError(t, err)
	jar[0] = 'X' // the only local header's signature
	require.NoError(t, os.WriteFile(path, jar, 0o644))
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	j, err := NewJarSink(filepath.Join(dir, "out.jar"))
	require.NoError(t, err)
	defer j.Abort()
	assert.ErrorIs(t, j.CopyRaw(zr.File[0]), zip.ErrFormat)
}

// TestPutKeepsTheOriginalHeader: an entry put in place of a jar's keeps
// that entry's header (time, attributes, comment, flags but the data
// descriptor's); one without an original gets the sink's.
func TestPutKeepsTheOriginalHeader(t *testing.T) {
	dir := t.TempDir()
	orig := &Entry{Name: "a.class", ZipFile: &zip.File{FileHeader: zip.FileHeader{
		Name: "a.class", ModifiedTime: 0x1234, ModifiedDate: 0x5678, ExternalAttrs: 0o600 << 16,
		Comment: "kept", Flags: 0x80f, CreatorVersion: 0x314, ReaderVersion: 20}}}
	out := filepath.Join(dir, "out.jar")
	j, err := NewJarSink(out)
	require.NoError(t, err)
	require.NoError(t, j.Put("a.class", orig, []byte("body"), false, crc32.ChecksumIEEE([]byte("body")), 4))
	require.NoError(t, j.Put("b.class", nil, []byte("body"), false, crc32.ChecksumIEEE([]byte("body")), 4))
	require.NoError(t, j.Commit())
	_, files := readJar(t, out)
	a := files[0].FileHeader
	assert.Equal(t, uint16(0x1234), a.ModifiedTime)
	assert.Equal(t, uint16(0x5678), a.ModifiedDate)
	assert.Equal(t, uint32(0o600<<16), a.ExternalAttrs)
	assert.Equal(t, "kept", a.Comment)
	assert.Equal(t, uint16(0x807), a.Flags)
	assert.Equal(t, uint16(0x314), a.CreatorVersion)
	b := files[1].FileHeader
	assert.Equal(t, uint16(dirEntryDate), b.ModifiedDate)
	assert.Equal(t, fs.FileMode(0o644), b.Mode().Perm())
}

// TestFinishTwiceAndFailures: a finished sink finishes again as a no-op;
// a jar that cannot be written (its file closed under it) is an error of
// Finish, Commit and Stage, which leave no temporary file, as is one
// whose directory cannot be written (the disk full); an output
// where a folder is cannot be committed, and its temporary file goes.
func TestFinishTwiceAndFailures(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jar")
	j, err := NewJarSink(out)
	require.NoError(t, err)
	require.NoError(t, j.Finish())
	require.NoError(t, j.Finish())
	j.Abort()

	for name, end := range map[string]func(*JarSink) error{
		"finish": (*JarSink).Finish,
		"commit": (*JarSink).Commit,
		"stage":  func(j *JarSink) error { return j.Stage(outset.New(dir)) },
	} {
		j, err := NewJarSink(out)
		require.NoError(t, err)
		require.NoError(t, j.Put("a.txt", nil, []byte("a"), false, crc32.ChecksumIEEE([]byte("a")), 1))
		require.NoError(t, j.tmp.Close())
		assert.ErrorIs(t, end(j), os.ErrClosed, name)
		assert.Empty(t, tempFiles(t, dir), name)
		assert.NoFileExists(t, out, name)
	}

	broken := errors.New("disk full")
	j, err = NewJarSink(out)
	require.NoError(t, err)
	j.Writer = newJarWriter(nil, errWriter{broken})
	assert.ErrorIs(t, j.Finish(), broken, "a directory that cannot be written")
	assert.Empty(t, tempFiles(t, dir))

	j, err = NewJarSink(out)
	require.NoError(t, err)
	require.NoError(t, j.Writer.close())
	require.NoError(t, j.tmp.Close())
	assert.ErrorIs(t, j.closeFile(), os.ErrClosed, "a file that cannot be closed")
	assert.Empty(t, tempFiles(t, dir))

	require.NoError(t, os.MkdirAll(filepath.Join(out, "inside"), 0o755))
	j, err = NewJarSink(out)
	require.NoError(t, err)
	assert.Error(t, j.Commit(), "a folder where the jar goes")
	assert.Equal(t, []string{"out.jar"}, tempFiles(t, dir))
}

// TestSinksLeaveNoFileOpen: a sink aborted or committed, a copied jar
// committed, a file reader closed, a last jar or an input that is not a
// jar: no file stays open (Linux, where
// /proc/self/fd lists them).
func TestSinksLeaveNoFileOpen(t *testing.T) {
	dir := t.TempDir()
	src := writeZip(t, dir, "pack.jar", stored("a.txt", []byte("a")))
	before := openFiles(t)
	j, err := NewJarSink(filepath.Join(dir, "a.jar"))
	require.NoError(t, err)
	j.Abort()
	j, err = NewJarSink(filepath.Join(dir, "a.jar"))
	require.NoError(t, err)
	require.NoError(t, j.Commit())
	c, err := NewCopiedJar(filepath.Join(dir, "b.jar"), src)
	require.NoError(t, err)
	require.NoError(t, c.Commit())
	c, err = NewCopiedJar(filepath.Join(dir, "c.jar"), src)
	require.NoError(t, err)
	c.Abort()
	r, err := OpenFileReader(src, true)
	require.NoError(t, err)
	require.NoError(t, r.Close())
	bad := filepath.Join(dir, "bad.jar")
	require.NoError(t, os.WriteFile(bad, bytes.Repeat([]byte("x"), 100), 0o644))
	assert.Nil(t, OpenLastJar(bad))
	_, err = OpenInput(bad)
	assert.Error(t, err, "not a jar")
	assert.Equal(t, before, openFiles(t))
}

// TestCopiedJarFailures: a pack jar that is not there is an error naming
// it; a copy whose file cannot be closed is an error of Commit and Stage,
// which publish nothing; closing a copy twice is closing it once.
func TestCopiedJarFailures(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing-pack.jar")
	_, err := NewCopiedJar(filepath.Join(dir, "a.jar"), missing)
	assert.ErrorContains(t, err, missing)

	src := writeZip(t, dir, "pack.jar", stored("a.txt", []byte("a")))
	for name, end := range map[string]func(*copiedJar) error{
		"commit": (*copiedJar).Commit,
		"stage":  func(c *copiedJar) error { return c.Stage(outset.New(dir)) },
	} {
		c, err := NewCopiedJar(filepath.Join(dir, "b.jar"), src)
		require.NoError(t, err)
		require.NoError(t, c.tmp.Close())
		assert.ErrorIs(t, end(c), os.ErrClosed, name)
		assert.NoFileExists(t, filepath.Join(dir, "b.jar"), name)
		assert.False(t, c.staged, name)
	}
	c, err := NewCopiedJar(filepath.Join(dir, "c.jar"), src)
	require.NoError(t, err)
	require.NoError(t, c.close())
	require.NoError(t, c.close())
	require.NoError(t, c.publish())
	assert.FileExists(t, filepath.Join(dir, "c.jar"))
}

// TestDirSinkFailures: an entry where a folder already is, or a folder
// where an entry is, is an error; a file without a mode of its own is
// 0644; a temporary folder gone before Stage or Commit is an error that
// leaves the last output as it was.
func TestDirSinkFailures(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "classes")
	require.NoError(t, os.MkdirAll(filepath.Join(target, "old"), 0o755))
	d, err := NewDirSink(target)
	require.NoError(t, err)
	require.NoError(t, d.Put("a/B.class", &Entry{Name: "a/B.class"}, []byte("b"), false, 0, 1))
	st, err := os.Stat(filepath.Join(d.tmp, "a", "B.class"))
	require.NoError(t, err)
	if runtime.GOOS != "windows" {
		assert.Equal(t, fs.FileMode(0o644)&^umask(), st.Mode().Perm(), "an entry with no mode of its own")
	}
	assert.Error(t, d.Put("a", nil, []byte("x"), false, 0, 1), "a folder is there")
	require.NoError(t, d.Put("c.class", nil, []byte("c"), false, 0, 1))
	assert.Error(t, d.Put("c.class/D.class", nil, []byte("d"), false, 0, 1), "a file is there")

	for name, end := range map[string]func(*dirSink) error{
		"stage":  func(d *dirSink) error { return d.Stage(outset.New(dir)) },
		"commit": (*dirSink).Commit,
	} {
		d, err := NewDirSink(target)
		require.NoError(t, err)
		require.NoError(t, os.RemoveAll(d.tmp))
		assert.ErrorIs(t, end(d), fs.ErrNotExist, name)
		assert.DirExists(t, filepath.Join(target, "old"), name)
		assert.False(t, d.staged, name)
	}
	d.Abort()
}

// TestJarWriterEntryErrors: entry refuses a name too long, and a read
// that fails is its error; entryBytes whose bytes cannot be written says
// so at once.
func TestJarWriterEntryErrors(t *testing.T) {
	w := newJarWriter(nil, io.Discard)
	assert.Error(t, w.entry(&zip.FileHeader{Name: strings.Repeat("n", uint16max+1)}, bytes.NewReader(nil), make([]byte, 8)))
	failed := errors.New("read failed")
	assert.ErrorIs(t, w.entry(&zip.FileHeader{Name: "a.txt"}, iotest.ErrReader(failed), make([]byte, 8)), failed)

	broken := errors.New("disk full")
	w = newJarWriter(nil, errWriter{broken})
	assert.ErrorIs(t, w.entryBytes(&zip.FileHeader{Name: "big.bin"}, make([]byte, 2<<20)), broken)
}

type errWriter struct{ err error }

func (e errWriter) Write([]byte) (int, error) { return 0, e.err }

// TestFileReaderEdges: a reader opened mapped is mapped, and mapping it
// again keeps its map; a missing file is fs.ErrNotExist; a second Close
// is an error; a negative offset reads nothing; a read through the map
// leaves the goroutine's fault setting as it was; Close releases the map
// (Linux).
func TestFileReaderEdges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "file-"+t.Name())
	data := bytes.Repeat([]byte("0123456789"), 1000)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	_, err := OpenFileReader(path+".missing", true)
	assert.ErrorIs(t, err, fs.ErrNotExist)

	plain, err := OpenFileReader(path, false)
	require.NoError(t, err)
	require.NoError(t, plain.Close())
	assert.Error(t, plain.Close(), "closed already")

	r, err := OpenFileReader(path, true)
	require.NoError(t, err)
	if r.m == nil {
		r.Close()
		require.NotContains(t, []string{"linux", "darwin", "freebsd"}, runtime.GOOS, "these map files (mapped_unix.go)")
		t.Skip("no memory map here")
	}
	m := r.m
	r.MapContents()
	assert.Same(t, m, r.m, "mapped once")
	was := debug.SetPanicOnFault(false)
	p := make([]byte, 4)
	n, err := r.ReadAt(p, -1)
	assert.Zero(t, n)
	assert.Error(t, err)
	_, err = r.ReadAt(p, 10)
	require.NoError(t, err)
	assert.False(t, debug.SetPanicOnFault(was), "the fault setting is back as it was")
	maps := func() bool {
		b, err := os.ReadFile("/proc/self/maps")
		require.NoError(t, err)
		return bytes.Contains(b, []byte(path))
	}
	if runtime.GOOS == "linux" {
		require.True(t, maps())
	}
	require.NoError(t, r.Close())
	if runtime.GOOS == "linux" {
		assert.False(t, maps(), "Close releases the map")
	}
}

// umask is the process's file mode creation mask, read from a folder
// made with every permission.
func umask() fs.FileMode {
	dir, err := os.MkdirTemp("", "umask")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	probe := filepath.Join(dir, "probe")
	if err := os.Mkdir(probe, 0o777); err != nil {
		panic(err)
	}
	st, err := os.Stat(probe)
	if err != nil {
		panic(err)
	}
	return 0o777 &^ st.Mode().Perm()
}
