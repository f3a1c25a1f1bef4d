package tracebeat

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/internal/doccheck"
)

// TestDocsHoldTogether reads every Markdown document of the repository
// (internal/doccheck): its tables have as many cells in each row as in
// their head, its code fences are closed, its relative links and the
// repository paths it names in backticks exist.
func TestDocsHoldTogether(t *testing.T) {
	var tops []string
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		// out/ is the demo's and the tour's output (git ignores it): a path
		// in it is made by a command, not kept in the repository.
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Name() != "out" || e.Name() == ".ci" {
			tops = append(tops, e.Name())
		}
	}
	checked := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (path == "out" || path == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for _, p := range doccheck.Check(".", path, string(data), tops) {
			t.Error(p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("only %d documents found", checked)
	}
}
