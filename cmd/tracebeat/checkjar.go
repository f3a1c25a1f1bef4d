package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tracebeat/tracebeat/instrument"
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

// checkJarFlagHelp is appended to check's --help.
const checkJarFlagHelp = `      --beat-class string   runtime class of the injected i/o calls, for --jar (default "com.tencent.matrix.trace.core.AppMethodBeat")
      --mapping string      ProGuard/R8 mapping.txt of an obfuscated --jar (the map has the original names)
      --mode string         beat or systrace: the calls --jar was instrumented with (default "beat")
`

var (
	// checkJarMu serialises check runs in one process: the flags below reach
	// scanInstrumentedJar through checkJarCurrent, because its signature
	// (fixed in check.go) carries only the jar path.
	checkJarMu      sync.Mutex
	checkJarCurrent = defaultCheckJarConfig()
)

func defaultCheckJarConfig() checkJarConfig {
	return checkJarConfig{mode: rewrite.ModeBeat, beatClass: rewrite.DefaultRuntime().BeatClass}
}

func init() {
	scanInstrumentedJar = func(path string) ([]methodmap.InstrumentedMethod, error) {
		return scanJarForCheck(path, checkJarCurrent)
	}

	// check.go's init has run (files are initialised in name order): wrap
	// the command so that it accepts the flags the jar scan needs. This is
	// a stop-gap: once check.go defines --mode, --beat-class and --mapping
	// and hands them to scanInstrumentedJar, the wrapper, the mutex and
	// extractCheckJarFlags go away.
	c, ok := commands["check"]
	if !ok {
		panic("tracebeat: checkjar.go needs the check command of check.go")
	}
	inner := c.run
	c.run = func(args []string, stdout, stderr io.Writer) int {
		cfg, rest, err := extractCheckJarFlags(args)
		if err != nil {
			return checkUsageError(stderr, err.Error())
		}
		checkJarMu.Lock()
		defer checkJarMu.Unlock()
		checkJarCurrent = cfg
		defer func() { checkJarCurrent = defaultCheckJarConfig() }()
		code := inner(rest, stdout, stderr)
		if wantsHelp(rest) && code == exitOK {
			fmt.Fprint(stdout, checkJarFlagHelp)
		}
		return code
	}
	commands["check"] = c
}

// scanJarForCheck scans an instrumented jar and, for an obfuscated one,
// renames its methods to their original names the way "instrument
// --mapping" named them in the map.
func scanJarForCheck(path string, cfg checkJarConfig) ([]methodmap.InstrumentedMethod, error) {
	rt := rewrite.DefaultRuntime()
	rt.Mode = cfg.mode
	rt.BeatClass = cfg.beatClass
	methods, err := instrument.ScanInstrumented(path, rt)
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

// extractCheckJarFlags takes --mode, --beat-class and --mapping (as
// "--flag value" or "--flag=value") out of args and returns the rest for
// check.go's parser. Arguments after "--" are left alone.
func extractCheckJarFlags(args []string) (checkJarConfig, []string, error) {
	cfg := defaultCheckJarConfig()
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(a, "=")
		switch name {
		case "--mode", "--beat-class", "--mapping":
		default:
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return cfg, nil, fmt.Errorf("flag needs an argument: %s", name)
			}
			i++
			value = args[i]
		}
		switch name {
		case "--mode":
			mode, err := rewrite.ParseMode(value)
			if err != nil {
				return cfg, nil, fmt.Errorf("--mode: %v", err)
			}
			cfg.mode = mode
		case "--beat-class":
			if value == "" {
				return cfg, nil, fmt.Errorf("--beat-class: empty class name")
			}
			cfg.beatClass = strings.ReplaceAll(value, ".", "/")
		case "--mapping":
			cfg.mapping = value
		}
	}
	return cfg, rest, nil
}

func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "--help" {
			return true
		}
	}
	return false
}
