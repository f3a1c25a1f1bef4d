package blacklist

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRuleOrigins: the built-in rules say so and a file's do not; the
// rule a caller makes for a class outside every allow package prints as
// its origin alone.
func TestRuleOrigins(t *testing.T) {
	l, err := New("com/app/trace/Beat")
	require.NoError(t, err)
	require.NoError(t, l.Add(strings.NewReader("-keepclass a/B\n"), "f.txt"))
	var builtIn, fromFile int
	for _, r := range l.Rules() {
		if r.BuiltIn() {
			builtIn++
			assert.Equal(t, "built-in", r.Origin)
		} else {
			fromFile++
			assert.Equal(t, "f.txt:1", r.Origin)
		}
	}
	assert.Positive(t, builtIn)
	assert.Equal(t, 1, fromFile)
	outside := Rule{Kind: AllowPackage, Origin: "outside every -allowpackage"}
	assert.Equal(t, "outside every -allowpackage", outside.String())
	allow := Rule{Kind: AllowPackage, Name: "com/app", Origin: "f.txt:2"}
	assert.Equal(t, "-allowpackage com.app (f.txt:2)", allow.String())
}

// TestListAnswersWhatItHolds: a list says it has an allow list, or wants
// annotations, only when a rule asks for it.
func TestListAnswersWhatItHolds(t *testing.T) {
	l, err := New("")
	require.NoError(t, err)
	assert.False(t, l.HasAllowList())
	assert.False(t, l.WantsAnnotations())
	require.NoError(t, l.Add(strings.NewReader("-allowpackage com.app\n-tracemethodannotation @a.T\n"), "f.txt"))
	assert.True(t, l.HasAllowList())
	assert.True(t, l.WantsAnnotations())
}

// TestMethodLineEdges: a method line needs a name before its '(' and
// ends at its ')'; a block may close on a method's line.
func TestMethodLineEdges(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{"run(int);", true},
		{"(int);", false},
		{"run int);", false},
		{"run(int) x;", false},
		{"r(int);", true},
	} {
		_, _, err := parseMethodLine(tc.line)
		assert.Equal(t, tc.ok, err == nil, "%q: %v", tc.line, err)
	}
	l, err := New("")
	require.NoError(t, err)
	l.Strict = true
	require.NoError(t, l.Add(strings.NewReader("-blockclassmethods a.B {\n  run(int); }\n"), "f.txt"))
	_, ok := l.BlockedMethod("a/B", "run", "(I)V")
	assert.True(t, ok, "the method before the '}' on its line")
}

// TestTracedClassEdges: an enclosing class is found through '$', but a
// '$' that starts a simple name is part of it, and an annotation
// descriptor names a class only in the L...; form.
func TestTracedClassEdges(t *testing.T) {
	l, err := New("")
	require.NoError(t, err)
	require.NoError(t, l.Add(strings.NewReader("-traceclass a.b.C\n-traceclass a.b.$\n-tracemethodannotation @a.T\n"), "f.txt"))
	for _, tc := range []struct {
		class string
		ok    bool
	}{
		{"a/b/C$D", true},
		{"a/b/C", true},
		{"a/b/$", true},
		{"a/b/$$X", true}, // X nested in the class named $
		{"a/b/$D", false},
		{"a/bC$D", false},
	} {
		_, ok := l.TracedClass(tc.class)
		assert.Equal(t, tc.ok, ok, tc.class)
	}
	for _, tc := range []struct {
		desc string
		ok   bool
	}{
		{"La/T;", true},
		{"a/T", false},
		{"L;", false},
		{"La/T", false},
	} {
		_, ok := l.TracedAnnotation([]string{tc.desc})
		assert.Equal(t, tc.ok, ok, tc.desc)
	}
}

// TestReadErrorNamesItsLine: a line past the reader's limit (64 KiB) is
// an error naming the line it is on.
func TestReadErrorNamesItsLine(t *testing.T) {
	l, err := New("")
	require.NoError(t, err)
	text := "-keepclass a/B\n-keepclass a/C\n-keepclass " + strings.Repeat("x", 70_000) + "\n"
	err = l.Add(strings.NewReader(text), "f.txt")
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "f.txt:3: "), err.Error())
}
