package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/outset"
	"github.com/tracebeat/tracebeat/internal/pathguard"
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
