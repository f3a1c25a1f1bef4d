package javatest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tracebeat/tracebeat/internal/jarpack"
)

// jarTime is the fixed timestamp of every jar entry, so equal inputs give
// byte-identical jars.
var jarTime = time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)

// Jar packs every regular file below classDir (classes and resources) into a
// deterministic jar in a test temp dir and returns its path.
func Jar(tb testing.TB, classDir string) string {
	tb.Helper()
	entries, err := jarpack.ReadTree(classDir, func(string) bool { return true })
	if err != nil {
		tb.Fatalf("javatest: jar %s: %v", classDir, err)
	}
	return WriteJar(tb, entries)
}

// WriteJar writes entries (slash-separated name -> content) to a new jar in a
// test temp dir, sorted by name with a fixed timestamp, and returns its path.
// Use it to build jars of patched or hand-picked classes.
func WriteJar(tb testing.TB, entries map[string][]byte) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "classes.jar")
	if err := writeJarFile(path, entries); err != nil {
		tb.Fatalf("javatest: %v", err)
	}
	return path
}

func writeJarFile(path string, entries map[string][]byte) error {
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: jarTime})
		if err != nil {
			return fmt.Errorf("jar %s: entry %s: %w", path, name, err)
		}
		if _, err := w.Write(entries[name]); err != nil {
			return fmt.Errorf("jar %s: entry %s: %w", path, name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("jar %s: %w", path, err)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// ClassFiles returns the class files of a directory or a jar, keyed by their
// slash-separated entry name ("com/example/Foo.class"). The byte slices are
// private copies the caller may modify.
func ClassFiles(tb testing.TB, dirOrJar string) map[string][]byte {
	tb.Helper()
	isClass := func(name string) bool { return strings.HasSuffix(name, ".class") }
	var (
		entries map[string][]byte
		err     error
	)
	if info, statErr := os.Stat(dirOrJar); statErr == nil && !info.IsDir() {
		entries, err = readJar(dirOrJar, isClass)
	} else {
		entries, err = jarpack.ReadTree(dirOrJar, isClass)
	}
	if err != nil {
		tb.Fatalf("javatest: class files of %s: %v", dirOrJar, err)
	}
	if len(entries) == 0 {
		tb.Fatalf("javatest: no class files in %s", dirOrJar)
	}
	return entries
}

// CopyDir copies a directory tree (for example a shared Javac output) into a
// test temp dir so the test may change it.
func CopyDir(tb testing.TB, dir string) string {
	tb.Helper()
	entries, err := jarpack.ReadTree(dir, func(string) bool { return true })
	if err != nil {
		tb.Fatalf("javatest: copy %s: %v", dir, err)
	}
	dst := tb.TempDir()
	for name, data := range entries {
		p := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatalf("javatest: copy %s: %v", dir, err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			tb.Fatalf("javatest: copy %s: %v", dir, err)
		}
	}
	return dst
}

func readJar(path string, keep func(name string) bool) (map[string][]byte, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return jarpack.ReadZip(&zr.Reader, keep)
}
