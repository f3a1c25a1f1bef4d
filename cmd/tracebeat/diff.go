package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat/decode"
	"github.com/tracebeat/tracebeat/diff"
	"github.com/tracebeat/tracebeat/internal/atomicfile"
	"github.com/tracebeat/tracebeat/internal/english"
	"github.com/tracebeat/tracebeat/methodmap"
	"github.com/tracebeat/tracebeat/profile"
)

func init() {
	register(command{name: "diff", summary: "compare two builds' traces by method: what got slower (a CI gate)", run: runDiff})
}

const diffUsage = `usage: tracebeat diff --base-map BASE-MAP --map NEW-MAP [flags] BASE NEW

Compares what two builds recorded, method by method, and fails when a
method got slower. BASE and NEW are each a trace, or a folder of traces of
one build (repeated runs: tracebeat record -n 5 makes them; each method's
median over them is compared, and the spread of the runs is shown). A
trace is a recording of tracebeat's runtime or an AppMethodBeat buffer
(binary or text). Methods are matched by name through each build's map,
never by id: the ids of two builds differ once a method was added or
removed; a method whose descriptor changed (the one of its class and name
in each build) is compared with its old self.

For each method: calls, self time (in its own code) and total time (with
its callees). A method is
  regressed  when its median self time grew by more than --threshold
             percent and --min-ms, by more than the recordings' clock may
             account for (its bound on a time, times the records the self
             time is made of), and by more than the runs' noise makes: a
             moderated t-test on the runs' log times, each run's overall
             speed taken out, the p-values of all the methods adjusted
             together so that the chance of any false verdict is at most
             --risk percent;
  improved   the same, shrunk;
  same       otherwise, with why when its median moved: (clock), (noise),
             or (runs): a side with a single run shows no noise, and gives
             no verdict unless --strict;
  new, gone  when only one build calls it.
Total time is shown but decides nothing unless --by total: a caller of a
slower method is slower in total, not in itself.

Exit status: 0 nothing regressed, 1 a method regressed (listed first),
2 usage or input errors (a trace that cannot be read, a map of another
build).

Examples:
  tracebeat diff --base-map main/methodMapping.txt --map pr/methodMapping.txt main-runs/ pr-runs/
  tracebeat diff --base-map a/methodMapping.txt --map b/methodMapping.txt --format json -o diff.json runs-a/ runs-b/
  tracebeat diff --base-map a.txt --map b.txt --only 'com\.app\.Checkout\.' --png diff.png runs-a/ runs-b/

Flags:
`

func runDiff(args []string, stdout, stderr io.Writer) int {
	// diff holds the tables of a few traces at a time; a lower collection
	// target keeps its peak within twice the largest trace.
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	fs := pflag.NewFlagSet("diff", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	baseMap := fs.String("base-map", "", "BASE's methodMapping.txt")
	newMap := fs.String("map", "", "NEW's methodMapping.txt")
	threshold := fs.Float64("threshold", 10, "percent a method's time must change by to be regressed or improved")
	minMs := fs.Float64("min-ms", 1, "milliseconds it must change by too")
	by := fs.String("by", "self", "the time that decides: self or total")
	only := fs.String("only", "", "compare only the methods whose names match this regular expression")
	format := fs.String("format", "text", "output: text, json or html (the differential flame graph as a page to look at)")
	output := fs.StringP("output", "o", "", "write the output to this file instead of standard output")
	pngPath := fs.String("png", "", "also draw a differential flame graph to this PNG file")
	anyMap := fs.Bool("any-map", false, "compare recordings with a map although they name another build")
	risk := fs.Float64("risk", diff.DefaultRisk*100, "percent: the chance the comparison may take of any false verdict, over all the methods compared")
	strict := fs.Bool("strict", false, "give verdicts with fewer than 3 runs on a side (by the thresholds and the clock alone: so few runs show too little noise)")
	help := fs.BoolP("help", "h", false, "show this help")
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tracebeat diff: "+format+"\nRun 'tracebeat diff --help' for usage.\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return usageErr("%s", flagMessage(err))
	}
	if *help {
		fs.SetOutput(stdout)
		fmt.Fprint(stdout, diffUsage)
		fs.PrintDefaults()
		return exitOK
	}
	if fs.NArg() != 2 {
		return usageErr("expected BASE and NEW (a trace or a folder of traces each), got %d arguments", fs.NArg())
	}
	if *baseMap == "" || *newMap == "" {
		return usageErr("--base-map and --map are needed: methods are matched by name across builds")
	}
	if *risk <= 0 || *risk >= 50 {
		return usageErr("--risk must be above 0 and below 50 (percent)")
	}
	opt := diff.Options{Threshold: *threshold, MinMs: *minMs, Risk: *risk / 100, Strict: *strict}
	switch *by {
	case "self":
	case "total":
		opt.ByTotal = true
	default:
		return usageErr("--by must be self or total, not %q", *by)
	}
	if *threshold <= 0 || *minMs < 0 {
		return usageErr("--threshold must be above 0 and --min-ms at least 0")
	}
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			return usageErr("--only: %v", err)
		}
		opt.Only = re
	}
	if *format != "text" && *format != "json" && *format != "html" {
		return usageErr("--format must be text, json or html, not %q", *format)
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "tracebeat diff: %v\n", err)
		return exitUsage
	}
	base, err := readSide(fs.Arg(0), *baseMap, *anyMap)
	if err != nil {
		return fail(err)
	}
	next, err := readSide(fs.Arg(1), *newMap, *anyMap)
	if err != nil {
		return fail(err)
	}
	res := diff.Compare(base, next, opt)
	for _, side := range []diff.Side{base, next} {
		for _, p := range side.Runs {
			for _, n := range append(slices.Clone(p.Missing), p.Notes...) {
				fmt.Fprintf(stderr, "tracebeat diff: note: %s\n", n)
			}
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(stderr, "tracebeat diff: note: %s\n", n)
	}
	write := res.WriteText
	switch *format {
	case "json":
		write = res.WriteJSON
	case "html":
		title := diffTitle(res)
		var notes []string
		for _, m := range res.Methods {
			if m.Status == diff.Regressed {
				notes = append(notes, fmt.Sprintf("regressed: %s, self %.3f -> %.3f ms", m.Name, m.SelfMsBase, m.SelfMsNew))
			}
		}
		write = func(w io.Writer) error { return diff.WriteHTML(w, res, base, next, title, notes) }
	}
	if *output != "" {
		err = atomicfile.Write(*output, 0o644, write)
	} else {
		err = write(stdout)
	}
	if err != nil {
		return fail(err)
	}
	if *pngPath != "" {
		title := diffTitle(res)
		if err := atomicfile.Write(*pngPath, 0o644, func(w io.Writer) error { return diff.WriteFlamePNG(w, res, base, next, title) }); err != nil {
			return fail(err)
		}
	}
	if res.Regressed() {
		return exitFailure
	}
	return exitOK
}

// diffTitle names the two sides by path, build and runs.
func diffTitle(res *diff.Result) string {
	side := func(in diff.SideInfo) string {
		s := in.Label
		if len(in.Builds) > 0 {
			s += " (build " + strings.Join(in.Builds, " ")
		} else {
			s += " ("
		}
		if len(in.Builds) > 0 {
			s += ", "
		}
		return s + english.Count(len(in.Runs), "run") + ")"
	}
	return "tracebeat diff: " + side(res.Base) + " -> " + side(res.New)
}

// readSide reads a build's traces: the file at path, or every file of the
// folder at path (repeated runs), each added up on its own, two at a time.
func readSide(path, mapPath string, anyMap bool) (diff.Side, error) {
	side := diff.Side{Label: path}
	names, err := decode.LoadMethodNames(mapPath)
	if err != nil {
		return side, err
	}
	id, err := methodmap.ReadBuildID(mapPath)
	if err != nil {
		return side, err
	}
	m := decode.MapBuild{Path: mapPath, ID: id, Force: anyMap}
	files, err := traceFiles(path)
	if err != nil {
		return side, err
	}
	side.Runs = make([]*profile.Profile, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, f := range files {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			side.Runs[i], errs[i] = profile.Read(f, names, m)
		})
	}
	wg.Wait()
	return side, sideError(path, errs)
}

// sideError joins the runs' errors; runs refused for one map of another
// build are said once for the folder, not once a file.
func sideError(path string, errs []error) error {
	var wrong []*decode.WrongMapError
	var others []error
	for _, err := range errs {
		var w *decode.WrongMapError
		switch {
		case err == nil:
		case errors.As(err, &w):
			wrong = append(wrong, w)
		default:
			others = append(others, err)
		}
	}
	if len(wrong) > 1 {
		first := *wrong[0]
		first.Source = fmt.Sprintf("%s (%s of it)", path, english.Count(len(wrong), "run"))
		same := true
		for _, w := range wrong[1:] {
			same = same && slices.Equal(w.Builds, first.Builds)
		}
		if same {
			return errors.Join(append([]error{&first}, others...)...)
		}
	}
	for _, w := range wrong {
		others = append(others, w)
	}
	return errors.Join(others...)
}

// traceFiles lists path, or the files of the folder at path (sorted, dot
// files left out).
func traceFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		f := filepath.Join(path, e.Name())
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() { // a link is followed to what it names
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: a folder with no traces in it", path)
	}
	slices.Sort(files)
	return files, nil
}
