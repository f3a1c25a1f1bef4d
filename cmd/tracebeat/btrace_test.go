package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// TestBtraceDirectives instruments javac-compiled classes (testdata/rules)
// with a block list of btrace's directives beside Matrix's and checks
// what each method became, per the precedence table: an exact
// -traceclassmethods beats -blockpackage, -blockclassmethods blocks one
// overload only, -traceclass and -tracemethodannotation override Matrix's
// method rules, -allowpackage leaves out everything else; and the report
// counts per rule, and the rule that matches nothing is warned about.
func TestBtraceDirectives(t *testing.T) {
	javatest.RequireJava(t)
	classes := javatest.Javac(t, javatest.Options{}, javatest.Testdata(t, "rules"))
	dir := t.TempDir()
	out, report := filepath.Join(dir, "out"), filepath.Join(dir, "report.json")
	filters := javatest.Testdata(t, "rules", "filters.txt")
	code, _, stderr := runCLI("instrument", "-o", out, "--blacklist", filters, "--report", report, classes)
	require.Equal(t, exitOK, code, stderr)

	data, err := os.ReadFile(filepath.Join(out, "methodMapping.txt"))
	require.NoError(t, err)
	var traced []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(line, ",", 3)
		if !strings.HasPrefix(parts[2], "android.os.Handler") {
			traced = append(traced, parts[2])
		}
	}
	sort.Strings(traced)
	assert.Equal(t, []string{
		"app.core.Engine marked ()V",        // @Traced, though empty
		"app.core.Engine run ()V",           // Matrix's rules
		"app.core.Engine shown ()V",         // @Visible (runtime retention), though empty
		"app.core.Engine skipped (J)V",      // the other overload is blocked
		"app.core.Getters <init> ()V",       // -traceclass
		"app.core.Getters getX ()I",         // -traceclass beats getter-setter
		"app.core.Getters setX (I)V",        //
		"app.core.Getters$Inner <init> ()V", // nested in a -traceclass class
		"app.core.Getters$Inner value ()I",  //
		"app.ui.View draw ()V",              // -traceclassmethods beats -blockpackage
	}, traced)

	var rep struct {
		Rules []struct {
			Rule             string
			Classes, Methods int
		}
	}
	raw, err := os.ReadFile(report)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &rep))
	counts := map[string][2]int{}
	for _, r := range rep.Rules {
		counts[r.Rule] = [2]int{r.Classes, r.Methods}
	}
	assert.Equal(t, map[string][2]int{
		"-allowpackage app":    {5, 0}, // the classes it lets through: not app.ui.View, which -blockpackage blocks
		"-blockpackage app.ui": {1, 2},
		"-blockclassmethods app.core.Engine { skipped(int, java.lang.String[]); }": {0, 1},
		"-traceclass app.core.Getters":                                             {0, 5},
		"-traceclassmethods app.ui.View { draw(); }":                               {0, 1},
		"-tracemethodannotation app.core.Traced":                                   {0, 1},
		"-tracemethodannotation app.core.Visible":                                  {0, 1},
		"-traceclassmethods app.core.Engine { missing(); }":                        {0, 0},
	}, counts)
	assert.Contains(t, stderr, "filters.txt:14: -traceclassmethods app.core.Engine { missing(); } matches no method of the inputs")
	assert.Equal(t, 1, strings.Count(stderr, "matches no"), stderr)

	// With a cache, the second run takes every scan from it (the rules are
	// not asked again): the report and the warnings are the same.
	cache := filepath.Join(dir, "cache")
	for run := 1; run <= 2; run++ {
		cachedOut, cachedReport := filepath.Join(dir, fmt.Sprint("cached", run)), filepath.Join(dir, fmt.Sprint("cached", run, ".json"))
		code, stdout, cstderr := runCLI("instrument", "-o", cachedOut, "--blacklist", filters, "--report", cachedReport, "--cache", cache, classes)
		require.Equal(t, exitOK, code, cstderr)
		if run == 2 {
			read := regexp.MustCompile(`classes: +(\d+) read`).FindStringSubmatch(stdout)
			require.NotNil(t, read, stdout)
			require.Contains(t, stdout, read[1]+" class scans", "the second run reuses every scan")
		}
		cached, err := os.ReadFile(cachedReport)
		require.NoError(t, err)
		assert.Equal(t, string(raw), string(cached), "run %d", run)
		assert.Equal(t, 1, strings.Count(cstderr, "matches no"), cstderr)
	}
}
