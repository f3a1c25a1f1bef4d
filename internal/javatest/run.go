package javatest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"
)

// DefaultTimeout bounds every JVM run unless JVM.Timeout says otherwise.
const DefaultTimeout = 2 * time.Minute

// JVM describes how to start java for Run.
type JVM struct {
	// Classpath entries (directories or jars).
	Classpath []string
	// Props become -Dkey=value, in key order.
	Props map[string]string
	// Flags are further JVM options, e.g. "--enable-preview" or "-Xss512k".
	Flags []string
	// Timeout kills the JVM after this long; 0 means DefaultTimeout.
	Timeout time.Duration
	// Dir is the working directory; empty means the test's.
	Dir string
	// Java is the java binary; empty means the one on PATH (a class file
	// newer than that JDK needs another, such as Temurin 25's).
	Java string
}

// fastStart are JVM flags that cut start-up time of short test programs
// without changing what the program does.
var fastStart = []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"}

// Run starts `java -cp classpath mainClass args...` and returns what the
// program wrote. err is non-nil when java exits non-zero (an
// *exec.ExitError) or times out; infrastructure problems fail the test.
func Run(tb testing.TB, classpath []string, mainClass string, args ...string) (stdout, stderr string, err error) {
	tb.Helper()
	return JVM{Classpath: classpath}.Run(tb, mainClass, args...)
}

// Run starts mainClass on this JVM configuration; see the package-level Run.
func (j JVM) Run(tb testing.TB, mainClass string, args ...string) (stdout, stderr string, err error) {
	tb.Helper()
	RequireJava(tb)
	timeout := j.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	java := j.Java
	if java == "" {
		java = "java"
	}
	cmd := exec.CommandContext(ctx, java, append(j.args(), append([]string{mainClass}, args...)...)...)
	cmd.Dir = j.Dir
	cmd.WaitDelay = 5 * time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("java %s: timed out after %v: %w", mainClass, timeout, ctx.Err())
	} else if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			tb.Fatalf("javatest: cannot start java: %v", err)
		}
	}
	return out.String(), errOut.String(), err
}

func (j JVM) args() []string {
	args := append([]string{}, fastStart...)
	keys := make([]string, 0, len(j.Props))
	for k := range j.Props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "-D"+k+"="+j.Props[k])
	}
	args = append(args, j.Flags...)
	if len(j.Classpath) > 0 {
		args = append(args, "-cp", strings.Join(j.Classpath, string(os.PathListSeparator)))
	}
	return args
}
