package mapping

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDescriptorEdges: descriptors cut at each place a reader stops.
func TestDescriptorEdges(t *testing.T) {
	for _, tc := range []struct {
		desc string
		ok   bool
	}{
		{"(II", false},
		{"(I)", false},
		{"(I[", false},
		{"(I)[", false},
		{"(II)V", true},
		{"(I)[I", true},
	} {
		assert.Equal(t, tc.ok, validMethodDescriptor(tc.desc), tc.desc)
	}
	m := map[string]string{"a/B": "x/Y", "a/BL": "x/P"}
	mapClass := func(n string) string {
		if to, ok := m[n]; ok {
			return to
		}
		return n
	}
	for in, want := range map[string]string{
		"(L;La/B;)V":     "(L;Lx/Y;)V",    // an empty name does not stop the rest
		"(La/BL;La/B;)V": "(Lx/P;Lx/Y;)V", // a name ending in 'L'
		"[La/B;":         "[Lx/Y;",
	} {
		assert.Equal(t, want, RemapDescriptor(in, mapClass), in)
	}
}

// TestLenientJSONEdges: nesting up to the bound, siblings at any count,
// and input that ends inside a value or an escape.
func TestLenientJSONEdges(t *testing.T) {
	nested := func(n int) string {
		return `{"a":` + strings.Repeat(`[`, n-1) + strings.Repeat(`]`, n-1) + `}`
	}
	_, err := parseLenientObject(nested(maxDepth))
	require.NoError(t, err, "nesting of %d", maxDepth)
	_, err = parseLenientObject(nested(maxDepth + 1))
	require.ErrorContains(t, err, "deep")
	siblings := "{" + strings.Repeat(`"o":{"p":[1]},`, 3*maxDepth) + "}"
	_, err = parseLenientObject(siblings)
	require.NoError(t, err, "siblings do not add up as depth")
	for in, want := range map[string]string{
		`{"id":`:          "unexpected",
		`{"s":"ab\`:       "unterminated",
		`{"s":"\u12"}`:    `bad \u escape`,
		`{"s":"\u1`:       `short \u escape`,
		`{"s":"\uZZZZ"}`:  `bad \u escape "ZZZZ"`,
		`{"s":"\u00e9`:    "unterminated",
		`{'s':'x'`:        "expected ',' or '}'",
		`{"s":[1,2`:       "",
		`{"s":"\u00e9"}x`: "after the metadata object",
	} {
		_, err := parseLenientObject(in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
	}
	v, err := parseLenientObject(`{"s":"\u00e9"}`)
	require.NoError(t, err)
	assert.Equal(t, "é", v["s"])
}

// TestMethodLineNumbers: line ranges take every 32-bit value a class file
// can hold, from 0.
func TestMethodLineNumbers(t *testing.T) {
	for _, r := range []string{"0:0", "999999999:999999999", "2147483640:2147483640"} {
		m, err := Parse(strings.NewReader("a.A -> b:\n    "+r+":void run() -> c\n"), "m.txt", nil)
		require.NoError(t, err, r)
		name, _, ok := m.ObfuscatedMethod("a/A", "run", "()V")
		assert.True(t, ok, r)
		assert.Equal(t, "c", name, r)
	}
	for _, bad := range []string{"21474836470:21474836470:void run() -> c", "1:1 -> c", "7:8", "7", "7:8 -> c"} {
		_, err := Parse(strings.NewReader("a.A -> b:\n    "+bad+"\n"), "m.txt", nil)
		require.Error(t, err, bad)
	}
}

// classWithMethods is the start of a map: class a.A with n methods m0..
// (kept as they are), for tests of what comes after them.
func classWithMethods(n int) string {
	var b strings.Builder
	b.WriteString("a.A -> b:\n")
	for i := range n {
		b.WriteString("    void m" + itoa(i) + "() -> m" + itoa(i) + "\n")
	}
	return b.String()
}

// TestRepeatedMethodKeepsItsResidual: R8 writes a method once per line
// range; a residual signature given after one of its lines stays when
// the method comes again without one, in small and large classes.
func TestRepeatedMethodKeepsItsResidual(t *testing.T) {
	for _, others := range []int{0, 20} {
		var b strings.Builder
		b.WriteString(classWithMethods(others))
		b.WriteString("    1:1:void run(int,java.lang.String) -> c\n")
		b.WriteString(`    # {"id":"com.android.tools.r8.residualsignature","signature":"(I)V"}` + "\n")
		b.WriteString("    2:2:void run(int,java.lang.String) -> c\n")
		m, err := Parse(strings.NewReader(b.String()), "m.txt", nil)
		require.NoError(t, err)
		name, desc, ok := m.ObfuscatedMethod("a/A", "run", "(ILjava/lang/String;)V")
		require.True(t, ok, "%d other methods", others)
		assert.Equal(t, "c", name)
		assert.Equal(t, "(I)V", desc, "%d other methods", others)
		for i := range others {
			name, desc, ok := m.ObfuscatedMethod("a/A", "m"+itoa(i), "()V")
			require.True(t, ok)
			assert.Equal(t, "m"+itoa(i), name)
			assert.Equal(t, "()V", desc)
		}
	}
}

// TestRepeatedMethodAfterAnother: a method that comes again after other
// methods is the one it was, in small and large classes: a residual
// signature after its second line is its own.
func TestRepeatedMethodAfterAnother(t *testing.T) {
	for _, others := range []int{0, 20} {
		var b strings.Builder
		b.WriteString(classWithMethods(others))
		b.WriteString("    1:1:void run(int) -> c\n")
		b.WriteString("    void other() -> d\n")
		b.WriteString("    2:2:void run(int) -> c\n")
		b.WriteString(`    # {"id":"com.android.tools.r8.residualsignature","signature":"(J)V"}` + "\n")
		m, err := Parse(strings.NewReader(b.String()), "m.txt", nil)
		require.NoError(t, err, "%d other methods", others)
		name, desc, ok := m.ObfuscatedMethod("a/A", "run", "(I)V")
		require.True(t, ok, "%d other methods", others)
		assert.Equal(t, "c", name)
		assert.Equal(t, "(J)V", desc, "%d other methods", others)
		name, _, ok = m.ObfuscatedMethod("a/A", "other", "()V")
		require.True(t, ok)
		assert.Equal(t, "d", name)
	}
}

// TestLongLines: a line of metadata longer than the reader's first buffer
// (256 KiB) is read; one longer than its limit (64 MiB) is an error
// naming its line.
func TestLongLines(t *testing.T) {
	long := "# " + strings.Repeat("x", 300<<10) + "\n"
	m, err := Parse(strings.NewReader(long+"a.A -> b:\n"), "m.txt", nil)
	require.NoError(t, err)
	_, ok := m.ObfuscatedClass("a/A")
	assert.True(t, ok)
	huge := "a.A -> b:\n# " + strings.Repeat("x", 65<<20) + "\n"
	_, err = Parse(strings.NewReader(huge), "m.txt", nil)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "m.txt:2: "), err.Error())
}
