package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/methodmap"
)

// TestMatrixConfigurationFirstBuild: a Matrix configuration works on the
// first build: a base map that does not exist yet is a warning (ids
// start at 1; --strict: an error), and a Matrix block list with CRLF,
// comments, sections and a directive tracebeat does not know loads, the
// unknown line skipped with a warning naming file:line.
func TestMatrixConfigurationFirstBuild(t *testing.T) {
	dir := t.TempDir()
	jar := insFixtureJar(t)
	list := writeTestFile(t, dir, "blackMethodList.txt",
		"[package]\r\n# keep the recursion fixture\r\n  -keepclass ins/Throwing  \r\n\r\n-keepclassmembers class ins.Big { *; }\r\n[class]\r\n")
	missing := filepath.Join(dir, "release", "methodMapping.txt")
	out := filepath.Join(dir, "out")
	code, _, stderr := runCLI("instrument", "--base-map", missing, "--blacklist", list, "-o", out, jar)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "no base map at "+missing+" yet: ids start at 1")
	assert.Contains(t, stderr, list+`:5: unknown directive "-keepclassmembers"`)
	assert.Contains(t, stderr, "line skipped, as Matrix skips it")
	m, err := methodmap.ReadMapFile(filepath.Join(out, "methodMapping.txt"))
	require.NoError(t, err)
	assert.Equal(t, 1, m.Entries[0].ID, "ids start at 1")
	for _, e := range m.Entries {
		assert.NotEqual(t, "ins/Throwing", e.Key.Class, "the -keepclass line was read")
	}

	code, _, stderr = runCLI("instrument", "--strict", "--base-map", missing, "-o", filepath.Join(dir, "strict"), jar)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, missing)
	code, _, stderr = runCLI("instrument", "--strict", "--blacklist", list, "-o", filepath.Join(dir, "strict2"), jar)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, list+":5:")
}

// TestRulesSayWhatTheyDid: a rule that blocks nothing is reported with
// file:line; where Matrix's prefix reading would have blocked classes the
// warning counts them and gives the rule to write; the report counts the
// classes and methods each rule blocked.
func TestRulesSayWhatTheyDid(t *testing.T) {
	dir := t.TempDir()
	jar := insFixtureJar(t)
	list := writeTestFile(t, dir, "rules.txt", strings.Join([]string{
		"-keepclass ins/Throwing",    // 1: matches
		"-keeppackage in",            // 2: a prefix of ins/
		"-keepclass ins/Recursio",    // 3: a prefix of ins/Recursion
		"-keeppackage com/nothing/",  // 4: nothing near
		"-keepclass ins/sub/Missing", // 5: nearest package ins/
	}, "\n")+"\n")
	report := filepath.Join(dir, "report.json")
	code, _, stderr := runCLI("instrument", "--blacklist", list, "--report", report, "-o", filepath.Join(dir, "out"), jar)
	require.Equal(t, exitOK, code, stderr)
	assert.NotContains(t, stderr, list+":1:")
	assert.Regexp(t, regexpQuote(list)+`:2: -keeppackage in/ matches no class of the inputs; Matrix read it as a prefix and blocked \d+ classes: write -keeppackage ins/`, stderr)
	assert.Contains(t, stderr, list+":3: -keepclass ins/Recursio matches no class of the inputs; Matrix read it as a prefix and blocked 1 class: write -keepclass ins/Recursion")
	assert.Contains(t, stderr, list+":4: -keeppackage com/nothing/ matches no class of the inputs; no input class shares its first package")
	assert.Contains(t, stderr, list+":5: -keepclass ins/sub/Missing matches no class of the inputs; the nearest package among them is ins/")

	var rep methodmap.Report
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep))
	require.Len(t, rep.Rules, 5)
	assert.Equal(t, methodmap.RuleCount{Rule: "-keepclass ins/Throwing", Origin: list + ":1", Classes: 1, Methods: rep.Rules[0].Methods}, rep.Rules[0])
	assert.Positive(t, rep.Rules[0].Methods)
	for _, r := range rep.Rules[1:] {
		assert.Zero(t, r.Classes, r.Rule)
	}
}

// TestMissingFilesReadTheSameWithACache: an option naming a file that
// does not exist yet behaves the same with and without --cache (Gradle
// passes --cache by default): a block list or base map not written yet is
// a warning and the run writes what a run without the option writes; a
// missing ProGuard mapping is an error naming it either way; --strict
// makes the first two errors either way.
func TestMissingFilesReadTheSameWithACache(t *testing.T) {
	jar := insFixtureJar(t)
	cases := []struct {
		flag, warning string
		fails         bool
	}{
		{"--blacklist", "no block list at ", false},
		{"--base-map", "no base map at ", false},
		{"--mapping", "", true},
	}
	for _, c := range cases {
		for _, strict := range []bool{false, true} {
			name := strings.TrimPrefix(c.flag, "--")
			if strict {
				name += "/strict"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				missing := filepath.Join(dir, "not-yet", "file.txt")
				plain := filepath.Join(dir, "plain")
				code, _, _ := runCLI("instrument", "-o", plain, jar)
				require.Equal(t, exitOK, code)
				for _, cache := range []bool{false, true} {
					out := filepath.Join(dir, fmt.Sprintf("out-cache-%v", cache))
					args := []string{"instrument", c.flag, missing, "-o", out}
					if cache {
						args = append(args, "--cache", filepath.Join(dir, "cache"))
					}
					if strict {
						args = append(args, "--strict")
					}
					code, _, stderr := runCLI(append(args, jar)...)
					if c.fails || strict {
						assert.Equal(t, exitFailure, code, "cache=%v: %s", cache, stderr)
						assert.Contains(t, stderr, missing, "cache=%v", cache)
						assert.NoDirExists(t, out, "cache=%v", cache)
						continue
					}
					require.Equal(t, exitOK, code, "cache=%v: %s", cache, stderr)
					assert.Contains(t, stderr, c.warning+missing, "cache=%v", cache)
					assert.Equal(t, readTree(t, plain), readTree(t, out), "cache=%v: the outputs of a run without %s", cache, c.flag)
				}
			})
		}
	}
}
