package blacklist

import (
	"fmt"
	"strings"
)

// DefaultRuntimeClass is the Matrix runtime class that instrumented code
// calls; its package is blocked so the runtime does not trace itself.
const DefaultRuntimeClass = "com/tencent/matrix/trace/core/AppMethodBeat"

// matrixPackage is blocked by Matrix's default block list whatever the
// runtime class is.
const matrixPackage = "com/tencent/matrix"

// recorderPackage is tracebeat's JVM recording runtime (jvmruntime); the
// recorder must not record itself, whatever the beat class is.
const recorderPackage = "com/github/tracebeat/runtime"

// androidPackage holds the framework classes, never traced.
const androidPackage = "android"

// builtinOrigin is the Origin of the rules New adds.
const builtinOrigin = "built-in"

// Kind is what a rule matches.
type Kind int

const (
	// KeepClass (-keepclass) blocks one class and its nested classes.
	KeepClass Kind = iota
	// KeepPackage (-keeppackage) blocks a package and its subpackages.
	KeepPackage
	// GeneratedClass (built-in) blocks the classes the Android build
	// generates into a resource namespace: R, R$..., BuildConfig, Manifest
	// and Manifest$... in a package that holds an Android R class (see
	// Generated). It is asked through List.Generated, not Blocked.
	GeneratedClass
	// RuntimePackage (built-in) blocks the classes directly in the tracing
	// runtime's package, where its helpers live, but not its subpackages: a
	// runtime class com/example/Beat must not block all of com/example/**.
	RuntimePackage
	// The btrace 2 directives (btrace.go).
	BlockPackage          // -blockpackage: as -keeppackage
	AllowPackage          // -allowpackage: only these packages are traced
	BlockClassMethods     // one method line of a -blockclassmethods block
	TraceClass            // -traceclass
	TraceClassMethods     // one method line of a -traceclassmethods block
	TraceMethodAnnotation // -tracemethodannotation (Name is the annotation)
)

// Rule is one rule of a List.
type Rule struct {
	Kind Kind
	// Name is the class, or the package without a trailing slash, in
	// internal form (slashes). Empty for GeneratedClass.
	Name string
	// Method and Params name the method of a BlockClassMethods or
	// TraceClassMethods line: "run" and "(I[Ljava/lang/String;)".
	Method, Params string
	// Origin says where the rule comes from: "file:line" or "built-in".
	Origin string
}

// String formats the rule for reports, in block-list syntax followed by
// its origin, e.g. "-keeppackage android/ (built-in)".
func (r Rule) String() string {
	switch r.Kind {
	case AllowPackage:
		if r.Name == "" { // the rule of a class outside every allow package
			return r.Origin
		}
		return fmt.Sprintf("%s (%s)", r.Directive(), r.Origin)
	case KeepClass, KeepPackage, BlockPackage, BlockClassMethods, TraceClass, TraceClassMethods, TraceMethodAnnotation:
		return fmt.Sprintf("%s (%s)", r.Directive(), r.Origin)
	case RuntimePackage:
		return fmt.Sprintf("runtime package %s/, without subpackages (%s)", r.Name, r.Origin)
	default:
		return fmt.Sprintf("generated class R, R$*, BuildConfig, Manifest, Manifest$* next to an Android R class (%s)", r.Origin)
	}
}

// Directive is a -keepclass or -keeppackage rule as a block list writes
// it ("-keeppackage a/b/"); "" for the built-in kinds that have no line.
func (r Rule) Directive() string {
	switch r.Kind {
	case KeepClass:
		return "-keepclass " + r.Name
	case KeepPackage:
		return "-keeppackage " + r.Name + "/"
	case BlockPackage:
		return "-blockpackage " + dotted(r.Name)
	case AllowPackage:
		return "-allowpackage " + dotted(r.Name)
	case BlockClassMethods:
		return "-blockclassmethods " + dotted(r.Name) + " { " + r.Method + javaParams(r.Params) + "; }"
	case TraceClass:
		return "-traceclass " + dotted(r.Name)
	case TraceClassMethods:
		return "-traceclassmethods " + dotted(r.Name) + " { " + r.Method + javaParams(r.Params) + "; }"
	case TraceMethodAnnotation:
		return "-tracemethodannotation " + dotted(r.Name)
	}
	return ""
}

// Blocks reports whether the rule keeps classes or methods from being
// traced (as opposed to allowing or forcing them).
func (r Rule) Blocks() bool {
	switch r.Kind {
	case AllowPackage, TraceClass, TraceClassMethods, TraceMethodAnnotation:
		return false
	}
	return true
}

// BuiltIn reports whether the rule is one New adds, not a line of a file.
func (r Rule) BuiltIn() bool { return r.Origin == builtinOrigin }

// List is a set of rules. Build it with New and Add/AddFile; after that,
// Blocked may be called from many goroutines at once.
type List struct {
	// Strict makes Add refuse a line it cannot read (see Add).
	Strict bool
	// Skipped are the lines Add could not read and skipped.
	Skipped []*ParseError

	rules []Rule
	// root is a trie over package segments: com -> example -> ...
	root node
	// generated is the index of the GeneratedClass rule.
	generated int
	// The btrace directives (btrace.go), as rule references.
	allow            []int
	blockMethods     map[methodKey]int
	traceMethods     map[methodKey]int
	forcedClasses    map[string]bool // classes with a -traceclassmethods line
	traceClasses     map[string]int
	traceAnnotations map[string]int
}

// node is one package in the trie. Rule references are indexes into
// List.rules plus one, so that zero means "none".
type node struct {
	children map[string]*node
	pkgRule  int            // -keeppackage for this package
	ownRule  int            // RuntimePackage: this package only
	classes  map[string]int // -keepclass by simple name (may contain '$')
}

// New returns a List holding only the built-in rules. runtimeClass is the
// tracing runtime's class in internal or dotted form; "" means
// DefaultRuntimeClass. The class itself (with its nested classes) and the
// classes directly in its package are blocked, not its subpackages; so are
// the packages android, com/tencent/matrix and com/github/tracebeat/runtime
// (the recording runtime) and the generated
// R/BuildConfig/Manifest classes.
func New(runtimeClass string) (*List, error) {
	if runtimeClass == "" {
		runtimeClass = DefaultRuntimeClass
	}
	runtime, err := normalizeClass(runtimeClass)
	if err != nil {
		return nil, fmt.Errorf("blacklist: runtime class: %w", err)
	}
	l := &List{}
	builtins := []Rule{
		{Kind: GeneratedClass, Origin: builtinOrigin},
		{Kind: KeepPackage, Name: androidPackage, Origin: builtinOrigin},
		{Kind: KeepPackage, Name: matrixPackage, Origin: builtinOrigin},
		{Kind: KeepPackage, Name: recorderPackage, Origin: builtinOrigin},
		{Kind: KeepClass, Name: runtime, Origin: builtinOrigin},
	}
	// The runtime's own package, unless it is the default package: blocking
	// that would block every class without a package.
	if i := strings.LastIndexByte(runtime, '/'); i >= 0 {
		builtins = append(builtins, Rule{Kind: RuntimePackage, Name: runtime[:i], Origin: builtinOrigin})
	}
	for _, r := range builtins {
		l.add(r)
	}
	return l, nil
}

// Rules returns all rules in the order they were added, built-ins first.
// A rule that repeats an earlier one is listed but never reported by
// Blocked, which names the first.
func (l *List) Rules() []Rule {
	return append([]Rule(nil), l.rules...)
}

// add appends a rule and indexes it.
func (l *List) add(r Rule) {
	l.rules = append(l.rules, r)
	ref := len(l.rules) // index + 1
	switch r.Kind {
	case GeneratedClass:
		if l.generated == 0 {
			l.generated = ref
		}
	case KeepPackage, BlockPackage:
		n := l.root.descend(r.Name, true)
		if n.pkgRule == 0 {
			n.pkgRule = ref
		}
	case AllowPackage:
		l.allow = append(l.allow, ref)
	case BlockClassMethods:
		addRef(&l.blockMethods, methodKey{r.Name, r.Method, r.Params}, ref)
	case TraceClassMethods:
		addRef(&l.traceMethods, methodKey{r.Name, r.Method, r.Params}, ref)
		if l.forcedClasses == nil {
			l.forcedClasses = map[string]bool{}
		}
		l.forcedClasses[r.Name] = true
	case TraceClass:
		addRef(&l.traceClasses, r.Name, ref)
	case TraceMethodAnnotation:
		addRef(&l.traceAnnotations, r.Name, ref)
	case RuntimePackage:
		n := l.root.descend(r.Name, true)
		if n.ownRule == 0 {
			n.ownRule = ref
		}
	case KeepClass:
		pkg, simple := "", r.Name
		if i := strings.LastIndexByte(r.Name, '/'); i >= 0 {
			pkg, simple = r.Name[:i], r.Name[i+1:]
		}
		n := l.root.descend(pkg, true)
		if n.classes == nil {
			n.classes = map[string]int{}
		}
		if _, dup := n.classes[simple]; !dup {
			n.classes[simple] = ref
		}
	}
}

// addRef records ref under k unless an earlier rule has k.
func addRef[K comparable](m *map[K]int, k K, ref int) {
	if *m == nil {
		*m = map[K]int{}
	}
	if _, dup := (*m)[k]; !dup {
		(*m)[k] = ref
	}
}

// descend walks to the node of pkg ("" is the root), creating nodes when
// create is set; it returns nil if a node is missing and create is not set.
func (n *node) descend(pkg string, create bool) *node {
	for pkg != "" {
		seg, rest, _ := strings.Cut(pkg, "/")
		child := n.children[seg]
		if child == nil {
			if !create {
				return nil
			}
			if n.children == nil {
				n.children = map[string]*node{}
			}
			child = &node{}
			n.children[seg] = child
		}
		n, pkg = child, rest
	}
	return n
}

// Blocked reports whether the class origClass (ORIGINAL name, internal form
// with slashes) must not be traced, and the rule that blocks it. When
// several rules match, a -keepclass rule is reported first (the most
// specific one, for nested classes), then the deepest -keeppackage rule.
// Android's generated classes are asked through Generated, which needs to
// know the other classes.
func (l *List) Blocked(origClass string) (Rule, bool) {
	pkg, simple := "", origClass
	if i := strings.LastIndexByte(origClass, '/'); i >= 0 {
		pkg, simple = origClass[:i], origClass[i+1:]
	}

	// Walk the package segments, remembering the deepest package rule.
	n := &l.root
	pkgRule := n.pkgRule
	for rest := pkg; rest != "" && n != nil; {
		var seg string
		seg, rest, _ = strings.Cut(rest, "/")
		n = n.children[seg]
		if n != nil && n.pkgRule != 0 {
			pkgRule = n.pkgRule
		}
	}
	// n is now the class's own package node, if the trie has one.
	if n != nil && n.classes != nil {
		// The class itself, then each enclosing class: C$D$E, C$D, C.
		// A '$' at the start does not end an enclosing class name.
		for name := simple; name != ""; {
			if ref := n.classes[name]; ref != 0 {
				return l.rules[ref-1], true
			}
			i := strings.LastIndexByte(name, '$')
			if i <= 0 {
				break
			}
			name = name[:i]
		}
	}
	if pkgRule != 0 {
		return l.rules[pkgRule-1], true
	}
	if n != nil && n.ownRule != 0 && n == l.root.descend(pkg, false) {
		return l.rules[n.ownRule-1], true
	}
	return Rule{}, false
}

// Generated reports whether origClass is a class the Android build
// generates, and the built-in rule that blocks it. Only the classes in an
// app's or library's resource namespace are: R and its nested classes,
// BuildConfig, Manifest and its nested classes, in a package that also
// holds an Android R class. An R class is Android's when it has a nested
// class named after a resource type (R$string, R$id, ...). So
// scala.reflect.Manifest or Ant's taskdefs.Manifest are not generated,
// and neither is a class named R outside Android. hasClass reports
// whether a class exists among the inputs or the class path; it is only
// asked about classes for which NamespaceEvidence is true.
func (l *List) Generated(origClass string, hasClass func(origClass string) bool) (Rule, bool) {
	if l.generated == 0 {
		return Rule{}, false
	}
	pkg, simple := "", origClass
	if i := strings.LastIndexByte(origClass, '/'); i >= 0 {
		pkg, simple = origClass[:i+1], origClass[i+1:]
	}
	if !generatedName(simple) || !hasClass(pkg+"R") {
		return Rule{}, false
	}
	for _, t := range resourceTypes {
		if hasClass(pkg + "R$" + t) {
			return l.rules[l.generated-1], true
		}
	}
	return Rule{}, false
}

// NamespaceEvidence reports whether Generated may ask hasClass about a
// class: R and its nested classes. A caller keeps just these names.
func NamespaceEvidence(origClass string) bool {
	simple := origClass[strings.LastIndexByte(origClass, '/')+1:]
	return simple == "R" || strings.HasPrefix(simple, "R$")
}

// resourceTypes are the nested classes aapt2 writes into R, one per kind
// of resource.
var resourceTypes = []string{
	"anim", "animator", "array", "attr", "bool", "color", "dimen", "drawable",
	"font", "fraction", "id", "integer", "interpolator", "layout", "menu",
	"mipmap", "navigation", "plurals", "raw", "string", "style", "styleable",
	"transition", "xml",
}

// generatedName reports whether a simple class name is one the Android
// build generates in a namespace: R and its nested classes, BuildConfig,
// Manifest and its nested classes.
func generatedName(simple string) bool {
	return simple == "R" || strings.HasPrefix(simple, "R$") ||
		simple == "BuildConfig" ||
		simple == "Manifest" || strings.HasPrefix(simple, "Manifest$")
}
