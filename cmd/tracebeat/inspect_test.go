package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// instrumentFixtures instruments the fixture jar in the given mode and
// returns the instrumented jar and its method map.
func instrumentFixtures(t *testing.T, mode string) (jar string, m *methodmap.Map, mapPath string) {
	t.Helper()
	orig := insFixtureJar(t)
	out := t.TempDir()
	code, _, stderr := runCLI("instrument", "--mode", mode, "-o", out, orig)
	require.Equal(t, exitOK, code, stderr)
	mapPath = filepath.Join(out, "methodMapping.txt")
	m, err := methodmap.ReadMapFile(mapPath)
	require.NoError(t, err)
	return filepath.Join(out, filepath.Base(orig)), m, mapPath
}

// inspectedMethod is one method as inspect printed it.
type inspectedMethod struct {
	marked        bool   // '+' margin
	name, desc    string // name and descriptor
	id, mapID     int    // -1 when not shown
	mismatch      bool
	body          []string // instruction and table lines
	enterIDs      []int
	handlers      int // "catch-all handler" comments
	lastTableLine string
}

var (
	methodHeaderRe = regexp.MustCompile(`^([+ ]) method (?:[a-z]+ )*(\S+?)(\(\S*)(.*)$`)
	enterCommentRe = regexp.MustCompile(`// tracebeat: enter id=(\d+)`)
)

// parseInspect splits inspect's output into methods.
func parseInspect(t *testing.T, out string) []inspectedMethod {
	t.Helper()
	var ms []inspectedMethod
	for _, l := range strings.Split(out, "\n") {
		if h := methodHeaderRe.FindStringSubmatch(l); h != nil {
			m := inspectedMethod{marked: h[1] == "+", name: h[2], desc: h[3], id: -1, mapID: -1}
			for _, f := range strings.Fields(h[4]) {
				if v, ok := strings.CutPrefix(f, "id="); ok {
					m.id, _ = strconv.Atoi(v)
				}
				if v, ok := strings.CutPrefix(f, "map="); ok && v != "none" {
					m.mapID, _ = strconv.Atoi(v)
				}
				m.mismatch = m.mismatch || f == "MISMATCH"
			}
			ms = append(ms, m)
			continue
		}
		if len(ms) == 0 || l == "" {
			continue
		}
		m := &ms[len(ms)-1]
		m.body = append(m.body, l)
		if e := enterCommentRe.FindStringSubmatch(l); e != nil {
			id, _ := strconv.Atoi(e[1])
			m.enterIDs = append(m.enterIDs, id)
		}
		if strings.Contains(l, "// tracebeat: catch-all handler") {
			m.handlers++
		}
		if strings.HasPrefix(l, "    ") && regexp.MustCompile(`^    [+ ] +\d+ +\d+ +\d+  `).MatchString(l) {
			m.lastTableLine = l
		}
	}
	return ms
}

// TestInspectMarksInjectedCode instruments the fixtures and inspects every
// class with --map: each traced method is marked, shows the id of the map
// in its entry calls and its header, has one catch-all handler as the last
// exception-table entry; untraced methods carry no id.
func TestInspectMarksInjectedCode(t *testing.T) {
	for _, mode := range []string{"beat", "systrace"} {
		t.Run(mode, func(t *testing.T) {
			jar, m, mapPath := instrumentFixtures(t, mode)
			ids := m.IDs()
			classes := javatest.ClassFiles(t, jar)
			seen := map[int]bool{}
			focus := 0
			for entry := range classes {
				class := strings.TrimSuffix(entry, ".class")
				code, stdout, stderr := runCLI("inspect", "--map", mapPath, jar+"!"+entry)
				require.Equal(t, exitOK, code, stderr)
				focus += strings.Count(stdout, "// tracebeat: focus")
				for _, im := range parseInspect(t, stdout) {
					where := class + "." + im.name + im.desc
					id, traced := ids[methodmap.MethodKey{Class: class, Name: im.name, Desc: im.desc}]
					assert.False(t, im.mismatch, where)
					if !traced {
						assert.Equal(t, -1, im.id, "%s: no entry call without a map entry", where)
						assert.Equal(t, -1, im.mapID, where)
						continue
					}
					seen[id] = true
					assert.True(t, im.marked, "%s is traced, must be marked", where)
					assert.Equal(t, id, im.id, "%s: id read from the code", where)
					assert.Equal(t, id, im.mapID, "%s: id from --map", where)
					require.NotEmpty(t, im.enterIDs, where)
					for _, e := range im.enterIDs {
						assert.Equal(t, id, e, where)
					}
					assert.Equal(t, 1, im.handlers, "%s: one catch-all handler", where)
					assert.Regexp(t, `^    \+ .* any +// tracebeat: catch-all$`, im.lastTableLine, "%s: the handler is the last entry", where)
				}
			}
			// Every id of the map was found in the code.
			var want []int
			for _, e := range m.Entries {
				if e.ID != methodmap.DispatchID {
					want = append(want, e.ID)
				}
			}
			var got []int
			for id := range seen {
				got = append(got, id)
			}
			sort.Ints(got)
			assert.Equal(t, want, got)
			if mode == "beat" {
				assert.Positive(t, focus, "the Activity fixtures get the focus call")
			} else {
				assert.Zero(t, focus, "no focus call in systrace mode")
			}
		})
	}
}

// TestInspectOriginalHasNoMarks: nothing is marked in code tracebeat did
// not touch, and the jar listing says so.
func TestInspectOriginalHasNoMarks(t *testing.T) {
	jar := insFixtureJar(t)
	classes := javatest.ClassFiles(t, jar)
	code, stdout, stderr := runCLI("inspect", jar)
	require.Equal(t, exitOK, code, stderr)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	assert.Len(t, lines, len(classes)+1, "one line per class and a summary")
	assert.Equal(t, jar+": "+strconv.Itoa(len(classes))+" classes, 0 with injected code", lines[len(lines)-1])
	for entry := range classes {
		code, stdout, stderr := runCLI("inspect", jar+"!"+entry)
		require.Equal(t, exitOK, code, stderr)
		assert.NotContains(t, stdout, "tracebeat:", entry)
		assert.NotRegexp(t, `(?m)^ *(\d+: )?\+ `, stdout, entry)
	}
}

// TestInspectListMatchesClasses: the listing of an instrumented jar counts
// per class the methods inspect marks.
func TestInspectListMatchesClasses(t *testing.T) {
	jar, _, _ := instrumentFixtures(t, "beat")
	code, stdout, stderr := runCLI("inspect", jar)
	require.Equal(t, exitOK, code, stderr)
	listRe := regexp.MustCompile(`^(\S+\.class)  methods=(\d+) instrumented=(\d+)$`)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	withCode := 0
	for _, l := range lines[:len(lines)-1] {
		m := listRe.FindStringSubmatch(l)
		require.NotNil(t, m, l)
		_, out, _ := runCLI("inspect", "--no-code", jar+"!"+m[1])
		methods := parseInspect(t, out)
		marked := 0
		for _, im := range methods {
			if im.marked {
				marked++
			}
			assert.Empty(t, im.body, "--no-code prints no instructions")
		}
		assert.Equal(t, m[2], strconv.Itoa(len(methods)), l)
		assert.Equal(t, m[3], strconv.Itoa(marked), l)
		if marked > 0 {
			withCode++
		}
	}
	assert.Regexp(t, `: \d+ classes, `+strconv.Itoa(withCode)+` with injected code$`, lines[len(lines)-1])
	assert.Positive(t, withCode)
}

// TestInspectSelectors: the ways of naming a class give the same output.
func TestInspectSelectors(t *testing.T) {
	classes := insFixtureClasses(t)
	jar := javatest.Jar(t, classes)
	_, want, _ := runCLI("inspect", filepath.Join(classes, "ins", "Throwing.class"))
	require.Contains(t, want, "class ins/Throwing extends java/lang/Object")
	body := func(s string) string { _, rest, _ := strings.Cut(s, "\n"); return rest }
	for _, args := range [][]string{
		{jar + "!ins/Throwing.class"},
		{jar + "!ins/Throwing"},
		{jar + "!ins.Throwing"},
		{"--class", "ins.Throwing", jar},
		{"--class", "ins/Throwing.class", jar},
		{classes + "!ins/Throwing"},
		{"--class", "ins.Throwing", classes},
	} {
		code, got, stderr := runCLI(append([]string{"inspect"}, args...)...)
		require.Equal(t, exitOK, code, "%v: %s", args, stderr)
		assert.Equal(t, body(want), body(got), "%v", args)
	}

	// --method by name, and by name and descriptor.
	all := parseInspect(t, want)
	require.NotEmpty(t, all)
	pick := all[len(all)-1]
	for _, sel := range []string{pick.name, pick.name + pick.desc} {
		_, out, _ := runCLI("inspect", "--method", sel, jar+"!ins/Throwing")
		ms := parseInspect(t, out)
		require.NotEmpty(t, ms, sel)
		for _, m := range ms {
			assert.Equal(t, pick.name, m.name, sel)
			if strings.Contains(sel, "(") {
				assert.Equal(t, pick.desc, m.desc, sel)
			}
		}
	}
}

func TestInspectErrors(t *testing.T) {
	classes := insFixtureClasses(t)
	jar := javatest.Jar(t, classes)
	dir := t.TempDir()
	notJar := writeTestFile(t, dir, "notes.txt", "plain text\n")
	badMap := writeTestFile(t, dir, "map.txt", "1,1,ins.Throwing run ()V\nnot a map line\n")
	good := insFixtureClass(t, "ins/Throwing.class")
	brokenJar := buildTestJar(t, dir, "broken.jar", testZipEntry{name: "a/Broken.class", body: good[:40]})
	classFile := filepath.Join(classes, "ins", "Throwing.class")
	missing := filepath.Join(dir, "missing.jar")
	tests := []struct {
		name    string
		args    []string
		code    int
		wantErr string
	}{
		{"no argument", nil, exitUsage, "want exactly one"},
		{"two arguments", []string{jar, jar}, exitUsage, "want exactly one"},
		{"unknown flag", []string{"--verbose", jar}, exitUsage, "unknown flag: --verbose"},
		{"--no-code without a class", []string{"--no-code", jar}, exitUsage, "--method and --no-code need a class"},
		{"missing file", []string{missing}, exitFailure, "input " + missing + ": no such file or directory"},
		{"missing file with entry", []string{missing + "!a/B.class"}, exitFailure, "input " + missing + ": no such file or directory"},
		{"missing entry", []string{jar + "!ins/Nope"}, exitFailure, jar + ": no class ins/Nope (looked for ins/Nope.class)"},
		{"missing class in directory", []string{"--class", "ins.Nope", classes}, exitFailure, classes + ": no class ins.Nope"},
		{"entry and --class", []string{"--class", "ins.Returns", jar + "!ins/Throwing"}, exitFailure, jar + ": both !ins/Throwing and --class ins.Returns given"},
		{"entry of a class file", []string{classFile + "!x"}, exitFailure, classFile + `: a class file has no entry "x"`},
		{"neither class nor jar", []string{notJar}, exitFailure, notJar + ": neither a class file nor a readable jar"},
		{"no such method", []string{"--method", "nope", jar + "!ins/Throwing"}, exitFailure, jar + "!ins/Throwing.class: no method nope in class ins/Throwing"},
		{"malformed map", []string{"--map", badMap, jar + "!ins/Throwing"}, exitFailure, "map: " + badMap + ": line 2: "},
		{"missing map", []string{"--map", missing, jar + "!ins/Throwing"}, exitFailure, "map " + missing + ": no such file or directory"},
		{"unparsable class", []string{brokenJar + "!a/Broken"}, exitFailure, brokenJar + "!a/Broken.class: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(append([]string{"inspect"}, tc.args...)...)
			assert.Equal(t, tc.code, code, stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "tracebeat inspect: "+tc.wantErr)
			assert.NotContains(t, stderr, "goroutine")
		})
	}

	// The jar listing names an unparsable class instead of failing.
	code, stdout, stderr := runCLI("inspect", brokenJar)
	assert.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "a/Broken.class  cannot parse: ")
	assert.Contains(t, stdout, ": 1 class, 0 with injected code, 1 unreadable")
}

// codeToken is one instruction ("12 ifeq 40") or switch case ("case 3 40")
// as both javap and inspect print them.
type codeTokens []string

var (
	javapInsnRe   = regexp.MustCompile(`^\s+(\d+): ([a-z][a-z0-9_]*)\s*(.*)$`)
	inspectInsnRe = regexp.MustCompile(`^\s+(\d+): [+ ] ([a-z][a-z0-9_]*)(?: (.*))?$`)
	caseRe        = regexp.MustCompile(`^\s+(-?\d+|default): (\d+)$`)
)

// tokens extracts offsets, mnemonics, branch targets and switch cases.
func tokens(out string, insn *regexp.Regexp) codeTokens {
	var ts codeTokens
	for _, l := range strings.Split(out, "\n") {
		if m := caseRe.FindStringSubmatch(l); m != nil {
			ts = append(ts, "case "+m[1]+" "+m[2])
			continue
		}
		m := insn.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		op, rest := m[2], strings.Fields(m[3])
		if op == "wide" && len(rest) > 0 { // inspect: "wide iload 300", javap: "iload_w 300"
			op, rest = rest[0]+"_w", rest[1:]
		}
		t := m[1] + " " + op
		if isBranchMnemonic(op) && len(rest) > 0 {
			t += " " + rest[0]
		}
		ts = append(ts, t)
	}
	return ts
}

func isBranchMnemonic(op string) bool {
	return strings.HasPrefix(op, "if") || strings.HasPrefix(op, "goto") || strings.HasPrefix(op, "jsr")
}

// TestInspectOffsetsMatchJavap compares instruction offsets, mnemonics,
// branch targets and switch tables with javap's on fixtures with switches
// (padding), wide locals, big methods and on instrumented code.
func TestInspectOffsetsMatchJavap(t *testing.T) {
	javap, err := exec.LookPath("javap")
	if err != nil {
		t.Skip("javap not on PATH")
	}
	cfClasses := func() string { javatest.RequireJava(t); return javatest.ClassfileFixtures(t) }()
	instrumented, _, _ := instrumentFixtures(t, "beat")
	tests := []struct {
		classpath string
		classes   []string
		path      func(class string) string
	}{
		{cfClasses, []string{"cf.Switches", "cf.BigSwitch", "cf.WideLocals", "cf.BigMethod", "cf.Exceptions", "cf.Constructors"},
			func(c string) string { return filepath.Join(cfClasses, strings.ReplaceAll(c, ".", "/")+".class") }},
		{instrumented, []string{"ins.Throwing", "ins.Returns", "ins.Construction", "ins.Big"},
			func(c string) string { return instrumented + "!" + c }},
	}
	for _, tc := range tests {
		for _, class := range tc.classes {
			if _, err := os.Stat(strings.Split(tc.path(class), "!")[0]); err != nil {
				t.Fatalf("%s: %v", class, err)
			}
		}
		out, err := exec.Command(javap, append([]string{"-c", "-p", "-cp", tc.classpath}, tc.classes...)...).CombinedOutput()
		require.NoError(t, err, "%s", out)
		// javap prints the classes one after another, each starting with
		// its "Compiled from" line.
		parts := strings.Split(string(out), "Compiled from")[1:]
		require.Len(t, parts, len(tc.classes))
		for i, class := range tc.classes {
			code, stdout, stderr := runCLI("inspect", tc.path(class))
			require.Equal(t, exitOK, code, stderr)
			want := tokens(parts[i], javapInsnRe)
			require.NotEmpty(t, want, class)
			assert.Equal(t, want, tokens(stdout, inspectInsnRe), class)
		}
	}
}
