package methodmap

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func kinds(vs []Violation) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Kind)
	}
	return out
}

// TestParseMapLimits: an id up to 2^31-1 and access flags up to 65535
// are read, one more is refused; a member line with an empty method name
// says so.
func TestParseMapLimits(t *testing.T) {
	for _, tt := range []struct {
		line string
		want string // "" : accepted
	}{
		{"2147483647,1,a.B m ()V", ""},
		{"2147483648,1,a.B m ()V", "id 2147483648 is too large (max 2147483647)"},
		{"1,65535,a.B m ()V", ""},
		{"1,65536,a.B m ()V", "access flags 65536 is too large (max 65535)"},
		{"1,1,a.B  (I)V", "empty method name"},
	} {
		_, err := ParseMap(strings.NewReader(tt.line+"\n"), "m.txt")
		if tt.want == "" {
			assert.NoError(t, err, tt.line)
		} else {
			assert.ErrorContains(t, err, tt.want, tt.line)
		}
	}
}

// TestValidateIDBounds: ids 1 and the highest are in range, 0, -1 and one
// past are not; duplicates are found at both ends of the range and
// outside it; lines give "file:line", in-memory entries the name alone.
func TestValidateIDBounds(t *testing.T) {
	e := func(id, line int, name string) Entry {
		return Entry{ID: id, Access: 1, Key: MethodKey{Class: "a/B", Name: name, Desc: "()V"}, Line: line}
	}
	vs := validateEntries([]Entry{e(1, 1, "a"), e(5, 2, "b"), e(1, 3, "c"), e(5, 4, "d"), e(0, 5, "z"), e(6, 6, "y"), e(6, 7, "x")},
		"m.txt", validateOptions{maxID: 5})
	assert.Equal(t, []string{KindDuplicateID, KindDuplicateID, KindIDOutOfRange, KindIDOutOfRange, KindIDOutOfRange, KindDuplicateID}, kinds(vs))
	assert.Contains(t, vs[0].Msg, "m.txt:3: duplicate id 1: a.B c ()V, already used by a.B a ()V (line 1)")
	assert.Contains(t, vs[1].Msg, "duplicate id 5")
	assert.Contains(t, vs[2].Msg, "m.txt:5: id 0 of")
	assert.Contains(t, vs[3].Msg, "id 6 of")
	assert.Contains(t, vs[5].Msg, "m.txt:7: duplicate id 6")

	// A negative id (a map written by hand) is out of range, and found
	// again as a duplicate, without a panic.
	vs = validateEntries([]Entry{e(-1, 1, "a"), e(-1, 2, "b")}, "m.txt", validateOptions{maxID: 5})
	assert.Equal(t, []string{KindIDOutOfRange, KindIDOutOfRange, KindDuplicateID}, kinds(vs))
	assert.Contains(t, vs[0].Msg, "m.txt:1: id -1 of a.B a ()V is out of range 1..5")
	assert.Contains(t, vs[2].Msg, "m.txt:2: duplicate id -1")

	vs = validateEntries([]Entry{e(2, 0, "a"), e(2, 0, "b")}, "memory", validateOptions{maxID: 5})
	require.Len(t, vs, 1)
	assert.True(t, strings.HasPrefix(vs[0].Msg, "memory: duplicate id 2"), vs[0].Msg)
	assert.True(t, strings.HasSuffix(vs[0].Msg, "already used by a.B a ()V"), vs[0].Msg)
}

// TestCompareWithBaseBounds: a new method at an id up to the base's
// highest is too low, from id 1; the base's problems are listed by id;
// an in-memory base is named without a line.
func TestCompareWithBaseBounds(t *testing.T) {
	e := func(id int, name string) Entry {
		return Entry{ID: id, Access: 1, Key: MethodKey{Class: "a/B", Name: name, Desc: "()V"}}
	}
	base := &Map{Entries: []Entry{e(7, "g"), e(2, "b"), e(5, "e"), e(3, "c")}}
	cur := &Map{Entries: []Entry{e(1, "new1"), e(8, "new8"), e(9, "new9")}}
	vs := CompareWithBase(cur, "cur", base, "base")
	var got []string
	for _, v := range vs {
		got = append(got, v.Msg)
	}
	assert.Equal(t, []string{
		"cur: method a.B b ()V is missing (id 2 at base)",
		"cur: method a.B c ()V is missing (id 3 at base)",
		"cur: method a.B e ()V is missing (id 5 at base)",
		"cur: method a.B g ()V is missing (id 7 at base)",
		"cur: new method a.B new1 ()V got id 1, not above 7, the highest id in base",
	}, got)
	base.HighWater = 8
	vs = CompareWithBase(cur, "cur", base, "base")
	assert.Contains(t, vs[len(vs)-1].Msg, "new method a.B new8 ()V got id 8, not above 8")
}

// TestCheckMapFileShape: a NUL anywhere in the first 4 KiB, the first
// byte too, marks a binary file; a file with as many bad lines as good
// ones is a map with syntax problems, one with more is not a map.
func TestCheckMapFileShape(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	_, _, err := CheckMapFile(write("nul0", "\x001,1,a.B m ()V\n"))
	assert.ErrorContains(t, err, "not a method map (binary data)")
	_, _, err = CheckMapFile(write("nul", "1,1,a.B m ()V\n\x00"))
	assert.ErrorContains(t, err, "binary data")
	m, vs, err := CheckMapFile(write("half", "1,1,a.B m ()V\nnot a line\n1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\nbad again\n"))
	require.NoError(t, err)
	assert.Len(t, m.Entries, 2)
	assert.Equal(t, []string{KindSyntax, KindSyntax}, kinds(vs))
	_, _, err = CheckMapFile(write("mostly", "1,1,a.B m ()V\nx\ny\n"))
	assert.ErrorContains(t, err, "not a method map (2 of 3 lines are not")
}

func TestReadBuildID(t *testing.T) {
	p := filepath.Join(t.TempDir(), "methodMapping.txt")
	text := "1,1,a.B m ()V\n"
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	id, err := ReadBuildID(p)
	require.NoError(t, err)
	assert.Equal(t, BuildIDOf([]byte(text)), id)
	_, err = ReadBuildID(filepath.Join(t.TempDir(), "missing"))
	assert.Error(t, err)
	_, err = ReadBuildID(t.TempDir()) // a directory cannot be read
	assert.ErrorContains(t, err, "tmp")
}

// TestJSONNames: names are escaped exactly as encoding/json escapes them
// (HTML escaping off), dotted or not, whatever bytes they hold.
func TestJSONNames(t *testing.T) {
	ref := func(s string) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(s))
		return strings.TrimSuffix(b.String(), "\n")
	}
	for _, s := range []string{"a/b/C", "a/b c", "q\"uote/x", "back\\slash/x", "tab\t/x", "nl\n", "\x1f/x", "\x7f/x", "\u2028/x", "caf\u00e9/x", "bad\xff/x", "<&>/x", "", "12345678/abcdefgh/\"ijk",
		// One byte alone: the scan must stop at it, whatever it is.
		"\"", "\\", "\t", "\xff", "\u2028"} {
		assert.Equal(t, ref(s), string(appendJSONString(nil, s)), "%q", s)
		assert.Equal(t, ref(strings.ReplaceAll(s, "/", ".")), string(appendJSONName(nil, s, true)), "%q dotted", s)
		assert.Equal(t, ref(s), string(appendJSONName(nil, s, false)), "%q", s)
	}
}

// TestSameLines: the same lines in any order, and nothing else, counting
// repeats.
func TestSameLines(t *testing.T) {
	e := func(id int, name string) Entry {
		return Entry{ID: id, Access: 1, Key: MethodKey{Class: "a/B", Name: name, Desc: "()V"}}
	}
	assert.True(t, SameMapLines([]Entry{e(1, "a"), e(2, "b")}, []Entry{e(2, "b"), e(1, "a")}))
	assert.False(t, SameMapLines([]Entry{e(1, "a"), e(2, "b")}, []Entry{e(1, "a"), e(3, "c")}))
	assert.False(t, SameMapLines([]Entry{e(1, "a"), e(2, "b")}, []Entry{e(1, "a"), e(1, "a")}))
	assert.False(t, SameMapLines([]Entry{e(1, "a")}, []Entry{e(1, "a"), e(1, "a")}))
	i := func(name string) IgnoredMethod {
		return IgnoredMethod{Access: 1, Key: MethodKey{Class: "a/B", Name: name, Desc: "()V"}, Reason: ReasonEmpty}
	}
	assert.True(t, SameIgnoreLines([]IgnoredMethod{i("a"), i("b")}, []IgnoredMethod{i("b"), i("a")}))
	assert.False(t, SameIgnoreLines([]IgnoredMethod{i("a"), i("b")}, []IgnoredMethod{i("a"), i("a")}))
}

// TestBaseHighWaterLimit: a base whose highest-id is the highest id is
// usable, one above is not; new ids continue after the base's.
func TestBaseHighWaterLimit(t *testing.T) {
	k := func(name string) MethodKey { return MethodKey{Class: "a/B", Name: name, Desc: "()V"} }
	base := &Map{HighWater: MaxID, Entries: []Entry{{ID: 1, Access: 1, Key: k("a")}, DispatchEntry()}}
	_, _, err := AssignIDs([]Method{{Key: k("a"), Access: 1}}, base)
	require.NoError(t, err)
	_, err = NewOrderedAssigner(base)
	require.NoError(t, err)
	base.HighWater = MaxID + 1
	_, _, err = AssignIDs([]Method{{Key: k("a"), Access: 1}}, base)
	assert.ErrorContains(t, err, "highest-id 1048574 is above 1048573")
	_, err = NewOrderedAssigner(base)
	assert.Error(t, err)

	base = &Map{Entries: []Entry{{ID: 1, Access: 1, Key: k("a")}, {ID: 3, Access: 1, Key: k("c")}, DispatchEntry()}}
	a, err := NewOrderedAssigner(base)
	require.NoError(t, err)
	for _, tt := range []struct {
		name string
		want int
	}{{"a", 1}, {"b", 4}, {"c", 3}, {"d", 5}} {
		id, err := a.Add(k(tt.name), 1)
		require.NoError(t, err)
		assert.Equal(t, tt.want, id, tt.name)
	}
}

// TestIgnoreMapSorted: the ignore map's lines come sorted whatever the
// order given, repeats once.
func TestIgnoreMapSorted(t *testing.T) {
	i := func(name string) IgnoredMethod {
		return IgnoredMethod{Access: 1, Key: MethodKey{Class: "a/B", Name: name, Desc: "()V"}, Reason: ReasonEmpty}
	}
	want := EncodeIgnoreMap([]IgnoredMethod{i("a"), i("b"), i("c")})
	assert.Equal(t, "ignore methods:\na.B a ()V\na.B b ()V\na.B c ()V\n", string(want))
	assert.Equal(t, want, EncodeIgnoreMap([]IgnoredMethod{i("c"), i("b"), i("a")}))
	assert.Equal(t, want, EncodeIgnoreMap([]IgnoredMethod{i("b"), i("a"), i("c"), i("a")}))
}

// TestPatchMapIDs: an added id must be in 1..MaxID; an old line of id 0
// is not a map the tool wrote.
func TestPatchMapIDs(t *testing.T) {
	old := []byte("# tracebeat: highest-id=2\n1,1,a.B a ()V\n2,1,a.B b ()V\n1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n")
	add := func(id int) []Entry {
		return []Entry{{ID: id, Access: 1, Key: MethodKey{Class: "c/D", Name: "x", Desc: "()V"}}}
	}
	classes := map[string]bool{"c/D": true}
	out, err := PatchMap(old, classes, nil, add(MaxID), MaxID)
	require.NoError(t, err)
	assert.Contains(t, string(out), "1048573,1,c.D x ()V\n")
	for _, id := range []int{0, MaxID + 1} {
		_, err = PatchMap(old, classes, nil, add(id), MaxID)
		assert.ErrorContains(t, err, "out of range", "id %d", id)
	}
	bad := []byte("# tracebeat: highest-id=2\n0,1,a.B a ()V\n")
	_, err = PatchMap(bad, classes, nil, add(3), 3)
	assert.Error(t, err)
	_, err = SelectClasses(bad, map[string]bool{"a/B": true})
	assert.Error(t, err)
}

// TestReportOrderByAccess: methods of the same key and reason are listed
// by access.
func TestReportOrderByAccess(t *testing.T) {
	k := MethodKey{Class: "a/B", Name: "m", Desc: "()V"}
	r := BuildReport(0, []IgnoredMethod{{Key: k, Access: 9, Reason: ReasonEmpty}, {Key: k, Access: 1, Reason: ReasonEmpty}, {Key: k, Access: 4, Reason: ReasonEmpty}})
	var access []uint16
	for _, m := range r.Methods {
		access = append(access, m.Access)
	}
	assert.Equal(t, []uint16{1, 4, 9}, access)
}

// TestCheckJarOrder: violations come in method order, a method's kinds by
// access.
func TestCheckJarOrder(t *testing.T) {
	m := &Map{Entries: []Entry{DispatchEntry()}}
	vs := CheckJar(m, "m.txt", "app.jar", []InstrumentedMethod{
		{Class: "a/B", Name: "m", Desc: "()V", Access: 9, InjectedIDs: []int{5}},
		{Class: "a/B", Name: "m", Desc: "()V", Access: 1, InjectedIDs: []int{6}},
	})
	require.Len(t, vs, 2)
	assert.Contains(t, vs[0].Msg, "id 6")
	assert.Contains(t, vs[1].Msg, "id 5")
}

// TestSelectClassesHighWater: the high-water line of a map is read.
func TestSelectClassesHighWater(t *testing.T) {
	m, err := SelectClasses([]byte("# tracebeat: highest-id=7\n1,1,a.B a ()V\n2,1,c.D b ()V\n"), map[string]bool{"a/B": true})
	require.NoError(t, err)
	assert.Equal(t, 7, m.HighWater)
	require.Len(t, m.Entries, 1)
	assert.Equal(t, 1, m.Entries[0].ID)
}

// TestCompareKeysTies: two keys whose texts are the same (blanks inside
// names, as Kotlin's backquoted names have) are ordered by their fields.
func TestCompareKeysTies(t *testing.T) {
	a := MethodKey{Class: "a/B", Name: "x y", Desc: "()V"}
	b := MethodKey{Class: "a/B x", Name: "y", Desc: "()V"}
	assert.Equal(t, -1, compareKeys(a, b))
	assert.Equal(t, 1, compareKeys(b, a))
	assert.Equal(t, 0, compareKeys(a, a))
}
