package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Windows paths where tracebeat parses them. Nothing here can run the
// Windows binary, so the parsing is tested on its own with the paths a
// Windows user (or the Gradle plugin on Windows) writes.

func TestSplitClassArgWindowsPaths(t *testing.T) {
	tests := []struct {
		arg, existing     string
		wantPath, wantEnt string
	}{
		{`C:\app\lib.jar!com/a/B.class`, "", `C:\app\lib.jar`, "com/a/B.class"},
		{`C:\app\lib.jar!com/a/B`, "", `C:\app\lib.jar`, "com/a/B"},
		{`C:\Program Files\my app\lib.jar!com/a/B$1.class`, "", `C:\Program Files\my app\lib.jar`, "com/a/B$1.class"},
		{`\\server\share\lib.jar!com/a/B.class`, "", `\\server\share\lib.jar`, "com/a/B.class"},
		{`C:\wow!\lib.jar!com/a/B.class`, "", `C:\wow!\lib.jar`, "com/a/B.class"},
		// A file whose own name has '!' is taken whole.
		{`C:\app\odd!name.jar`, `C:\app\odd!name.jar`, `C:\app\odd!name.jar`, ""},
		{`C:\app\classes`, "", `C:\app\classes`, ""},
	}
	for _, tc := range tests {
		path, entry := splitClassArg(tc.arg, func(p string) bool { return p == tc.existing })
		assert.Equal(t, tc.wantPath, path, tc.arg)
		assert.Equal(t, tc.wantEnt, entry, tc.arg)
	}
}

func TestArgfileAndConfigWindowsPaths(t *testing.T) {
	dir := t.TempDir()
	// What the Gradle plugin writes on Windows: CRLF, backslashes, spaces.
	args := writeTestFile(t, dir, "inputs.args", "C:\\Users\\me\\app\\build\\classes\\java\\main\r\nC:\\Program Files\\lib\\dep.jar\r\n\\\\server\\share\\x.jar\r\n")
	got, err := expandArgfiles([]string{"@" + args})
	require.NoError(t, err)
	assert.Equal(t, []string{`C:\Users\me\app\build\classes\java\main`, `C:\Program Files\lib\dep.jar`, `\\server\share\x.jar`}, got)

	conf := writeTestFile(t, dir, "instrument.conf", "output = C:\\Users\\me\\app\\build\\tracebeat\\out.jar\r\n"+
		"classpath = C:\\Android\\sdk\\platforms\\android-34\\android.jar\r\n"+
		"method-map = D:\\maps\\methodMapping.txt\r\n")
	entries, err := readConfig(conf)
	require.NoError(t, err)
	require.Len(t, entries, 3)
	assert.Equal(t, configEntry{"output", `C:\Users\me\app\build\tracebeat\out.jar`, 1}, entries[0])
	assert.Equal(t, configEntry{"classpath", `C:\Android\sdk\platforms\android-34\android.jar`, 2}, entries[1])
	assert.Equal(t, configEntry{"method-map", `D:\maps\methodMapping.txt`, 3}, entries[2])
}
