package main

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/methodmap"

	"github.com/tracebeat/tracebeat/internal/english"
)

func init() {
	register(command{
		name:    "inspect",
		summary: "show a class's methods and bytecode with the injected calls marked",
		run:     runInspect,
	})
}

const inspectHelp = `usage: tracebeat inspect [flags] JAR[!ENTRY] | DIR[!ENTRY] | CLASS

Shows the methods and instructions of a class, javap-like, with what
tracebeat injected marked: a '+' in the margin of every injected
instruction and exception-table entry, and a comment on the first
instruction of each sequence:
  // tracebeat: enter id=12          AppMethodBeat.i(12) (or beginSection("12"))
  // tracebeat: exit id=12           AppMethodBeat.o(12) (or endSection())
  // tracebeat: catch-all handler    the last exception-table entries (type
                                     any) whose handler runs the exit and
                                     rethrows
  // tracebeat: focus                AppMethodBeat.at(this, hasFocus)
Constant-pool operands are resolved and branch targets shown as code
offsets. Each method line shows the id read from its injected code
(id=N), and with --map the id methodMapping.txt gives its name (map=N;
map=none when absent). Names in the map are the original ones: for an
obfuscated jar the map ids of renamed methods show as none.

ENTRY (or --class) names a class inside a jar or directory:
a/b/C.class, a/b/C or a.b.C. Without one, the classes are listed with
their number of methods and of instrumented methods.

Examples:
  tracebeat inspect 'out/app.jar!com/example/Main.class'
  tracebeat inspect --class com.example.Main --method run out/app.jar
  tracebeat inspect --no-code --map out/methodMapping.txt 'out/app.jar!com/example/Main'
  tracebeat inspect out/app.jar
  tracebeat inspect build/traced/classes/com/example/Main.class

Exit status: 0 ok, 1 failure (file, entry or method not found, class or
code unreadable), 2 usage.

Flags:
`

type inspectFlags struct {
	class, method, mapPath, beatClass string
	noCode                            bool
}

func runInspect(args []string, stdout, stderr io.Writer) int {
	var fl inspectFlags
	flags := pflag.NewFlagSet("inspect", pflag.ContinueOnError)
	flags.SetOutput(io.Discard)
	flags.StringVar(&fl.class, "class", "", "class to show from a jar or directory (a/b/C, a.b.C or a/b/C.class)")
	flags.StringVar(&fl.method, "method", "", "show only methods with this name (or name and descriptor, run(I)V)")
	flags.BoolVar(&fl.noCode, "no-code", false, "list the methods without their instructions")
	flags.StringVar(&fl.mapPath, "map", "", "methodMapping.txt: show the id it gives each method")
	flags.StringVar(&fl.beatClass, "beat-class", rewrite.DefaultRuntime().BeatClass, "runtime class of the injected calls, as given to instrument")
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "tracebeat inspect: %s\nRun 'tracebeat inspect --help' for usage.\n", msg)
		return exitUsage
	}
	help := flags.BoolP("help", "h", false, "show this help")
	if err := flags.Parse(args); err != nil || *help {
		if errors.Is(err, pflag.ErrHelp) || *help {
			fmt.Fprint(stdout, inspectHelp+flags.FlagUsages())
			return exitOK
		}
		return usageErr(err.Error())
	}
	if flags.NArg() != 1 {
		return usageErr("want exactly one JAR[!ENTRY], DIR[!ENTRY] or CLASS")
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "tracebeat inspect: %v\n", err)
		return exitFailure
	}
	ids := map[methodmap.MethodKey]int(nil)
	if fl.mapPath != "" {
		m, err := methodmap.ReadMapFile(fl.mapPath)
		if err != nil {
			return fail(fileError("map", fl.mapPath, err))
		}
		ids = m.IDs()
	}
	src, err := openClassSource(flags.Arg(0), fl.class)
	if err != nil {
		return fail(err)
	}
	defer src.close()
	rt := inspectRuntime(strings.ReplaceAll(fl.beatClass, ".", "/"))
	if src.entry == "" {
		if fl.method != "" || fl.noCode {
			return usageErr("--method and --no-code need a class: JAR!ENTRY or --class")
		}
		if err := listClasses(stdout, src, rt); err != nil {
			return fail(err)
		}
		return exitOK
	}
	data, err := src.read(src.entry)
	if err != nil {
		return fail(err)
	}
	p := &classPrinter{w: stdout, rt: rt, ids: ids, method: fl.method, noCode: fl.noCode}
	if err := p.print(src.describe(src.entry), data); err != nil {
		return fail(fmt.Errorf("%s: %w", src.describe(src.entry), err))
	}
	return exitOK
}

// classSource is a class file, a jar or a class directory, and the entry
// asked for ("" to list).
type classSource struct {
	path  string
	kind  int // sourceClass, sourceJar, sourceDir
	zr    *zip.ReadCloser
	entry string
}

const (
	sourceClass = iota
	sourceJar
	sourceDir
)

// splitClassArg splits "PATH!ENTRY" at the last '!' unless arg names an
// existing file as it is. Only the entry uses slashes; PATH is the
// platform's (C:\app\lib.jar!com/a/B.class on Windows).
func splitClassArg(arg string, exists func(string) bool) (path, entry string) {
	if !exists(arg) {
		if i := strings.LastIndex(arg, "!"); i > 0 {
			return arg[:i], arg[i+1:]
		}
	}
	return arg, ""
}

// openClassSource resolves "PATH", "PATH!ENTRY" or PATH with --class. The
// '!' splits only when PATH itself does not exist, so a file name holding
// '!' still works.
func openClassSource(arg, class string) (*classSource, error) {
	path, entry := splitClassArg(arg, func(p string) bool { _, err := os.Stat(p); return err == nil })

	if class != "" {
		if entry != "" {
			return nil, fmt.Errorf("%s: both !%s and --class %s given", path, entry, class)
		}
		entry = class
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fileError("input", path, err)
	}
	s := &classSource{path: path}
	switch {
	case st.IsDir():
		s.kind = sourceDir
	case isClassFile(path):
		if entry != "" {
			return nil, fmt.Errorf("%s: a class file has no entry %q", path, entry)
		}
		s.kind = sourceClass
		s.entry = path
		return s, nil
	default:
		zr, err := zip.OpenReader(path)
		if err != nil {
			return nil, fmt.Errorf("%s: neither a class file nor a readable jar: %w", path, err)
		}
		s.kind, s.zr = sourceJar, zr
	}
	if entry != "" {
		s.entry = s.findEntry(entry)
		if s.entry == "" {
			s.close()
			return nil, fmt.Errorf("%s: no class %s (looked for %s)", path, entry, entryName(entry))
		}
	}
	return s, nil
}

// isClassFile reports whether path starts with the class-file magic.
func isClassFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	_, err = io.ReadFull(f, magic[:])
	return err == nil && bytes.Equal(magic[:], []byte{0xCA, 0xFE, 0xBA, 0xBE})
}

// entryName turns a/b/C, a.b.C or a/b/C.class into the entry a/b/C.class.
func entryName(name string) string {
	name = strings.TrimPrefix(filepath.ToSlash(name), "/")
	if strings.HasSuffix(name, ".class") {
		return name
	}
	if !strings.Contains(name, "/") {
		name = strings.ReplaceAll(name, ".", "/")
	}
	return name + ".class"
}

// findEntry returns the stored name of an entry, "" when absent.
func (s *classSource) findEntry(name string) string {
	want := entryName(name)
	switch s.kind {
	case sourceJar:
		for _, f := range s.zr.File {
			if f.Name == want {
				return f.Name
			}
		}
	case sourceDir:
		if st, err := os.Stat(filepath.Join(s.path, filepath.FromSlash(want))); err == nil && st.Mode().IsRegular() {
			return want
		}
	}
	return ""
}

func (s *classSource) describe(entry string) string {
	if s.kind == sourceClass {
		return s.path
	}
	return s.path + "!" + entry
}

// read returns an entry's bytes; errors name the input and the entry.
func (s *classSource) read(entry string) ([]byte, error) {
	switch s.kind {
	case sourceJar:
		for _, f := range s.zr.File {
			if f.Name != entry {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", s.path, entry, err)
			}
			defer rc.Close()
			data, err := io.ReadAll(rc)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", s.path, entry, err)
			}
			return data, nil
		}
		return nil, fmt.Errorf("%s: %s: no such entry", s.path, entry)
	case sourceDir:
		data, err := os.ReadFile(filepath.Join(s.path, filepath.FromSlash(entry)))
		if err != nil {
			return nil, fileError(s.path+":", entry, err)
		}
		return data, nil
	}
	data, err := os.ReadFile(s.path)
	if err != nil {
		return nil, fileError("input", s.path, err)
	}
	return data, nil
}

// classEntries lists the class entries: jar order, or sorted paths.
func (s *classSource) classEntries() ([]string, error) {
	var names []string
	switch s.kind {
	case sourceJar:
		for _, f := range s.zr.File {
			if strings.HasSuffix(f.Name, ".class") && !f.FileInfo().IsDir() {
				names = append(names, f.Name)
			}
		}
	case sourceDir:
		err := filepath.WalkDir(s.path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && strings.HasSuffix(p, ".class") {
				rel, err := filepath.Rel(s.path, p)
				if err != nil {
					return err
				}
				names = append(names, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.path, err)
		}
		sort.Strings(names)
	}
	return names, nil
}

func (s *classSource) close() {
	if s.zr != nil {
		s.zr.Close()
	}
}

// listClasses prints one line per class: its entry, methods, and how many
// carry injected code; a class that cannot be read says why.
func listClasses(w io.Writer, s *classSource, rt rewrite.Runtime) error {
	names, err := s.classEntries()
	if err != nil {
		return err
	}
	instrumented, broken := 0, 0
	for _, name := range names {
		data, err := s.read(name)
		if err != nil {
			return err
		}
		methods, traced, err := countInstrumented(data, rt)
		if err != nil {
			broken++
			fmt.Fprintf(w, "%s  cannot parse: %v\n", name, err)
			continue
		}
		if traced > 0 {
			instrumented++
		}
		fmt.Fprintf(w, "%s  methods=%d instrumented=%d\n", name, methods, traced)
	}
	fmt.Fprintf(w, "%s: %s, %d with injected code", s.path, english.Count(len(names), "class"), instrumented)
	if broken > 0 {
		fmt.Fprintf(w, ", %d unreadable", broken)
	}
	fmt.Fprintln(w)
	return nil
}

// countInstrumented counts the methods of a class and those with injected
// code.
func countInstrumented(data []byte, rt rewrite.Runtime) (methods, traced int, err error) {
	c, err := cf.Parse(data)
	if err != nil {
		return 0, 0, err
	}
	for i := range c.Methods {
		attr, ok := c.FindAttribute(c.Methods[i].Attributes, "Code")
		if !ok {
			continue
		}
		code, err := cf.DecodeCode(c.Pool, attr.Data)
		if err != nil {
			continue // shown when the class is inspected
		}
		if rewrite.FindInjected(code, c.Pool, rt).Any() {
			traced++
		}
	}
	return len(c.Methods), traced, nil
}

// inspectRuntime is the runtime inspect recognises: Matrix's, under the
// beat class given (either mode's calls are recognised).
func inspectRuntime(beatClass string) rewrite.Runtime {
	rt := rewrite.DefaultRuntime()
	rt.BeatClass = beatClass
	return rt
}
