package buildid

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadMatchesGoTool builds a small program for Linux, macOS and
// Windows and reads each binary's ID as `go tool buildid` does; a binary
// linked with -buildid= has none, and one with other code has another.
func TestReadMatchesGoTool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	write := func(body string) {
		require.NoError(t, os.WriteFile(src, []byte("package main\nfunc main() { println("+body+") }\n"), 0o644))
	}
	build := func(goos, out string, flags ...string) string {
		args := append([]string{"build", "-trimpath", "-o", out}, flags...)
		cmd := exec.Command("go", append(args, src)...)
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=")
		outText, err := cmd.CombinedOutput()
		require.NoError(t, err, string(outText))
		return out
	}
	goTool := func(bin string) string {
		out, err := exec.Command("go", "tool", "buildid", bin).Output()
		require.NoError(t, err)
		return strings.TrimSpace(string(out))
	}
	write(`"a"`)
	for _, goos := range []string{"linux", "darwin", "windows"} {
		bin := build(goos, filepath.Join(dir, goos+".bin"))
		id := Read(bin)
		assert.NotEmpty(t, id, goos)
		assert.Equal(t, goTool(bin), id, goos)
	}
	first := Read(filepath.Join(dir, "linux.bin"))
	write(`"b"`)
	assert.NotEqual(t, first, Read(build("linux", filepath.Join(dir, "other.bin"))), "other code, another ID")
	assert.Empty(t, Read(build("linux", filepath.Join(dir, "none.bin"), "-ldflags=-buildid=")))
	assert.Empty(t, Read(src), "not a binary")
	assert.Empty(t, Read(filepath.Join(dir, "missing")))
}
