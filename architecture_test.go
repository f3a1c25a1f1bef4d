package tracebeat

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layers are the rules of docs/architecture.md: what each package of the
// project may import of the project (internal/* utilities aside, which any
// package may use; they import no package of the project but other
// utilities). A package not listed may import nothing of the project.
var layers = map[string][]string{
	"classfile":          nil,
	"mapping":            nil,
	"blacklist":          nil,
	"methodmap":          {"classfile"},
	"instrument/rewrite": {"classfile"},
	"instrument/store":   nil,
	"instrument":         {"classfile", "instrument/rewrite", "instrument/store", "methodmap"},
	"decode":             {"methodmap", "decode/htmlview"},
	"decode/flamepng":    nil,
	"decode/htmlview":    nil,
	"profile":            {"decode"},
	"diff":               {"profile", "decode/htmlview"},
	"jvmruntime":         {"classfile"},
	"gradle":             nil,
	"cmd/tracebeat":      {"*"},
	"internal/tools/*":   {"*"}, // programs of the build (go run): as cmd/tracebeat
	".":                  nil,
}

// TestImportsRunOneWay reads every package's imports (`go list`) and fails
// on an import the rules above do not allow, naming the rule it breaks.
func TestImportsRunOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/tracebeat/tracebeat"
	rel := func(p string) string {
		if p == module {
			return "."
		}
		return strings.TrimPrefix(p, module+"/")
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := rel(fields[0])
		allowed, listed := layers[pkg]
		if strings.HasPrefix(pkg, "internal/tools/") {
			allowed, listed = layers["internal/tools/*"]
		}
		internal := strings.HasPrefix(pkg, "internal/") && !listed
		if !listed && !internal {
			t.Errorf("%s: a package docs/architecture.md does not place: add it to the rules", pkg)
			continue
		}
		checked++
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := rel(imp)
			switch {
			case strings.HasPrefix(dep, "internal/"):
				continue // utilities serve every package
			case internal:
				t.Errorf("%s imports %s: an internal utility imports no package of the project but utilities", pkg, dep)
			case slices.Contains(allowed, "*"), slices.Contains(allowed, dep):
			default:
				t.Errorf("%s imports %s: docs/architecture.md lets %s import only %v", pkg, dep, pkg, allowed)
			}
		}
	}
	if checked < 15 {
		t.Fatalf("only %d packages listed by go list", checked)
	}
}
