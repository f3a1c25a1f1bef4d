package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	"github.com/tracebeat/tracebeat/blacklist"
	"github.com/tracebeat/tracebeat/instrument"
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

Examples:
  tracebeat instrument -o build/traced app.jar lib.jar build/classes
  tracebeat instrument --merge -o out/all.jar --mapping mapping.txt app.jar
  tracebeat instrument --base-map release/methodMapping.txt -o out @inputs.txt
  tracebeat instrument --config tracebeat.conf

Exit status: 0 ok, 1 failure, 2 usage.

Flags:
`

type instrumentFlags struct {
	output, mode, mapping, blacklist, baseMap string
	methodMap, ignoreMap, report, beatClass   string
	config, logLevel, logFormat               string
	merge, traceAll, strict, quiet            bool
	traceAbstract, traceEmpty, traceGetSet    bool
	traceSingle                               bool
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
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "parallel workers")
	fs.StringSliceVar(&f.classpath, "classpath", nil, "jars read for the class hierarchy only, e.g. android.jar (repeatable)")
	fs.StringVar(&f.mapping, "mapping", "", "ProGuard/R8 mapping.txt of the inputs")
	fs.StringVar(&f.blacklist, "blacklist", "", "Matrix block list (-keepclass / -keeppackage)")
	fs.StringVar(&f.baseMap, "base-map", "", "previous methodMapping.txt: its methods keep their ids")
	fs.StringVar(&f.methodMap, "method-map", "", "methodMapping.txt to write (default: in the output directory, or beside the --merge jar)")
	fs.StringVar(&f.ignoreMap, "ignore-map", "", "ignoreMethodMapping.txt to write (default: beside the method map)")
	fs.StringVar(&f.report, "report", "", "JSON report of ignored methods with reasons")
	fs.StringVar(&f.beatClass, "beat-class", instrument.DefaultRuntime().BeatClass, "runtime class with static i(I)V, o(I)V, at(Activity,Z)V")
	fs.BoolVar(&f.strict, "strict", false, "fail on a class that cannot be parsed (default: copy it untouched with a warning)")
	fs.StringVar(&f.config, "config", "", "file of \"flag = value\" lines (\"input = PATH\" adds inputs); command-line flags win")
	fs.StringVar(&f.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&f.logFormat, "log-format", "console", "console or json")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print nothing but errors")
}

func runInstrument(args []string, stdout, stderr io.Writer) int {
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "tracebeat instrument: %s\nRun 'tracebeat instrument --help' for usage.\n", msg)
		return exitUsage
	}
	args, err := expandArgfiles(args)
	if err != nil {
		return usageErr(err.Error())
	}
	var fl instrumentFlags
	fs := pflag.NewFlagSet("instrument", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fl.define(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, instrumentHelp+fs.FlagUsages())
			return exitOK
		}
		return usageErr(err.Error())
	}
	inputs := fs.Args()
	if fl.config != "" {
		extra, err := applyConfig(fs, fl.config)
		if err != nil {
			return usageErr(err.Error())
		}
		inputs = append(inputs, extra...)
	}
	if len(inputs) == 0 {
		return usageErr("no inputs")
	}
	if fl.output == "" {
		return usageErr("-o is required")
	}
	mode, err := instrument.ParseMode(fl.mode)
	if err != nil {
		return usageErr(err.Error())
	}
	log, err := newLogger(stderr, fl.logLevel, fl.logFormat, fl.quiet)
	if err != nil {
		return usageErr(err.Error())
	}
	defer log.Sync() //nolint:errcheck

	start := time.Now()
	opt, err := buildOptions(&fl, inputs, mode, log)
	if err != nil {
		fmt.Fprintf(stderr, "tracebeat instrument: %v\n", err)
		return exitFailure
	}
	res, err := instrument.Run(context.Background(), opt)
	if err != nil {
		fmt.Fprintf(stderr, "tracebeat instrument: %v\n", err)
		return exitFailure
	}
	mapPath, ignorePath := mapPaths(&fl)
	if err := writeMaps(res, mapPath, ignorePath, fl.report); err != nil {
		fmt.Fprintf(stderr, "tracebeat instrument: %v\n", err)
		return exitFailure
	}
	if !fl.quiet {
		fmt.Fprintln(stdout, summaryLine(res, time.Since(start), mapPath))
	}
	return exitOK
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

func buildOptions(fl *instrumentFlags, inputs []string, mode instrument.Mode, log *zap.Logger) (instrument.Options, error) {
	rt := instrument.DefaultRuntime()
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
	}
	if fl.mapping != "" {
		m, err := mapping.ParseFile(fl.mapping, log)
		if err != nil {
			return opt, err
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
	if fl.blacklist != "" {
		if err := bl.AddFile(fl.blacklist); err != nil {
			return opt, err
		}
	}
	opt.Policy.Blocked = func(orig string) (string, bool) {
		r, ok := bl.Blocked(orig)
		if !ok {
			return "", false
		}
		return r.String(), true
	}
	rules := methodmap.Options{
		TraceAll:             fl.traceAll,
		TraceAbstractClasses: fl.traceAbstract,
		TraceEmpty:           fl.traceEmpty,
		TraceGetterSetter:    fl.traceGetSet,
		TraceSingle:          fl.traceSingle,
	}
	opt.Policy.Decide = func(f *instrument.MethodFacts) (bool, string) {
		r := methodmap.Classify(methodmap.MethodInfo{
			ClassAccess: f.ClassAccess, Access: f.Access,
			Name: f.Key.Name, Desc: f.Key.Desc, Opcodes: f.Opcodes,
		}, rules)
		return r == methodmap.Traced, string(r)
	}
	if fl.baseMap != "" {
		base, err := methodmap.ReadMapFile(fl.baseMap)
		if err != nil {
			return opt, err
		}
		opt.Policy.BaseMap = base
	}
	return opt, nil
}

// mapPaths returns where the maps go: given paths, else the output
// directory, else beside the merged jar.
func mapPaths(fl *instrumentFlags) (string, string) {
	dir := fl.output
	if fl.merge {
		dir = filepath.Dir(fl.output)
	}
	m, ig := fl.methodMap, fl.ignoreMap
	if m == "" {
		m = filepath.Join(dir, "methodMapping.txt")
	}
	if ig == "" {
		ig = filepath.Join(filepath.Dir(m), "ignoreMethodMapping.txt")
	}
	return m, ig
}

func writeMaps(res *instrument.Result, mapPath, ignorePath, reportPath string) error {
	if err := os.MkdirAll(filepath.Dir(mapPath), 0o755); err != nil {
		return err
	}
	if err := methodmap.WriteMapFile(mapPath, res.Map); err != nil {
		return fmt.Errorf("method map %s: %w", mapPath, err)
	}
	ignored := make([]methodmap.IgnoredMethod, len(res.Ignored))
	for i, m := range res.Ignored {
		ignored[i] = methodmap.IgnoredMethod{Key: m.Key, Access: m.Access, Reason: methodmap.Reason(m.Reason)}
	}
	if err := os.MkdirAll(filepath.Dir(ignorePath), 0o755); err != nil {
		return err
	}
	if err := methodmap.WriteIgnoreMapFile(ignorePath, ignored); err != nil {
		return fmt.Errorf("ignore map %s: %w", ignorePath, err)
	}
	if reportPath != "" {
		if err := os.MkdirAll(filepath.Dir(reportPath), 0o755); err != nil {
			return err
		}
		if err := methodmap.WriteReportFile(reportPath, len(res.Traced), ignored); err != nil {
			return fmt.Errorf("report %s: %w", reportPath, err)
		}
	}
	return nil
}

// summaryLine is the one-line result the checks and users read.
func summaryLine(res *instrument.Result, took time.Duration, mapPath string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tracebeat: inputs=%d classes=%d rewritten=%d methods traced=%d ignored=%d skipped=%d",
		res.Inputs, res.Classes, res.Rewritten, len(res.Traced), len(res.Ignored), sum(res.Skipped))
	if len(res.Skipped) > 0 {
		reasons := make([]string, 0, len(res.Skipped))
		for r, n := range res.Skipped {
			reasons = append(reasons, fmt.Sprintf("%s=%d", r, n))
		}
		sort.Strings(reasons)
		fmt.Fprintf(&b, " (%s)", strings.Join(reasons, " "))
	}
	fmt.Fprintf(&b, " focus=%d seconds=%.2f map=%s", len(res.Focus), took.Seconds(), mapPath)
	return b.String()
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
