package pathguard

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheck(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	root := t.TempDir()
	at := func(p string) string { return filepath.Join(root, p) }
	mk := func(p string) string {
		require.NoError(t, os.MkdirAll(filepath.Dir(at(p)), 0o755))
		require.NoError(t, os.WriteFile(at(p), []byte(p), 0o644))
		return at(p)
	}
	lib := mk("libs/app.jar")
	mk("classes/a/A.class")
	require.NoError(t, os.Symlink(at("libs"), at("out-link")))
	require.NoError(t, os.Link(lib, at("hard.jar")))
	require.NoError(t, os.MkdirAll(at("out"), 0o755))

	in := func(p string) Path { return Path{Role: "input", Path: p} }
	out := func(role, p string) Path { return Path{Role: role, Path: p} }
	inputs := []Path{in(lib), {Role: "input", Path: at("classes"), Tree: true}}
	tests := []struct {
		name    string
		outputs []Path
		overlap bool
		dup     bool
	}{
		{"separate folder", []Path{out("output", at("out/app.jar")), out("method map", at("out/methodMapping.txt"))}, false, false},
		{"mirror through a symlink to the input's folder", []Path{out("output", at("out-link/app.jar"))}, true, false},
		{"the input by name", []Path{out("output", lib)}, true, false},
		{"a hard link of the input", []Path{out("method map", at("hard.jar"))}, true, false},
		{"a dotted path to the input", []Path{out("output", at("out/../libs/./app.jar"))}, true, false},
		{"inside an input directory", []Path{out("report", at("classes/report.json"))}, true, false},
		{"a new file inside an input directory", []Path{out("output", at("classes/new/x.jar"))}, true, false},
		{"an input inside an output tree", []Path{{Role: "cache", Path: at("libs"), Tree: true}}, true, false},
		{"beside, not inside, an input directory", []Path{out("output", at("classes2/x.jar"))}, false, false},
		{"two maps on one path", []Path{out("method map", at("out/m.txt")), out("ignore map", at("out/m.txt"))}, false, true},
		{"two maps on one path through a link", []Path{out("method map", at("libs/m.txt")), out("report", at("out-link/m.txt"))}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(inputs, tt.outputs)
			var ov *OverlapError
			var dup *DuplicateError
			assert.Equal(t, tt.overlap, errors.As(err, &ov), "%v", err)
			assert.Equal(t, tt.dup, errors.As(err, &dup), "%v", err)
			if !tt.overlap && !tt.dup {
				assert.NoError(t, err)
			}
			if ov != nil {
				assert.Contains(t, err.Error(), ov.Output.Path)
				assert.Contains(t, err.Error(), ov.Input.Path)
			}
		})
	}
}
