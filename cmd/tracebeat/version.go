package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/tracebeat/tracebeat"
)

// version overrides the VERSION file's version when set at build time:
//
//	go build -ldflags "-X main.version=1.2.0-rc1" ./cmd/tracebeat
var version string

func init() {
	register(command{
		name:    "version",
		summary: "print the version, the Go version and the source revision",
		run:     runVersion,
	})
}

const versionHelp = `usage: tracebeat version

Prints the tracebeat version (the VERSION file of the source tree it was
built from, unless -ldflags "-X main.version=V" set another), the Go
version and platform, and the source revision recorded by the Go toolchain
when built from a checkout ("+dirty" when the checkout had local changes).

Examples:
  tracebeat version
  go build -ldflags "-X main.version=1.2.0" -o tracebeat ./cmd/tracebeat

Exit status: 0 ok, 2 usage.

Flags:
  -h, --help   show this help
`

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("version", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, versionHelp)
			return exitOK
		}
		fmt.Fprintf(stderr, "tracebeat version: %v\nRun 'tracebeat version --help' for usage.\n", err)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tracebeat version: unexpected argument %q\nRun 'tracebeat version --help' for usage.\n", fs.Arg(0))
		return exitUsage
	}
	info, _ := debug.ReadBuildInfo()
	v := version
	if v == "" {
		v = tracebeat.Version()
	}
	fmt.Fprintln(stdout, versionLine(v, info))
	return exitOK
}

// versionLine formats "tracebeat V (goX os/arch[, revision R[+dirty]])".
func versionLine(v string, info *debug.BuildInfo) string {
	s := fmt.Sprintf("tracebeat %s (%s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if rev, dirty := vcsRevision(info); rev != "" {
		s += ", revision " + rev
		if dirty {
			s += "+dirty"
		}
	}
	return s + ")"
}

// vcsRevision returns the commit the binary was built from, when the Go
// toolchain recorded one (builds inside a checkout; not `go run`/tests).
func vcsRevision(info *debug.BuildInfo) (rev string, dirty bool) {
	if info == nil {
		return "", false
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	return rev, dirty
}
