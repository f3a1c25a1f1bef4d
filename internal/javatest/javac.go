package javatest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tracebeat/tracebeat/internal/ci"
)

// Options are the javac settings of one compilation. They are part of the
// cache key, so two tests asking for the same sources with the same Options
// share one javac run.
type Options struct {
	// Release is passed as --release N; 0 leaves javac's default (the JDK's
	// own version).
	Release int
	// EnablePreview adds --enable-preview; javac then writes minor version
	// 0xFFFF. Requires Release.
	EnablePreview bool
	// Debug adds -g: LineNumberTable, LocalVariableTable,
	// LocalVariableTypeTable and SourceFile. Without it javac's default
	// (-g:source,lines) applies.
	Debug bool
	// Classpath entries (directories or jars) the sources compile against.
	Classpath []string
	// Args are further javac arguments, passed verbatim before the sources.
	Args []string
	// Compiler is the compiler to run: "" (javac), "ecj", "kotlinc" or
	// "groovyc". Release, EnablePreview and Debug are javac's; the others
	// take Classpath and Args only, and their sources end in .java, .kt
	// and .groovy.
	Compiler string
}

// compiler returns the command of the compiler and the extension of its sources.
func (o Options) compiler() (cmd, ext string) {
	switch o.Compiler {
	case "kotlinc":
		return "kotlinc", ".kt"
	case "groovyc":
		return "groovyc", ".groovy"
	case "ecj":
		return "ecj", ".java"
	}
	return "javac", ".java"
}

func (o Options) javacArgs() []string {
	if cmd, _ := o.compiler(); cmd != "javac" {
		var args []string
		if len(o.Classpath) > 0 {
			args = append(args, "-classpath", strings.Join(o.Classpath, string(os.PathListSeparator)))
		}
		return append(args, o.Args...)
	}
	var args []string
	if o.Release != 0 {
		args = append(args, "--release", strconv.Itoa(o.Release))
	}
	if o.EnablePreview {
		args = append(args, "--enable-preview")
	}
	if o.Debug {
		args = append(args, "-g")
	}
	if len(o.Classpath) > 0 {
		args = append(args, "-classpath", strings.Join(o.Classpath, string(os.PathListSeparator)))
	}
	return append(args, o.Args...)
}

type compilation struct {
	once sync.Once
	dir  string
	err  error
}

var (
	compilationsMu sync.Mutex
	compilations   = map[string]*compilation{}
)

// Javac compiles the given sources (directories are searched recursively for
// *.java; files are taken as they are) in ONE javac run and returns the
// directory holding the class files.
//
// Results are cached twice, keyed by the javac binary, the options, the
// classpath contents and every source's path and content: within the test
// process (concurrent callers wait for one compilation) and on disk under
// $TRACEBEAT_JAVATEST_CACHE (default: <user cache dir>/tracebeat-javatest),
// so the packages that `go test ./...` runs as separate processes do not
// compile the same fixtures again. The returned directory is shared: treat
// it as read-only (copy it with CopyDir before changing anything).
func Javac(tb testing.TB, opts Options, sources ...string) string {
	tb.Helper()
	RequireJava(tb)
	cmd, ext := opts.compiler()
	if _, err := exec.LookPath(cmd); err != nil {
		if ci.On() {
			tb.Fatalf("javatest: %s is not installed (scripts/test.sh installs it)", cmd)
		}
		tb.Skipf("javatest: %s is not installed", cmd)
	}
	files, err := sourceFiles(sources, ext)
	if err != nil {
		tb.Fatalf("javatest: javac: %v", err)
	}
	key, err := compileKey(opts, files)
	if err != nil {
		tb.Fatalf("javatest: javac: %v", err)
	}
	compilationsMu.Lock()
	c, ok := compilations[key]
	if !ok {
		c = &compilation{}
		compilations[key] = c
	}
	compilationsMu.Unlock()
	c.once.Do(func() { c.dir, c.err = compileCached(key, opts, files) })
	if c.err != nil {
		tb.Fatalf("javatest: %v", c.err)
	}
	return c.dir
}

// sourceFiles expands directories to the files with the extension ext
// below them and returns absolute, sorted, de-duplicated paths.
func sourceFiles(sources []string, ext string) ([]string, error) {
	seen := map[string]bool{}
	var files []string
	add := func(p string) error {
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		if !seen[abs] {
			seen[abs] = true
			files = append(files, abs)
		}
		return nil
	}
	for _, src := range sources {
		info, err := os.Stat(src)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			if err := add(src); err != nil {
				return nil, err
			}
			continue
		}
		err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ext) {
				return add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no %s files in %v", ext, sources)
	}
	sort.Strings(files)
	return files, nil
}

// compileKey hashes everything that can change javac's output.
func compileKey(opts Options, files []string) (string, error) {
	h := sha256.New()
	cmd, _ := opts.compiler()
	javac, err := exec.LookPath(cmd)
	if err != nil {
		return "", err
	}
	if resolved, err := filepath.EvalSymlinks(javac); err == nil {
		javac = resolved
	}
	if info, err := os.Stat(javac); err == nil {
		fmt.Fprintf(h, "javac %s %d %d\n", javac, info.Size(), info.ModTime().UnixNano())
	}
	for _, a := range opts.javacArgs() {
		fmt.Fprintf(h, "arg %q\n", a)
	}
	for _, cp := range opts.Classpath {
		if err := hashTree(h, cp); err != nil {
			return "", fmt.Errorf("classpath entry %s: %w", cp, err)
		}
	}
	for _, f := range files {
		if err := hashTree(h, f); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// hashTree feeds the path and content of a file, or of every file below a
// directory, into h.
func hashTree(h io.Writer, root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		fmt.Fprintf(h, "file %q\n", p)
		_, err = io.Copy(h, f)
		return err
	})
}

var cacheTrimOnce sync.Once

// Cache entries unused for this long are deleted, so edited fixtures do
// not pile up; leftovers of interrupted compilations go after an hour.
const (
	cacheMaxIdle = 30 * 24 * time.Hour
	cacheMaxTemp = time.Hour
)

func cacheRoot() (string, error) {
	root := os.Getenv("TRACEBEAT_JAVATEST_CACHE")
	if root == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		root = filepath.Join(base, "tracebeat-javatest")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	cacheTrimOnce.Do(func() { trimCache(root) })
	return root, nil
}

// trimCache removes stale entries. Failures are ignored: the cache only
// saves time, and another process may be trimming at the same moment.
func trimCache(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	now := time.Now()
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		idle := now.Sub(info.ModTime())
		name := e.Name()
		if (strings.HasPrefix(name, "tmp-") && idle > cacheMaxTemp) ||
			(strings.HasPrefix(name, "classes-") && idle > cacheMaxIdle) {
			os.RemoveAll(filepath.Join(root, name))
		}
	}
}

// compileCached returns the cached output directory for key, compiling into
// a fresh directory and renaming it into place when absent. The rename is
// atomic, so a directory under its final name is always complete, and two
// processes racing for the same key both end up with a valid result.
func compileCached(key string, opts Options, files []string) (string, error) {
	root, err := cacheRoot()
	if err != nil {
		return "", fmt.Errorf("javac cache: %w", err)
	}
	final := filepath.Join(root, "classes-"+key)
	if info, err := os.Stat(final); err == nil && info.IsDir() {
		now := time.Now()
		os.Chtimes(final, now, now) // mark as used for trimCache
		return final, nil
	}
	tmp, err := os.MkdirTemp(root, "tmp-")
	if err != nil {
		return "", fmt.Errorf("javac cache: %w", err)
	}
	if err := runJavac(tmp, opts, files); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, final); err != nil {
		os.RemoveAll(tmp)
		if info, statErr := os.Stat(final); statErr == nil && info.IsDir() {
			return final, nil // another process won the race
		}
		return "", fmt.Errorf("javac cache: %w", err)
	}
	return final, nil
}

func runJavac(outDir string, opts Options, files []string) error {
	name, _ := opts.compiler()
	var args []string
	switch name {
	case "javac":
		args = []string{"-d", outDir, "-encoding", "UTF-8", "-proc:none", "-Xlint:none",
			// javac is a short-lived JVM: C1 only is faster.
			"-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"}
	case "ecj":
		args = []string{"-d", outDir, "-encoding", "UTF-8", "-proc:none", "-nowarn", "-source", "1.8", "-target", "1.8"}
	case "kotlinc":
		args = []string{"-d", outDir, "-nowarn", "-jvm-target", "1.8"}
	case "groovyc":
		args = []string{"-d", outDir}
	}
	args = append(args, opts.javacArgs()...)
	if name != "javac" && name != "ecj" {
		// kotlinc and groovyc take the sources on the command line.
		return runCompiler(name, opts, append(args, files...))
	}
	// An @argfile keeps long fixture lists clear of command-line limits.
	argFile := filepath.Join(outDir, "..", filepath.Base(outDir)+".args")
	var b strings.Builder
	for _, f := range files {
		b.WriteString(strconv.Quote(f))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(argFile, []byte(b.String()), 0o644); err != nil {
		return err
	}
	defer os.Remove(argFile)
	return runCompiler(name, opts, append(args, "@"+argFile))
}

func runCompiler(name string, opts Options, args []string) error {
	cmd := exec.Command(name, args...)
	if home := javaHome(); home != "" {
		// groovyc's launcher insists on a JAVA_HOME; Debian's default-java
		// link is not always there.
		cmd.Env = append(os.Environ(), "JAVA_HOME="+home)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return fmt.Errorf("%s %s failed (%v):\n%s", name, strings.Join(opts.javacArgs(), " "), err, out)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// javaHome is the home of the java on PATH (its bin/java resolved).
func javaHome() string {
	java, err := exec.LookPath("java")
	if err != nil {
		return ""
	}
	if java, err = filepath.EvalSymlinks(java); err != nil {
		return ""
	}
	return filepath.Dir(filepath.Dir(java))
}
