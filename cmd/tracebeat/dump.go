package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

func init() {
	register(command{name: "dump", summary: "ask a running program for its recording so far, without stopping it", run: runDump})
}

const dumpUsage = `usage: tracebeat dump PID [-o FILE]
       tracebeat dump --list

Asks a running JVM that records with tracebeat's runtime for a dump, and
waits until it is on disk. The program goes on recording. In ring mode (the
default) the dump holds what every thread's ring holds now; in stream mode
(-Dtracebeat.mode=stream) the recording itself is brought up to date, and
-o FILE also writes a copy of it up to now, with its footer.

Without -o the ring's dump goes beside the program's recording
(app.trace gives app-dump-1.trace, app-dump-2.trace, ...), or into the
program's working folder when it records to no file.

The request goes through a folder of the user's own in the temporary
folder (tracebeat-USER), which every recording program looks at ten times
a second; --dir names another (the program's -Dtracebeat.dump.dir). Without
this command: 'touch app.trace.dump' (the program's recording plus
".dump"), or 'kill -USR2 PID' where the JVM lets the runtime handle it (not
on Windows).

Exit status: 0 the dump is written (its path on standard output), 1 the
program refused or failed it, or did not answer, 2 usage errors.

Examples:
  tracebeat dump 4242
  tracebeat dump 4242 -o /tmp/checkout-slow.trace
  tracebeat dump --list

Flags:
`

// dumpPoll is how often dump looks for the program's answer.
const dumpPoll = 20 * time.Millisecond

func runDump(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("dump", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	output := fs.StringP("output", "o", "", "write the dump to this file (ring mode), or a copy of the stream up to now (stream mode)")
	dir := fs.String("dir", "", "the folder the program looks for requests in (its -Dtracebeat.dump.dir, plus tracebeat-USER)")
	timeout := fs.Duration("timeout", 30*time.Second, "how long to wait for the program's answer")
	list := fs.Bool("list", false, "list the programs recording now that a dump can be asked from")
	help := fs.BoolP("help", "h", false, "show this help")
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tracebeat dump: "+format+"\nRun 'tracebeat dump --help' for usage.\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return usageErr("%s", flagMessage(err))
	}
	if *help {
		fs.SetOutput(stdout)
		fmt.Fprint(stdout, dumpUsage)
		fs.PrintDefaults()
		return exitOK
	}
	dirs := dumpDirs(*dir)
	if *list {
		if fs.NArg() != 0 {
			return usageErr("--list takes no PID")
		}
		return listRecorders(dirs, stdout)
	}
	if fs.NArg() != 1 {
		return usageErr("expected the PID of a program that records with tracebeat's runtime, got %d arguments", fs.NArg())
	}
	pid, err := strconv.Atoi(fs.Arg(0))
	if err != nil || pid <= 0 {
		return usageErr("%q is not a process id", fs.Arg(0))
	}
	if *timeout <= 0 {
		return usageErr("--timeout must be above 0")
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tracebeat dump: "+format+"\n", a...)
		return exitFailure
	}
	if !processAlive(pid) {
		return fail("no process %d", pid)
	}
	found := ""
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, strconv.Itoa(pid)+".alive")); err == nil {
			found = d
			break
		}
	}
	if found == "" {
		return fail("process %d is not recording with tracebeat's runtime (no %d.alive in %s; a program with -Dtracebeat.dump.dir=DIR is asked with --dir DIR)",
			pid, pid, strings.Join(dirs, " or "))
	}
	target := ""
	if *output != "" {
		if target, err = filepath.Abs(*output); err != nil {
			return fail("%v", err)
		}
	}
	path, err := askDump(found, pid, target, *timeout)
	if err != nil {
		return fail("process %d: %v", pid, err)
	}
	fmt.Fprintln(stdout, path)
	if info := recorderInfo(filepath.Join(found, strconv.Itoa(pid)+".alive")); info["mode"] == "stream" && target == "" {
		fmt.Fprintf(stderr, "tracebeat dump: process %d records in stream mode: %s is up to date (-o FILE writes a copy)\n", pid, path)
	}
	return exitOK
}

// askDump writes the request and waits for the answer: the dump's path.
func askDump(dir string, pid int, target string, timeout time.Duration) (string, error) {
	base := filepath.Join(dir, strconv.Itoa(pid))
	reply := base + ".done"
	if err := os.Remove(reply); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	tmp := fmt.Sprintf("%s.request-%d", base, os.Getpid())
	if err := os.WriteFile(tmp, []byte(target+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("cannot ask: %w", err)
	}
	if err := os.Rename(tmp, base+".dump"); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("cannot ask: %w", err)
	}
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(reply)
		if err == nil {
			os.Remove(reply)
			line, _, _ := strings.Cut(strings.TrimRight(string(data), "\n"), "\n")
			if rest, ok := strings.CutPrefix(line, "ok "); ok {
				return rest, nil
			}
			if rest, ok := strings.CutPrefix(line, "error "); ok {
				return "", errors.New(rest)
			}
			return "", fmt.Errorf("an answer this tracebeat does not read: %q", line)
		}
		if !processAlive(pid) {
			os.Remove(base + ".dump")
			return "", errors.New("the program ended before it answered")
		}
		time.Sleep(dumpPoll)
	}
	os.Remove(base + ".dump")
	return "", fmt.Errorf("no answer in %s (is it paused, or is its runtime older than this tracebeat?)", timeout)
}

// dumpDirs are the folders a program's runtime may look in: the one --dir
// names, else the temporary folders Java and Go each take (Java ignores
// TMPDIR on Linux), each with the user's folder in it.
func dumpDirs(dir string) []string {
	name := "tracebeat-" + javaUserName()
	if dir != "" {
		return []string{filepath.Join(dir, name)}
	}
	dirs := []string{filepath.Join(os.TempDir(), name)}
	if runtime.GOOS != "windows" {
		if d := filepath.Join("/tmp", name); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// javaUserName is the user's name as Java's user.name gives it, with what
// is not a letter, digit, '-', '_' or '.' made '_' (as the runtime does).
func javaUserName() string {
	name := "user"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
		if i := strings.LastIndexByte(name, '\\'); i >= 0 { // Windows: DOMAIN\name; Java gives name
			name = name[i+1:]
		}
	}
	var b strings.Builder
	for _, r := range name {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// recorderInfo reads a program's .alive file: "key=value" lines.
func recorderInfo(path string) map[string]string {
	info := map[string]string{}
	data, err := os.ReadFile(path)
	if err != nil {
		return info
	}
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), "="); ok {
			info[k] = v
		}
	}
	return info
}

// listRecorders prints the programs recording now: pid, mode, recording.
func listRecorders(dirs []string, stdout io.Writer) int {
	n := 0
	for _, d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			pidText, ok := strings.CutSuffix(e.Name(), ".alive")
			pid, err := strconv.Atoi(pidText)
			if !ok || err != nil || !processAlive(pid) {
				continue
			}
			info := recorderInfo(filepath.Join(d, e.Name()))
			trace := info["trace"]
			if trace == "" {
				trace = "(no file: dumps go to its working folder)"
			}
			fmt.Fprintf(stdout, "%d\t%s\t%s\n", pid, info["mode"], trace)
			n++
		}
	}
	if n == 0 {
		fmt.Fprintf(stdout, "no program records with tracebeat's runtime now (looked in %s)\n", strings.Join(dirs, " and "))
	}
	return exitOK
}
