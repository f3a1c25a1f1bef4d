package blacklist

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const fixture = "testdata/blacklist.txt"

func loadFixture(t *testing.T) *List {
	t.Helper()
	l, err := New("")
	require.NoError(t, err)
	require.NoError(t, l.AddFile(filepath.FromSlash(fixture)))
	return l
}

func TestBlocked(t *testing.T) {
	l := loadFixture(t)
	tests := []struct {
		class string
		want  string // rule.String(), "" when not blocked
	}{
		// -keepclass: the class and its nested classes, nothing else.
		{"a/b/C", "-keepclass a/b/C (testdata/blacklist.txt:3)"},
		{"a/b/C$1", "-keepclass a/b/C (testdata/blacklist.txt:3)"},
		{"a/b/C$D$E", "-keepclass a/b/C (testdata/blacklist.txt:3)"},
		{"a/b/CD", ""}, // Matrix's prefix match would block this one
		{"a/b/Cx$C", ""},
		{"a/b/D", ""},
		{"a/b/C/Z", ""}, // a package named like the class is not the class
		{"a/C", ""},
		// A nested class rule blocks deeper nesting but not the outer class.
		{"com/example/Outer$Inner", "-keepclass com/example/Outer$Inner (testdata/blacklist.txt:7)"},
		{"com/example/Outer$Inner$Deep", "-keepclass com/example/Outer$Inner (testdata/blacklist.txt:7)"},
		{"com/example/Outer", ""},
		{"com/example/Outer$InnerX", ""},
		{"spaced/Name", "-keepclass spaced/Name (testdata/blacklist.txt:8)"},
		{"NoPackage", "-keepclass NoPackage (testdata/blacklist.txt:13)"},
		{"NoPackage$1", "-keepclass NoPackage (testdata/blacklist.txt:13)"},
		{"Other", ""},
		// -keeppackage: the package and its subpackages.
		{"x/y/Z", "-keeppackage x/y/ (testdata/blacklist.txt:4)"},
		{"x/y/sub/deeper/Z", "-keeppackage x/y/ (testdata/blacklist.txt:4)"},
		{"x/yz/Z", ""},
		{"x/y", ""}, // class y in package x
		{"x/Z", ""},
		{"p/q/S", "-keeppackage p/q/ (testdata/blacklist.txt:6)"}, // written dotted
		{"p/qq/S", ""},
		{"deep/er/K", "-keeppackage deep/er/ (testdata/blacklist.txt:9)"}, // deepest rule wins
		{"deep/K", "-keeppackage deep/ (testdata/blacklist.txt:10)"},
		{"deep/other/K", "-keeppackage deep/ (testdata/blacklist.txt:10)"},
		// Built-ins.
		{"android/app/Activity", "-keeppackage android/ (built-in)"},
		{"androidx/core/app/ComponentActivity", ""},
		{"com/tencent/matrix/trace/core/AppMethodBeat", "-keepclass com/tencent/matrix/trace/core/AppMethodBeat (built-in)"},
		{"com/tencent/matrix/trace/core/AppMethodBeat$1", "-keepclass com/tencent/matrix/trace/core/AppMethodBeat (built-in)"},
		{"com/tencent/matrix/trace/core/UIThreadMonitor", "-keeppackage com/tencent/matrix/ (built-in)"},
		{"com/tencent/matrix/Matrix", "-keeppackage com/tencent/matrix/ (built-in)"},
		{"com/github/tracebeat/runtime/Recorder$1", "-keeppackage com/github/tracebeat/runtime/ (built-in)"},
		{"com/github/tracebeat/runtimes/Other", ""},
		{"com/tencent/matrixx/Foo", ""},
		{"com/tencent/Other", ""},
		// Generated classes are not Blocked's business (see TestGenerated).
		{"com/example/R", ""},
		{"com/example/BuildConfig", ""},
		{"com/example/RX", ""},
		{"com/example/Resources", ""},
		{"com/example/BuildConfigX", ""},
		{"com/example/ManifestParser", ""},
		{"com/example/Outer$R", ""}, // nested class named R is not the generated R
		{"com/R/Foo", ""},           // a package named R is not a class
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.class, func(t *testing.T) {
			rule, blocked := l.Blocked(tt.class)
			assert.Equal(t, tt.want != "", blocked)
			if tt.want != "" {
				assert.Equal(t, tt.want, rule.String())
			} else {
				assert.Equal(t, Rule{}, rule)
			}
		})
	}
}

func TestRuntimeClass(t *testing.T) {
	tests := []struct {
		name    string
		runtime string
		class   string
		want    string
	}{
		{"custom runtime class", "com/acme/trace/Beat", "com/acme/trace/Beat", "-keepclass com/acme/trace/Beat (built-in)"},
		{"custom runtime package", "com/acme/trace/Beat", "com/acme/trace/Helper", "runtime package com/acme/trace/, without subpackages (built-in)"},
		{"runtime subpackages are app code", "com/acme/trace/Beat", "com/acme/trace/sub/X", ""},
		{"outside custom runtime package", "com/acme/trace/Beat", "com/acme/Other", ""},
		{"Matrix package still blocked", "com/acme/trace/Beat", "com/tencent/matrix/Matrix", "-keeppackage com/tencent/matrix/ (built-in)"},
		{"old default not special", "com/acme/trace/Beat", "com/tencent/matrix/trace/core/AppMethodBeat", "-keeppackage com/tencent/matrix/ (built-in)"},
		{"dotted runtime class", "com.acme.Beat", "com/acme/X", "runtime package com/acme/, without subpackages (built-in)"},
		{"app below a custom runtime stays traced", "com.acme.Beat", "com/acme/app/Main", ""},
		{"runtime without package blocks only itself", "Beat", "Beat$1", "-keepclass Beat (built-in)"},
		{"runtime without package: others pass", "Beat", "Other", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := New(tt.runtime)
			require.NoError(t, err)
			rule, blocked := l.Blocked(tt.class)
			assert.Equal(t, tt.want != "", blocked)
			if tt.want != "" {
				assert.Equal(t, tt.want, rule.String())
			}
		})
	}

	for _, bad := range []string{"com//Beat", "com/Beat/", "/Beat", "com/*/Beat"} {
		_, err := New(bad)
		assert.Error(t, err, bad)
	}
}

func TestRules(t *testing.T) {
	l := loadFixture(t)
	var got []string
	for _, r := range l.Rules() {
		got = append(got, r.String())
	}
	assert.Equal(t, []string{
		"generated class R, R$*, BuildConfig, Manifest, Manifest$* next to an Android R class (built-in)",
		"-keeppackage android/ (built-in)",
		"-keeppackage com/tencent/matrix/ (built-in)",
		"-keeppackage com/github/tracebeat/runtime/ (built-in)",
		"-keepclass com/tencent/matrix/trace/core/AppMethodBeat (built-in)",
		"runtime package com/tencent/matrix/trace/core/, without subpackages (built-in)",
		"-keepclass a/b/C (testdata/blacklist.txt:3)",
		"-keeppackage x/y/ (testdata/blacklist.txt:4)",
		"-keeppackage p/q/ (testdata/blacklist.txt:6)",
		"-keepclass com/example/Outer$Inner (testdata/blacklist.txt:7)",
		"-keepclass spaced/Name (testdata/blacklist.txt:8)",
		"-keeppackage deep/er/ (testdata/blacklist.txt:9)",
		"-keeppackage deep/ (testdata/blacklist.txt:10)",
		"-keepclass a/b/C (testdata/blacklist.txt:11)",
		"-keepclass NoPackage (testdata/blacklist.txt:13)",
	}, got)

	// The returned slice is a copy.
	rules := l.Rules()
	rules[0].Name = "changed"
	assert.Equal(t, "", l.Rules()[0].Name)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		wantLine int
		want     string
	}{
		{"unknown directive", "# c\n-keepclass a/B\n-keep a/B\n", 3, `unknown directive "-keep"`},
		{"bare name", "a/b/C\n", 1, `unknown directive "a/b/C"`},
		{"missing class", "\n\n-keepclass\n", 3, "missing name after -keepclass"},
		{"missing package", "-keeppackage   \n", 1, "missing name after -keeppackage"},
		{"extra tokens", "[x]\n-keepclass a/B c/D\n", 2, `unexpected "c/D" after -keepclass a/B`},
		{"trailing comment", "-keeppackage a/ # note\n", 1, `unexpected "# note" after -keeppackage a/`},
		{"class with trailing slash", "-keepclass a/b/\n", 1, "ends with a separator"},
		{"empty segment", "-keepclass a//B\n", 1, "empty name segment"},
		{"leading slash", "-keeppackage /a\n", 1, "empty name segment"},
		{"root package", "-keeppackage /\n", 1, "empty name segment"},
		{"wildcard", "-keeppackage com/*/\n", 1, "wildcards are not supported"},
		{"bad character", "-keepclass [La/B;\n", 1, "not allowed"},
		{"directive case", "-KeepClass a/B\n", 1, "unknown directive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := New("")
			require.NoError(t, err)
			before := len(l.Rules())
			// Lenient (Matrix's way): the line is skipped and kept.
			require.NoError(t, l.Add(strings.NewReader(tt.input), "blacklist.txt"))
			require.Len(t, l.Skipped, 1)
			assert.Equal(t, tt.wantLine, l.Skipped[0].Line)
			assert.Contains(t, l.Skipped[0].Error(), tt.want)
			// Strict: an error, and the list as it was.
			l, err = New("")
			require.NoError(t, err)
			l.Strict = true
			err = l.Add(strings.NewReader(tt.input), "blacklist.txt")
			require.Error(t, err)
			var pe *ParseError
			require.True(t, errors.As(err, &pe), "%v is not a *ParseError", err)
			assert.Equal(t, "blacklist.txt", pe.File)
			assert.Equal(t, tt.wantLine, pe.Line)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "blacklist.txt:"), err.Error())
			// A failed Add leaves the list as it was.
			assert.Len(t, l.Rules(), before)
		})
	}
}

func TestAddTolerantInput(t *testing.T) {
	l, err := New("")
	require.NoError(t, err)
	// BOM, CRLF, tabs and comment/section lines with leading blanks.
	input := "\uFEFF-keepclass a/B\r\n\t# comment\r\n  [section]\r\n\t-keeppackage c.d.\t\r\n"
	require.NoError(t, l.Add(strings.NewReader(input), "in.txt"))
	rule, ok := l.Blocked("a/B")
	assert.True(t, ok)
	assert.Equal(t, "in.txt:1", rule.Origin)
	rule, ok = l.Blocked("c/d/E")
	assert.True(t, ok)
	assert.Equal(t, Rule{Kind: KeepPackage, Name: "c/d", Origin: "in.txt:4"}, rule)

	assert.True(t, errors.Is((&List{}).AddFile(filepath.Join(t.TempDir(), "missing.txt")), os.ErrNotExist))
}

// TestGenerated: only what the Android build generates into a resource
// namespace is blocked: R, R$*, BuildConfig, Manifest and Manifest$* in a
// package that holds an Android R class (one with a resource-type nested
// class), nothing with the same simple name elsewhere.
func TestGenerated(t *testing.T) {
	l, err := New("")
	require.NoError(t, err)
	classes := map[string]bool{
		"com/example/R": true, "com/example/R$string": true, "com/example/R$id": true,
		"lib/ui/R": true, "lib/ui/R$layout": true,
		"R": true, "R$drawable": true,
		"org/other/R": true, "org/other/R$Helper": true, // a class named R that is not Android's
		"only/nested/R$string": true, // no R itself
	}
	for name := range classes {
		require.True(t, NamespaceEvidence(name), name)
	}
	hasClass := func(name string) bool {
		require.True(t, NamespaceEvidence(name), "asked about %s", name)
		return classes[name]
	}
	const rule = "generated class R, R$*, BuildConfig, Manifest, Manifest$* next to an Android R class (built-in)"
	tests := []struct {
		class string
		want  bool
	}{
		{"com/example/R", true},
		{"com/example/R$string", true},
		{"com/example/R$styleable", true},
		{"com/example/BuildConfig", true},
		{"com/example/Manifest", true},
		{"com/example/Manifest$permission", true},
		{"lib/ui/BuildConfig", true},
		{"R", true},
		{"BuildConfig", true},
		{"com/example/RX", false},
		{"com/example/Resources", false},
		{"com/example/BuildConfigX", false},
		{"com/example/ManifestParser", false},
		{"com/example/Outer$R", false},
		{"com/example/sub/BuildConfig", false}, // a subpackage is not the namespace
		{"scala/reflect/Manifest", false},
		{"org/apache/tools/ant/taskdefs/Manifest", false},
		{"org/apache/tools/ant/taskdefs/Manifest$Section", false},
		{"org/other/R", false},
		{"org/other/BuildConfig", false},
		{"only/nested/R$string", false},
		{"only/nested/BuildConfig", false},
	}
	for _, tt := range tests {
		t.Run(tt.class, func(t *testing.T) {
			r, ok := l.Generated(tt.class, hasClass)
			assert.Equal(t, tt.want, ok)
			if tt.want {
				assert.Equal(t, rule, r.String())
			}
			_, blocked := l.Blocked(tt.class)
			assert.False(t, blocked, "Blocked leaves generated classes to Generated")
		})
	}
}
