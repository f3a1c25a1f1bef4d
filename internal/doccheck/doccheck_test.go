package doccheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func problems(t *testing.T, text string) []string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "docs", "there.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "scripts", "test.sh"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range Check(root, "docs/doc.md", text, []string{"scripts", "docs"}) {
		out = append(out, p.String())
	}
	return out
}

// TestCheck: each kind of problem found once, where it is; what is right
// passes.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"good", "# t\n\n| a | b |\n| --- | --- |\n| `x|y` | 2 |\n\n```sh\n| not | a table\n```\n\n[there](there.md#part) [web](https://x.y) [here](#top) `scripts/test.sh` `scripts/*.sh` `out/x`\n", nil},
		{"broken table", "| a | b |\n| --- | --- |\n| 1 | 2 | 3 |\n", []string{"docs/doc.md:3: a table row of 3 cells where its head has 2"}},
		{"row broken in the middle", "| a | b |\n| --- | --- |\n| 1\n| 2 |\n", []string{"docs/doc.md:3: a table row of 1 cells where its head has 2", "docs/doc.md:4: a table row of 1 cells where its head has 2"}},
		{"no separator", "| a | b |\n| 1 | 2 |\n", []string{"docs/doc.md:1: a table without its separator row (| --- |) under its head"}},
		{"unbalanced fence", "text\n```go\ncode\n", []string{"docs/doc.md:2: the code fence opened here is never closed"}},
		{"a longer fence holds a shorter one", "````\n```\n````\n", nil},
		{"missing link", "see [that](gone.md) and [there](there.md)\n", []string{"docs/doc.md:1: the link gone.md names nothing here"}},
		{"missing path", "run `scripts/gone.sh` or `scripts/test.sh:3`\n", []string{"docs/doc.md:1: the path scripts/gone.sh names nothing in the repository"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := problems(t, tc.text)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
