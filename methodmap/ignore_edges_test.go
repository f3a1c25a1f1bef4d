package methodmap

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEncodeIgnoredAtItsEdges: the first two methods out of order are
// sorted, the first two alike written once, whether the list came in
// line order or not.
func TestEncodeIgnoredAtItsEdges(t *testing.T) {
	key := func(c string) IgnoredMethod {
		return IgnoredMethod{Key: MethodKey{Class: "p/" + c, Name: "m", Desc: "()V"}, Access: 1}
	}
	encode := func(ms ...IgnoredMethod) string {
		var b bytes.Buffer
		require.NoError(t, EncodeIgnoredTo(&b, len(ms), func(i int) IgnoredMethod { return ms[i] }))
		return b.String()
	}
	want := ignoreHeader + "\np.A m ()V\np.B m ()V\np.C m ()V\n"
	assert.Equal(t, want, encode(key("B"), key("A"), key("C")), "the first two out of order")
	assert.Equal(t, want, encode(key("A"), key("A"), key("B"), key("C")), "the first two alike, in order")
	assert.Equal(t, want, encode(key("B"), key("B"), key("A"), key("C")), "the first two alike, out of order")
}

// TestReadIgnoreMapEdges: blank lines and comments before the header are
// skipped; a file that is not there is fs.ErrNotExist; a read that fails
// is an error.
func TestReadIgnoreMapEdges(t *testing.T) {
	keys, err := ParseIgnoreMap(strings.NewReader("\n# made by tracebeat\n"+ignoreHeader+"\np.A m ()V\n"), "ignore.txt")
	require.NoError(t, err)
	assert.Equal(t, []MethodKey{{Class: "p/A", Name: "m", Desc: "()V"}}, keys)
	_, err = ReadIgnoreMapFile(filepath.Join(t.TempDir(), "missing.txt"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
	_, err = ReadMapFile(filepath.Join(t.TempDir(), "missing.txt"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
	failed := errors.New("read failed")
	_, err = ParseIgnoreMap(iotest.ErrReader(failed), "ignore.txt")
	assert.ErrorIs(t, err, failed)
	_, err = ParseMap(iotest.ErrReader(failed), "map.txt")
	assert.ErrorIs(t, err, failed)
}

// TestCompareKeysIsTheTextsOrder: keys compare as their texts do, also
// where the texts' order is not their fields' (a space or a tab inside a
// name, which the JVM allows): a class "C x" and a name "x y" of "C".
func TestCompareKeysIsTheTextsOrder(t *testing.T) {
	sign := func(c int) int { return max(-1, min(1, c)) }
	for _, pair := range [][2]MethodKey{
		{{Class: "C", Name: "x y", Desc: "()V"}, {Class: "C x", Name: "a", Desc: "()V"}},
		{{Class: "p/C", Name: "m"}, {Class: "p/C", Name: "m\t"}},
		{{Class: "p/C", Name: "m"}, {Class: "p/C", Name: "m", Desc: "()V"}},
		{{Class: "a/B", Name: "foo", Desc: "()V"}, {Class: "a/B$1", Name: "bar", Desc: "()V"}},
	} {
		a, b := pair[0], pair[1]
		want := strings.Compare(a.String(), b.String())
		require.NotZero(t, want, "%v %v", a, b)
		assert.Equal(t, want, sign(compareKeys(a, b)), "%q against %q", a.String(), b.String())
		assert.Equal(t, -want, sign(compareKeys(b, a)), "%q against %q", b.String(), a.String())
	}
}

// TestNumbersPastOneDigit: ids, access flags, the high-water mark and a
// rule's counts of more than one digit are written in decimal, and read
// back to themselves.
func TestNumbersPastOneDigit(t *testing.T) {
	add := []Entry{{ID: 12345, Access: 1033, Key: MethodKey{Class: "p/A", Name: "m", Desc: "()V"}}}
	out, err := PatchMap(nil, map[string]bool{"p.A": true}, nil, add, 99999)
	require.NoError(t, err)
	m, err := ParseMap(bytes.NewReader(out), "map.txt")
	require.NoError(t, err, "%s", out)
	require.Len(t, m.Entries, 1)
	assert.Equal(t, 12345, m.Entries[0].ID)
	assert.Equal(t, uint16(1033), m.Entries[0].Access)
	assert.Equal(t, 99999, m.HighWater)

	var doc struct {
		Rules []RuleCount `json:"rules"`
	}
	head := ReportHead(10, nil, []RuleCount{{Rule: "-keeppackage a/", Origin: "built-in", Classes: 12, Methods: 345}})
	require.NoError(t, json.Unmarshal(append(head, []byte("[]}")...), &doc), "%s", head)
	assert.Equal(t, []RuleCount{{Rule: "-keeppackage a/", Origin: "built-in", Classes: 12, Methods: 345}}, doc.Rules)
}

// TestReportNamesNeedingEscapes: a report of methods whose names need
// escaping in one field only (a quote in the class, a backslash in the
// name, a control byte in the descriptor) reads back to those names, and
// '<' is written as it is, not as \u003c, in a name escaped or not.
func TestReportNamesNeedingEscapes(t *testing.T) {
	ignored := []IgnoredMethod{
		{Key: MethodKey{Class: `p/Q"uote`, Name: "m", Desc: "()V"}, Access: 1, Reason: "r"},
		{Key: MethodKey{Class: "p/A", Name: `back\slash`, Desc: "()V"}, Access: 1, Reason: "r"},
		{Key: MethodKey{Class: "p/B", Name: `<i"nit>`, Desc: "(\x01)V"}, Access: 1, Reason: "r"},
		{Key: MethodKey{Class: "p/C", Name: "<init>", Desc: "()V"}, Access: 1, Reason: "r"},
	}
	text := ReportText(1, ignored, nil)
	var doc struct {
		Methods []struct{ Class, Method, Desc string } `json:"methods"`
	}
	require.NoError(t, json.Unmarshal(text, &doc), "%s", text)
	got := map[string]bool{}
	for _, m := range doc.Methods {
		got[m.Class+" "+m.Method+" "+m.Desc] = true
	}
	for _, want := range []string{`p.Q"uote m ()V`, `p.A back\slash ()V`, "p.B <i\"nit> (\x01)V", "p.C <init> ()V"} {
		assert.True(t, got[want], "%q in %v", want, got)
	}
	assert.Contains(t, string(text), `"<init>"`)
	assert.Contains(t, string(text), `"<i\"nit>"`, "escaped as encoding/json does with HTML escaping off")
}

// TestOrderedAssignerRefusesABadBase: a base map with a single bad entry
// (an id twice) is not used.
func TestOrderedAssignerRefusesABadBase(t *testing.T) {
	base := &Map{Entries: []Entry{
		{ID: 1, Access: 1, Key: MethodKey{Class: "p/A", Name: "a", Desc: "()V"}},
		{ID: 1, Access: 1, Key: MethodKey{Class: "p/A", Name: "b", Desc: "()V"}},
	}}
	_, err := NewOrderedAssigner(base)
	assert.Error(t, err)
}
