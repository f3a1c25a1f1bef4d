// Command release builds a tracebeat release into OUTDIR: the binaries of
// every target, the Gradle plugin jar, the runtime jar, laid out as a Maven
// repository in OUTDIR/maven. scripts/release.sh runs it from the module
// root:
//
//	go run ./internal/tools/release [--host-only] OUTDIR
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/tracebeat/tracebeat"
	"github.com/tracebeat/tracebeat/internal/release"
	"github.com/tracebeat/tracebeat/jvmruntime"
)

func main() {
	hostOnly := flag.Bool("host-only", false, "build the binary of this machine's OS and architecture only")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/tools/release [--host-only] OUTDIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *hostOnly); err != nil {
		fmt.Fprintf(os.Stderr, "release: %v\n", err)
		os.Exit(1)
	}
}

// step says on stderr what the release builds now, and returns the func
// that says how long it took: a cold build takes minutes, and a silent
// one looks hung.
func step(what string) func() {
	start := time.Now()
	fmt.Fprintf(os.Stderr, "release: %s ...\n", what)
	return func() {
		fmt.Fprintf(os.Stderr, "release:   done in %.1f s\n", time.Since(start).Seconds())
	}
}

func run(out string, hostOnly bool) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "VERSION")); err != nil {
		return fmt.Errorf("run from the module root (no VERSION in %s)", root)
	}
	version := tracebeat.Version()
	targets := release.Targets
	if hostOnly {
		targets = []release.Target{release.HostTarget()}
	}
	work, err := os.MkdirTemp("", "tracebeat-release-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	r := release.Release{Version: version, RuntimeJar: jvmruntime.Jar()}
	for i, t := range targets {
		done := step(fmt.Sprintf("binary %d of %d: %s (go build; a cold Go cache builds the standard library for it first)", i+1, len(targets), t))
		b, err := release.BuildBinary(root, filepath.Join(out, "bin"), t)
		if err != nil {
			return err
		}
		done()
		r.Binaries = append(r.Binaries, b)
	}
	done := step("the Gradle plugin (javac --release 8 against the Gradle on PATH)")
	gradle, err := exec.LookPath("gradle")
	if err != nil {
		return fmt.Errorf("gradle not on PATH: the plugin compiles against its API (Debian: apt-get install -y gradle)")
	}
	cp, err := release.GradleAPIClasspath(gradle)
	if err != nil {
		return err
	}
	classes := filepath.Join(work, "plugin")
	if err := release.CompilePlugin(root, cp, classes); err != nil {
		return err
	}
	if r.PluginClasses, err = release.ClassFiles(classes); err != nil {
		return err
	}
	if r.PluginResources, err = release.PluginResources(root); err != nil {
		return err
	}
	done()
	done = step("the Maven repository (binaries, plugin, runtime jar, POMs, checksums)")
	w, err := release.WriteRepository(filepath.Join(out, "maven"), r)
	if err != nil {
		return err
	}
	done()
	for _, f := range w.Files {
		fmt.Println("  " + f)
	}
	for _, b := range r.Binaries {
		c, _ := b.Target.Classifier()
		fmt.Printf("  sha256 %s  %s\n", w.BinarySums[c], strings.TrimPrefix(b.Path, out+string(filepath.Separator)))
	}
	fmt.Printf("release: version=%s maven=%s\n", version, w.Dir)
	return nil
}
