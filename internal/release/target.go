package release

import (
	"fmt"
	"runtime"
)

// Target is one platform a binary is built for.
type Target struct{ GOOS, GOARCH string }

// Targets are the platforms of a release.
var Targets = []Target{
	{"linux", "amd64"},
	{"linux", "arm64"},
	{"darwin", "amd64"},
	{"darwin", "arm64"},
	{"windows", "amd64"},
}

// HostTarget is the platform this program runs on.
func HostTarget() Target { return Target{runtime.GOOS, runtime.GOARCH} }

// Classifier is the Maven classifier of the target's binary, in the names
// protoc and os-detector use (what Gradle users know from protobuf).
func (t Target) Classifier() (string, error) {
	os := map[string]string{"linux": "linux", "darwin": "osx", "windows": "windows"}[t.GOOS]
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch_64"}[t.GOARCH]
	if os == "" || arch == "" {
		return "", fmt.Errorf("no release binary for %s/%s", t.GOOS, t.GOARCH)
	}
	return os + "-" + arch, nil
}

// Executable is the binary's file name on the target.
func (t Target) Executable() string {
	if t.GOOS == "windows" {
		return "tracebeat.exe"
	}
	return "tracebeat"
}

func (t Target) String() string { return t.GOOS + "/" + t.GOARCH }
