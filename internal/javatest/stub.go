package javatest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The counting runtime stubs live in testdata/runtime/beat (Matrix's
// AppMethodBeat and android.app.Activity) and testdata/runtime/systrace
// (android.os.Trace). Each is compiled for --release 8 so it links with
// fixtures of any class-file version.
const stubRelease = 8

// BeatStub returns the class directory of the AppMethodBeat/Activity stub.
// Put it on the javac classpath of fixtures that extend android.app.Activity.
func BeatStub(tb testing.TB) string {
	tb.Helper()
	return Javac(tb, Options{Release: stubRelease}, Testdata(tb, "runtime", "beat"))
}

// SystraceStub returns the class directory of the android.os.Trace stub.
func SystraceStub(tb testing.TB) string {
	tb.Helper()
	return Javac(tb, Options{Release: stubRelease}, Testdata(tb, "runtime", "systrace"))
}

// BeatStubJVM returns a JVM whose class path is the beat stub followed by
// classpath, started with the stub's agent so the "beatstub:" report line
// is printed even when nothing calls the stub. Set Props["beatstub.log"] for
// the event log.
func BeatStubJVM(tb testing.TB, classpath ...string) JVM {
	tb.Helper()
	return stubJVM(tb, BeatStub(tb), "beatstub.Agent", classpath)
}

// SystraceStubJVM is BeatStubJVM for the android.os.Trace stub
// ("tracestub:" line, Props["tracestub.log"]).
func SystraceStubJVM(tb testing.TB, classpath ...string) JVM {
	tb.Helper()
	return stubJVM(tb, SystraceStub(tb), "tracestub.Agent", classpath)
}

func stubJVM(tb testing.TB, stubDir, agent string, classpath []string) JVM {
	tb.Helper()
	entries := ClassFiles(tb, stubDir)
	entries["META-INF/MANIFEST.MF"] = []byte("Manifest-Version: 1.0\r\nPremain-Class: " + agent + "\r\n\r\n")
	jar := WriteJar(tb, entries)
	return JVM{
		Classpath: append([]string{jar}, classpath...),
		Flags:     []string{"-javaagent:" + jar},
	}
}

// StubReport is the beat stub's exit line.
type StubReport struct {
	Enter      int // i() calls
	Exit       int // o() calls
	Mismatched int // o() calls whose id was not on top of the thread's stack
	Open       int // ids left on the stacks of all threads at exit
	// OpenEnded are the ids of Open left on threads that had ended: a
	// thread still running at exit (a pool's parked worker) is inside its
	// methods, an ended one left them all.
	OpenEnded int
	Threads   int // threads that called i() or o()
	Focus     int // at() calls
	MaxDepth  int // deepest stack seen on any thread
	// FocusByClass counts at() calls per runtime class of the activity.
	FocusByClass map[string]int
}

// Balanced reports whether every i() was closed by its own o().
func (r StubReport) Balanced() bool {
	return r.Enter == r.Exit && r.Mismatched == 0 && r.Open == 0
}

// ErrNoReport means stderr holds no report line: the JVM died before its
// shutdown hooks ran or the stub's agent was not used.
var ErrNoReport = errors.New("no stub report line in stderr")

// ParseStubReport finds the "beatstub:" line in a program's stderr.
func ParseStubReport(stderr string) (StubReport, error) {
	fields, err := reportFields(stderr, "beatstub:",
		"enter", "exit", "mismatched", "open", "openended", "threads", "focus", "maxdepth", "focusby")
	if err != nil {
		return StubReport{}, err
	}
	r := StubReport{FocusByClass: map[string]int{}}
	for key, dst := range map[string]*int{"enter": &r.Enter, "exit": &r.Exit, "mismatched": &r.Mismatched,
		"open": &r.Open, "openended": &r.OpenEnded, "threads": &r.Threads, "focus": &r.Focus, "maxdepth": &r.MaxDepth} {
		if *dst, err = strconv.Atoi(fields[key]); err != nil {
			return StubReport{}, fmt.Errorf("beatstub report: %s: %w", key, err)
		}
	}
	if fields["focusby"] != "" {
		for _, pair := range strings.Split(fields["focusby"], ",") {
			i := strings.LastIndexByte(pair, ':')
			n, err := strconv.Atoi(pair[i+1:])
			if i <= 0 || err != nil {
				return StubReport{}, fmt.Errorf("beatstub report: focusby: bad entry %q", pair)
			}
			r.FocusByClass[pair[:i]] = n
		}
	}
	return r, nil
}

// TraceReport is the systrace stub's exit line.
type TraceReport struct {
	Begin     int // beginSection() calls that were accepted
	End       int // endSection() calls
	Unmatched int // endSection() calls with no open section
	Open      int // sections left open on all threads at exit
	OpenEnded int // sections of Open left on threads that had ended
	Threads   int // threads that called the stub
	MaxDepth  int // deepest section nesting on any thread
}

// Balanced reports whether every section was closed exactly once.
func (r TraceReport) Balanced() bool {
	return r.Begin == r.End && r.Unmatched == 0 && r.Open == 0
}

// ParseTraceReport finds the "tracestub:" line in a program's stderr.
func ParseTraceReport(stderr string) (TraceReport, error) {
	fields, err := reportFields(stderr, "tracestub:", "begin", "end", "unmatched", "open", "openended", "threads", "maxdepth")
	if err != nil {
		return TraceReport{}, err
	}
	var r TraceReport
	for key, dst := range map[string]*int{"begin": &r.Begin, "end": &r.End, "unmatched": &r.Unmatched,
		"open": &r.Open, "openended": &r.OpenEnded, "threads": &r.Threads, "maxdepth": &r.MaxDepth} {
		if *dst, err = strconv.Atoi(fields[key]); err != nil {
			return TraceReport{}, fmt.Errorf("tracestub report: %s: %w", key, err)
		}
	}
	return r, nil
}

// reportFields parses the single line starting with prefix into key=value
// pairs and checks that exactly the wanted keys are present.
func reportFields(stderr, prefix string, keys ...string) (map[string]string, error) {
	var line string
	found := 0
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, prefix) {
			line = strings.TrimSpace(strings.TrimPrefix(l, prefix))
			found++
		}
	}
	switch found {
	case 0:
		return nil, fmt.Errorf("%s %w", prefix, ErrNoReport)
	case 1:
	default:
		return nil, fmt.Errorf("%d %s lines in stderr, want one", found, prefix)
	}
	fields := map[string]string{}
	for _, kv := range strings.Fields(line) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("%s line %q: field %q has no '='", prefix, line, kv)
		}
		fields[k] = v
	}
	for _, k := range keys {
		if _, ok := fields[k]; !ok {
			return nil, fmt.Errorf("%s line %q: missing %s", prefix, line, k)
		}
	}
	if len(fields) != len(keys) {
		return nil, fmt.Errorf("%s line %q: unexpected fields (want %v)", prefix, line, keys)
	}
	return fields, nil
}

// StubEvent is one line of the beat stub's event log.
type StubEvent struct {
	Thread string // thread name, whitespace replaced by '_'
	Op     string // "i", "o" or "at"
	ID     int    // method id for i and o
	Class  string // activity class for at
	Focus  bool   // focus flag for at
}

// ReadStubLog reads the file written by the beat stub under -Dbeatstub.log.
func ReadStubLog(path string) ([]StubEvent, error) {
	var events []StubEvent
	err := readLines(path, func(line string) error {
		f := strings.Split(line, " ")
		switch {
		case len(f) == 3 && (f[1] == "i" || f[1] == "o"):
			id, err := strconv.Atoi(f[2])
			if err != nil {
				return fmt.Errorf("bad id %q", f[2])
			}
			events = append(events, StubEvent{Thread: f[0], Op: f[1], ID: id})
		case len(f) == 4 && f[1] == "at":
			focus, err := strconv.ParseBool(f[3])
			if err != nil {
				return fmt.Errorf("bad focus flag %q", f[3])
			}
			events = append(events, StubEvent{Thread: f[0], Op: "at", Class: f[2], Focus: focus})
		default:
			return fmt.Errorf("unexpected event %q", strings.Join(f, " "))
		}
		return nil
	})
	return events, err
}

// TraceEvent is one line of the systrace stub's event log.
type TraceEvent struct {
	Thread string // thread name, whitespace replaced by '_'
	Op     string // "b" (beginSection) or "e" (endSection)
	Name   string // section name for b
}

// ReadTraceLog reads the file written by the systrace stub under
// -Dtracestub.log.
func ReadTraceLog(path string) ([]TraceEvent, error) {
	var events []TraceEvent
	err := readLines(path, func(line string) error {
		// The section name is the rest of the line, spaces included.
		f := strings.SplitN(line, " ", 3)
		switch {
		case len(f) == 3 && f[1] == "b":
			events = append(events, TraceEvent{Thread: f[0], Op: "b", Name: f[2]})
		case len(f) == 2 && f[1] == "e":
			events = append(events, TraceEvent{Thread: f[0], Op: "e"})
		default:
			return fmt.Errorf("unexpected event %q", strings.Join(f, " "))
		}
		return nil
	})
	return events, err
}

func readLines(path string, parse func(line string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if err := parse(sc.Text()); err != nil {
			return fmt.Errorf("%s: line %d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
