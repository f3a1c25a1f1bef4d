package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/methodmap"

	"github.com/tracebeat/tracebeat/internal/english"
)

// classPrinter prints one class for inspect.
type classPrinter struct {
	w      io.Writer
	rt     rewrite.Runtime
	ids    map[methodmap.MethodKey]int // from --map; nil without
	method string                      // --method filter
	noCode bool
}

// methodView is what is printed of one method.
type methodView struct {
	access     uint16
	name, desc string
	code       *cf.Code
	codeLen    int
	marks      *rewrite.Injected
	err        error // the Code attribute could not be decoded
}

func (p *classPrinter) print(where string, data []byte) error {
	c, err := cf.Parse(data)
	if err != nil {
		return err
	}
	name, err := c.Name()
	if err != nil {
		return err
	}
	super, err := c.SuperName()
	if err != nil {
		return err
	}
	views := make([]methodView, len(c.Methods))
	instrumented := 0
	var shown []int
	for i := range c.Methods {
		v := p.view(c, &c.Methods[i])
		views[i] = v
		if v.marks != nil && v.marks.Any() {
			instrumented++
		}
		if p.method == "" || p.method == v.name || p.method == v.name+v.desc {
			shown = append(shown, i)
		}
	}
	if len(shown) == 0 && p.method != "" {
		return fmt.Errorf("no method %s in class %s", p.method, name)
	}

	fmt.Fprintln(p.w, where)
	fmt.Fprintf(p.w, "class %s", name)
	if super != "" {
		fmt.Fprintf(p.w, " extends %s", super)
	}
	var ifaces []string
	for _, i := range c.Interfaces {
		n, err := c.Pool.ClassName(i)
		if err != nil {
			return err
		}
		ifaces = append(ifaces, n)
	}
	if len(ifaces) > 0 {
		fmt.Fprintf(p.w, " implements %s", strings.Join(ifaces, ", "))
	}
	fmt.Fprintln(p.w)
	fmt.Fprintf(p.w, "  version %d.%d, flags 0x%04x (%s)\n", c.Major, c.Minor, c.Access, classFlags(c.Access))
	fmt.Fprintf(p.w, "  %s, %d with injected code\n", english.Count(len(c.Methods), "method"), instrumented)

	broken := 0
	for _, i := range shown {
		v := &views[i]
		if v.err != nil {
			broken++
		}
		if !p.noCode {
			fmt.Fprintln(p.w)
		}
		fmt.Fprintln(p.w, p.header(name, v))
		if !p.noCode {
			p.body(c, v)
		}
	}
	if broken > 0 {
		return fmt.Errorf("%d of the methods shown have code that cannot be decoded", broken)
	}
	return nil
}

func (p *classPrinter) view(c *cf.Class, m *cf.Member) methodView {
	v := methodView{access: m.Access}
	v.name, v.desc, v.err = c.MemberName(m)
	if v.err != nil {
		return v
	}
	attr, ok := c.FindAttribute(m.Attributes, "Code")
	if !ok {
		return v
	}
	body, err := cf.CodeBytes(attr.Data)
	if err != nil {
		v.err = err
		return v
	}
	v.codeLen = len(body)
	if v.code, v.err = cf.DecodeCode(c.Pool, attr.Data); v.err == nil {
		v.marks = rewrite.FindInjected(v.code, c.Pool, p.rt)
	}
	return v
}

// header is the method line: margin, flags, name and descriptor, ids.
func (p *classPrinter) header(class string, v *methodView) string {
	var b strings.Builder
	margin := " "
	if v.marks != nil && v.marks.Any() {
		margin = "+"
	}
	b.WriteString(margin + " method ")
	if f := methodFlags(v.access); f != "" {
		b.WriteString(f + " ")
	}
	b.WriteString(v.name + v.desc)
	injected := -1
	if v.marks != nil && len(v.marks.EnterIDs) > 0 {
		injected = v.marks.EnterIDs[0]
		fmt.Fprintf(&b, "  id=%d", injected)
		if other := otherIDs(injected, v.marks); len(other) > 0 {
			fmt.Fprintf(&b, " (also injected: %s)", joinInts(other))
		}
	}
	if p.ids != nil {
		key := methodmap.MethodKey{Class: class, Name: v.name, Desc: v.desc}
		id, ok := p.ids[key]
		if !ok && v.access&cf.AccNative != 0 {
			key.Desc = "" // the map writes native methods without descriptor
			id, ok = p.ids[key]
		}
		switch {
		case !ok:
			b.WriteString("  map=none")
		case injected >= 0 && id != injected:
			fmt.Fprintf(&b, "  map=%d MISMATCH", id)
		default:
			fmt.Fprintf(&b, "  map=%d", id)
		}
	}
	switch {
	case v.err != nil:
		fmt.Fprintf(&b, "  (cannot decode: %v)", v.err)
	case v.code == nil:
		b.WriteString("  (no code)")
	}
	return b.String()
}

// otherIDs are injected ids that differ from the entry id: a sign of a
// class instrumented twice or patched by hand.
func otherIDs(id int, m *rewrite.Injected) []int {
	seen := map[int]bool{id: true}
	var out []int
	for _, x := range append(append([]int(nil), m.EnterIDs...), m.ExitIDs...) {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Ints(out)
	return out
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// commentColumn is where "// tracebeat: ..." comments start.
const commentColumn = 56

// body prints the instructions and the exception table of a method.
func (p *classPrinter) body(c *cf.Class, v *methodView) {
	if v.code == nil {
		return
	}
	code := v.code
	insnOff, labelOff, err := code.Offsets()
	if err != nil {
		fmt.Fprintf(p.w, "    (cannot lay out the code: %v)\n", err)
		return
	}
	fmt.Fprintf(p.w, "    stack=%d locals=%d code=%d bytes\n", code.MaxStack, code.MaxLocals, v.codeLen)
	d := cf.NewDisassembler(code, c.Pool, labelOff)
	for i, in := range code.Insns {
		text, cases := d.Insn(in)
		margin := " "
		if v.marks.Insns[i] {
			margin = "+"
		}
		line := fmt.Sprintf("%8d: %s %s", insnOff[i], margin, text)
		if comment, ok := v.marks.Comments[i]; ok {
			line = padRight(line, commentColumn) + " // " + comment
		}
		fmt.Fprintln(p.w, line)
		for _, cs := range cases {
			fmt.Fprintf(p.w, "%14s%s\n", "", cs)
		}
	}
	if len(code.Handlers) == 0 {
		return
	}
	fmt.Fprintln(p.w, "    exception table:")
	fmt.Fprintf(p.w, "      %6s %6s %6s  %s\n", "from", "to", "target", "type")
	for i, h := range code.Handlers {
		typ := "any"
		if h.CatchType != 0 {
			if n, err := c.Pool.ClassName(h.CatchType); err == nil {
				typ = n
			} else {
				typ = fmt.Sprintf("#%d", h.CatchType)
			}
		}
		margin := " "
		if v.marks.Handlers[i] {
			margin = "+"
		}
		line := fmt.Sprintf("    %s %6s %6s %6s  %s", margin, d.Target(h.Start), d.Target(h.End), d.Target(h.Handler), typ)
		if v.marks.Handlers[i] {
			line = padRight(line, commentColumn) + " // tracebeat: catch-all"
		}
		fmt.Fprintln(p.w, line)
	}
}

func padRight(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + strings.Repeat(" ", n-len(s))
}

type flagName struct {
	bit  uint16
	name string
}

var classFlagNames = []flagName{{0x0001, "public"}, {0x0010, "final"}, {0x0020, "super"}, {0x0200, "interface"},
	{0x0400, "abstract"}, {0x1000, "synthetic"}, {0x2000, "annotation"}, {0x4000, "enum"}, {0x8000, "module"}}

var methodFlagNames = []flagName{{0x0001, "public"}, {0x0002, "private"}, {0x0004, "protected"}, {0x0008, "static"},
	{0x0010, "final"}, {0x0020, "synchronized"}, {0x0040, "bridge"}, {0x0080, "varargs"}, {0x0100, "native"},
	{0x0400, "abstract"}, {0x0800, "strict"}, {0x1000, "synthetic"}}

func flagWords(access uint16, names []flagName) string {
	var w []string
	for _, f := range names {
		if access&f.bit != 0 {
			w = append(w, f.name)
		}
	}
	return strings.Join(w, " ")
}

func classFlags(access uint16) string  { return flagWords(access, classFlagNames) }
func methodFlags(access uint16) string { return flagWords(access, methodFlagNames) }
