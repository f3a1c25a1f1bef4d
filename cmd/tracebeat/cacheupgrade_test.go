package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCacheStaysBoundedAcrossUpgrades builds three releases of the tool
// (each a binary of its own, so each keeps a run snapshot of its own in
// the cache) and runs them in turn on one cache, a week apart: each run
// removes what no run used for a week, so the cache holds the last
// release's snapshot and packs, and no more than after the first run.
func TestCacheStaysBoundedAcrossUpgrades(t *testing.T) {
	jar := insFixtureJar(t)
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	var first int64
	for i, v := range []string{"9.0.1", "9.0.2", "9.0.3"} {
		bin := filepath.Join(dir, "tracebeat-"+v)
		out, err := exec.Command("go", "build", "-ldflags", "-X main.version="+v, "-o", bin, ".").CombinedOutput()
		require.NoError(t, err, "go build: %s", out)
		if i > 0 {
			ageTree(t, cache, 8*24*time.Hour) // a week passes before the upgrade
		}
		got, err := exec.Command(bin, "instrument", "-q", "--cache", cache, "-o", filepath.Join(dir, "out"), jar).CombinedOutput()
		require.NoError(t, err, "%s: %s", v, got)
		size, runs := cacheSize(t, cache)
		if i == 0 {
			first = size
		}
		t.Logf("%s: cache %d bytes, run snapshots %v", v, size, runs)
		require.Len(t, runs, 1, "%s: one release's snapshot", v)
		require.LessOrEqual(t, size, first+first/10, "%s: the cache stays as it was after the first run", v)
	}
}

func ageTree(t *testing.T, root string, d time.Duration) {
	t.Helper()
	when := time.Now().Add(-d)
	require.NoError(t, filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, when, when)
	}))
}

// cacheSize is the bytes of the cache's files and the run identities in
// its runs folder.
func cacheSize(t *testing.T, root string) (int64, []string) {
	t.Helper()
	var size int64
	runs := map[string]bool{}
	require.NoError(t, filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		size += info.Size()
		if filepath.Base(filepath.Dir(p)) == "runs" {
			id, _, _ := strings.Cut(e.Name(), ".")
			runs[id] = true
		}
		return nil
	}))
	var ids []string
	for id := range runs {
		ids = append(ids, id)
	}
	return size, ids
}
