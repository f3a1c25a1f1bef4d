package mapping

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"go.uber.org/zap"
)

// ParseError is a line of a mapping file that could not be understood.
type ParseError struct {
	File   string // name given to Parse, or the path given to ParseFile
	Line   int    // 1-based
	Reason string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
}

// ParseFile parses the mapping file at path. See Parse.
func ParseFile(path string, log *zap.Logger) (*Mapping, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mapping: %w", err)
	}
	defer f.Close()
	return Parse(f, path, log)
}

// Parse reads a ProGuard or R8 mapping file from r. name identifies the
// input in errors and log messages. A line that cannot be parsed is a
// *ParseError naming the file and line. Metadata comments with an id this
// package does not use are skipped with a debug message on log (nil means
// no logging); a metadata comment that is not valid (lenient) JSON is
// skipped with a warning, as R8 itself does.
func Parse(r io.Reader, name string, log *zap.Logger) (*Mapping, error) {
	if log == nil {
		log = zap.NewNop()
	}
	p := &parser{
		name:    name,
		log:     log,
		m:       &Mapping{byObf: map[string]*class{}, byOrig: map[string]*class{}},
		strings: map[string]string{},
	}
	sc := bufio.NewScanner(r)
	// Lines are short, but metadata lines (outline call sites) can be long.
	sc.Buffer(make([]byte, 0, 256*1024), 64*1024*1024)
	for sc.Scan() {
		p.lineNo++
		if err := p.parseLine(sc.Text()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, p.lineNo+1, err)
	}
	p.closeGroup()
	p.m.finish()
	return p.m, nil
}

// parser holds the state of one Parse call.
type parser struct {
	name   string
	log    *zap.Logger
	m      *Mapping
	lineNo int

	cur           *class // class of the member lines being read; nil before the first class line
	curOrigDotted string // cur's original name as written in the file, to spot self-qualified names
	// seen indexes cur.methods by original signature and obfuscated name
	// once the class has many methods, to drop repeated entries fast.
	seen map[methodKey]int

	// The method line group being read: consecutive lines with the same
	// obfuscated range and name are inline frames, innermost first, so a
	// line is only committed as a method once the group is known to end.
	pending    methodLine
	hasPending bool
	residual   string // residual signature seen inside the pending group

	strings map[string]string // interned names and descriptors
	buf     []byte            // scratch space for descriptors
}

// methodKey identifies a method entry of one class for de-duplication: R8
// writes one line per line-number range, so a method appears many times.
type methodKey struct {
	origName, origDesc, obfName string
}

// methodLine is a parsed method line.
type methodLine struct {
	hasRange   bool // has the "start:end:" obfuscated line range
	start, end int
	// callSite is true when the original range is a single line (":12"):
	// the form of the outer frames of an inline group, which record the
	// line of the call.
	callSite  bool
	qualifier string // class in "com.example.Bar.name", "" when unqualified
	name      string
	desc      string // original descriptor, internal form
	obfName   string
}

func (p *parser) errorf(format string, args ...any) error {
	return &ParseError{File: p.name, Line: p.lineNo, Reason: fmt.Sprintf(format, args...)}
}

func (p *parser) parseLine(line string) error {
	if p.lineNo == 1 {
		line = strings.TrimPrefix(line, "\uFEFF")
	}
	line = strings.TrimRight(line, " \t\r")
	content := strings.TrimLeft(line, " \t")
	switch {
	case content == "":
		return nil
	case content[0] == '#':
		p.comment(content[1:])
		return nil
	case len(content) < len(line): // indented: a member of the current class
		if p.cur == nil {
			return p.errorf("member line %q before the first class line", line)
		}
		if strings.IndexByte(content, '(') >= 0 {
			return p.methodLine(line, content)
		}
		p.closeGroup()
		return p.fieldLine(line, content)
	default:
		p.closeGroup()
		return p.classLine(line)
	}
}

// classLine parses "com.example.Foo -> a.b:".
func (p *parser) classLine(line string) error {
	body, ok := strings.CutSuffix(line, ":")
	if !ok {
		return p.errorf("malformed class line %q: missing ':' at the end", line)
	}
	origDotted, obfDotted, ok := splitArrow(body)
	if !ok || !validDottedName(origDotted) || !validDottedName(obfDotted) {
		return p.errorf("malformed class line %q", line)
	}
	orig := strings.ReplaceAll(origDotted, ".", "/")
	obf := strings.ReplaceAll(obfDotted, ".", "/")
	if prev := p.m.byOrig[orig]; prev != nil {
		return p.errorf("class %s is mapped twice (first at line %d)", origDotted, prev.line)
	}
	if prev := p.m.byObf[obf]; prev != nil {
		return p.errorf("obfuscated name %s is used for both %s (line %d) and %s",
			obfDotted, strings.ReplaceAll(prev.orig, "/", "."), prev.line, origDotted)
	}
	// Clone so the map keys do not keep the whole line alive.
	c := &class{orig: strings.Clone(orig), obf: strings.Clone(obf), line: p.lineNo}
	p.m.byOrig[c.orig] = c
	p.m.byObf[c.obf] = c
	p.cur = c
	p.curOrigDotted = strings.Clone(origDotted)
	p.seen = nil
	return nil
}

// fieldLine checks "int count -> a". Fields are not looked up (tracing
// needs classes and methods only), but a malformed line is still an error:
// it usually means the file is damaged.
func (p *parser) fieldLine(line, content string) error {
	left, obfName, ok := splitArrow(content)
	typ, name, hasName := strings.Cut(left, " ")
	name = strings.TrimSpace(name)
	if !ok || !hasName || name == "" || !validSimpleName(obfName) || typ == "void" {
		return p.errorf("malformed field line %q", line)
	}
	if _, ok := appendJavaType(p.buf[:0], typ); !ok {
		return p.errorf("malformed field line %q: bad type %q", line, typ)
	}
	return nil
}

// methodLine parses
//
//	[start:end:]returnType [qualifier.]name(params)[:origStart[:origEnd]] -> obfName
func (p *parser) methodLine(line, content string) error {
	bad := func(reason string) error {
		return p.errorf("malformed method line %q: %s", line, reason)
	}
	left, obfName, ok := splitArrow(content)
	if !ok || !validSimpleName(obfName) {
		return bad("missing or bad '-> obfuscatedName'")
	}
	ml := methodLine{obfName: obfName}
	rest := left
	if rest[0] >= '0' && rest[0] <= '9' {
		var ok1, ok2 bool
		ml.start, rest, ok1 = cutNumber(rest, ':')
		ml.end, rest, ok2 = cutNumber(rest, ':')
		if !ok1 || !ok2 {
			return bad("bad obfuscated line range")
		}
		if ml.start > ml.end {
			return bad(fmt.Sprintf("line range %d:%d ends before it starts", ml.start, ml.end))
		}
		ml.hasRange = true
	}
	returnType, rest, ok := strings.Cut(rest, " ")
	if !ok {
		return bad("missing return type")
	}
	open := strings.IndexByte(rest, '(')
	closing := strings.IndexByte(rest, ')')
	if open < 0 || closing < open {
		return bad("unbalanced parentheses")
	}
	name := strings.TrimSpace(rest[:open])
	params := rest[open+1 : closing]
	tail := strings.TrimSpace(rest[closing+1:])
	if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
		ml.qualifier, name = name[:dot], strings.TrimSpace(name[dot+1:])
		if !validDottedName(ml.qualifier) {
			return bad("bad class qualifier")
		}
	}
	if name == "" {
		return bad("missing method name")
	}

	ml.name = name
	if tail != "" {
		// Original line range: ":12" (a call site) or ":10:14".
		var okNum bool
		if tail[0] != ':' {
			return bad("unexpected text after the parameters")
		}
		var origStart, origEnd int
		origStart, tail, okNum = cutNumber(tail[1:], 0)
		if !okNum {
			return bad("bad original line range")
		}
		if tail == "" {
			ml.callSite = true
		} else if tail[0] != ':' {
			return bad("bad original line range")
		} else if origEnd, tail, okNum = cutNumber(tail[1:], 0); !okNum || tail != "" {
			return bad("bad original line range")
		} else if origEnd < origStart {
			return bad(fmt.Sprintf("original line range %d:%d ends before it starts", origStart, origEnd))
		}
	}
	var okDesc bool
	p.buf, okDesc = appendMethodDescriptor(p.buf[:0], params, returnType)
	if !okDesc {
		return bad("bad parameter or return type")
	}
	ml.desc = p.internBytes(p.buf)

	// A line continues the open inline group only if it repeats the
	// group's obfuscated range and name and is an outer frame, which R8 and
	// ProGuard write with the single line of the call site.
	continues := p.hasPending && ml.hasRange && p.pending.hasRange &&
		ml.start == p.pending.start && ml.end == p.pending.end &&
		ml.obfName == p.pending.obfName && ml.callSite
	if !continues {
		p.closeGroup()
	}
	p.pending = ml
	p.hasPending = true
	return nil
}

// closeGroup commits the outermost frame of the open method group, if any,
// as a method of the current class.
func (p *parser) closeGroup() {
	if !p.hasPending {
		return
	}
	ml := p.pending
	residual := p.residual
	p.hasPending, p.residual = false, ""
	if ml.qualifier != "" && ml.qualifier != p.curOrigDotted {
		// Code of another class's method that now lives in this class
		// (moved or merged): it is not one of this class's own methods.
		return
	}
	key := methodKey{ml.name, ml.desc, ml.obfName}
	if i, ok := p.findSeen(key); ok {
		if residual != "" {
			p.cur.methods[i].residual = residual
		}
		return
	}
	p.cur.methods = append(p.cur.methods, method{
		orig:     signature{p.intern(ml.name), ml.desc},
		obf:      signature{name: p.intern(ml.obfName)},
		residual: residual,
	})
	if p.seen != nil {
		p.seen[key] = len(p.cur.methods) - 1
	}
}

// findSeen looks for an already committed method with the same key.
// Classes with few methods are searched linearly; a map is built once the
// class grows, so a class with thousands of methods stays linear overall.
func (p *parser) findSeen(key methodKey) (int, bool) {
	methods := p.cur.methods
	if p.seen == nil {
		for i := range methods {
			mt := &methods[i]
			if mt.orig.name == key.origName && mt.orig.desc == key.origDesc && mt.obf.name == key.obfName {
				return i, true
			}
		}
		if len(methods) < 16 {
			return -1, false
		}
		p.seen = make(map[methodKey]int, 2*len(methods))
		for i := range methods {
			mt := &methods[i]
			k := methodKey{mt.orig.name, mt.orig.desc, mt.obf.name}
			if _, dup := p.seen[k]; !dup {
				p.seen[k] = i
			}
		}
		return -1, false
	}
	i, ok := p.seen[key]
	return i, ok
}

// Metadata ids this package knows. Only the map version and residual
// signatures affect look-ups; the others are recognised so that they are
// not reported as unknown.
const (
	idMapVersion        = "com.android.tools.r8.mapping"
	idResidualSignature = "com.android.tools.r8.residualsignature"
)

var knownUnusedIDs = map[string]bool{
	"sourceFile":                           true,
	"com.android.tools.r8.synthesized":     true,
	"com.android.tools.r8.outline":         true,
	"com.android.tools.r8.outlineCallsite": true,
	"com.android.tools.r8.rewriteFrame":    true,
}

// comment handles a '#' line: plain comments are skipped, JSON metadata
// ("# {...}") is read.
func (p *parser) comment(text string) {
	body := strings.TrimLeft(text, " \t")
	if !strings.HasPrefix(body, "{") {
		return
	}
	obj, err := parseLenientObject(body)
	if err != nil {
		p.log.Warn("mapping: ignoring malformed metadata comment",
			zap.String("file", p.name), zap.Int("line", p.lineNo), zap.Error(err))
		return
	}
	id, _ := obj["id"].(string)
	switch {
	case id == idMapVersion:
		if v, ok := obj["version"].(string); ok {
			p.m.version = v
		}
	case id == idResidualSignature:
		sig, _ := obj["signature"].(string)
		switch {
		case !p.hasPending:
			// After a class or field line: a field's residual type does
			// not matter for method look-ups.
		case !validMethodDescriptor(sig):
			p.log.Debug("mapping: ignoring invalid residual method signature",
				zap.String("file", p.name), zap.Int("line", p.lineNo), zap.String("signature", sig))
		default:
			p.residual = p.intern(sig)
		}
	case knownUnusedIDs[id]:
	default:
		p.log.Debug("mapping: ignoring unknown metadata",
			zap.String("file", p.name), zap.Int("line", p.lineNo), zap.String("id", id))
	}
}

// intern returns a shared copy of s, so that the many repeated names and
// descriptors of a large mapping are stored once and do not keep the line
// they were read from alive.
func (p *parser) intern(s string) string {
	if v, ok := p.strings[s]; ok {
		return v
	}
	s = strings.Clone(s)
	p.strings[s] = s
	return s
}

func (p *parser) internBytes(b []byte) string {
	if v, ok := p.strings[string(b)]; ok { // no allocation for the look-up
		return v
	}
	s := string(b)
	p.strings[s] = s
	return s
}

// splitArrow splits "left -> right" and trims both parts.
func splitArrow(s string) (left, right string, ok bool) {
	i := strings.LastIndex(s, "->")
	if i < 0 {
		return "", "", false
	}
	left = strings.TrimSpace(s[:i])
	right = strings.TrimSpace(s[i+2:])
	return left, right, left != "" && right != ""
}

// cutNumber reads a decimal number at the start of s, followed by sep (or by
// the end of s when sep is 0), and returns the number and the text after sep.
func cutNumber(s string, sep byte) (n int, rest string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if n > (1<<31)/10 {
			return 0, "", false // line numbers are 32-bit in class files
		}
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == 0 {
		return 0, "", false
	}
	if sep == 0 {
		return n, s[i:], true
	}
	if i >= len(s) || s[i] != sep {
		return 0, "", false
	}
	return n, s[i+1:], true
}

// validDottedName reports whether s looks like a dotted class name: non-empty
// segments and none of the characters that cannot be in a name.
func validDottedName(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	return !containsAnyOf(s, &notInClassName)
}

// validSimpleName reports whether s can be an obfuscated member name.
func validSimpleName(s string) bool {
	return s != "" && !containsAnyOf(s, &notInMemberName)
}

// Byte sets for the name checks; strings.ContainsAny would rebuild its set
// on every call, which shows in profiles of large mappings.
var (
	notInClassName  = byteSet(" \t()[],;/:<>")
	notInMemberName = byteSet(" \t()[],;/:.")
)

func byteSet(chars string) (set [256]bool) {
	for i := 0; i < len(chars); i++ {
		set[chars[i]] = true
	}
	return set
}

func containsAnyOf(s string, set *[256]bool) bool {
	for i := 0; i < len(s); i++ {
		if set[s[i]] {
			return true
		}
	}
	return false
}
