package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
)

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
