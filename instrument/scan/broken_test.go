package scan

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/methodmap"
)

// withAttribute returns class's bytes with the data of attribute attr of
// method name replaced by change's result.
func withAttribute(t *testing.T, data []byte, name, attr string, change func(old []byte) []byte) []byte {
	t.Helper()
	c, err := cf.Parse(data)
	require.NoError(t, err)
	for i := range c.Methods {
		m := &c.Methods[i]
		if n, _, err := c.MemberName(m); err != nil || n != name {
			continue
		}
		a, ok := c.FindAttribute(m.Attributes, attr)
		require.True(t, ok, "%s has no %s", name, attr)
		a.Data = change(append([]byte(nil), a.Data...))
		out, err := c.Encode()
		require.NoError(t, err)
		return out
	}
	t.Fatalf("no method %s", name)
	return nil
}

// codeAt replaces the code of a Code attribute from offset 0 with b
// (the code's length unchanged).
func codeAt(b ...byte) func([]byte) []byte {
	return func(attr []byte) []byte {
		copy(attr[8:], b)
		return attr
	}
}

// A goto 100 bytes on, past the end of every method here: the decoder
// refuses it, the opcode scan does not look at targets.
var farGoto = []byte{0xa7, 0x00, 0x64, 0x00, 0x00}

// TestScanNamesBrokenMethods: a method whose code or annotations cannot
// be read makes the scan fail, naming the method, wherever the scan
// meets it first.
func TestScanNamesBrokenMethods(t *testing.T) {
	classes := fixtures(t)
	for _, tc := range []struct {
		name, class, method, attr string
		change                    func([]byte) []byte
		pol                       Policy
		err                       string
	}{
		{"a branch out of the focus method", "sc/Screen", "onWindowFocusChanged", "Code", codeAt(farGoto...), Policy{}, "method onWindowFocusChanged(Z)V: "},
		{"an unknown opcode", "sc/Plain", "add", "Code", codeAt(0xff), Policy{}, "method add(II)I: "},
		{"a Code attribute cut short", "sc/Plain", "add", "Code", func(b []byte) []byte { return b[:3] }, Policy{}, "method add(II)I: "},
		{"annotations cut short", "sc/Plain", "annotated", "RuntimeVisibleAnnotations", func([]byte) []byte { return []byte{0, 5} }, Policy{Annotations: true}, "method annotated()V: "},
		{"a branch out of a class that calls the runtime", "sc/Reported", "<init>", "Code", codeAt(farGoto...), Policy{}, "method <init>()V: code offset 0: branch target 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := withAttribute(t, classes[tc.class+".class"], tc.method, tc.attr, tc.change)
			s := NewScanner(&tc.pol, rewrite.DefaultRuntime(), NewTextTable(), nil)
			_, err := s.Scan(data, tc.class+".class")
			assert.ErrorContains(t, err, tc.err)
		})
	}
	// The code of a class that names no runtime is scanned for its
	// opcodes only: a branch the decoder refuses is the rewriter's to
	// meet (it leaves such a method as it is).
	data := withAttribute(t, classes["sc/Plain.class"], "add", "Code", codeAt(0xa7, 0x00, 0x64, 0x00))
	_, err := NewScanner(&Policy{}, rewrite.DefaultRuntime(), NewTextTable(), nil).Scan(data, "")
	assert.NoError(t, err)
	// Annotations are read only when the policy asks for them.
	data = withAttribute(t, classes["sc/Plain.class"], "annotated", "RuntimeVisibleAnnotations", func([]byte) []byte { return []byte{0, 5} })
	_, err = NewScanner(&Policy{}, rewrite.DefaultRuntime(), NewTextTable(), nil).Scan(data, "")
	assert.NoError(t, err)
}

// TestScanFocusCallsOtherThanSuper: an invokespecial in the focus method
// that names a constant other than a method is an error; a constructor of
// its descriptor is not a call of super's focus method.
func TestScanFocusCallsOtherThanSuper(t *testing.T) {
	classes := fixtures(t)
	c, err := cf.Parse(classes["sc/Screen.class"])
	require.NoError(t, err)
	ci := scanned(t, classes, Policy{}, "sc/Screen")
	focus := &c.Methods[ci.FocusIndex()]
	// aload_0; iload_1; invokespecial #name (a Utf8); return
	data := withAttribute(t, classes["sc/Screen.class"], "onWindowFocusChanged", "Code",
		codeAt(0x2a, 0x1b, 0xb7, byte(focus.Name>>8), byte(focus.Name), 0xb1))
	_, err = NewScanner(&Policy{}, rewrite.DefaultRuntime(), NewTextTable(), nil).Scan(data, "")
	assert.ErrorContains(t, err, "method onWindowFocusChanged(Z)V: ")

	deaf := scanned(t, classes, Policy{}, "sc/Deaf")
	assert.True(t, deaf.FocusCode)
	assert.False(t, deaf.FocusSuper, "new Flag(hasFocus) is an invokespecial of (Z)V")
}

// TestScanInstrumentedNamesBrokenEntries: an entry that does not inflate
// and a method whose code does not decode are errors naming the jar, the
// entry and (for the code) the method.
func TestScanInstrumentedNamesBrokenEntries(t *testing.T) {
	classes := fixtures(t)
	dir := t.TempDir()
	write := func(name string, entries map[string][]byte, broken string) string {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, n := range []string{"sc/Plain.class", broken} {
			if n == "" {
				continue
			}
			data, ok := entries[n]
			require.True(t, ok, n)
			if n == broken && entries[n] == nil {
				w, err := zw.CreateRaw(&zip.FileHeader{Name: n, Method: zip.Deflate, CRC32: 1, CompressedSize64: 3, UncompressedSize64: 10})
				require.NoError(t, err)
				_, err = w.Write([]byte{0xff, 0xff, 0xff})
				require.NoError(t, err)
				continue
			}
			w, err := zw.Create(n)
			require.NoError(t, err)
			_, err = w.Write(data)
			require.NoError(t, err)
		}
		require.NoError(t, zw.Close())
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		return path
	}
	entries := map[string][]byte{
		"sc/Plain.class":    classes["sc/Plain.class"],
		"sc/Bad.class":      nil,
		"sc/Reported.class": withAttribute(t, classes["sc/Reported.class"], "<init>", "Code", codeAt(farGoto...)),
	}
	jar := write("inflate.jar", entries, "sc/Bad.class")
	_, err := ScanInstrumented(jar, rewrite.DefaultRuntime())
	assert.ErrorContains(t, err, jar+": sc/Bad.class: ")
	assert.ErrorContains(t, err, "corrupt input", "the entry's read, not a parse of nothing")
	jar = write("code.jar", entries, "sc/Reported.class")
	_, err = ScanInstrumented(jar, rewrite.DefaultRuntime())
	assert.ErrorContains(t, err, jar+": sc/Reported.class: method <init>()V: ")
	_, err = NewScanner(&Policy{}, rewrite.DefaultRuntime(), NewTextTable(), nil).Scan(entries["sc/Reported.class"], "")
	assert.Error(t, err, "the scan's look for earlier instrumentation decodes it too")
}

// TestReasonTable: the empty text is code 0 in every table; a text keeps
// its code.
func TestReasonTable(t *testing.T) {
	table := newReasonTable()
	assert.Equal(t, ReasonCode(0), table.Code(""))
	assert.Equal(t, "", table.Text(0))
	a := table.Code("a")
	assert.Equal(t, ReasonCode(1), a)
	assert.Equal(t, a, table.Code("a"))
	assert.Equal(t, ReasonCode(2), table.Code("b"))
	assert.Equal(t, "b", table.Text(2))
	assert.Equal(t, ReasonCode(0), Reasons.Code(""))
	s := NewScanner(&Policy{}, rewrite.DefaultRuntime(), NewTextTable(), nil)
	assert.Equal(t, ReasonCode(0), s.reason(""))
	assert.Equal(t, Reasons.Code("blocked"), s.reason("blocked"))
}

// TestListsAtTheirEdges: the highest id skipped (the method map's last
// line left out), and more methods skipped than left untraced.
func TestListsAtTheirEdges(t *testing.T) {
	set, _ := twoInputs(t, Policy{})
	high, err := set.AssignIDs(nil)
	require.NoError(t, err)
	planned := set.TracedList(high, nil).PlannedMap()
	last := planned.Entries[len(planned.Entries)-2]
	skipped := map[methodmap.MethodKey]string{last.Key: rewrite.ReasonCodeTooLarge}
	var got []methodmap.Entry
	set.TracedList(high, skipped).EachSkipped(func(e methodmap.Entry) { got = append(got, e) })
	assert.Equal(t, []methodmap.Entry{{ID: last.ID, Access: last.Access, Key: last.Key}}, got)

	traced := Set{{set[0][0]}} // sc/Plain: its methods with code traced
	for i := range traced[0][0].Methods {
		traced[0][0].Methods[i].Trace = true
	}
	many := map[methodmap.MethodKey]string{}
	for i := range traced[0][0].Methods {
		many[traced[0][0].Key(&traced[0][0].Methods[i])] = rewrite.ReasonCodeTooLarge
	}
	assert.Equal(t, len(many), traced.IgnoredList(many).Len())
}

// firstEntryNamesTheRuntime is a class file, made byte by byte, whose
// constant pool's first entry is the beat class's name (a compiler puts
// a method reference there, an obfuscator need not): its one method,
// static m()V, pushes 5 and calls AppMethodBeat.i.
func firstEntryNamesTheRuntime() []byte {
	var b bytes.Buffer
	u1 := func(v int) { b.WriteByte(byte(v)) }
	u2 := func(v int) { u1(v >> 8); u1(v) }
	u4 := func(v int) { u2(v >> 16); u2(v) }
	utf8 := func(s string) { u1(cf.TagUtf8); u2(len(s)); b.WriteString(s) }
	u4(0xCAFEBABE)
	u2(0)
	u2(52)
	u2(14)                                              // entries 1..13
	utf8("com/tencent/matrix/trace/core/AppMethodBeat") // 1
	u1(cf.TagClass)                                     // 2
	u2(1)
	utf8("i")    // 3
	utf8("(I)V") // 4
	u1(cf.TagNameAndType)
	u2(3)
	u2(4) // 5
	u1(cf.TagMethodref)
	u2(2)
	u2(5)                    // 6
	utf8("sc/First")         // 7
	u1(cf.TagClass)          // 8
	u2(7)                    //
	utf8("java/lang/Object") // 9
	u1(cf.TagClass)          // 10
	u2(9)
	utf8("m")    // 11
	utf8("()V")  // 12
	utf8("Code") // 13
	u2(0x0021)
	u2(8)
	u2(10)
	u2(0) // interfaces
	u2(0) // fields
	u2(1) // methods
	u2(0x0009)
	u2(11)
	u2(12)
	u2(1)
	u2(13)
	u4(17)
	u2(1) // max_stack
	u2(0) // max_locals
	u4(5)
	b.Write([]byte{0x08, 0xb8, 0x00, 0x06, 0xb1}) // iconst_5; invokestatic #6; return
	u2(0)                                         // exception table
	u2(0)                                         // attributes
	u2(0)                                         // class attributes
	return b.Bytes()
}

// TestScanReadsThePoolFromItsFirstEntry: a call of the runtime named by
// the pool's first entry is found.
func TestScanReadsThePoolFromItsFirstEntry(t *testing.T) {
	data := firstEntryNamesTheRuntime()
	s := NewScanner(&Policy{}, rewrite.DefaultRuntime(), NewTextTable(), nil)
	ci, err := s.Scan(data, "sc/First.class")
	require.NoError(t, err)
	assert.Equal(t, decision{reason: rewrite.ReasonAlreadyInstrumented}, decided(ci, method(t, ci, "m")))
}

// TestScanMethodsWithoutCodeInAClassThatCallsTheRuntime: the look for
// earlier instrumentation passes over a method without code.
func TestScanMethodsWithoutCodeInAClassThatCallsTheRuntime(t *testing.T) {
	classes := fixtures(t)
	ci := scanned(t, classes, Policy{}, "sc/AbstractBeat")
	assert.Equal(t, decision{reason: rewrite.ReasonAlreadyInstrumented}, decided(ci, method(t, ci, "beat")))
	assert.Equal(t, decision{reason: string(methodmap.ReasonNoCode)}, decided(ci, method(t, ci, "later")))
}
