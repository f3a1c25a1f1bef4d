package javatest

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

const modulePath = "github.com/tracebeat/tracebeat"

var (
	repoRootOnce sync.Once
	repoRoot     string
	repoRootErr  error
)

// RepoRoot returns the absolute path of the tracebeat module root. It walks up
// from the working directory, which `go test` sets to the package under test,
// until it finds tracebeat's go.mod.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	repoRootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			repoRootErr = err
			return
		}
		for {
			data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
			if err == nil && bytes.Contains(data, []byte("module "+modulePath+"\n")) {
				repoRoot = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				repoRootErr = os.ErrNotExist
				return
			}
			dir = parent
		}
	})
	if repoRootErr != nil {
		tb.Fatalf("javatest: cannot find the go.mod of %s above the working directory: %v", modulePath, repoRootErr)
	}
	return repoRoot
}

// Testdata returns the absolute path of testdata/<elem...> in the module root
// and fails the test if it does not exist.
func Testdata(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{RepoRoot(tb), "testdata"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("javatest: fixture path: %v", err)
	}
	return p
}
