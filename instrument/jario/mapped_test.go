package jario

import (
	"bytes"
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
