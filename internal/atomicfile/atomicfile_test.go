package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteReplacesOrCreates(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.txt")
	for _, content := range []string{"first\n", "second, longer\n", ""} {
		require.NoError(t, WriteBytes(path, 0o644, []byte(content)))
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, content, string(got))
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())
	}
	assert.Equal(t, []string{"map.txt"}, names(t, dir), "no temporary file is left")
}

// Write writes what it is given, streamed in uneven pieces of several MB.
func TestWriteHoldsStreamedContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index")
	for _, size := range []int{6 << 20, 5<<20 + 11, 0} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i*131 + i>>13)
		}
		require.NoError(t, Write(path, 0o644, func(w io.Writer) error {
			for rest := data; len(rest) > 0; {
				n := min(len(rest), 700<<10+len(rest)%977)
				if _, err := w.Write(rest[:n]); err != nil {
					return err
				}
				rest = rest[n:]
			}
			return nil
		}))
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, len(data), len(got))
		assert.True(t, string(data) == string(got), "content differs")
		assert.Equal(t, []string{"index"}, names(t, dir), "no temporary file is left")
	}
}

func TestWriteFailureLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.txt")
	require.NoError(t, WriteBytes(path, 0o644, []byte("old")))
	boom := errors.New("boom")
	err := Write(path, 0o644, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	assert.ErrorIs(t, err, boom)
	assert.Contains(t, err.Error(), path)
	got, _ := os.ReadFile(path)
	assert.Equal(t, "old", string(got))
	assert.Equal(t, []string{"map.txt"}, names(t, dir))
}

func TestReplace(t *testing.T) {
	testReplace(t)
}

// TestReplaceWithoutExchange runs the same cases on the path every other
// system takes: no RENAME_EXCHANGE, a rename over the old name.
func TestReplaceWithoutExchange(t *testing.T) {
	saved := exchangeFiles
	defer func() { exchangeFiles = saved }()
	exchangeFiles = func(string, string) error { return errors.ErrUnsupported }
	testReplace(t)
}

func testReplace(t *testing.T) {
	t.Run("over a file that has another link", func(t *testing.T) {
		// The old file lives on under its other name (a pack's jar given
		// out as an output): replacing the output must not touch it.
		dir := t.TempDir()
		path, other, tmp := filepath.Join(dir, "out.jar"), filepath.Join(dir, "pack.jar"), filepath.Join(dir, ".tmp")
		require.NoError(t, os.WriteFile(other, []byte("old"), 0o644))
		require.NoError(t, os.Link(other, path))
		require.NoError(t, os.WriteFile(tmp, []byte("new"), 0o644))
		require.NoError(t, Replace(tmp, path))
		assert.Equal(t, "new", read(t, path))
		assert.Equal(t, "old", read(t, other))
		assert.Equal(t, []string{"out.jar", "pack.jar"}, names(t, dir))
	})
	t.Run("by another name of the same file", func(t *testing.T) {
		dir := t.TempDir()
		path, tmp := filepath.Join(dir, "out.jar"), filepath.Join(dir, ".tmp")
		require.NoError(t, os.WriteFile(path, []byte("same"), 0o644))
		require.NoError(t, os.Link(path, tmp))
		require.NoError(t, Replace(tmp, path))
		assert.Equal(t, "same", read(t, path))
		assert.Equal(t, []string{"out.jar"}, names(t, dir))
	})
	t.Run("over nothing", func(t *testing.T) {
		dir := t.TempDir()
		path, tmp := filepath.Join(dir, "out.jar"), filepath.Join(dir, ".tmp")
		require.NoError(t, os.WriteFile(tmp, []byte("new"), 0o644))
		require.NoError(t, Replace(tmp, path))
		assert.Equal(t, "new", read(t, path))
		assert.Equal(t, []string{"out.jar"}, names(t, dir))
	})
	t.Run("over a directory fails as rename does", func(t *testing.T) {
		dir := t.TempDir()
		path, tmp := filepath.Join(dir, "out"), filepath.Join(dir, ".tmp")
		require.NoError(t, os.MkdirAll(filepath.Join(path, "x"), 0o755))
		require.NoError(t, os.WriteFile(tmp, []byte("new"), 0o644))
		assert.Error(t, Replace(tmp, path))
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.True(t, st.IsDir())
	})
}

func TestHolds(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	data := make([]byte, 3<<20+17) // more than one read
	for i := range data {
		data[i] = byte(i * 7)
	}
	require.NoError(t, os.WriteFile(path, data, 0o644))
	assert.True(t, Holds(path, data))
	other := append([]byte(nil), data...)
	other[len(other)-1]++
	assert.False(t, Holds(path, other), "last byte differs")
	assert.False(t, Holds(path, data[:len(data)-1]), "shorter")
	assert.False(t, Holds(filepath.Join(dir, "missing"), nil))
	assert.False(t, Holds(dir, nil), "a directory")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	assert.True(t, Holds(path, nil))
}

func read(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

func names(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
