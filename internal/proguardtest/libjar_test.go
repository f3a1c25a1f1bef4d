package proguardtest

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteLibraryJarFromJmod: the jar holds java.base's classes without
// module-info, every one patched to version 52, stored with the sizes in
// the local header (what ProGuard 6 needs), and two writes are identical.
func TestWriteLibraryJarFromJmod(t *testing.T) {
	homes := JDKHomes()
	if _, isJmod, err := librarySource(homes); err != nil || !isJmod {
		SkipOrFailOnCI(t, "needs a JDK 9+ with jmods/java.base.jmod")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jar"), filepath.Join(dir, "b.jar")
	require.NoError(t, WriteLibraryJar(homes, a))
	require.NoError(t, WriteLibraryJar(homes, b))
	da, err := os.ReadFile(a)
	require.NoError(t, err)
	db, err := os.ReadFile(b)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(da, db), "two writes differ")
	st, err := os.Stat(a)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())

	zr, err := zip.NewReader(bytes.NewReader(da), int64(len(da)))
	require.NoError(t, err)
	names := map[string]bool{}
	for _, f := range zr.File {
		names[f.Name] = true
		require.True(t, strings.HasSuffix(f.Name, ".class"), f.Name)
		require.Equal(t, zip.Store, f.Method, f.Name)
		require.Zero(t, f.Flags&0x8, "%s has a data descriptor", f.Name)
		rc, err := f.Open()
		require.NoError(t, err)
		head := make([]byte, 8)
		_, err = io.ReadFull(rc, head)
		rc.Close()
		require.NoError(t, err)
		require.Equal(t, uint16(52), binary.BigEndian.Uint16(head[6:]), f.Name)
	}
	assert.True(t, names["java/lang/Object.class"])
	assert.True(t, names["java/util/ArrayList.class"])
	assert.False(t, names["module-info.class"])
	assert.Greater(t, len(names), 1000)
}

// TestWriteLibraryJarSources: a Java 8 layout's rt.jar is copied as it is
// and preferred over later homes; without any, the error says so and no
// file is left behind.
func TestWriteLibraryJarSources(t *testing.T) {
	java8 := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(java8, "jre", "lib"), 0o755))
	rt := []byte("PK-not-really-a-jar")
	require.NoError(t, os.WriteFile(filepath.Join(java8, "jre", "lib", "rt.jar"), rt, 0o644))
	empty := t.TempDir()

	out := filepath.Join(t.TempDir(), "lib.jar")
	require.NoError(t, WriteLibraryJar([]string{empty, java8}, out))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, rt, got)

	missing := filepath.Join(t.TempDir(), "none.jar")
	err = WriteLibraryJar([]string{empty}, missing)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrNoJDKClasses), "%v", err)
	assert.Contains(t, err.Error(), empty)
	_, statErr := os.Stat(missing)
	assert.True(t, os.IsNotExist(statErr))
	entries, err := os.ReadDir(filepath.Dir(missing))
	require.NoError(t, err)
	assert.Empty(t, entries, "temporary file left behind")

	bad := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(bad, "jmods"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bad, "jmods", "java.base.jmod"), []byte("JM\x01\x00garbage"), 0o644))
	err = WriteLibraryJar([]string{bad}, filepath.Join(t.TempDir(), "bad.jar"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "java.base.jmod: not a jmod")
}
