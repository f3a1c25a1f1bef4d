package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	"github.com/tracebeat/tracebeat/blacklist"
	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/atomicfile"
	"github.com/tracebeat/tracebeat/internal/outset"
	"github.com/tracebeat/tracebeat/internal/pathguard"
	"github.com/tracebeat/tracebeat/mapping"
	"github.com/tracebeat/tracebeat/methodmap"
)

func init() {
	register(command{
		name:    "instrument",
		summary: "inject method tracing into jars and class directories, write the method maps",
		run:     runInstrument,
	})
}

const instrumentHelp = `usage: tracebeat instrument [flags] -o OUT INPUT... | @argfile

Instruments every traced method of the inputs (jars and class directories):
AppMethodBeat.i(id) at entry, o(id) at every exit including exceptions
(or Trace.beginSection/endSection with --mode systrace), and the focus call
in the topmost app class of each Activity chain. Writes methodMapping.txt and
ignoreMethodMapping.txt.

Output: with -o DIR each input jar becomes DIR/<name>.jar and each input
directory DIR/<name>/; with --merge, -o names one jar holding everything.
Outputs (jars, maps, report) are written under temporary names and renamed
into place together at the end: a failed or interrupted run leaves the
previous outputs as they were, and the next run removes what a killed one
left. No output may be, or lie in, an input (symbolic and hard links
included). A jar instrumented before is left as it is (already-instrumented).

Arguments can come from files:
  @FILE          one argument (flag or input) per line; blank lines and
                 lines starting with # are skipped; "@@x" passes "@x".
  --config FILE  "key = value" lines, key = a long flag name without
                 dashes ("mapping = /abs/mapping.txt", "merge = true");
                 "input = PATH" adds an input; list flags (classpath, input)
                 may repeat; # comments. Flags on the command line win.
  Both are UTF-8, a byte-order mark at the start skipped.

A class file that cannot be parsed is copied untouched with a warning naming
the input and the entry; --strict makes it an error. On a terminal a progress
line (classes written, rate, ETA) is shown on stderr; it is off when stderr
is redirected, with --quiet and with --log-format json.

The first line on stdout is the summary scripts read:
  tracebeat: inputs=N classes=N rewritten=N methods traced=N ignored=N skipped=N (reason=n ...) focus=N seconds=S map=PATH
further lines, indented, detail ignored methods by reason and the outputs.

Examples:
  tracebeat instrument -o build/traced app.jar lib.jar build/classes
  tracebeat instrument --merge -o out/all.jar --mapping mapping.txt app.jar
  tracebeat instrument --base-map release/methodMapping.txt -o out @inputs.txt
  tracebeat instrument --config tracebeat.conf @inputs.txt --log-level debug
  tracebeat instrument --mode systrace --trace-all -o out app.jar

Exit status: 0 ok, 1 failure (unreadable or corrupt input, bad mapping,
block list or base map, output not writable, an output that is an input),
2 usage (unknown flag, bad flag value, no inputs, no -o, two outputs on one
path), 130 interrupted (SIGINT), 143 terminated (SIGTERM).

Flags:
`

type instrumentFlags struct {
	output, mode, mapping, blacklist, baseMap string
	methodMap, ignoreMap, report, beatClass   string
	config, logLevel, logFormat               string
	merge, traceAll, strict, quiet            bool
	traceAbstract, traceEmpty, traceGetSet    bool
	traceSingle                               bool
	cpuProfile, memProfile                    string
	cache                                     string
	workers                                   int
	classpath                                 []string
}

func (f *instrumentFlags) define(fs *pflag.FlagSet) {
	fs.StringVarP(&f.output, "output", "o", "", "output directory, or the jar with --merge")
	fs.BoolVar(&f.merge, "merge", false, "write all inputs into the one jar named by -o")
	fs.StringVar(&f.mode, "mode", "beat", "beat (AppMethodBeat.i/o) or systrace (Trace.beginSection/endSection)")
	fs.BoolVar(&f.traceAll, "trace-all", false, "trace every method with code (no Matrix ignore rules)")
	fs.BoolVar(&f.traceAbstract, "trace-abstract-classes", false, "also trace methods of abstract classes and interfaces")
	fs.BoolVar(&f.traceEmpty, "trace-empty", false, "also trace methods that only return")
	fs.BoolVar(&f.traceGetSet, "trace-getter-setter", false, "also trace getters, setters and trivial constructors")
	fs.BoolVar(&f.traceSingle, "trace-single", false, "also trace methods that call nothing (leaf methods)")
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "parallel workers, and the cores used (0: one per CPU)")
	fs.StringSliceVar(&f.classpath, "classpath", nil, "jars read for the class hierarchy only, e.g. android.jar (repeatable)")
	fs.StringVar(&f.mapping, "mapping", "", "ProGuard/R8 mapping.txt of the inputs")
	fs.StringVar(&f.blacklist, "blacklist", "", "block list: Matrix's -keepclass / -keeppackage and btrace's -allowpackage, -blockpackage, -blockclassmethods, -traceclass, -traceclassmethods, -tracemethodannotation")
	fs.StringVar(&f.baseMap, "base-map", "", "previous methodMapping.txt: its methods keep their ids")
	fs.StringVar(&f.cache, "cache", "", "directory of results kept between runs: unchanged jars and classes are reused, the last map is the base map")
	fs.StringVar(&f.methodMap, "method-map", "", "methodMapping.txt to write (default: in the output directory, or beside the --merge jar)")
	fs.StringVar(&f.ignoreMap, "ignore-map", "", "ignoreMethodMapping.txt to write (default: beside the method map)")
	fs.StringVar(&f.report, "report", "", "JSON report of ignored methods with reasons")
	fs.StringVar(&f.beatClass, "beat-class", rewrite.DefaultRuntime().BeatClass, "runtime class with static i(I)V, o(I)V, at(Activity,Z)V")
	fs.BoolVar(&f.strict, "strict", false, "make these errors instead of warnings: a class that cannot be parsed (else copied untouched), a missing base map or block list (else read as empty), a block-list line Matrix would skip, a jar entry whose CRC does not match (else read as Java reads it), a directory entry holding data (else written empty), code instrumented before (else left as it is)")
	fs.StringVar(&f.config, "config", "", "file of \"flag = value\" lines (\"input = PATH\" adds inputs); command-line flags win")
	fs.StringVar(&f.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&f.logFormat, "log-format", "console", "console or json")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile (pprof) of the run to this file")
	fs.StringVar(&f.memProfile, "memprofile", "", "write a heap profile (pprof) at the end of the run to this file")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print nothing but errors: no summary, no progress, no warnings")
}

func runInstrument(args []string, stdout, stderr io.Writer) int {
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "tracebeat instrument: %s\nRun 'tracebeat instrument --help' for usage.\n", msg)
		return exitUsage
	}
	failure := func(err error) int {
		fmt.Fprintf(stderr, "tracebeat instrument: %v\n", err)
		return exitFailure
	}
	// An argument or config file that cannot be read is a failure like any
	// unreadable input; one that reads but says something wrong is usage.
	fileOrUsage := func(err error) int {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return failure(err)
		}
		return usageErr(err.Error())
	}
	args, err := expandArgfiles(args)
	if err != nil {
		return fileOrUsage(err)
	}
	fl, flags, help := newInstrumentFlagSet()
	if err := flags.Parse(args); err != nil || *help {
		if errors.Is(err, pflag.ErrHelp) || *help {
			fmt.Fprint(stdout, instrumentHelp+flags.FlagUsages())
			return exitOK
		}
		return usageErr(flagMessage(err))
	}
	inputs := flags.Args()
	if fl.config != "" {
		extra, err := applyConfig(flags, fl.config)
		if err != nil {
			return fileOrUsage(err)
		}
		inputs = append(inputs, extra...)
	}
	if len(inputs) == 0 {
		return usageErr("no inputs")
	}
	if fl.output == "" {
		return usageErr("-o is required")
	}
	if fl.workers < 0 {
		return usageErr(fmt.Sprintf("--workers must be 0 (one per CPU) or more, got %d", fl.workers))
	}
	if fl.workers > 0 && fl.workers < runtime.GOMAXPROCS(0) {
		// --workers bounds the cores used, the garbage collector's included:
		// on a shared build machine "--workers 1" means one core.
		runtime.GOMAXPROCS(fl.workers)
	}
	mode, err := rewrite.ParseMode(fl.mode)
	if err != nil {
		return usageErr("--mode: " + err.Error())
	}
	if err := checkClassName(fl.beatClass); err != nil {
		return usageErr("--beat-class: " + err.Error())
	}
	bar := newProgressBar(stderr, !fl.quiet && fl.logFormat == "console" && isTerminal(stderr), nil)
	log, err := newLogger(bar.Writer(), fl.logLevel, fl.logFormat, fl.quiet)
	if err != nil {
		return usageErr(err.Error())
	}
	defer log.Sync() //nolint:errcheck

	start := time.Now()
	kinds, err := checkInputs(inputs, fl.classpath)
	if err != nil {
		return failure(err)
	}
	paths := mapPaths(fl)
	// Before anything is read or written: what killed runs left in the
	// folders this run writes is finished or removed.
	for _, dir := range paths.dirs() {
		if err := outset.Recover(dir); err != nil {
			log.Warn("cleaning up after an earlier run: " + err.Error())
		}
	}
	if err := mirrorNamesDiffer(fl, inputs); err != nil {
		return usageErr(err.Error())
	}
	if err := guardPaths(fl, inputs, paths); err != nil {
		var dup *pathguard.DuplicateError
		if errors.As(err, &dup) {
			return usageErr(err.Error())
		}
		return failure(err)
	}
	if err := paths.checkWritable(); err != nil {
		return failure(err)
	}
	// The profiles cover the whole job: reading the base map and writing
	// the maps are part of what a build waits for.
	stopProfiles, err := startProfiles(fl.cpuProfile, fl.memProfile)
	if err != nil {
		return failure(err)
	}
	ctx, signaled, stopSignals := interruptible()
	defer stopSignals()
	res, err := instrumentAndWriteMaps(ctx, fl, inputs, mode, paths, log, bar)
	if perr := stopProfiles(); perr != nil && err == nil {
		err = perr
	}
	if sig := signaled(); sig != nil {
		return interrupted(stderr, sig, err == nil)
	}
	if err != nil {
		return failure(err)
	}
	if res.Classes == 0 {
		log.Warn(fmt.Sprintf("no class files in %s: nothing to instrument (the right folder or jar?)", strings.Join(inputs, ", ")))
	}
	if fl.mapping != "" && res.Classes > 0 && res.Renamed*10 < res.Classes {
		// R8 renames most classes of a release build; a mapping that
		// renames almost none is another build's.
		log.Warn(fmt.Sprintf("mapping %s renames %d of the %d input classes: is it the mapping of these inputs?", fl.mapping, res.Renamed, res.Classes))
	}
	if err := res.KeepMap(); err != nil {
		log.Warn("cache: method map not kept: " + err.Error())
	}
	if !fl.quiet {
		took := time.Since(start)
		fmt.Fprintln(stdout, summaryLine(res, took, paths.methodMap))
		for _, l := range summaryDetails(res, kinds, took, paths) {
			fmt.Fprintln(stdout, l)
		}
	}
	return exitOK
}

// instrumentAndWriteMaps builds the options, runs the pipeline and writes
// the maps.
func instrumentAndWriteMaps(ctx context.Context, fl *instrumentFlags, inputs []string, mode rewrite.Mode, paths outputPaths, log *zap.Logger, bar *progressBar) (*instrument.Result, error) {
	usage := &ruleUsage{}
	t := time.Now()
	opt, err := buildOptions(fl, inputs, mode, log, usage)
	if err != nil {
		return nil, err
	}
	if fl.cache != "" {
		if err := useCache(&opt, fl, paths.methodMap); err != nil {
			return nil, err
		}
	}
	log.Debug("phase done", zap.String("phase", "options"), zap.Duration("took", time.Since(t)))
	opt.Progress = bar.Update
	// Everything the run writes is staged and published at the end as one
	// set: a failed or interrupted run leaves the previous outputs.
	set := outset.New(paths.anchor)
	set.Track(paths.inventory)
	opt.Publish = set
	res, err := instrument.Run(ctx, opt)
	bar.Finish()
	t = time.Now()
	if err == nil {
		usage.warn(res, log)
		var id string
		id, err = stageMaps(res, paths, set, usage.counts(res), opt.MapPath != "")
		res.BuildID = id
		if err == nil && res.NumTraced() > 0 {
			// No code of a run that traced nothing calls with its ids.
			err = stampBuild(res, set, id)
		}
		log.Debug("phase done", zap.String("phase", "maps"), zap.Duration("took", time.Since(t)))
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err() // interrupted after the run, before publishing
	}
	if err != nil {
		set.Discard()
		return nil, err
	}
	// Publishing takes milliseconds and is not interrupted: a signal that
	// arrives meanwhile is answered after it.
	if err := set.Publish(); err != nil {
		return nil, err
	}
	for _, n := range set.Notes() {
		log.Warn(n)
	}
	for _, p := range set.Removed() {
		log.Info(fmt.Sprintf("removed %s: the last run into this folder wrote it, this one does not (its ids were of the last map)", p))
	}
	for _, p := range set.Kept() {
		log.Warn(fmt.Sprintf("%s: an output of an earlier run that this run does not write, changed since, so left in place: remove it if it is not yours (its ids are of another map)", p))
	}
	return res, nil
}

// inputKinds counts the inputs by kind, for the summary.
type inputKinds struct{ jars, dirs int }

// checkInputs makes sure every input and classpath entry exists before
// anything is read, so a typo is reported as such and early.
func checkInputs(inputs, classpath []string) (inputKinds, error) {
	var k inputKinds
	for _, in := range inputs {
		st, err := os.Stat(in)
		if err != nil {
			return k, fileError("input", in, err)
		}
		if st.IsDir() {
			k.dirs++
		} else {
			k.jars++
		}
	}
	for _, cp := range classpath {
		if _, err := os.Stat(cp); err != nil {
			return k, fileError("classpath", cp, err)
		}
	}
	return k, nil
}

// newInstrumentFlagSet defines instrument's flags (-h included) on a new
// flag set.
func newInstrumentFlagSet() (*instrumentFlags, *pflag.FlagSet, *bool) {
	var fl instrumentFlags
	flags := pflag.NewFlagSet("instrument", pflag.ContinueOnError)
	flags.SetOutput(io.Discard)
	fl.define(flags)
	help := flags.BoolP("help", "h", false, "show this help")
	return &fl, flags, help
}

// applyConfig sets every flag the command line did not set from the
// config file and returns its inputs.
func applyConfig(fs *pflag.FlagSet, path string) ([]string, error) {
	entries, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	var inputs []string
	fromFile := map[string]bool{}
	for _, e := range entries {
		if e.key == "input" {
			inputs = append(inputs, e.value)
			continue
		}
		f := fs.Lookup(e.key)
		if f == nil || e.key == "config" {
			return nil, fmt.Errorf("config %s:%d: unknown option %q", path, e.line, e.key)
		}
		if f.Changed && !fromFile[e.key] {
			continue // the command line wins
		}
		if err := fs.Set(e.key, e.value); err != nil {
			return nil, fmt.Errorf("config %s:%d: %s: %v", path, e.line, e.key, err)
		}
		fromFile[e.key] = true
	}
	return inputs, nil
}

func buildOptions(fl *instrumentFlags, inputs []string, mode rewrite.Mode, log *zap.Logger, usage *ruleUsage) (instrument.Options, error) {
	rt := rewrite.DefaultRuntime()
	rt.Mode = mode
	rt.BeatClass = strings.ReplaceAll(fl.beatClass, ".", "/")
	opt := instrument.Options{
		Inputs:    inputs,
		Classpath: fl.classpath,
		Output:    fl.output,
		Merge:     fl.merge,
		Workers:   fl.workers,
		Runtime:   rt,
		Strict:    fl.strict,
		Log:       log,
		// The report lists every ignored method.
		Lists: fl.report != "",
	}
	if fl.mapping != "" {
		m, err := mapping.ParseFile(fl.mapping, log)
		if err != nil {
			return opt, fileError("mapping", fl.mapping, err)
		}
		opt.Policy.OriginalClass = func(name string) string {
			if o, ok := m.OriginalClass(name); ok {
				return o
			}
			return name
		}
		opt.Policy.OriginalMethod = func(class, name, desc string) (string, string) {
			if n, d, ok := m.OriginalMethod(class, name, desc); ok {
				return n, d
			}
			return name, m.OriginalDescriptor(desc)
		}
	}
	bl, err := blacklist.New(rt.BeatClass)
	if err != nil {
		return opt, err
	}
	bl.Strict = fl.strict
	if fl.blacklist != "" {
		if err := bl.AddFile(fl.blacklist); errors.Is(err, fs.ErrNotExist) && !fl.strict {
			// Matrix reads a missing block list as an empty one.
			log.Warn(fmt.Sprintf("no block list at %s: only the built-in rules apply", fl.blacklist))
		} else if err != nil {
			return opt, fileError("blacklist", fl.blacklist, err)
		}
		for _, pe := range bl.Skipped {
			log.Warn(pe.Error() + ": line skipped, as Matrix skips it (--strict: an error)")
		}
		usage.list = bl // only the file's rules are reported on
	}
	opt.Policy.Blocked = func(orig string) (string, bool) {
		r, ok := classBlock(bl, orig)
		if !ok || (!r.BuiltIn() && bl.ForcesMethodsOf(orig)) {
			// A -traceclassmethods line names methods of this class:
			// Decide blocks the others, one by one.
			return "", false
		}
		return ruleKey(r), true
	}
	opt.Policy.ClassRule = func(orig string) string { return classRule(bl, orig) }
	if !fl.traceAll {
		// --trace-all traces Android's generated classes too.
		opt.Policy.Generated = func(orig string, hasClass func(string) bool) (string, bool) {
			r, ok := bl.Generated(orig, hasClass)
			return r.String(), ok
		}
		opt.Policy.GeneratedEvidence = blacklist.NamespaceEvidence
	}
	rules := methodmap.Options{
		TraceAll:             fl.traceAll,
		TraceAbstractClasses: fl.traceAbstract,
		TraceEmpty:           fl.traceEmpty,
		TraceGetterSetter:    fl.traceGetSet,
		TraceSingle:          fl.traceSingle,
	}
	opt.Policy.Annotations = bl.WantsAnnotations()
	opt.Policy.Decide = func(f *instrument.MethodFacts) (bool, string, string) {
		return decideMethod(bl, rules, f)
	}
	if fl.baseMap != "" {
		base, err := methodmap.ReadMapFile(fl.baseMap)
		switch {
		case errors.Is(err, fs.ErrNotExist) && !fl.strict:
			// The first build before the first release: Matrix reads a
			// missing base map as an empty one.
			if fl.cache != "" {
				log.Warn(fmt.Sprintf("no base map at %s yet: ids continue the cache's last map, or start at 1", fl.baseMap))
			} else {
				log.Warn(fmt.Sprintf("no base map at %s yet: ids start at 1", fl.baseMap))
			}
		case err != nil:
			return opt, fileError("base map", fl.baseMap, err)
		default:
			opt.Policy.BaseMap = base
		}
	}
	return opt, nil
}

// outputPaths are the files written after the pipeline: the maps and the
// optional report.
type outputPaths struct {
	methodMap, ignoreMap, report string
	// anchor is the output folder (the merged jar's folder with --merge):
	// where a run's publish journal lives.
	anchor string
	// inventory names the file in anchor that lists what the last run of
	// this output wrote there: the folder's for mirrors, the jar's own
	// with --merge (other jars in that folder are other runs').
	inventory string
}

// dirs are the folders the run writes in.
func (p outputPaths) dirs() []string {
	dirs := []string{p.anchor, filepath.Dir(p.methodMap), filepath.Dir(p.ignoreMap)}
	if p.report != "" {
		dirs = append(dirs, filepath.Dir(p.report))
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

// mapPaths returns where the maps go: given paths, else the output
// directory, else beside the merged jar.
func mapPaths(fl *instrumentFlags) outputPaths {
	dir := fl.output
	if fl.merge {
		dir = filepath.Dir(fl.output)
	}
	p := outputPaths{methodMap: fl.methodMap, ignoreMap: fl.ignoreMap, report: fl.report, anchor: dir,
		inventory: ".tracebeat-outputs"}
	if fl.merge {
		p.inventory = "." + filepath.Base(fl.output) + ".tracebeat-outputs"
	}
	if p.methodMap == "" {
		p.methodMap = filepath.Join(dir, "methodMapping.txt")
	}
	if p.ignoreMap == "" {
		p.ignoreMap = filepath.Join(filepath.Dir(p.methodMap), "ignoreMethodMapping.txt")
	}
	return p
}

// mirrorNamesDiffer refuses two inputs whose mirrors would be one output
// (lib/gson.jar and /usr/share/java/gson.jar), naming both and the ways
// out, before the path guard would call their outputs one file.
func mirrorNamesDiffer(fl *instrumentFlags, inputs []string) error {
	if fl.merge {
		return nil
	}
	inputOf := map[string]string{}
	for _, in := range inputs {
		out := instrument.MirrorPath(fl.output, in)
		if first, ok := inputOf[out]; ok {
			return fmt.Errorf("inputs %s and %s would both be written to %s (each input is mirrored under its file name): give one of them another file name, or write all inputs into one jar with --merge", first, in, out)
		}
		inputOf[out] = in
	}
	return nil
}

// guardPaths compares every path the run writes (mirrors or the merged
// jar, maps, report, cache) with every path it reads, by file identity,
// before anything is written. The base map may be the method map: it is
// read whole before the map is written, which is how a build keeps its ids
// in one file.
func guardPaths(fl *instrumentFlags, inputs []string, paths outputPaths) error {
	var ins []pathguard.Path
	for _, in := range inputs {
		st, err := os.Stat(in)
		ins = append(ins, pathguard.Path{Role: "input", Path: in, Tree: err == nil && st.IsDir()})
	}
	for _, cp := range fl.classpath {
		ins = append(ins, pathguard.Path{Role: "classpath", Path: cp})
	}
	for _, f := range []struct{ role, path string }{
		{"mapping", fl.mapping}, {"block list", fl.blacklist}, {"config", fl.config},
	} {
		if f.path != "" {
			ins = append(ins, pathguard.Path{Role: f.role, Path: f.path})
		}
	}
	var outs []pathguard.Path
	if fl.merge {
		outs = append(outs, pathguard.Path{Role: "output", Path: fl.output})
	} else {
		for _, in := range ins[:len(inputs)] {
			outs = append(outs, pathguard.Path{Role: "output", Path: instrument.MirrorPath(fl.output, in.Path), Tree: in.Tree})
		}
	}
	maps := []pathguard.Path{{Role: "method map", Path: paths.methodMap}, {Role: "ignore map", Path: paths.ignoreMap}}
	if paths.report != "" {
		maps = append(maps, pathguard.Path{Role: "report", Path: paths.report})
	}
	if fl.cache != "" {
		maps = append(maps, pathguard.Path{Role: "cache", Path: fl.cache, Tree: true})
	}
	outs = append(outs, maps...)
	if err := pathguard.Check(ins, outs); err != nil {
		return err
	}
	if fl.baseMap == "" {
		return nil
	}
	base := []pathguard.Path{{Role: "base map", Path: fl.baseMap}}
	return pathguard.Check(base, slices.DeleteFunc(slices.Clone(outs), func(p pathguard.Path) bool { return p.Role == "method map" }))
}

// checkWritable refuses map and report paths that can never be written
// (a parent is a file, the path is a directory) before the pipeline runs,
// so such a mistake does not cost a whole run and leave outputs without
// maps.
func (p outputPaths) checkWritable() error {
	for _, f := range []struct{ what, path string }{
		{"method map", p.methodMap}, {"ignore map", p.ignoreMap}, {"report", p.report},
	} {
		if f.path == "" {
			continue
		}
		if st, err := os.Stat(f.path); err == nil && st.IsDir() {
			return fmt.Errorf("%s %s: is a directory", f.what, f.path)
		}
		// The nearest existing ancestor must be a directory.
		for dir := filepath.Dir(f.path); ; dir = filepath.Dir(dir) {
			st, err := os.Stat(dir)
			if err == nil {
				if !st.IsDir() {
					return fmt.Errorf("%s %s: %s is not a directory", f.what, f.path, dir)
				}
				break
			}
			// Missing (or under a file: ENOTDIR): look further up.
			if parent := filepath.Dir(dir); parent == dir {
				break
			}
		}
	}
	return nil
}

// stageMaps writes the maps and the report under temporary names and adds
// them to set, which publishes them with the jars. A file that already
// holds what would be written is left alone (a cached run mostly writes
// the maps the last run wrote, tens of MB each).
func stageMaps(res *instrument.Result, p outputPaths, set *outset.Set, rules []methodmap.RuleCount, haveTexts bool) (buildID string, err error) {
	var mu sync.Mutex
	stage := func(what, path string, data []byte, write func(tmp string) error) error {
		if data != nil && atomicfile.Holds(path, data) {
			mu.Lock()
			set.Holds(path) // this run's output all the same
			mu.Unlock()
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fileError(what, path, err)
		}
		tmp := atomicfile.TempPath(path)
		if err := write(tmp); err != nil {
			os.Remove(tmp)
			return fileError(what, path, unwrapPathError(err))
		}
		mu.Lock()
		set.Add(tmp, path)
		mu.Unlock()
		return nil
	}
	// The two maps and the report are written at once: each is tens of
	// MB of text for a large app, and the build waits for all.
	var mapErr, repErr error
	// A run with a map path laid the maps out as texts; one without did
	// not, and they are written straight from its lists rather than held
	// whole to be compared.
	var mapText, ignoreText []byte
	if haveTexts {
		var err error
		if mapText, ignoreText, err = res.MapTexts(); err != nil {
			return "", err
		}
	}
	// The build identity is the map's (methodmap.BuildID): of its text
	// when it is held, else of what is written.
	id := methodmap.NewBuildID()
	var wg sync.WaitGroup
	wg.Go(func() {
		if mapText != nil {
			id.Write(mapText)
		}
		mapErr = stage("method map", p.methodMap, mapText, func(tmp string) error {
			return atomicfile.Write(tmp, 0o644, func(w io.Writer) error {
				if mapText != nil {
					return res.WriteMethodMap(w)
				}
				return res.WriteMethodMap(io.MultiWriter(w, id))
			})
		})
	})
	if p.report != "" {
		wg.Go(func() {
			data := res.ReportText(rules)
			repErr = stage("report", p.report, data, func(tmp string) error {
				return atomicfile.WriteBytes(tmp, 0o644, data)
			})
		})
	}
	ignErr := stage("ignore map", p.ignoreMap, ignoreText, func(tmp string) error {
		return atomicfile.Write(tmp, 0o644, res.WriteIgnoreMap)
	})
	wg.Wait()
	if err := cmp.Or(mapErr, ignErr, repErr); err != nil {
		return "", err
	}
	return id.String(), nil
}

// unwrapPathError drops the temporary name from an error about one: the
// message names the output the user gave.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// summaryLine is the one-line result the checks and users read.
func summaryLine(res *instrument.Result, took time.Duration, mapPath string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tracebeat: inputs=%d classes=%d rewritten=%d methods traced=%d ignored=%d skipped=%d",
		res.Inputs, res.Classes, res.Rewritten, res.NumTraced(), res.IgnoredCount, sum(res.Skipped))
	if len(res.Skipped) > 0 {
		reasons := make([]string, 0, len(res.Skipped))
		for r, n := range res.Skipped {
			reasons = append(reasons, fmt.Sprintf("%s=%d", r, n))
		}
		sort.Strings(reasons)
		fmt.Fprintf(&b, " (%s)", strings.Join(reasons, " "))
	}
	fmt.Fprintf(&b, " focus=%d seconds=%.3f build=%s map=%s", len(res.Focus), took.Seconds(), res.BuildID, mapPath)
	return b.String()
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// maxListedOutputs caps the output lines of the summary: a mirror of
// thousands of inputs should not flood the build log.
const maxListedOutputs = 10

// summaryDetails are the indented lines after the summary line: counts
// spelled out, ignored methods by reason (most frequent first), and every
// file written.
func summaryDetails(res *instrument.Result, kinds inputKinds, took time.Duration, p outputPaths) []string {
	var out []string
	add := func(key, format string, args ...any) {
		out = append(out, fmt.Sprintf("  %-11s %s", key+":", fmt.Sprintf(format, args...)))
	}
	add("inputs", "%d (%s, %s)", res.Inputs, plural(kinds.jars, "jar", "jars"), plural(kinds.dirs, "directory", "directories"))
	add("classes", "%d read, %d rewritten", res.Classes, res.Rewritten)
	add("methods", "%d traced, %d ignored", res.NumTraced(), res.IgnoredCount)
	if reasons := countByReason(res.IgnoredByReason); len(reasons) > 0 {
		add("ignored", "%s", strings.Join(reasons, " "))
	}
	if n := sum(res.Skipped); n > 0 {
		add("untouched", "%d planned methods could not be rewritten validly (listed as ignored)", n)
	}
	if len(res.Focus) > 0 {
		add("focus", "%s", plural(len(res.Focus), "Activity class", "Activity classes"))
	}
	if len(res.Duplicates) > 0 {
		add("duplicates", "%s in more than one input", plural(len(res.Duplicates), "class", "classes"))
	}
	if len(res.Warnings) > 0 {
		add("warnings", "%d (see stderr)", len(res.Warnings))
	}
	if res.CachedScans > 0 || res.CachedRewrites > 0 {
		add("cache", "%s reused whole, %d class scans and %d rewrites reused",
			plural(res.CachedInputs, "input", "inputs"), res.CachedScans, res.CachedRewrites)
	}
	add("time", "%.2f s", took.Seconds())
	for i, o := range res.Outputs {
		if i == maxListedOutputs {
			add("output", "... and %d more", len(res.Outputs)-i)
			break
		}
		add("output", "%s", o)
	}
	add("method map", "%s", p.methodMap)
	add("ignore map", "%s", p.ignoreMap)
	if p.report != "" {
		add("report", "%s", p.report)
	}
	return out
}

// countByReason returns "reason=n" for the ignored methods, the most
// frequent reason first (ties by name, so the order is stable).
func countByReason(counts map[string]int) []string {
	reasons := make([]string, 0, len(counts))
	for r := range counts {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		a, b := reasons[i], reasons[j]
		if counts[a] != counts[b] {
			return counts[a] > counts[b]
		}
		return a < b
	})
	for i, r := range reasons {
		reasons[i] = fmt.Sprintf("%s=%d", r, counts[r])
	}
	return reasons
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// checkClassName accepts a class name, dotted or with slashes, whose
// every part is a Java identifier: the runtime class is written in Java
// or Kotlin, and a name that is not one (spaces, punctuation, empty
// parts) gives jars that fail with NoClassDefFoundError when they run.
func checkClassName(name string) error {
	if name == "" {
		return errors.New("empty class name")
	}
	for _, part := range strings.Split(strings.ReplaceAll(name, ".", "/"), "/") {
		if part == "" {
			return fmt.Errorf("%q is not a class name: an empty part", name)
		}
		for i, r := range part {
			ok := unicode.IsLetter(r) || r == '_' || r == '$' || (i > 0 && unicode.IsDigit(r))
			if !ok {
				return fmt.Errorf("%q is not a class name: %q in %q", name, r, part)
			}
		}
	}
	return nil
}
