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

// Runs says what to run and where the recordings go.
type Runs struct {
	N       int
	Dir     string
	Replace bool // remove the run-*.trace files Dir holds first
	Command []string
	// The command's own input and output, and where progress goes.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Record runs the command N times, one after the other, each run
// recording into Dir/run-K.trace. It stops at the first run that fails or
// writes no recording, and refuses a Dir that holds runs unless Replace:
// runs of two sittings are not one sample.
func (r Runs) Record() error {
	dir, err := filepath.Abs(r.Dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "run-*.trace"))
	if len(old) > 0 {
		if !r.Replace {
			return fmt.Errorf("%s holds %d recordings already (%s): give an empty folder, or --replace to remove them", dir, len(old), filepath.Base(old[0]))
		}
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	var walls []float64
	for k := 1; k <= r.N; k++ {
		trace := filepath.Join(dir, fmt.Sprintf("run-%d.trace", k))
		wall, err := r.once(trace)
		if err != nil {
			return fmt.Errorf("run %d of %d: %w", k, r.N, err)
		}
		st, err := os.Stat(trace)
		if err != nil {
			return fmt.Errorf("run %d of %d ran, but wrote no %s: is the program instrumented, and tracebeat-runtime.jar on its class path?", k, r.N, trace)
		}
		walls = append(walls, wall)
		fmt.Fprintf(r.Stderr, "tracebeat record: run %d of %d: %.2f s, %s (%d bytes)\n", k, r.N, wall, trace, st.Size())
	}
	slices.Sort(walls)
	fmt.Fprintf(r.Stderr, "tracebeat record: %s in %s, %.2f to %.2f s (median %.2f s)\n",
		english.Count(r.N, "run"), dir, walls[0], walls[len(walls)-1], walls[len(walls)/2])
	return nil
}

// once runs the command once, recording into trace; it returns the wall
// time in seconds.
func (r Runs) once(trace string) (float64, error) {
	cmd := exec.Command(r.Command[0], substitute(r.Command[1:], trace)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r.Stdin, r.Stdout, r.Stderr
	cmd.Env = os.Environ()
	if !slices.ContainsFunc(r.Command, func(a string) bool { return strings.Contains(a, Placeholder) }) {
		cmd.Env = withJavaToolOption(cmd.Env, "-Dtracebeat.trace="+trace)
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start).Seconds()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return wall, fmt.Errorf("%s exited with %d; the recordings so far are in %s", r.Command[0], exit.ExitCode(), filepath.Dir(trace))
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
