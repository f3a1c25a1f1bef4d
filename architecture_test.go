package tracebeat

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
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
	"instrument/jario":   {"instrument/store"},
	"instrument/scan":    {"classfile", "instrument/jario", "instrument/rewrite", "methodmap"},
	"instrument/pack":    {"instrument/jario", "instrument/scan", "methodmap"},
	"instrument": {"classfile", "instrument/jario", "instrument/pack", "instrument/rewrite",
		"instrument/scan", "instrument/store", "methodmap"},
	"decode":           {"methodmap", "decode/recording", "decode/traceout"},
	"decode/recording": nil,
	"decode/traceout":  {"decode/htmlview"},
	"decode/flamepng":  nil,
	"decode/htmlview":  nil,
	"profile":          {"decode", "decode/recording"},
	"diff":             {"profile", "decode/htmlview"},
	"view":             {"decode/traceout", "decode/htmlview"},
	"jvmruntime":       {"classfile"},
	"classfile/apiref": {"classfile"},

	"decode/recording/recordingtest": {"decode/recording"},
	"gradle":                         nil,
	"cmd/tracebeat":                  {"*"},
	"internal/tools/*":               {"*"}, // programs of the build (go run): as cmd/tracebeat
	".":                              nil,
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

// The bounds of a room: a package a newcomer can read, and a type whose
// methods are one job's (docs/architecture.md).
const (
	maxPackageLines = 4000 // non-test lines of Go in one package
	maxTypeMethods  = 20   // methods declared on one unexported type
)

// TestRoomsStaySmall fails on a package over maxPackageLines lines of
// non-test Go, or an unexported type with over maxTypeMethods methods.
func TestRoomsStaySmall(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) < 15 {
		t.Fatalf("only %d packages listed by go list", len(dirs))
	}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		methods := map[string]int{}
		fset := token.NewFileSet()
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			lines += bytes.Count(src, []byte("\n"))
			f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
					if recv := receiverType(fd.Recv.List[0].Type); recv != "" && !ast.IsExported(recv) {
						methods[recv]++
					}
				}
			}
		}
		wd, _ := os.Getwd()
		rel, _ := filepath.Rel(wd, dir)
		if lines > maxPackageLines {
			t.Errorf("%s: %d lines of non-test Go, over %d: split it by concern", rel, lines, maxPackageLines)
		}
		for typ, n := range methods {
			if n > maxTypeMethods {
				t.Errorf("%s: type %s has %d methods, over %d", rel, typ, n, maxTypeMethods)
			}
		}
	}
}

// receiverType is the name of a method's receiver type (T, *T, T[P]).
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
