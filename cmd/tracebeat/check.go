package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/methodmap"
)

// scanInstrumentedJar lists every method with code in an instrumented jar
// and the ids injected into it (checkjar.go; tests replace it).
var scanInstrumentedJar = scanJarForCheck

// maxPrintedViolations keeps the output readable on a badly broken map; the
// summary line still counts all of them.
const maxPrintedViolations = 50

func init() {
	register(command{
		name:    "check",
		summary: "validate a methodMapping.txt, against a base map and an instrumented jar",
		run:     runCheck,
	})
}

const checkHelp = `usage: tracebeat check --map methodMapping.txt [--base OLD_MAP] [--jar INSTRUMENTED.jar [--mapping mapping.txt]]

Checks a method map and prints one line per problem, then a summary line.
  --map   syntax, duplicate ids or methods, ids outside 1..1048573, lines
          sorted by id, the dispatch entry 1048574 present.
  --base  the map kept every promise of an earlier map: same ids for the
          same methods, no method removed, no id given to another method,
          new methods above the earlier highest id.
  --jar   the jar matches the map: every injected id is in the map and
          names that method, one id per method, every mapped method that
          is in the jar is instrumented.

Exit status: 0 no problem, 1 problems found or a file unreadable, 2 usage.

Examples:
  (the Gradle plugin writes its maps to build/outputs/tracebeat/[VARIANT/])
  tracebeat check --map build/outputs/tracebeat/release/methodMapping.txt
  tracebeat check --map methodMapping.txt --base release-1.2/methodMapping.txt
  tracebeat check --map out/methodMapping.txt --jar out/app.jar --mapping mapping.txt

Flags:
`

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("check", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // help is printed below, to stdout
	mapPath := fs.String("map", "", "methodMapping.txt to check (required)")
	basePath := fs.String("base", "", "earlier methodMapping.txt the map must stay compatible with")
	jarPath := fs.String("jar", "", "instrumented jar to check against the map")
	jarCfg := defaultCheckJarConfig()
	mode := fs.String("mode", "beat", "beat or systrace: the calls --jar was instrumented with")
	fs.StringVar(&jarCfg.beatClass, "beat-class", jarCfg.beatClass, "runtime class of the injected i/o calls, for --jar, as given to instrument")
	fs.StringVar(&jarCfg.mapping, "mapping", "", "ProGuard/R8 mapping.txt of an obfuscated --jar (the map has the original names)")
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil || *help {
		if errors.Is(err, pflag.ErrHelp) || *help {
			fmt.Fprint(stdout, checkHelp+fs.FlagUsages())
			return exitOK
		}
		return checkUsageError(stderr, flagMessage(err))
	}
	m, err := rewrite.ParseMode(*mode)
	if err != nil {
		return checkUsageError(stderr, "--mode: "+err.Error())
	}
	jarCfg.mode = m
	if jarCfg.beatClass == "" {
		return checkUsageError(stderr, "--beat-class: empty class name")
	}
	jarCfg.beatClass = strings.ReplaceAll(jarCfg.beatClass, ".", "/")
	switch {
	case *mapPath == "":
		return checkUsageError(stderr, "--map is required")
	case fs.NArg() > 0:
		return checkUsageError(stderr, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}

	methodMap, violations, err := methodmap.CheckMapFile(*mapPath)
	if err != nil {
		fmt.Fprintf(stderr, "tracebeat check: %v\n", err)
		return exitFailure
	}
	if *basePath != "" {
		base, baseSyntax, err := readBase(*basePath)
		if err != nil {
			fmt.Fprintf(stderr, "tracebeat check: %v\n", err)
			return exitFailure
		}
		violations = append(violations, baseSyntax...)
		violations = append(violations, methodmap.CompareWithBase(methodMap, *mapPath, base, *basePath)...)
	}
	if *jarPath != "" {
		methods, err := scanInstrumentedJar(*jarPath, jarCfg)
		if err != nil {
			fmt.Fprintf(stderr, "tracebeat check: %s: %v\n", *jarPath, err)
			return exitFailure
		}
		jarViolations := methodmap.CheckJar(methodMap, *mapPath, *jarPath, methods)
		if len(jarViolations) > 0 && !anyInjected(methods) {
			// Every mapped method is "not instrumented": one line says
			// why, and which runtime's calls the jar does carry. (A jar
			// none of whose methods the map names passes, injected or not.)
			fmt.Fprintf(stderr, "tracebeat check: %s carries no injected calls of %s%s\n", *jarPath, jarCfg.describe(), otherRuntimeHint(*jarPath, jarCfg))
			return exitFailure
		}
		violations = append(violations, jarViolations...)
	}

	for i, v := range violations {
		if i == maxPrintedViolations {
			fmt.Fprintf(stdout, "... and %d more violations\n", len(violations)-i)
			break
		}
		fmt.Fprintln(stdout, v.Msg)
	}
	fmt.Fprintf(stdout, "check: map=%s entries=%d base=%s jar=%s violations=%d\n",
		*mapPath, len(methodMap.Entries), orNone(*basePath), orNone(*jarPath), len(violations))
	if len(violations) > 0 {
		return exitFailure
	}
	return exitOK
}

// readBase parses the base map leniently: its malformed lines are reported
// (they may hide methods that then look removed), the rest is compared.
func readBase(path string) (*methodmap.Map, []methodmap.Violation, error) {
	base, vs, err := methodmap.CheckMapFile(path)
	if err != nil {
		return nil, nil, err
	}
	var syntax []methodmap.Violation
	for _, v := range vs {
		if v.Kind == methodmap.KindSyntax {
			syntax = append(syntax, v)
		}
	}
	return base, syntax, nil
}

func checkUsageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "tracebeat check: %s\nRun 'tracebeat check --help' for usage.\n", msg)
	return exitUsage
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
