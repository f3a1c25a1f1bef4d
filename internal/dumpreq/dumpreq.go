// Package dumpreq asks a program recording with tracebeat's runtime for a
// dump: the request and answer files in the user's folder of the
// temporary folder, which the runtime's Triggers watch
// (docs/runtime.md, "Dumps on demand"), and the list of the programs
// recording now.
package dumpreq

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

	"github.com/tracebeat/tracebeat/internal/proc"
)

// poll is how often Ask looks for the answer.
const poll = 20 * time.Millisecond

// Ask writes the request and waits for the answer: the dump's path.
func Ask(dir string, pid int, target string, timeout time.Duration) (string, error) {
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
		if !proc.Alive(pid) {
			os.Remove(base + ".dump")
			return "", errors.New("the program ended before it answered")
		}
		time.Sleep(poll)
	}
	os.Remove(base + ".dump")
	return "", fmt.Errorf("no answer in %s (is it paused, or is its runtime older than this tracebeat?)", timeout)
}

// Dirs are the folders a program's runtime may look in: the one --dir
// names, else the temporary folders Java and Go each take (Java ignores
// TMPDIR on Linux), each with the user's folder in it.
func Dirs(dir string) []string {
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

// Info reads a program's .alive file: "key=value" lines.
func Info(path string) map[string]string {
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

// List prints the programs recording now: pid, mode, recording.
func List(dirs []string, stdout io.Writer) {
	n := 0
	for _, d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			pidText, ok := strings.CutSuffix(e.Name(), ".alive")
			pid, err := strconv.Atoi(pidText)
			if !ok || err != nil || !proc.Alive(pid) {
				continue
			}
			info := Info(filepath.Join(d, e.Name()))
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
}
