package mapping

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
