package release

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Binary is a built tracebeat binary.
type Binary struct {
	Target Target
	Path   string
}

// BuildBinary builds cmd/tracebeat of the module at root for t into
// dir/<classifier>/: no cgo, paths trimmed, so that the same commit and Go
// version give the same bytes.
func BuildBinary(root, dir string, t Target) (Binary, error) {
	classifier, err := t.Classifier()
	if err != nil {
		return Binary{}, err
	}
	out := filepath.Join(dir, classifier, t.Executable())
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, "./cmd/tracebeat")
	cmd.Dir = root
	cmd.Env = append(withoutGoTarget(os.Environ()), "CGO_ENABLED=0", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return Binary{}, fmt.Errorf("go build for %s: %v\n%s", t, err, msg)
	}
	return Binary{Target: t, Path: out}, nil
}

func withoutGoTarget(env []string) []string {
	var out []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOOS=") || strings.HasPrefix(kv, "GOARCH=") || strings.HasPrefix(kv, "CGO_ENABLED=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}
