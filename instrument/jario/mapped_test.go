package jario

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMappedFileReadsAndSurvivesTruncation(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the truncation fault is checked on Linux")
	}
	path := filepath.Join(t.TempDir(), "data")
	want := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	require.NoError(t, os.WriteFile(path, want, 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	m, ok := mapFile(f, int64(len(want)))
	require.True(t, ok)
	defer m.unmap()

	got := make([]byte, 100)
	n, err := m.ReadAt(got, 1000)
	require.NoError(t, err)
	assert.Equal(t, want[1000:1100], got[:n])
	n, err = m.ReadAt(got, int64(len(want))-10)
	assert.Equal(t, io.EOF, err)
	assert.Equal(t, 10, n)
	var all bytes.Buffer
	require.NoError(t, m.writeTo(&all))
	assert.Equal(t, want, all.Bytes())

	// Another process truncates the file: the pages past the new end are
	// gone, and reading them is an error rather than a crash.
	require.NoError(t, os.Truncate(path, 4096))
	_, err = m.ReadAt(got, int64(len(want))/2)
	assert.ErrorIs(t, err, errFileShrank)
	assert.ErrorIs(t, m.writeTo(NewCheckHasher()), errFileShrank) // (io.Discard would not read)
	n, err = m.ReadAt(got, 0)                                     // what is left reads as before
	require.NoError(t, err)
	assert.Equal(t, want[:100], got[:n])
}

// TestMappedReads: the edges of ReadAt and view on a mapping, a whole
// mapping written in pieces, and a reader without a map (or where the
// map fails) giving the same bytes.
func TestMappedReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	want := make([]byte, 9<<20+5) // more than two of writeTo's pieces
	for i := range want {
		want[i] = byte(i * 7)
	}
	require.NoError(t, os.WriteFile(path, want, 0o644))
	r, err := OpenFileReader(path, true)
	require.NoError(t, err)
	defer r.Close()
	if r.m == nil {
		t.Skip("no memory maps here")
	}
	m := r.m
	assert.Equal(t, int64(len(want)), m.size())
	for _, tc := range []struct {
		name     string
		off, len int
		n        int
		err      error
	}{
		{"inside", 10, 5, 5, nil},
		{"nothing at the end", len(want), 0, 0, nil},
		{"nothing inside", 3, 0, 0, nil},
		{"at the end", len(want), 1, 0, io.EOF},
		{"past the end", len(want) + 1, 0, 0, io.EOF},
		{"across the end", len(want) - 2, 4, 2, io.EOF},
		{"the last byte", len(want) - 1, 1, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := make([]byte, tc.len)
			n, err := m.ReadAt(p, int64(tc.off))
			assert.Equal(t, tc.n, n)
			assert.Equal(t, tc.err, err)
			if n > 0 {
				assert.Equal(t, want[tc.off:tc.off+n], p[:n])
			}
			n2, err2 := r.ReadAt(p, int64(tc.off))
			assert.Equal(t, n, n2)
			assert.Equal(t, tc.err, err2)
		})
	}
	_, err = m.ReadAt(make([]byte, 1), -1)
	assert.ErrorContains(t, err, "negative offset")

	for _, tc := range []struct {
		off, n int64
		ok     bool
	}{{0, 10, true}, {int64(len(want)) - 3, 3, true}, {int64(len(want)) - 3, 4, false}, {-1, 1, false}, {0, -1, false}, {int64(len(want)), 0, true}} {
		var got []byte
		err := m.view(tc.off, tc.n, func(b []byte) { got = append([]byte(nil), b...) })
		if !tc.ok {
			assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "%d+%d", tc.off, tc.n)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, string(want[tc.off:tc.off+tc.n]), string(got))
	}

	var pieces countingWriter
	require.NoError(t, m.writeTo(&pieces))
	assert.Equal(t, want, pieces.Bytes())
	assert.Equal(t, 3, pieces.writes, "in pieces of 4 MiB")
	assert.ErrorIs(t, m.writeTo(failingWriter{}), errWriteFailed)

	plain, err := OpenFileReader(path, false)
	require.NoError(t, err)
	assert.Nil(t, plain.m)
	var all bytes.Buffer
	require.NoError(t, plain.CopyTo(&all))
	assert.Equal(t, want, all.Bytes())
	require.NoError(t, plain.Close())
	all.Reset()
	require.NoError(t, r.CopyTo(&all))
	assert.Equal(t, want, all.Bytes())

	// Where the map fails, the reader reads the file.
	defer func(was func(*os.File, int) ([]byte, error)) { MmapBytes = was }(MmapBytes)
	MmapBytes = func(*os.File, int) ([]byte, error) { return nil, io.ErrUnexpectedEOF }
	unmapped, err := OpenFileReader(path, true)
	require.NoError(t, err)
	defer unmapped.Close()
	assert.Nil(t, unmapped.m)
	p := make([]byte, 4)
	n, err := unmapped.ReadAt(p, 8)
	require.NoError(t, err)
	assert.Equal(t, want[8:12], p[:n])
}

// TestMapFileRefuses: an empty file is not mapped; a mapping unmapped
// twice is unmapped once; a panic that is no fault goes on.
func TestMapFileRefuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	for _, size := range []int64{0, -1} {
		m, ok := mapFile(f, size)
		assert.False(t, ok)
		assert.Nil(t, m)
	}
	r, err := OpenFileReader(path, true)
	require.NoError(t, err)
	assert.Nil(t, r.m)
	var all bytes.Buffer
	require.NoError(t, r.CopyTo(&all))
	assert.Empty(t, all.Bytes())
	require.NoError(t, r.Close())
	_, err = OpenFileReader(path+".missing", true)
	assert.Error(t, err)

	require.NoError(t, os.WriteFile(path, []byte("data"), 0o644))
	g, err := os.Open(path)
	require.NoError(t, err)
	defer g.Close()
	if m, ok := mapFile(g, 4); ok {
		m.unmap()
		assert.Nil(t, m.data)
		m.unmap()
	}
	var nilMap *mappedFile
	nilMap.unmap()

	assert.PanicsWithValue(t, "not a fault", func() {
		var err error
		defer catchFault(false, &err)
		panic("not a fault")
	})
}

type countingWriter struct {
	bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

var errWriteFailed = errors.New("write failed")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWriteFailed }
