package store

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func open(t *testing.T, root string, salt byte) *Store {
	t.Helper()
	s, err := Open(root, [32]byte{salt})
	require.NoError(t, err)
	return s
}

func TestStoreLayoutAndKeys(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, layout, "spare"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, layout, "spare", "x.jar"), []byte("old"), 0o644))
	s := open(t, root, 1)
	for _, sub := range []string{"packs", "last", "maps", "runs"} {
		require.DirExists(t, filepath.Join(root, layout, sub))
	}
	require.NoDirExists(t, filepath.Join(root, layout, "spare"), "an earlier version's spare jars go")

	other := open(t, root, 2)
	require.Equal(t, s.Key([]byte("a"), []byte("b")), s.Key([]byte("a"), []byte("b")))
	require.NotEqual(t, s.Key([]byte("a"), []byte("b")), other.Key([]byte("a"), []byte("b")), "the salt separates options")
	require.NotEqual(t, s.Key([]byte("ab")), s.Key([]byte("a"), []byte("b")), "parts are length-prefixed")
}

func TestStorePacks(t *testing.T) {
	s := open(t, t.TempDir(), 1)
	key := s.Key([]byte("jar"))
	require.NoError(t, s.Write(key, Index, func(w io.Writer) error { _, err := w.Write([]byte("index")); return err }))
	got, err := os.ReadFile(s.Path(key, Index))
	require.NoError(t, err)
	require.Equal(t, "index", string(got))

	tmp, err := s.CreateTemp()
	require.NoError(t, err)
	tmp.WriteString("bodies")
	require.NoError(t, tmp.Close())
	require.NoError(t, s.Commit(tmp.Name(), key, Bodies))
	require.FileExists(t, s.Path(key, Bodies))
	require.NoFileExists(t, tmp.Name())

	src := filepath.Join(t.TempDir(), "out.jar")
	require.NoError(t, os.WriteFile(src, []byte("jar bytes"), 0o644))
	require.NoError(t, s.PutFile(key, Jar, src))
	got, err = os.ReadFile(s.Path(key, Jar))
	require.NoError(t, err)
	require.Equal(t, "jar bytes", string(got))

	require.Equal(t, "", s.LastPack("/in/app.jar"))
	require.NoError(t, s.SetLastPack("/in/app.jar", key))
	require.Equal(t, key, s.LastPack("/in/app.jar"))

	s.RemovePack(key)
	for _, p := range []Part{Index, Bodies, Jar} {
		require.NoFileExists(t, s.Path(key, p))
	}
}

// LinkOrCopy links, and copies where the link fails (here: the
// destination exists; elsewhere a file system without links); both give
// the same bytes.
func TestLinkOrCopy(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a")
	require.NoError(t, os.WriteFile(src, bytes.Repeat([]byte("x"), 5000), 0o644))
	dst := filepath.Join(dir, "b")
	require.NoError(t, LinkOrCopy(src, dst))
	got, err := os.ReadFile(dst)
	require.NoError(t, err)
	require.Len(t, got, 5000)
	// A destination that exists makes the link fail; the copy replaces it.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c"), []byte("old"), 0o644))
	require.NoError(t, LinkOrCopy(src, filepath.Join(dir, "c")))
	got, err = os.ReadFile(filepath.Join(dir, "c"))
	require.NoError(t, err)
	require.Len(t, got, 5000)
}

func TestStoreMapsAndRuns(t *testing.T) {
	s := open(t, t.TempDir(), 1)
	wd, err := os.Getwd()
	require.NoError(t, err)
	_, err = s.Map("build/methodMapping.txt")
	require.True(t, os.IsNotExist(err), "%v", err)
	require.NoError(t, s.PutMap("build/methodMapping.txt", []byte("1,1,a.B m ()V\n")))
	got, err := s.Map(filepath.Join(wd, "build", "methodMapping.txt"))
	require.NoError(t, err, "a map path names the same map relative or absolute")
	require.Equal(t, "1,1,a.B m ()V\n", string(got))

	_, _, ok := s.Run("id")
	require.False(t, ok)
	require.NoError(t, s.PutRun("id", []byte("record"), []byte("ignore")))
	record, ignore, ok := s.Run("id")
	require.True(t, ok)
	require.Equal(t, "record", string(record))
	require.Equal(t, "ignore", string(ignore))
	s.RemoveRun("id")
	_, _, ok = s.Run("id")
	require.False(t, ok)
}
