package blacklist

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBtraceDirectivesParse(t *testing.T) {
	l, err := New("")
	require.NoError(t, err)
	const file = "# btrace\r\n" +
		"-allowpackage com.app\n" +
		"-blockpackage com/app/ui/\n" +
		"-blockclassmethods com.app.Engine {\n" +
		"    run(int, java.lang.String[]);\n" +
		"    # a comment inside\n" +
		"    log(java.lang.Object...);\n" +
		"    stop();\n" +
		"}\n" +
		"-traceclassmethods com.app.ui.View\n" +
		"{\n" +
		"    draw(long, double[][]);\n" +
		"}\n" +
		"-traceclass com.app.Getters\n" +
		"-tracemethodannotation @com.app.Traced\n"
	require.NoError(t, l.Add(strings.NewReader(file), "f.txt"))
	require.Empty(t, l.Skipped)

	_, ok := l.Allowed("com/app/Engine")
	assert.True(t, ok)
	_, ok = l.Allowed("com/appx/Engine")
	assert.False(t, ok, "whole package names")
	_, ok = l.Allowed("org/lib/X")
	assert.False(t, ok)

	r, ok := l.Blocked("com/app/ui/deep/Widget")
	assert.True(t, ok)
	assert.Equal(t, "-blockpackage com.app.ui (f.txt:3)", r.String())

	r, ok = l.BlockedMethod("com/app/Engine", "run", "(I[Ljava/lang/String;)V")
	assert.True(t, ok)
	assert.Equal(t, "-blockclassmethods com.app.Engine { run(int, java.lang.String[]); }", r.Directive())
	assert.Equal(t, "f.txt:5", r.Origin)
	_, ok = l.BlockedMethod("com/app/Engine", "run", "(I)V")
	assert.False(t, ok, "another overload")
	_, ok = l.BlockedMethod("com/app/Engine", "log", "([Ljava/lang/Object;)V")
	assert.True(t, ok, "varargs are an array")
	_, ok = l.BlockedMethod("com/app/Engine", "stop", "()Z")
	assert.True(t, ok, "the return type does not matter")

	assert.True(t, l.ForcesMethodsOf("com/app/ui/View"))
	r, ok = l.ForcedMethod("com/app/ui/View", "draw", "(J[[D)V")
	assert.True(t, ok)
	assert.Equal(t, "-traceclassmethods com.app.ui.View { draw(long, double[][]); }", r.Directive())

	_, ok = l.TracedClass("com/app/Getters$Inner$Deeper")
	assert.True(t, ok, "nested classes")
	_, ok = l.TracedClass("com/app/GettersX")
	assert.False(t, ok)
	_, ok = l.TracedAnnotation([]string{"Ljava/lang/Deprecated;", "Lcom/app/Traced;"})
	assert.True(t, ok)
	assert.True(t, l.WantsAnnotations())
}

// TestOneLineMethodBlock: a method block may be written on one line, as
// reports print a rule (Rule.Directive), and reads as the same block on
// several lines.
func TestOneLineMethodBlock(t *testing.T) {
	for _, text := range []string{
		"-blockclassmethods a.B { run(int, java.lang.String[]); stop(); }\n",
		"-blockclassmethods a.B {run(int, java.lang.String[]);stop();}\n",
		"-blockclassmethods a.B { run(int, java.lang.String[]);\n  stop();\n}\n",
		"-blockclassmethods a.B {\n  run(int, java.lang.String[]);\n  stop(); }\n",
	} {
		l, err := New("")
		require.NoError(t, err)
		l.Strict = true
		require.NoError(t, l.Add(strings.NewReader(text), "f.txt"), text)
		_, ok := l.BlockedMethod("a/B", "run", "(I[Ljava/lang/String;)V")
		assert.True(t, ok, text)
		_, ok = l.BlockedMethod("a/B", "stop", "()V")
		assert.True(t, ok, text)
	}
}

func TestBtraceDirectiveErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"unclosed block", "-blockclassmethods a.B {\n  run();\n", "f.txt:1: the block of methods is not closed with '}'"},
		{"no brace", "-blockclassmethods a.B\nrun();\n", "f.txt:2: want '{' after the class of a method block"},
		{"bad method", "-traceclassmethods a.B {\n  run;\n}\n", `f.txt:2: want a method as name(type, ...); got "run"`},
		{"bad type", "-traceclassmethods a.B {\n  run(in t);\n}\n", "f.txt:2: parameter type"},
		{"two classes", "-traceclassmethods a.B c.D {\n}\n", "f.txt:1: -traceclassmethods wants one class name"},
		{"wildcard", "-allowpackage com.*\n", "f.txt:1: -allowpackage: bad package name"},
		{"text after a one-line block", "-traceclassmethods a.B { run(); } go();\n", `f.txt:1: unexpected "go();" after the '}' that ends the block`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := New("")
			require.NoError(t, err)
			l.Strict = true
			err = l.Add(strings.NewReader(tc.text), "f.txt")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)

			lenient, _ := New("")
			require.NoError(t, lenient.Add(strings.NewReader(tc.text), "f.txt"), "Matrix's way: skipped, not fatal")
			require.NotEmpty(t, lenient.Skipped)
		})
	}
}

// TestBlockPieces: a line in a method block splits into its methods and
// its '}', what stands before a '}' kept as a method, a comment whole.
func TestBlockPieces(t *testing.T) {
	for line, want := range map[string][]string{
		"run(); stop(); }": {"run();", "stop();", "}"},
		"stop() }":         {"stop()", "}"},
		"} tail":           {"}", "tail"},
		"}":                {"}"},
		"# a; b }":         {"# a; b }"},
		"":                 {""},
	} {
		if got := blockPieces(line); strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("blockPieces(%q) = %q, want %q", line, got, want)
		}
	}
}
