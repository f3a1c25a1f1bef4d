// Package tracebeat holds what the whole module shares: its version.
//
// The version lives in one place, the VERSION file next to this one. The
// binary embeds it (tracebeat version), scripts/release.sh stamps it on
// every artifact, and the Gradle plugin resolves the binary of that version.
package tracebeat

import (
	_ "embed"
	"strings"
)

//go:embed VERSION
var versionFile string

// Version is the release version, e.g. "0.9.0".
func Version() string { return strings.TrimSpace(versionFile) }
