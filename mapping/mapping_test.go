package mapping

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

func parseFixture(t *testing.T, name string) *Mapping {
	t.Helper()
	m, err := ParseFile(filepath.Join("testdata", name), nil)
	require.NoError(t, err)
	return m
}

func TestClassLookups(t *testing.T) {
	m := parseFixture(t, "r8.txt")
	tests := []struct {
		orig, obf string
		mapped    bool
	}{
		{"com/example/Foo", "a/b", true},
		{"com/example/Bar", "a/c", true},
		{"com/example/Baz", "a", true}, // -repackageclasses '': no package
		{"com/other/Qux", "b", true},
		{"com/example/Kept", "com/example/Kept", true},
		{"com/example/Foo$Inner", "a/b$a", true},
		{"java/lang/String", "java/lang/String", false},
	}
	for _, tt := range tests {
		t.Run(tt.orig, func(t *testing.T) {
			obf, ok := m.ObfuscatedClass(tt.orig)
			assert.Equal(t, tt.obf, obf)
			assert.Equal(t, tt.mapped, ok)
			orig, ok := m.OriginalClass(tt.obf)
			assert.Equal(t, tt.orig, orig)
			assert.Equal(t, tt.mapped, ok)
		})
	}
	// Names in the mapping's dotted form are not class names of the API.
	_, ok := m.OriginalClass("a.b")
	assert.False(t, ok)
	assert.Equal(t, 6, m.NumClasses())
	assert.Equal(t, "2.2", m.Version())
}

func TestMethodLookups(t *testing.T) {
	m := parseFixture(t, "r8.txt")
	tests := []struct {
		name               string
		origClass          string
		origName, origDesc string
		obfClass           string
		obfName, obfDesc   string
	}{
		{"range split over several lines", "com/example/Foo", "run", "(Ljava/lang/String;)V", "a/b", "b", "(Ljava/lang/String;)V"},
		{"overload sharing the obfuscated name", "com/example/Foo", "run", "(Ljava/lang/String;[I)V", "a/b", "b", "(Ljava/lang/String;[I)V"},
		{"obfuscated types in descriptor", "com/example/Foo", "make", "(Lcom/example/Foo;J)Lcom/example/Bar;", "a/b", "c", "(La/b;J)La/c;"},
		{"outermost frame of an inline group", "com/example/Foo", "compute", "(I)I", "a/b", "d", "(I)I"},
		{"overloads differing only in obfuscated class", "com/example/Foo", "take", "(Lcom/example/Foo;)V", "a/b", "e", "(La/b;)V"},
		{"overloads differing only in obfuscated class 2", "com/example/Foo", "take", "(Lcom/example/Bar;)V", "a/b", "e", "(La/c;)V"},
		{"class defined later, arrays", "com/example/Foo", "accept", "([[Lcom/other/Qux;)V", "a/b", "f", "([[Lb;)V"},
		{"same range and name but not a call site: two methods", "com/example/Foo", "over", "(I)V", "a/b", "g", "(I)V"},
		{"same range and name but not a call site: two methods 2", "com/example/Foo", "over", "(J)V", "a/b", "g", "(J)V"},
		{"constructor without range", "com/example/Foo", "<init>", "()V", "a/b", "<init>", "()V"},
		{"static initializer", "com/example/Foo", "<clinit>", "()V", "a/b", "<clinit>", "()V"},
		{"kept name", "com/example/Foo", "toString", "()Ljava/lang/String;", "a/b", "toString", "()Ljava/lang/String;"},
		{"method of inlined-into class", "com/example/Bar", "inlined", "()V", "a/c", "a", "()V"},
		{"method also inlined elsewhere", "com/example/Bar", "twice", "(I)I", "a/c", "c", "(I)I"},
		{"residual signature", "com/example/Baz", "shrunk", "(ILjava/lang/String;)V", "a", "a", "(I)V"},
		{"no-package class in descriptor", "com/example/Baz", "self", "([Lcom/example/Foo;)Lcom/example/Baz;", "a", "b", "([La/b;)La;"},
		{"qualified with its own class", "com/example/Baz", "selfQualified", "()V", "a", "c", "()V"},
		{"nested class", "com/example/Foo$Inner", "<init>", "(Lcom/example/Foo;)V", "a/b$a", "<init>", "(La/b;)V"},
		{"unchanged class", "com/example/Kept", "keep", "()V", "com/example/Kept", "keep", "()V"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, desc, ok := m.ObfuscatedMethod(tt.origClass, tt.origName, tt.origDesc)
			assert.True(t, ok, "ObfuscatedMethod ok")
			assert.Equal(t, tt.obfName, name)
			assert.Equal(t, tt.obfDesc, desc)
			name, desc, ok = m.OriginalMethod(tt.obfClass, tt.obfName, tt.obfDesc)
			assert.True(t, ok, "OriginalMethod ok")
			assert.Equal(t, tt.origName, name)
			assert.Equal(t, tt.origDesc, desc)
		})
	}
}

func TestMethodsNotInClass(t *testing.T) {
	m := parseFixture(t, "r8.txt")
	// Lines that are not methods of the class they appear in, and methods
	// the mapping does not list: the name stays, the descriptor's classes
	// are remapped, ok is false.
	tests := []struct {
		name                string
		orig                bool // look up by original (true) or obfuscated name
		class, method, desc string
		wantName, wantDesc  string
	}{
		{"inner inline frame (same class)", true, "com/example/Foo", "helper", "(I)I", "helper", "(I)I"},
		{"inner inline frame (other class)", true, "com/example/Foo", "inlined", "()V", "inlined", "()V"},
		{"qualified outermost frame", true, "com/example/Bar", "moved", "(I)V", "moved", "(I)V"},
		{"qualified outermost frame, by obfuscated name", false, "a/c", "b", "(I)V", "b", "(I)V"},
		{"moved method under its own class", true, "com/example/Foo", "moved", "(I)V", "moved", "(I)V"},
		{"unlisted method of mapped class", false, "a/b", "zz", "(La/c;)La/b;", "zz", "(Lcom/example/Bar;)Lcom/example/Foo;"},
		{"unlisted method, by original name", true, "com/example/Foo", "zz", "(Lcom/example/Bar;)V", "zz", "(La/c;)V"},
		{"unmapped class", false, "x/Y", "m", "(La/b;)V", "m", "(Lcom/example/Foo;)V"},
		{"residual signature replaces the remapped one", false, "a", "a", "(ILjava/lang/String;)V", "a", "(ILjava/lang/String;)V"},
		{"descriptor must match, not only the name", false, "a/b", "b", "()V", "b", "()V"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var name, desc string
			var ok bool
			if tt.orig {
				name, desc, ok = m.ObfuscatedMethod(tt.class, tt.method, tt.desc)
			} else {
				name, desc, ok = m.OriginalMethod(tt.class, tt.method, tt.desc)
			}
			assert.False(t, ok)
			assert.Equal(t, tt.wantName, name)
			assert.Equal(t, tt.wantDesc, desc)
		})
	}
}

// Every method entry must survive obfuscated -> original -> obfuscated and
// the reverse; this catches index collisions between overloads.
func TestMethodRoundTrip(t *testing.T) {
	m := parseFixture(t, "r8.txt")
	count := 0
	for _, c := range m.byObf {
		for _, mt := range c.methods {
			name, desc, ok := m.OriginalMethod(c.obf, mt.obf.name, mt.obf.desc)
			require.True(t, ok)
			name, desc, ok = m.ObfuscatedMethod(c.orig, name, desc)
			require.True(t, ok)
			assert.Equal(t, mt.obf, signature{name, desc}, "%s", c.orig)
			count++
		}
	}
	// 12 distinct methods in Foo, 2 in Bar, 3 in Baz, 1 each in Qux, Kept, Foo$Inner.
	assert.Equal(t, 20, count)
}

func TestPackageLookups(t *testing.T) {
	m := parseFixture(t, "r8.txt")
	tests := []struct {
		name   string
		orig   bool
		pkg    string
		want   []string
		mapped bool
	}{
		{"original spread over several", true, "com/example", []string{"", "a", "com/example"}, true},
		{"trailing slash", true, "com/other/", []string{""}, true},
		{"obfuscated default package collects", false, "", []string{"com/example", "com/other"}, true},
		{"obfuscated package", false, "a", []string{"com/example"}, true},
		{"subpackages do not count", true, "com", []string{"com"}, false},
		{"unknown maps to itself", false, "zz", []string{"zz"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			var ok bool
			if tt.orig {
				got, ok = m.ObfuscatedPackages(tt.pkg)
			} else {
				got, ok = m.OriginalPackages(tt.pkg)
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.mapped, ok)
		})
	}
	// The result is a copy: changing it must not change the mapping.
	got, _ := m.OriginalPackages("a")
	got[0] = "changed"
	again, _ := m.OriginalPackages("a")
	assert.Equal(t, []string{"com/example"}, again)
}

func TestMetadataLogging(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	input := strings.Join([]string{
		`# {"id":"com.android.tools.r8.mapping","version":"2.1"}`,
		`a.A -> a:`,
		`# {"id":"sourceFile","fileName":"A.kt"}`,
		`    1:1:void m():1:1 -> a`,
		`    # {id:'some.future.thing',}`,
		`    # {"id":"com.android.tools.r8.residualsignature","signature":"not a descriptor"}`,
		`    # {"id": broken`,
		`    # plain comment {`,
	}, "\n")
	m, err := Parse(strings.NewReader(input), "in.txt", zap.New(core))
	require.NoError(t, err)
	assert.Equal(t, "2.1", m.Version())

	var lines []string
	for _, e := range logs.All() {
		lines = append(lines, e.Level.String()+" "+e.Message)
		assert.Equal(t, "in.txt", e.ContextMap()["file"])
	}
	assert.Equal(t, []string{
		"debug mapping: ignoring unknown metadata",
		"debug mapping: ignoring invalid residual method signature",
		"warn mapping: ignoring malformed metadata comment",
	}, lines)
	assert.Equal(t, int64(5), logs.All()[0].ContextMap()["line"])
	assert.Equal(t, "some.future.thing", logs.All()[0].ContextMap()["id"])

	// The invalid residual signature is ignored, not used.
	name, desc, ok := m.OriginalMethod("a", "a", "()V")
	assert.True(t, ok)
	assert.Equal(t, "m", name)
	assert.Equal(t, "()V", desc)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		wantLine int
		want     string
	}{
		{"class line without colon", "# c\n\ncom.example.Foo -> a.b\n", 3, `malformed class line "com.example.Foo -> a.b"`},
		{"class line without arrow", "com.example.Foo a.b:\n", 1, "malformed class line"},
		{"class line with empty segment", "com..Foo -> a:\n", 1, "malformed class line"},
		{"member before class", "# header\n    void run() -> a\n", 2, "before the first class line"},
		{"bad obfuscated range", "a.A -> a:\n    1:x:void run() -> a\n", 2, `malformed method line "    1:x:void run() -> a": bad obfuscated line range`},
		{"single obfuscated line number", "a.A -> a:\n    1:void run() -> a\n", 2, "bad obfuscated line range"},
		{"reversed range", "a.A -> a:\n    5:1:void run() -> a\n", 2, "ends before it starts"},
		{"trailing comma in parameters", "a.A -> a:\n    void run(int,) -> a\n", 2, "bad parameter or return type"},
		{"void parameter", "a.A -> a:\n    void run(void) -> a\n", 2, "bad parameter or return type"},
		{"bad return type", "a.A -> a:\n    java..Foo run() -> a\n", 2, "bad parameter or return type"},
		{"missing arrow", "a.A -> a:\n    void run()\n", 2, "missing or bad '-> obfuscatedName'"},
		{"obfuscated name with space", "a.A -> a:\n    void run() -> a b\n", 2, "missing or bad"},
		{"missing return type", "a.A -> a:\n    run() -> a\n", 2, "missing return type"},
		{"parameters first", "a.A -> a:\n    (int) -> a\n", 2, `malformed method line "    (int) -> a": missing return type`},
		{"bad original range", "a.A -> a:\n    1:1:void run():x -> a\n", 2, "bad original line range"},
		{"three original numbers", "a.A -> a:\n    1:1:void run():1:2:3 -> a\n", 2, "bad original line range"},
		{"text after parameters", "a.A -> a:\n    void run() foo -> a\n", 2, "unexpected text after the parameters"},
		{"unbalanced parentheses", "a.A -> a:\n    void run)( -> a\n", 2, "unbalanced parentheses"},
		{"empty method name", "a.A -> a:\n    void () -> a\n", 2, "missing method name"},
		{"bad qualifier", "a.A -> a:\n    void .run() -> a\n", 2, "bad class qualifier"},
		{"huge line number", "a.A -> a:\n    1:99999999999:void run() -> a\n", 2, "bad obfuscated line range"},
		{"field with range", "a.A -> a:\n    1:1:int x -> a\n", 2, `malformed field line "    1:1:int x -> a"`},
		{"void field", "a.A -> a:\n    void x -> a\n", 2, "malformed field line"},
		{"field without name", "a.A -> a:\n    int -> a\n", 2, "malformed field line"},
		{"class mapped twice", "a.A -> a:\nb.B -> b:\na.A -> c:\n", 3, "class a.A is mapped twice (first at line 1)"},
		{"obfuscated name used twice", "a.A -> a:\nb.B -> a:\n", 2, "obfuscated name a is used for both a.A (line 1) and b.B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.input), "mapping.txt", nil)
			require.Error(t, err)
			var pe *ParseError
			require.True(t, errors.As(err, &pe), "error %v is not a *ParseError", err)
			assert.Equal(t, "mapping.txt", pe.File)
			assert.Equal(t, tt.wantLine, pe.Line)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "mapping.txt:"), err.Error())
		})
	}
}

func TestParseFileErrorNamesPath(t *testing.T) {
	path := filepath.Join("testdata", "malformed.txt")
	_, err := ParseFile(path, nil)
	require.Error(t, err)
	assert.Equal(t, path+`:5: malformed method line "    1:3:void run(java.lang.String -> a": unbalanced parentheses`, err.Error())

	_, err = ParseFile(filepath.Join(t.TempDir(), "missing.txt"), nil)
	require.Error(t, err)
	assert.True(t, errors.Is(err, os.ErrNotExist))
}

func TestParseTolerantInput(t *testing.T) {
	// A byte-order mark, CRLF line ends, tabs, trailing blanks, an empty
	// file section and Kotlin names with spaces are all accepted.
	input := "\uFEFFcom.a.Foo -> x:\r\n\t1:2:void `my test`(int):3:4 -> a \r\n" +
		"    void has space(int) -> b\r\n\r\n" +
		"com.a.Empty -> y:\r\n"
	m, err := Parse(strings.NewReader(input), "in.txt", nil)
	require.NoError(t, err)
	orig, ok := m.OriginalClass("x")
	assert.True(t, ok)
	assert.Equal(t, "com/a/Foo", orig)
	name, _, ok := m.OriginalMethod("x", "a", "(I)V")
	assert.True(t, ok)
	assert.Equal(t, "`my test`", name)
	name, _, ok = m.OriginalMethod("x", "b", "(I)V")
	assert.True(t, ok)
	assert.Equal(t, "has space", name)
	_, ok = m.OriginalClass("y")
	assert.True(t, ok)

	empty, err := Parse(strings.NewReader(""), "empty.txt", nil)
	require.NoError(t, err)
	assert.Equal(t, 0, empty.NumClasses())
}

// A class with many methods uses the map indexes; check they agree with the
// linear search used for small classes, including overloads.
func TestLargeClassIndex(t *testing.T) {
	var b strings.Builder
	b.WriteString("big.Big -> a:\n")
	for i := 0; i < 40; i++ {
		// Each original method twice (two ranges), overloads sharing names.
		for r := 0; r < 2; r++ {
			line := 2*i + r + 1
			b.WriteString("    ")
			b.WriteString(itoa(line) + ":" + itoa(line) + ":void m" + itoa(i%10) + "(" + strings.Repeat("int,", i/10) + "big.Big):" + itoa(100+line) + ":" + itoa(100+line) + " -> " + string(rune('a'+i%10)) + "\n")
		}
	}
	m, err := Parse(strings.NewReader(b.String()), "big.txt", nil)
	require.NoError(t, err)
	c := m.byObf["a"]
	require.Len(t, c.methods, 40)
	require.NotNil(t, c.byObfSig)
	for i := 0; i < 40; i++ {
		desc := "(" + strings.Repeat("I", i/10) + "Lbig/Big;)V"
		obfName, obfDesc, ok := m.ObfuscatedMethod("big/Big", "m"+itoa(i%10), desc)
		require.True(t, ok)
		assert.Equal(t, string(rune('a'+i%10)), obfName)
		assert.Equal(t, "("+strings.Repeat("I", i/10)+"La;)V", obfDesc)
		name, back, ok := m.OriginalMethod("a", obfName, obfDesc)
		require.True(t, ok)
		assert.Equal(t, "m"+itoa(i%10), name)
		assert.Equal(t, desc, back)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}
