package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/mapping"
	"github.com/tracebeat/tracebeat/methodmap"
)

// checkJarConfig says how "check --jar" reads a jar: which runtime calls
// carry the ids, and the ProGuard/R8 mapping that names an obfuscated jar's
// methods as the map does.
type checkJarConfig struct {
	mode      rewrite.Mode
	beatClass string // internal name
	mapping   string // mapping.txt path, "" for a jar that was not obfuscated
}

func defaultCheckJarConfig() checkJarConfig {
	return checkJarConfig{mode: rewrite.ModeBeat, beatClass: rewrite.DefaultRuntime().BeatClass}
}

// scanJarForCheck scans an instrumented jar and, for an obfuscated one,
// renames its methods to their original names the way "instrument
// --mapping" named them in the map.
func scanJarForCheck(path string, cfg checkJarConfig) ([]methodmap.InstrumentedMethod, error) {
	rt := rewrite.DefaultRuntime()
	rt.Mode = cfg.mode
	rt.BeatClass = cfg.beatClass
	methods, err := scan.ScanInstrumented(path, rt)
	if err != nil {
		// check.go prefixes the jar path itself; ScanInstrumented's
		// errors start with it too.
		return nil, errors.New(strings.TrimPrefix(err.Error(), path+": "))
	}
	if cfg.mapping == "" {
		return methods, nil
	}
	m, err := mapping.ParseFile(cfg.mapping, nil)
	if err != nil {
		return nil, err
	}
	for i := range methods {
		im := &methods[i]
		im.Name, im.Desc, _ = m.OriginalMethod(im.Class, im.Name, im.Desc)
		if orig, ok := m.OriginalClass(im.Class); ok {
			im.Class = orig
		}
	}
	return methods, nil
}

// describe names the calls a config looks for, as a user would write them.
func (c checkJarConfig) describe() string {
	if c.mode == rewrite.ModeSystrace {
		return "--mode systrace (android.os.Trace.beginSection/endSection)"
	}
	return "--beat-class " + c.beatClass
}

// anyInjected tells whether a scan found at least one injected id.
func anyInjected(methods []methodmap.InstrumentedMethod) bool {
	for _, m := range methods {
		if len(m.InjectedIDs) > 0 {
			return true
		}
	}
	return false
}

// otherRuntimeHint looks for the calls of the other mode and of the
// default beat class in a jar that has none of the asked ones, and says
// which flag finds them; "" when it carries none of those either (a jar
// that was never instrumented).
func otherRuntimeHint(path string, asked checkJarConfig) string {
	tries := []checkJarConfig{defaultCheckJarConfig(), {mode: rewrite.ModeSystrace, beatClass: asked.beatClass}}
	for _, c := range tries {
		if c == asked || (c.mode == asked.mode && c.beatClass == asked.beatClass) {
			continue
		}
		c.mapping = ""
		if methods, err := scanJarForCheck(path, c); err == nil && anyInjected(methods) {
			return fmt.Sprintf(": it carries those of %s, so give check that", c.describe())
		}
	}
	return ": is it the jar that instrument wrote, and were --beat-class and --mode the ones instrument was given?"
}
