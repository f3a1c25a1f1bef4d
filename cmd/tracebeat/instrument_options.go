package main

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"go.uber.org/zap"

	"github.com/tracebeat/tracebeat/blacklist"
	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/mapping"
	"github.com/tracebeat/tracebeat/methodmap"
)

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
	opt.Policy.Decide = func(f *scan.MethodFacts) (bool, string, string) {
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
