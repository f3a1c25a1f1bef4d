package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// A mutant is tested only by the test functions that run its line, the
// quick ones first: most mutants fail a quick test, and a package whose
// slowest tests take seconds (diff's) would otherwise spend them on every
// mutant. Which tests run which line comes from running each test alone,
// once, with coverage of the code under the directory.

// testCase is one top-level test (Test, Fuzz's seeds, Example) of a test
// package.
type testCase struct {
	pkg  string // import path
	name string
	took time.Duration
	// everywhere: it failed when run alone, so its coverage is unknown
	// and it is run for every mutant.
	everywhere bool
}

// index is the coverage of each test: the blocks of each file (by absolute
// path), each with the tests that ran it.
type index struct {
	cases  []testCase
	blocks map[string][]block
}

// block is a coverage block and the tests (indices into index.cases) that
// ran it.
type block struct {
	startLine, startCol, endLine, endCol int
	by                                   []int
}

func (b block) holds(m *mutant) bool {
	after := m.line > b.startLine || (m.line == b.startLine && m.col >= b.startCol)
	before := m.line < b.endLine || (m.line == b.endLine && m.col <= b.endCol)
	return after && before
}

// testsFor returns the tests that may meet m: those that ran a block
// holding it, and those run everywhere. inBlock is false for code in no
// block (a switch's case expressions, which the cover tool counts in
// none): every test may meet it.
func (x *index) testsFor(m *mutant) (tests []int, inBlock bool) {
	abs, _ := filepath.Abs(m.file)
	seen := map[int]bool{}
	for _, b := range x.blocks[abs] {
		if !b.holds(m) {
			continue
		}
		inBlock = true
		for _, t := range b.by {
			if !seen[t] {
				seen[t] = true
				tests = append(tests, t)
			}
		}
	}
	if !inBlock {
		tests = tests[:0]
		for t := range x.cases {
			tests = append(tests, t)
		}
		return tests, false
	}
	if len(tests) == 0 {
		return nil, true // code no test runs
	}
	for t, c := range x.cases {
		if c.everywhere && !seen[t] {
			tests = append(tests, t)
		}
	}
	sort.Ints(tests)
	return tests, true
}

// buildIndex compiles each test package with coverage of the code under
// dir, lists its tests and runs each alone.
func buildIndex(dir string, pkgs []string, skip string, workers int) (*index, error) {
	tmp, err := os.MkdirTemp("", "mutate-index")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	module, err := modulePath()
	if err != nil {
		return nil, err
	}
	root, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	var skipRE *regexp.Regexp
	if skip != "" {
		if skipRE, err = regexp.Compile(skip); err != nil {
			return nil, fmt.Errorf("-skip: %w", err)
		}
	}
	type job struct {
		c      int // index into x.cases
		bin    string
		runDir string
	}
	x := &index{blocks: map[string][]block{}}
	var jobs []job
	for n, pkg := range pkgs {
		bin := filepath.Join(tmp, fmt.Sprintf("p%d.test", n))
		if runtime.GOOS == "windows" {
			bin += ".exe" // what Windows runs
		}
		build := exec.Command("go", "test", "-c", "-cover", "-coverpkg=./"+filepath.ToSlash(dir)+"/...", "-o", bin, pkg)
		if msg, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go test -c %s: %v\n%s", pkg, err, msg)
		}
		if _, err := os.Stat(bin); err != nil {
			continue // no test files
		}
		runDir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(pkg, module+"/")))
		list, err := exec.Command(bin, "-test.list", ".").Output()
		if err != nil {
			return nil, fmt.Errorf("%s -test.list: %w", pkg, err)
		}
		for _, name := range strings.Fields(string(list)) {
			if strings.HasPrefix(name, "Benchmark") || (skipRE != nil && skipRE.MatchString(name)) {
				continue
			}
			x.cases = append(x.cases, testCase{pkg: pkg, name: name})
			jobs = append(jobs, job{c: len(x.cases) - 1, bin: bin, runDir: runDir})
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan job)
	var firstErr error
	for range max(workers, 1) {
		wg.Go(func() {
			for j := range work {
				out := filepath.Join(tmp, fmt.Sprintf("c%d.out", j.c))
				c := &x.cases[j.c]
				cmd := exec.Command(j.bin, "-test.run", "^"+regexp.QuoteMeta(c.name)+"$", "-test.count=1",
					"-test.timeout=10m", "-test.coverprofile="+out)
				cmd.Dir = j.runDir
				start := time.Now()
				msg, runErr := cmd.CombinedOutput()
				took := time.Since(start)
				var cover map[string][]block
				var err error
				if runErr == nil {
					cover, err = readCoverage(out, module, root)
				}
				mu.Lock()
				c.took = took
				switch {
				case err != nil:
					if firstErr == nil {
						firstErr = err
					}
				case runErr != nil:
					fmt.Fprintf(os.Stderr, "mutate: %s %s fails when run alone: it runs for every mutant\n%s", c.pkg, c.name, lastLines(msg, 5))
					c.everywhere = true
				default:
					x.merge(cover, j.c)
				}
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	return x, firstErr
}

// merge adds one test's coverage: the blocks it ran get its index, the
// others are known as blocks.
func (x *index) merge(cover map[string][]block, test int) {
	if x.blocks == nil {
		x.blocks = map[string][]block{}
	}
	for file, bs := range cover {
		have := x.blocks[file]
		at := map[[4]int]int{}
		for i, b := range have {
			at[[4]int{b.startLine, b.startCol, b.endLine, b.endCol}] = i
		}
		for _, b := range bs {
			k := [4]int{b.startLine, b.startCol, b.endLine, b.endCol}
			i, ok := at[k]
			if !ok {
				have = append(have, block{startLine: b.startLine, startCol: b.startCol, endLine: b.endLine, endCol: b.endCol})
				i = len(have) - 1
				at[k] = i
			}
			if len(b.by) > 0 {
				have[i].by = append(have[i].by, test)
			}
		}
		x.blocks[file] = have
	}
}

// readCoverage reads a cover profile: each block of each file, with a
// by of one element when it ran.
func readCoverage(path, module, root string) (map[string][]block, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p := map[string][]block{}
	for _, line := range strings.Split(string(data), "\n")[1:] {
		// name.go:L.C,L.C statements count
		colon := strings.LastIndex(line, ":")
		if colon < 0 {
			continue
		}
		var b block
		var stmts, count int
		if _, err := fmt.Sscanf(line[colon+1:], "%d.%d,%d.%d %d %d", &b.startLine, &b.startCol, &b.endLine, &b.endCol, &stmts, &count); err != nil {
			return nil, fmt.Errorf("%s: %q: %w", path, line, err)
		}
		if count > 0 {
			b.by = []int{0}
		}
		abs := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(line[:colon], module+"/")))
		p[abs] = append(p[abs], b)
	}
	return p, nil
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n") + "\n"
}

// phases splits a mutant's tests into the runs tried in turn: those that
// took under a second alone, then the rest. A mutant a quick test kills
// never waits for the slow ones.
func (x *index) phases(tests []int) [][]int {
	var quick, slow []int
	for _, t := range tests {
		if x.cases[t].took < time.Second && !x.cases[t].everywhere {
			quick = append(quick, t)
		} else {
			slow = append(slow, t)
		}
	}
	var out [][]int
	for _, p := range [][]int{quick, slow} {
		if len(p) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// selection is what go test is given for some tests: their packages and
// a -run pattern naming them, and a timeout of five times what they took
// alone (at least 10 s).
func (x *index) selection(tests []int) (pkgs []string, run string, timeout time.Duration) {
	var names []string
	seenPkg, seenName := map[string]bool{}, map[string]bool{}
	var took time.Duration
	for _, t := range tests {
		c := x.cases[t]
		took += c.took
		if !seenPkg[c.pkg] {
			seenPkg[c.pkg] = true
			pkgs = append(pkgs, c.pkg)
		}
		if !seenName[c.name] {
			seenName[c.name] = true
			names = append(names, regexp.QuoteMeta(c.name))
		}
	}
	sort.Strings(pkgs)
	sort.Strings(names)
	return pkgs, "^(" + strings.Join(names, "|") + ")$", max(5*took, 10*time.Second)
}

// covers reports whether some test may run m's code: false only when it
// lies in blocks no test ran.
func (x *index) covers(m *mutant) bool {
	tests, inBlock := x.testsFor(m)
	return !inBlock || len(tests) > 0
}
