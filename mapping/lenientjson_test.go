package mapping

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLenientObject reads R8's metadata as R8 writes it and as people
// edit it: spaces of each kind around everything, every escape, single
// quotes, bare words, trailing commas; and names where each malformed
// input goes wrong.
func TestLenientObject(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]any
	}{
		{` {"id":"sourceFile","fileName":"A.java"} `, map[string]any{"id": "sourceFile", "fileName": "A.java"}},
		{"\t\r\n{ id :\tcom.android.tools.r8.rewriteFrame ,\r\n conditions : [ 'throws(La;)' , ] , }\n",
			map[string]any{"id": "com.android.tools.r8.rewriteFrame", "conditions": []any{"throws(La;)"}}},
		{`{"e":"\"\'\\\/\b\f\n\r\t\u00e9\u20AC|é"}`, map[string]any{"e": "\"'\\/\b\f\n\r\t\u00e9€|é"}},
		{`{'k':'v',"n":-1.5e2,"t":true,"f":false,"z":null,"a":[],"o":{},"w":x}`,
			map[string]any{"k": "v", "n": -150.0, "t": true, "f": false, "z": nil, "a": []any{}, "o": map[string]any{}, "w": "x"}},
		{`{"a":[1,[2,[3]],{"b":[]}]}`, map[string]any{"a": []any{1.0, []any{2.0, []any{3.0}}, map[string]any{"b": []any{}}}}},
	} {
		got, err := parseLenientObject(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	deep := strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1)
	_, err := parseLenientObject(`{"a":` + deep + `}`)
	assert.NoError(t, err, "64 levels")
	for _, tc := range []struct{ in, err string }{
		{``, "metadata does not start with '{'"},
		{`[1]`, "metadata does not start with '{'"},
		{`{}x`, `unexpected "x" after the metadata object`},
		{`{} {}`, `unexpected "{}" after the metadata object`},
		{`{"a"`, `at offset 4: expected ':' after key "a"`},
		{`{"a":}`, `at offset 5: unexpected '}'`},
		{`{"a":`, `at offset 5: unexpected end of metadata`},
		{`{"a":1 "b":2}`, `at offset 7: expected ',' or '}'`},
		{`{"a":[1 2]}`, `at offset 8: expected ',' or ']'`},
		{`{"a":[1,}`, `at offset 8: unexpected '}'`},
		{`{"a":[`, `unexpected end of metadata`},
		{`{:1}`, `at offset 1: expected a key`},
		{`{"a`, `at offset 3: unterminated string`},
		{`{"a":"b\`, `at offset 7: unterminated escape`},
		{`{"a":"\x"}`, `at offset 8: unknown escape \x`},
		{`{"a":"\u12"`, `at offset 8: short \u escape`},
		{`{"a":"\u12"}`, `at offset 8: bad \u escape "12\"}"`},
		{`{"a":"\u12G4"}`, `at offset 8: bad \u escape "12G4"`},
		{`{"a":` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + `}`, "metadata nested deeper than 64 levels"},
		{strings.Repeat(`{"a":`, maxDepth+1), "metadata nested deeper than 64 levels"},
		{`{"a":{"b"}}`, `expected ':' after key "b"`},
		{`{"a":{"b":}}`, `unexpected '}'`},
		{`{"a":[{"b"}]}`, `expected ':' after key "b"`},
	} {
		_, err := parseLenientObject(tc.in)
		assert.ErrorContains(t, err, tc.err, tc.in)
	}
}

// TestCutNumber: a decimal number and the text after its separator; a
// number past 2^31 refused at its tenth digit; nothing, or another
// separator, refused.
func TestCutNumber(t *testing.T) {
	for _, tc := range []struct {
		s    string
		sep  byte
		n    int
		rest string
		ok   bool
	}{
		{"12:rest", ':', 12, "rest", true},
		{"12", 0, 12, "", true},
		{"12x", 0, 12, "x", true},
		{"0:", ':', 0, "", true},
		{"2147483647", 0, 2147483647, "", true},
		{"2300000000", 0, 0, "", false},
		{"3000000000", 0, 0, "", false},
		{"12", ':', 0, "", false},
		{"12x", ':', 0, "", false},
		{"x", 0, 0, "", false},
		{"", ':', 0, "", false},
	} {
		n, rest, ok := cutNumber(tc.s, tc.sep)
		assert.Equal(t, tc.ok, ok, "%q", tc.s)
		if tc.ok {
			assert.Equal(t, tc.n, n, "%q", tc.s)
			assert.Equal(t, tc.rest, rest, "%q", tc.s)
		}
	}
}

// TestSplitArrow: both sides trimmed, with or without spaces; a side
// empty is no arrow.
func TestSplitArrow(t *testing.T) {
	for _, tc := range []struct {
		s, left, right string
		ok             bool
	}{
		{"a->bc", "a", "bc", true},
		{" a  ->  bc ", "a", "bc", true},
		{"a -> b -> c", "a -> b", "c", true},
		{"->x", "", "x", false},
		{"x->", "x", "", false},
		{"x", "", "", false},
	} {
		left, right, ok := splitArrow(tc.s)
		assert.Equal(t, tc.ok, ok, tc.s)
		if ok {
			assert.Equal(t, [2]string{tc.left, tc.right}, [2]string{left, right}, tc.s)
		}
	}
}

// TestJavaTypes: dotted names of one letter, refused dots, arrays and
// primitives; method descriptors a mapping writes, and what is not one.
func TestJavaTypes(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"a.b", "La/b;", true},
		{"a.b.C[][]", "[[La/b/C;", true},
		{"int[]", "[I", true},
		{"A", "LA;", true},
		{".a", "", false},
		{"a.", "", false},
		{"a..b", "", false},
		{"[]", "", false},
		{"a b", "", false},
	} {
		got, ok := appendJavaType(nil, tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		if ok {
			assert.Equal(t, tc.want, string(got), tc.in)
		}
	}
	for desc, ok := range map[string]bool{"x)V": false, "()L;": false, "(L;)V": false, "()La;": true, "(I[J)[La;": true, "()": false} {
		assert.Equal(t, ok, validMethodDescriptor(desc), desc)
	}
}

// TestMalformedFieldLines: each way a field line can be wrong, alone.
func TestMalformedFieldLines(t *testing.T) {
	for _, line := range []string{
		"    int x a",
		"    int -> a",
		"    int x -> a.b",
		"    void x -> a",
		"    int x -> ",
	} {
		_, err := Parse(strings.NewReader("a.A -> b:\n"+line+"\n"), "m.txt", nil)
		assert.ErrorContains(t, err, "m.txt:2: malformed field line", line)
	}
	m, err := Parse(strings.NewReader("a.A -> b:\n    int x -> a\n"), "m.txt", nil)
	require.NoError(t, err)
	assert.Equal(t, 1, m.NumClasses())
}

// TestMetadataRightAfterTheHash: a comment of metadata need not leave a
// space after its '#'.
func TestMetadataRightAfterTheHash(t *testing.T) {
	m, err := Parse(strings.NewReader(`#{"id":"com.android.tools.r8.mapping","version":"2.2"}`+"\na.A -> b:\n"), "m.txt", nil)
	require.NoError(t, err)
	assert.Equal(t, "2.2", m.Version())
}

// TestRepeatedMethodOfALargeClass: in a class large enough to be
// indexed, a method that comes again keeps its place, whichever it was.
func TestRepeatedMethodOfALargeClass(t *testing.T) {
	var b strings.Builder
	b.WriteString(classWithMethods(20))
	b.WriteString("    void m0() -> m0\n")
	b.WriteString(`    # {"id":"com.android.tools.r8.residualsignature","signature":"(J)V"}` + "\n")
	m, err := Parse(strings.NewReader(b.String()), "m.txt", nil)
	require.NoError(t, err)
	name, desc, ok := m.ObfuscatedMethod("a/A", "m0", "()V")
	require.True(t, ok)
	assert.Equal(t, "m0", name)
	assert.Equal(t, "(J)V", desc)
}

// TestDottedNames: what a dotted class name may not be.
func TestDottedNames(t *testing.T) {
	for s, ok := range map[string]bool{"a.b": true, "A": true, "": false, ".a": false, "a.": false, "a..b": false, "(a": false, "a(": false, "a b": false} {
		assert.Equal(t, ok, validDottedName(s), "%q", s)
	}
}

// TestMalformedRanges: an original line range that is not a number
// after ':', or that ends before it starts.
func TestMalformedRanges(t *testing.T) {
	for line, msg := range map[string]string{
		"    1:2:void m():3;4 -> a": "bad original line range",
		"    1:2:void m():3:x -> a": "bad original line range",
		"    1:2:void m():5:3 -> a": "original line range 5:3 ends before it starts",
		"    1:2:void m()x -> a":    "unexpected text after the parameters",
	} {
		_, err := Parse(strings.NewReader("a.A -> b:\n"+line+"\n"), "m.txt", nil)
		assert.ErrorContains(t, err, msg, line)
	}
	m, err := Parse(strings.NewReader("a.A -> b:\n    1:2:void m():3:3 -> a\n    3:4:void m():7 -> a\n"), "m.txt", nil)
	require.NoError(t, err)
	name, _, ok := m.ObfuscatedMethod("a/A", "m", "()V")
	assert.True(t, ok)
	assert.Equal(t, "a", name)
}

// TestFieldLineEndsTheMethodGroup: metadata after a field line is the
// field's, not the method's before it.
func TestFieldLineEndsTheMethodGroup(t *testing.T) {
	m, err := Parse(strings.NewReader("a.A -> b:\n    void run() -> c\n    int x -> d\n"+
		`    # {"id":"com.android.tools.r8.residualsignature","signature":"(J)V"}`+"\n"), "m.txt", nil)
	require.NoError(t, err)
	name, desc, ok := m.ObfuscatedMethod("a/A", "run", "()V")
	require.True(t, ok)
	assert.Equal(t, "c", name)
	assert.Equal(t, "()V", desc)
}

// TestEscapeAtTheEnd: a string cut right after an escape is unterminated,
// not a bad escape.
func TestEscapeAtTheEnd(t *testing.T) {
	_, err := parseLenientObject(`{"a":"\n`)
	assert.ErrorContains(t, err, "unterminated string")
}
