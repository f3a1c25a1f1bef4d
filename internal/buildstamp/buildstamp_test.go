package buildstamp

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func writeJar(t *testing.T, path string, n int, comment string) {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for i := range n {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("p/C%d.class", i), Method: zip.Deflate})
		require.NoError(t, err)
		fmt.Fprintf(w, "class %d", i)
	}
	require.NoError(t, zw.SetComment(comment))
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
}

// readJar returns the jar's entries in order with their contents, and its comment.
func readJar(t *testing.T, path string) ([]string, map[string]string, string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	var names []string
	data := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc) // checks the CRC
		require.NoError(t, err, f.Name)
		rc.Close()
		names = append(names, f.Name)
		data[f.Name] = string(b)
	}
	return names, data, zr.Comment
}

// TestJarStampIsTheLastEntry: the stamp is appended after every entry, the
// others and the comment kept; a second stamp replaces the first, and
// stamping twice with one identity gives the same bytes.
func TestJarStampIsTheLastEntry(t *testing.T) {
	for _, n := range []int{0, 1, 300} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "app.jar")
			writeJar(t, path, n, "a comment")
			before, beforeData, _ := readJar(t, path)
			require.NoError(t, Jar(path, "00112233aabbccdd"))
			names, data, comment := readJar(t, path)
			require.Equal(t, append(before, Resource), names)
			require.Equal(t, "00112233aabbccdd\n", data[Resource])
			require.Equal(t, "a comment", comment)
			for k, v := range beforeData {
				require.Equal(t, v, data[k])
			}
			once, err := os.ReadFile(path)
			require.NoError(t, err)

			require.NoError(t, Jar(path, "ffeeddccbbaa9988"))
			names, data, _ = readJar(t, path)
			require.Equal(t, append(before, Resource), names, "replaced, not added")
			require.Equal(t, "ffeeddccbbaa9988\n", data[Resource])

			require.NoError(t, Jar(path, "00112233aabbccdd"))
			again, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, once, again)
		})
	}
}

// TestJarStampLeavesOtherLinks: a jar the cache also holds under another
// name (a hard link) is stamped in a new file; the link keeps its bytes.
func TestJarStampLeavesOtherLinks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app.jar")
	writeJar(t, path, 3, "")
	held := filepath.Join(dir, "pack.jar")
	if err := os.Link(path, held); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	orig, err := os.ReadFile(held)
	require.NoError(t, err)
	require.NoError(t, Jar(path, "0123456789abcdef"))
	kept, err := os.ReadFile(held)
	require.NoError(t, err)
	require.Equal(t, orig, kept)
	names, _, _ := readJar(t, path)
	require.Equal(t, Resource, names[len(names)-1])
}

// TestZip64JarStamp: a jar of more than 65,535 entries (a zip64 end
// record) gets the stamp too.
func TestZip64JarStamp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jar")
	writeJar(t, path, 70000, "")
	require.NoError(t, Jar(path, "0123456789abcdef"))
	names, data, _ := readJar(t, path)
	require.Len(t, names, 70001)
	require.Equal(t, Resource, names[70000])
	require.Equal(t, "0123456789abcdef\n", data[Resource])
}

func TestJarStampRefusesWhatIsNoJar(t *testing.T) {
	path := filepath.Join(t.TempDir(), "not.jar")
	require.NoError(t, os.WriteFile(path, []byte("hello, not a zip"), 0o644))
	err := Jar(path, "0123456789abcdef")
	require.ErrorContains(t, err, "no end of central directory record")
}

func TestDirStamp(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, Dir(dir, "0123456789abcdef"))
	b, err := os.ReadFile(filepath.Join(dir, "META-INF", "tracebeat", "build-id"))
	require.NoError(t, err)
	require.Equal(t, "0123456789abcdef\n", string(b))
}
