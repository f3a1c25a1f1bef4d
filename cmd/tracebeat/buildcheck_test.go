package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/methodmap"
)

// twoBuilds compiles the same small program twice, the second build with
// one method more (so every id after it moves), and instruments each.
func twoBuilds(t *testing.T) (classes [2]string) {
	t.Helper()
	const v1 = `package app;
public class Main {
    public static void main(String[] args) { System.out.println(new Main().run(args.length + 5)); }
    int run(int n) { int s = 0; for (int i = 0; i < n; i++) s += step(i); return s; }
    int step(int i) { return Integer.bitCount(i) + Math.abs(i - 3); }
}
`
	v2 := strings.Replace(v1, "    int step(", "    int added(int i) { return Integer.reverse(i); }\n    int step(", 1)
	for i, src := range []string{v1, v2} {
		dir := filepath.Join(t.TempDir(), "src", "app")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "Main.java"), []byte(src), 0o644))
		classes[i] = filepath.Join(t.TempDir(), "classes")
		compileJava(t, classes[i], filepath.Dir(dir))
	}
	return classes
}

// TestDecodeRefusesAnotherBuildsMap: a recording carries the build of the
// code that ran (the identity instrument stamps into its output); decode
// accepts that build's map, refuses the map of another build of the same
// program naming both identities, and decodes anyway with --any-map,
// warning.
func TestDecodeRefusesAnotherBuildsMap(t *testing.T) {
	builds := twoBuilds(t)
	_, mapOld, _ := recordProgram(t, builds[0], "app.Main", nil, nil, nil)
	trace, mapNew, out := recordProgram(t, builds[1], "app.Main", nil, nil, nil)
	require.Equal(t, "12\n", out)
	idOld, err := methodmap.ReadBuildID(mapOld)
	require.NoError(t, err)
	idNew, err := methodmap.ReadBuildID(mapNew)
	require.NoError(t, err)
	require.NotEqual(t, idOld, idNew)

	code, stdout, stderr := runDecodeArgs("--map", mapNew, trace)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, "app.Main.step(I)I")
	require.NotContains(t, stderr, "build")

	code, stdout, stderr = runDecodeArgs("--map", mapOld, trace)
	require.Equal(t, exitFailure, code, stdout)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "was recorded from build "+idNew+", but "+mapOld+" is the map of build "+idOld+": its ids name other methods")
	require.Contains(t, stderr, "--any-map")

	code, stdout, stderr = runDecodeArgs("--map", mapOld, "--any-map", trace)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stderr, "warning: "+mapOld+" is the map of build "+idOld)
	require.NotEmpty(t, stdout)

	// The identity instrument prints is the one decode checks.
	code, stdout, stderr = runCLI("instrument", "-o", filepath.Join(t.TempDir(), "again"), builds[1])
	require.Equal(t, exitOK, code, stderr)
	require.Regexp(t, regexp.MustCompile(`build=`+idNew+` `), stdout)
}

// TestInputsWithoutABuildSayWhatIsNotChecked: a Matrix buffer names no
// build; with a map, decode says that only the ids can be checked.
func TestInputsWithoutABuildSayWhatIsNotChecked(t *testing.T) {
	sample := filepath.Join("..", "..", "decode", "testdata", "sample")
	code, _, stderr := runDecodeArgs("--map", filepath.Join(sample, "methodMapping.txt"), filepath.Join(sample, "beat.txt"))
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stderr, "names no build (Matrix's runtime and systrace record none): that "+filepath.Join(sample, "methodMapping.txt")+" is its build's map is checked only by the ids it names")
}
