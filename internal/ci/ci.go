// Package ci says whether the tests run on CI: the one place that reads
// the environment for it. CI runs .ci/run with CI=true; there a test that
// lacks a tool it needs fails instead of skipping, so that a missing tool
// never passes for a green run.
package ci

import "os"

// On reports whether this is a CI run (CI=true).
func On() bool { return os.Getenv("CI") == "true" }
