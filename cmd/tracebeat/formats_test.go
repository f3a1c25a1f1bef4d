package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// reader finds the real reader of a format: the file or command an
// environment variable names (scripts/formats-check.sh sets them), else
// what is on PATH. With TRACEBEAT_REQUIRE_READERS=1 (the gate) a missing
// reader fails the test; elsewhere its part is skipped.
func reader(t *testing.T, env, command string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if command != "" {
		if p, err := exec.LookPath(command); err == nil {
			return p
		}
	}
	if os.Getenv("TRACEBEAT_REQUIRE_READERS") == "1" {
		t.Fatalf("%s is not set and %q is not on PATH (scripts/formats-check.sh installs the readers)", env, command)
	}
	t.Skipf("no reader: set %s or put %q on PATH (scripts/formats-check.sh installs it)", env, command)
	return ""
}

// formatInput is a trace decode reads, with its map and how many calls
// decode makes of it (the JSON's complete events).
type formatInput struct {
	name, trace, methodMap string
	calls                  int
	threads                []string
	enterUs                []int64 // each call's start, whole µs, sorted
}

func formatInputs(t *testing.T) []formatInput {
	t.Helper()
	classes := threadsProgram(t)
	trace, methodMap, _ := recordThreads(t, classes, nil, nil, nil, 4, 50)
	sample := filepath.Join("..", "..", "decode", "testdata", "sample")
	var inputs []formatInput
	for _, in := range []formatInput{
		{name: "recording", trace: trace, methodMap: methodMap, threads: []string{"main", "worker-0", "worker-3"}},
		{name: "buffer", trace: filepath.Join(sample, "beat.txt"), methodMap: filepath.Join(sample, "methodMapping.txt")},
	} {
		code, stdout, stderr := runDecodeArgs("--map", in.methodMap, "--format", "json", in.trace)
		require.Equal(t, exitOK, code, stderr)
		var doc struct {
			TraceEvents []traceEventJSON `json:"traceEvents"`
		}
		require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
		for _, e := range doc.TraceEvents {
			if e.Ph == "X" {
				in.calls++
				in.enterUs = append(in.enterUs, int64(e.Ts))
			}
		}
		require.Positive(t, in.calls)
		slices.Sort(in.enterUs)
		inputs = append(inputs, in)
	}
	return inputs
}

// TestFormatsOpenInTheirReaders has the real readers of the formats for
// other tools read what decode writes, for a recording and a Matrix
// buffer: Android's method trace by dmtracedump (every call entered and
// left, the threads named), pprof's profile by `go tool pprof` (the total
// is the calls' time, the methods named), folded stacks by inferno (an
// SVG naming the methods), speedscope's JSON by the schema of speedscope's
// own npm package (and its events balanced per profile).
func TestFormatsOpenInTheirReaders(t *testing.T) {
	inputs := formatInputs(t)
	dir := t.TempDir()
	out := func(in formatInput, format, suffix string) string {
		path := filepath.Join(dir, in.name+suffix)
		code, _, stderr := runDecodeArgs("--map", in.methodMap, "--format", format, "-o", path, in.trace)
		require.Equal(t, exitOK, code, stderr)
		return path
	}
	t.Run("art/dmtracedump", func(t *testing.T) {
		dmtracedump := reader(t, "TRACEBEAT_DMTRACEDUMP", "dmtracedump")
		for _, in := range inputs {
			file := out(in, "art", ".trace")
			got, err := exec.Command(dmtracedump, "-o", file).CombinedOutput()
			require.NoError(t, err, "%s", got)
			text := string(got)
			require.Contains(t, text, "VERSION: 3")
			for _, name := range in.threads {
				require.Regexp(t, `(?m)^ +\d+ `+regexp.QuoteMeta(name)+`$`, text)
			}
			// Trace lines: " TID ent|xit|unr USECS class.method signature"; each thread balanced.
			depth := map[string]int{}
			enters := 0
			var enterUs []int64
			for _, l := range strings.Split(text, "\n") {
				f := strings.Fields(l)
				if len(f) < 4 {
					continue
				}
				switch f[1] {
				case "ent":
					depth[f[0]]++
					enters++
					us, err := strconv.ParseInt(f[2], 10, 64)
					require.NoError(t, err, l)
					enterUs = append(enterUs, us)
				case "xit", "unr":
					depth[f[0]]--
					require.GreaterOrEqual(t, depth[f[0]], 0, "%s: an exit with nothing open: %s", in.name, l)
				}
			}
			for tid, d := range depth {
				require.Zero(t, d, "%s: thread %s left calls open", in.name, tid)
			}
			require.Equal(t, in.calls, enters, "%s: every call entered once", in.name)
			// Every thread's calls start when the JSON says, not later: the
			// threads are written one after another, and a later thread's
			// times were once raised to the end of the earlier ones.
			slices.Sort(enterUs)
			require.Equal(t, in.enterUs, enterUs, "%s: the calls' start times", in.name)
		}
	})
	t.Run("pprof/go-tool-pprof", func(t *testing.T) {
		for _, in := range inputs {
			file := out(in, "pprof", ".pb.gz")
			got, err := exec.Command("go", "tool", "pprof", "-top", "-nodecount=100000", file).CombinedOutput()
			require.NoError(t, err, "%s", got)
			require.Regexp(t, `Type: time`, string(got))
			require.Regexp(t, `Total samples = [0-9.]+m?s`, string(got))
			require.Contains(t, string(got), "100%", "%s", got)
		}
		got, err := exec.Command("go", "tool", "pprof", "-top", "-sample_index=calls", filepath.Join(dir, "recording.pb.gz")).CombinedOutput()
		require.NoError(t, err, "%s", got)
		m := regexp.MustCompile(`Total samples = (\d+)`).FindStringSubmatch(string(got))
		require.NotNil(t, m, "%s", got)
		require.Equal(t, strconv.Itoa(inputs[0].calls), m[1], "calls as a sample value: every call counted")
		require.Contains(t, string(got), "fixture.Threads$Worker.leaf")
	})
	t.Run("collapsed/inferno", func(t *testing.T) {
		inferno := reader(t, "TRACEBEAT_INFERNO", "inferno-flamegraph")
		for _, in := range inputs {
			file := out(in, "collapsed", ".folded")
			folded, err := os.ReadFile(file)
			require.NoError(t, err)
			cmd := exec.Command(inferno)
			cmd.Stdin = bytes.NewReader(folded)
			var svg, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &svg, &stderr
			require.NoError(t, cmd.Run(), stderr.String())
			require.Contains(t, svg.String(), "<svg")
			first, _, _ := strings.Cut(string(folded), " ")
			frames := strings.Split(first, ";")
			leaf := frames[len(frames)-1]
			require.Contains(t, svg.String(), leaf[:min(len(leaf), 20)], "%s: the SVG names the methods", in.name)
		}
	})
	t.Run("speedscope/schema", func(t *testing.T) {
		schema := reader(t, "TRACEBEAT_SPEEDSCOPE_SCHEMA", "")
		python := reader(t, "TRACEBEAT_JSONSCHEMA_PYTHON", "python3")
		for _, in := range inputs {
			file := out(in, "speedscope", ".speedscope.json")
			got, err := exec.Command(python, "-c", `import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
print("valid")`, file, schema).CombinedOutput()
			require.NoError(t, err, "%s: %s", in.name, got)
			require.Equal(t, "valid\n", string(got))
			var doc struct {
				Profiles []struct {
					Events []struct {
						Type  string `json:"type"`
						Frame int    `json:"frame"`
						At    int64  `json:"at"`
					} `json:"events"`
				} `json:"profiles"`
				Shared struct {
					Frames []struct {
						Name string `json:"name"`
					} `json:"frames"`
				} `json:"shared"`
			}
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &doc))
			opens := 0
			for _, p := range doc.Profiles {
				var stack []int
				var at int64
				for _, e := range p.Events {
					require.GreaterOrEqual(t, e.At, at, "events in time order")
					at = e.At
					if e.Type == "O" {
						stack = append(stack, e.Frame)
						opens++
						continue
					}
					require.NotEmpty(t, stack, "a close with nothing open")
					require.Equal(t, stack[len(stack)-1], e.Frame, "closes nest")
					stack = stack[:len(stack)-1]
				}
				require.Empty(t, stack)
			}
			require.Equal(t, in.calls, opens, "%s: every call opened once", in.name)
		}
	})
}
