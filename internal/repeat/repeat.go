// Package repeat runs a traced program several times, a recording a run:
// the repetitions `tracebeat diff` needs to tell a change from noise.
package repeat

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tracebeat/tracebeat/internal/english"
)

// Placeholder is the argument text that takes a run's recording path;
// without it the path goes through JAVA_TOOL_OPTIONS.
const Placeholder = "{trace}"

// Side is one build's command and the folder its recordings go to.
type Side struct {
	Dir     string
	Command []string
}

// Runs says what to run and where the recordings go.
type Runs struct {
	N int
	// Sides are one build, or two whose runs take turns: A B, B A, A B,
	// ... so that a machine whose load changes during the sitting slows
	// both alike, and neither always runs first.
	Sides   []Side
	Replace bool // remove the run-*.trace files each Dir holds first
	// The command's own input and output, and where progress goes.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Record runs each side's command N times, each run recording into
// Dir/run-K.trace. It stops at the first run that fails or writes no
// recording, and refuses a Dir that holds runs unless Replace: runs of two
// sittings are not one sample.
func (r Runs) Record() error {
	dirs := make([]string, len(r.Sides))
	for i, side := range r.Sides {
		dir, err := r.prepare(side.Dir)
		if err != nil {
			return err
		}
		if i == 1 && dir == dirs[0] {
			return fmt.Errorf("the two builds' recordings go to one folder, %s: give each its own", dir)
		}
		dirs[i] = dir
	}
	walls := make([][]float64, len(r.Sides))
	for k := 1; k <= r.N; k++ {
		for _, i := range turn(len(r.Sides), k) {
			trace := filepath.Join(dirs[i], fmt.Sprintf("run-%d.trace", k))
			wall, err := r.once(r.Sides[i].Command, trace)
			if err != nil {
				return fmt.Errorf("run %d of %d: %w", k, r.N, err) // err names the folder
			}
			st, err := os.Stat(trace)
			if err != nil {
				return fmt.Errorf("run %d of %d ran, but wrote no %s: is the program instrumented, and tracebeat-runtime.jar on its class path?", k, r.N, trace)
			}
			walls[i] = append(walls[i], wall)
			fmt.Fprintf(r.Stderr, "tracebeat record: run %d of %d: %.2f s, %s (%d bytes)\n", k, r.N, wall, trace, st.Size())
		}
	}
	for i, w := range walls {
		slices.Sort(w)
		fmt.Fprintf(r.Stderr, "tracebeat record: %s in %s, %.2f to %.2f s (median %.2f s)\n",
			english.Count(r.N, "run"), dirs[i], w[0], w[len(w)-1], w[len(w)/2])
	}
	return nil
}

// turn is the order of the sides in round k (from 1): A B in odd rounds,
// B A in even ones.
func turn(sides, k int) []int {
	if sides == 2 && k%2 == 0 {
		return []int{1, 0}
	}
	order := make([]int, sides)
	for i := range order {
		order[i] = i
	}
	return order
}

// prepare makes the folder dir and empties it of runs (with Replace), or
// refuses one that holds runs; it returns the folder's absolute path.
func (r Runs) prepare(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "run-*.trace"))
	if len(old) > 0 {
		if !r.Replace {
			return "", fmt.Errorf("%s holds %d recordings already (%s): give an empty folder, or --replace to remove them", dir, len(old), filepath.Base(old[0]))
		}
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return "", err
			}
		}
	}
	return dir, nil
}

// once runs command once, recording into trace; it returns the wall time
// in seconds.
func (r Runs) once(command []string, trace string) (float64, error) {
	cmd := exec.Command(command[0], substitute(command[1:], trace)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r.Stdin, r.Stdout, r.Stderr
	cmd.Env = os.Environ()
	if !slices.ContainsFunc(command, func(a string) bool { return strings.Contains(a, Placeholder) }) {
		cmd.Env = withJavaToolOption(cmd.Env, "-Dtracebeat.trace="+trace)
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start).Seconds()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return wall, fmt.Errorf("%s exited with %d; the recordings so far are in %s", command[0], exit.ExitCode(), filepath.Dir(trace))
	}
	return wall, err
}

// substitute puts trace in place of the placeholder in the arguments.
func substitute(args []string, trace string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, Placeholder, trace)
	}
	return out
}

// withJavaToolOption adds opt to JAVA_TOOL_OPTIONS in env (quoted when it
// holds a blank: the JVM splits the variable at blanks).
func withJavaToolOption(env []string, opt string) []string {
	if strings.ContainsAny(opt, " \t") {
		opt = `"` + opt + `"`
	}
	const key = "JAVA_TOOL_OPTIONS="
	for i, e := range env {
		if v, ok := strings.CutPrefix(e, key); ok {
			env[i] = key + strings.TrimSpace(v+" "+opt)
			return env
		}
	}
	return append(env, key+opt)
}
