// Command mutate measures how well a package's tests catch bugs: it makes
// one small change at a time in the package's code (a mutant: a boundary
// or a comparison flipped, an operator of arithmetic swapped, ++ for --,
// a negation dropped), runs the package's tests against it, and counts
// the mutants the tests kill. scripts/mutate.sh runs it over the core
// packages; docs/testing.md holds the scores and the survivors.
//
// The tree is never written: each mutant reaches the compiler through
// `go test -overlay`, so runs share the build cache and a killed run
// leaves nothing behind. A package's tests are those of its directory and
// the directories below it (decode's tests cover decode/traceout's
// writers). Each test is run alone once, with coverage (testindex.go); a
// mutant is then tested by the tests that ran its line only, those that
// took under a second first. Mutants in code no test runs are not run and
// count as survivors.
//
// With -results FILE the outcome of every mutant is kept in FILE, each
// with a digest of the code under its directory; the next run takes a
// mutant the tests detected from it again while that code is unchanged,
// and tests the others anew. Tests only added cannot undo a detection, so this is
// sound while tests are added and not weakened; a run without -results
// tests every mutant.
//
// Usage: go run ./internal/tools/mutate [-workers N] [-skip REGEXP]
// [-equivalent FILE] [-results FILE] [-files REGEXP] [-sample K] [-v]
// [-table] DIR...
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// mutant is one change: the bytes [off, end) of file replaced by repl.
// from and to name it in keys (an operator and its replacement, or what
// a statement change does: "call none", "if-body {}", "return-err nil").
type mutant struct {
	file      string // path relative to the module root
	line, col int
	off, end  int
	repl      string
	from, to  string
	kind      string
	status    string // killed, lived, not-covered, timed-out, not-viable, equivalent, error
}

func (m *mutant) where() string { return fmt.Sprintf("%s:%d:%d", m.file, m.line, m.col) }

// key names the mutant as scripts/mutate-equivalent.txt does: where, the
// operator, and what replaced it ("none" for a dropped minus).
func (m *mutant) key() string {
	to := m.to
	if to == "" {
		to = "none"
	}
	return fmt.Sprintf("%s %s %s", m.where(), m.from, to)
}

func main() {
	workers := flag.Int("workers", runtime.NumCPU(), "mutants tested at once")
	skip := flag.String("skip", "", "tests left out (go test -skip)")
	equivalentFile := flag.String("equivalent", "", "file of mutants known equivalent: lines `file:line:col from to  # why` (to is \"none\" for a dropped minus)")
	sample := flag.Int("sample", 1, "test every K-th mutant only (a quick look)")
	resultsFile := flag.String("results", "", "file keeping every mutant's outcome; detected mutants are taken from it while the code under their directory is unchanged")
	filesPattern := flag.String("files", "", "mutate only the files whose path matches this regexp")
	verbose := flag.Bool("v", false, "print every mutant's outcome")
	checkEquivalent := flag.Bool("check-equivalent", false, "test the mutants written down as equivalent too, and fail when the tests detect one, or an entry matches no mutant")
	table := flag.Bool("table", false, "print each DIR's outcomes in the -results file by operator, for its code as it is, and run nothing")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mutate [-workers N] [-skip REGEXP] [-equivalent FILE] [-results FILE] [-files REGEXP] [-sample K] [-v] [-table] DIR...")
		os.Exit(2)
	}
	equivalent, err := readEquivalent(*equivalentFile)
	if err != nil {
		fail(err)
	}
	files, err := regexp.Compile(*filesPattern)
	if err != nil {
		fail(fmt.Errorf("-files: %w", err))
	}
	previous, err := readResults(*resultsFile)
	if err != nil {
		fail(err)
	}
	run := &run{workers: *workers, skip: *skip, sample: *sample, verbose: *verbose,
		equivalent: equivalent, files: files, previous: previous, resultsFile: *resultsFile, checkEquivalent: *checkEquivalent}
	if *table {
		for _, dir := range flag.Args() {
			if err := run.table(filepath.Clean(dir)); err != nil {
				fail(fmt.Errorf("%s: %w", dir, err))
			}
		}
		return
	}
	var total counts
	byKind := map[string]*counts{}
	for _, dir := range flag.Args() {
		c, err := run.mutatePackage(filepath.Clean(dir), byKind)
		if err != nil {
			fail(fmt.Errorf("%s: %w", dir, err))
		}
		run.save()
		fmt.Printf("mutate: %s %s\n", dir, c)
		total.add(c)
		total.packages++
	}
	for _, k := range kinds {
		if c := byKind[k]; c != nil {
			fmt.Printf("mutate: operator %-10s mutants=%d killed=%d survived=%d timed_out=%d score=%s\n", k, c.mutants(), c.killed, c.survived(), c.timedOut, c.score())
		}
	}
	fmt.Printf("mutate: packages=%d mutants=%d killed=%d survived=%d timed_out=%d score=%s\n",
		total.packages, total.mutants(), total.killed, total.survived(), total.timedOut, total.score())
	if len(run.problems) > 0 {
		for _, p := range run.problems {
			fmt.Fprintln(os.Stderr, "mutate:", p)
		}
		fail(fmt.Errorf("%d entries of the equivalent list are wrong or stale", len(run.problems)))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mutate:", err)
	os.Exit(1)
}

// counts are the outcomes of a package's mutants.
type counts struct {
	packages                                              int
	killed, lived, notCovered, timedOut, notViable, equiv int
	errors                                                int // a kill the unmutated code failed too: not counted
}

func (c *counts) add(o counts) {
	c.killed += o.killed
	c.lived += o.lived
	c.notCovered += o.notCovered
	c.timedOut += o.timedOut
	c.notViable += o.notViable
	c.equiv += o.equiv
	c.errors += o.errors
}

// count adds one mutant's outcome.
func (c *counts) count(status string) {
	switch status {
	case "killed":
		c.killed++
	case "lived":
		c.lived++
	case "not-covered":
		c.notCovered++
	case "timed-out":
		c.timedOut++
	case "not-viable":
		c.notViable++
	case "equivalent":
		c.equiv++
	case "error":
		c.errors++
	}
}

// mutants counts those that compile and are not known equivalent.
func (c counts) mutants() int  { return c.killed + c.timedOut + c.survived() }
func (c counts) survived() int { return c.lived + c.notCovered }

// score is the share of mutants the tests detect (killed or made to hang).
func (c counts) score() string {
	if c.mutants() == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(c.killed+c.timedOut)/float64(c.mutants()))
}

func (c counts) String() string {
	return fmt.Sprintf("mutants=%d killed=%d survived=%d (lived %d, not covered %d) timed_out=%d equivalent=%d not_viable=%d errors=%d score=%s",
		c.mutants(), c.killed, c.survived(), c.lived, c.notCovered, c.timedOut, c.equiv, c.notViable, c.errors, c.score())
}

// readEquivalent reads the mutants written down as equivalent, keyed
// "file:line:col from to".
func readEquivalent(path string) (map[string]bool, error) {
	out := map[string]bool{}
	if path == "" {
		return out, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	// Each entry keeps its reason: a comment on its line, or the comment
	// that opens its paragraph.
	explained := false
	for n, raw := range strings.Split(string(data), "\n") {
		line, why, inline := strings.Cut(raw, "#")
		f := strings.Fields(line)
		switch {
		case strings.TrimSpace(raw) == "":
			explained = false
			continue
		case len(f) == 0:
			explained = true // a comment line
			continue
		case len(f) != 3:
			return nil, fmt.Errorf("%s:%d: want `file:line:col from to  # why` (to is \"none\" for a dropped minus)", path, n+1)
		case !explained && (!inline || strings.TrimSpace(why) == ""):
			return nil, fmt.Errorf("%s:%d: %s has no reason: a comment on its line or above it", path, n+1, strings.Join(f, " "))
		}
		out[strings.Join(f, " ")] = true
	}
	return out, nil
}

// stale lists the entries of the equivalent list, in the files run under
// dir, that match no mutant: code moved under them, and the mutant they
// meant is counted again (or another one left out).
func (r *run) stale(dir string, all []*mutant) []string {
	have := map[string]bool{}
	for _, m := range all {
		have[m.key()] = true
	}
	var stale []string
	for k := range r.equivalent {
		file, _, _ := strings.Cut(k, ":")
		if strings.HasPrefix(file, filepath.ToSlash(dir)+"/") && r.files.MatchString(file) && !have[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	return stale
}

// run holds the settings of one invocation and the record of outcomes it
// reads and adds to.
type run struct {
	workers    int
	skip       string
	sample     int
	verbose    bool
	equivalent map[string]bool
	files      *regexp.Regexp
	previous   results
	// resultsFile, when set, keeps previous and what this run adds.
	resultsFile string
	// checkEquivalent: the listed mutants are tested too; problems says
	// which entries the tests contradict or match no mutant.
	checkEquivalent bool
	problems        []string
}

func (r *run) save() {
	if r.resultsFile == "" {
		return
	}
	if err := r.previous.write(r.resultsFile); err != nil {
		fail(err)
	}
}

func (r *run) mutatePackage(dir string, byKind map[string]*counts) (counts, error) {
	var c counts
	files, err := sourceFiles(dir)
	if err != nil {
		return c, err
	}
	if err := originalFirst(dir, r.skip); err != nil {
		return c, err
	}
	tests, err := testsOf(dir)
	if err != nil {
		return c, err
	}
	index, err := buildIndex(dir, testPackages(tests), r.skip, r.workers)
	if err != nil {
		return c, err
	}
	// An outcome holds while the code under dir is what it was: a test
	// fails on a mutant because of the code around it too.
	digest, err := treeDigest(files)
	if err != nil {
		return c, err
	}
	var all []*mutant
	for _, f := range files {
		if !r.files.MatchString(filepath.ToSlash(f)) {
			continue
		}
		ms, err := findMutants(f)
		if err != nil {
			return c, err
		}
		all = append(all, ms...)
	}
	for _, k := range r.stale(dir, all) {
		fmt.Fprintf(os.Stderr, "mutate: written down as equivalent, but no such mutant (the code moved?): %s\n", k)
		if r.checkEquivalent {
			r.problems = append(r.problems, "no such mutant (the code moved?): "+k)
		}
	}
	listed := map[*mutant]bool{}
	var todo []*mutant
	for i, m := range all {
		if i%r.sample != 0 {
			continue
		}
		before, seen := r.previous[m.key()]
		switch {
		case r.equivalent[m.key()] && r.checkEquivalent:
			listed[m] = true
			todo = append(todo, m)
		case r.equivalent[m.key()]:
			m.status = "equivalent"
		case seen && before.digest == digest && (detected(before.status) || before.status == "not-viable"):
			m.status = before.status
		case !index.covers(m):
			m.status = "not-covered"
		default:
			todo = append(todo, m)
		}
	}
	work := make(chan *mutant)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range r.workers {
		wg.Go(func() {
			for m := range work {
				status := r.testMutant(index, tests[pkgOf(m.file)], m)
				mu.Lock()
				m.status = status
				r.previous[m.key()] = outcome{digest: digest, status: status}
				if done++; done%25 == 0 {
					fmt.Fprintf(os.Stderr, "mutate: %s %d/%d tested\n", dir, done, len(todo))
					r.save() // a run stopped part way keeps what it learnt
				}
				mu.Unlock()
			}
		})
	}
	for _, m := range todo {
		work <- m
	}
	close(work)
	wg.Wait()
	for i, m := range all {
		if i%r.sample != 0 {
			continue
		}
		if listed[m] {
			if detected(m.status) {
				r.problems = append(r.problems, fmt.Sprintf("written down as equivalent, but the tests detect it (%s): %s", m.status, m.key()))
			}
			m.status = "equivalent"
		}
		if m.status != "equivalent" && m.status != "error" {
			r.previous[m.key()] = outcome{digest: digest, status: m.status}
		}
		c.count(m.status)
		if byKind[m.kind] == nil {
			byKind[m.kind] = &counts{}
		}
		byKind[m.kind].count(m.status)
		if r.verbose || m.status == "lived" || m.status == "not-covered" || m.status == "error" {
			fmt.Printf("%-11s %s (%s)\n", m.status, m.key(), m.kind)
		}
	}
	return c, nil
}

// sourceFiles lists the non-test Go files of dir and the directories below
// it, testdata aside, that this platform builds: a file for another
// (mapped_other.go where there is no mmap) is neither compiled nor tested
// here, so its mutants would all seem to live.
func sourceFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			built, err := build.Default.MatchFile(filepath.Dir(path), d.Name())
			if err != nil {
				return err
			}
			if built {
				files = append(files, path)
			}
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// originalFirst runs the tests once on the unmutated code: a run whose
// tests fail before any mutation cannot tell a mutant's kill.
func originalFirst(dir, skip string) error {
	args := []string{"test", "-count=1"}
	if skip != "" {
		args = append(args, "-skip", skip)
	}
	if msg, err := exec.Command("go", append(args, "./"+filepath.ToSlash(dir)+"/...")...).CombinedOutput(); err != nil {
		return fmt.Errorf("the tests fail before any mutation:\n%s", msg)
	}
	return nil
}

func modulePath() (string, error) {
	out, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// testPackages lists the test packages of testsOf's map, once each.
func testPackages(tests map[string][]string) []string {
	var out []string
	for _, ps := range tests {
		for _, p := range ps {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// testsOf maps each package under dir (by its directory, relative and
// slash-separated) to the test packages under dir that can reach it: the
// package itself and those whose code or tests import it, directly or
// not. A mutant's package is tested by these only, not by every package
// under dir.
func testsOf(dir string) (map[string][]string, error) {
	out, err := exec.Command("go", "list", "-test",
		"-f", "{{.ImportPath}}|{{join .Deps \",\"}}",
		"./"+filepath.ToSlash(dir)+"/...").Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	module, err := modulePath()
	if err != nil {
		return nil, err
	}
	tests := map[string][]string{}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, "|", 2)
		if len(f) != 2 {
			continue
		}
		// go list -test lists each package and its test variants: "p",
		// "p [p.test]", "p_test [p.test]" and "p.test"; the test binary
		// "p.test" depends on all that its tests reach.
		path, ok := strings.CutSuffix(f[0], ".test")
		if !ok || strings.Contains(path, " ") {
			continue
		}
		if seen[path] {
			continue
		}
		seen[path] = true
		for _, dep := range append(strings.Split(f[1], ","), path) {
			dep, _, _ = strings.Cut(dep, " ")
			rel, ok := strings.CutPrefix(dep, module+"/")
			if !ok || (rel != filepath.ToSlash(dir) && !strings.HasPrefix(rel, filepath.ToSlash(dir)+"/")) {
				continue
			}
			if !slices.Contains(tests[rel], path) {
				tests[rel] = append(tests[rel], path)
			}
		}
	}
	for _, t := range tests {
		sort.Strings(t)
	}
	return tests, nil
}

// pkgOf is the package directory of a source file, slash-separated.
func pkgOf(file string) string { return filepath.ToSlash(filepath.Dir(file)) }

// testMutant tests one mutant and returns its status: it runs the tests
// that run its line, of the test packages that reach its package, in
// phases (index.phases), and stops at the first that detects it.
func (r *run) testMutant(x *index, reaching []string, m *mutant) string {
	if len(reaching) == 0 {
		return "not-covered" // no test package under dir reaches its package
	}
	all, _ := x.testsFor(m)
	var tests []int
	for _, t := range all {
		if slices.Contains(reaching, x.cases[t].pkg) {
			tests = append(tests, t)
		}
	}
	if len(tests) == 0 {
		return "not-covered"
	}
	tmp, err := os.MkdirTemp("", "mutant")
	if err != nil {
		return "not-viable"
	}
	defer os.RemoveAll(tmp)
	overlay, ok := writeMutant(m, tmp)
	if !ok {
		return "not-viable"
	}
	status := "lived"
	for _, phase := range x.phases(tests) {
		pkgs, pattern, timeout := x.selection(phase)
		status = runTests(pkgs, pattern, timeout, overlay)
		if status == "killed-other" {
			// Not a test's failure (a crash, the machine): a kill only
			// if the unmutated code passes the same tests now.
			status = "killed"
			if runTests(pkgs, pattern, timeout, "") != "lived" {
				status = "error"
			}
		}
		if status != "lived" {
			break
		}
	}
	return status
}

// writeMutant writes m's file, changed, and an overlay that puts it in
// place of the original into tmp, and returns the overlay's path.
func writeMutant(m *mutant, tmp string) (overlay string, ok bool) {
	src, err := os.ReadFile(m.file)
	if err != nil || m.end > len(src) || m.off > m.end {
		return "", false
	}
	mutated := append(append(append([]byte(nil), src[:m.off]...), m.repl...), src[m.end:]...)
	abs, _ := filepath.Abs(m.file)
	changed := filepath.Join(tmp, filepath.Base(m.file))
	overlay = filepath.Join(tmp, "overlay.json")
	doc, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: changed}})
	if os.WriteFile(changed, mutated, 0o644) != nil || os.WriteFile(overlay, doc, 0o644) != nil {
		return "", false
	}
	// A mutant that does not compile is found by go test ("[build
	// failed]"): a go build first would compile the package once more.
	return overlay, true
}

// runTests runs the tests pattern names in pkgs, on the code as the
// overlay has it (none: the unmutated code), and returns lived, killed,
// timed-out, not-viable (a test file does not compile with the mutant)
// or killed-other (a failure that is not a test's). A mutant that hangs
// is stopped by the test binary's own -timeout (the test binary, not go
// test, must stop: killing go test leaves it running).
func runTests(pkgs []string, pattern string, timeout time.Duration, overlay string) string {
	// The context is a backstop for a build that hangs.
	ctx, cancel := context.WithTimeout(context.Background(), timeout+5*time.Minute)
	defer cancel()
	// vet checked the code as written; a mutant's vet findings are not
	// the tests' verdict.
	args := []string{"test", "-count=1", "-failfast", "-vet=off", "-timeout", timeout.String(), "-run", pattern}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkgs...)...)
	ownGroup(cmd) // so that a kill reaches the test binary too
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	switch {
	case ctx.Err() != nil || bytes.Contains(out.Bytes(), []byte("panic: test timed out after")):
		return "timed-out"
	case err == nil:
		return "lived"
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && bytes.Contains(out.Bytes(), []byte("[build failed]")) {
		return "not-viable"
	}
	if testFailed(out.Bytes()) {
		return "killed"
	}
	return "killed-other"
}

// testFailed reports output in which a test failed or a test binary
// panicked: the tests' verdict, not the machine's.
func testFailed(out []byte) bool {
	return bytes.Contains(out, []byte("--- FAIL:")) || bytes.Contains(out, []byte("panic: ")) || bytes.Contains(out, []byte("fatal error: "))
}
