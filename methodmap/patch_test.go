package methodmap

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPatchMapIsEncodeMap patches the text of one map into the text of
// another that differs in the methods of one class, and compares with
// what EncodeMap writes for the other.
func TestPatchMapIsEncodeMap(t *testing.T) {
	m := func(class, name, desc string, access uint16) Method {
		return Method{Key: MethodKey{Class: class, Name: name, Desc: desc}, Access: access}
	}
	before := []Method{
		m("a/B", "f", "()V", 1), m("a/B", "g", "(I)I", 1), m("a/C", "h", "()V", 1),
		m("a/B$1", "run", "()V", 1), m("z/Last", "top", "()V", 1),
	}
	old, err := Assign(before, nil)
	require.NoError(t, err)
	oldText, err := EncodeMap(old)
	require.NoError(t, err)
	cases := []struct {
		name  string
		after []Method // the new methods of a/B
		drop  []int    // ids left out of the written map (skipped methods)
	}{
		{"body changed", []Method{m("a/B", "f", "()V", 1), m("a/B", "g", "(I)I", 1)}, nil},
		{"method added and removed", []Method{m("a/B", "g", "(I)I", 1), m("a/B", "k", "()J", 1)}, nil},
		{"class emptied", nil, nil},
		{"access changed, native", []Method{m("a/B", "f", "()V", 9), m("a/B", "n", "(I)V", 0x0100)}, nil},
		{"a method skipped", []Method{m("a/B", "f", "()V", 1), m("a/B", "g", "(I)I", 1)}, []int{5}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var all []Method
			for _, x := range before {
				if x.Key.Class != "a/B" {
					all = append(all, x)
				}
			}
			all = append(all, tc.after...)
			want, err := Assign(all, old)
			require.NoError(t, err)
			patchedClass, err := Assign(tc.after, old)
			require.NoError(t, err)
			add := patchedClass.Entries[:len(patchedClass.Entries)-1] // without the dispatch entry
			got, err := PatchMap(oldText, map[string]bool{"a/B": true}, nil, add, want.HighWater)
			require.NoError(t, err)
			wantText, err := EncodeMap(want)
			require.NoError(t, err)
			assert.Equal(t, string(wantText), string(got))

			drop := map[int]bool{}
			kept := &Map{HighWater: want.HighWater}
			for _, id := range tc.drop {
				drop[id] = true
			}
			for _, e := range want.Entries {
				if !drop[e.ID] {
					kept.Entries = append(kept.Entries, e)
				}
			}
			got, err = PatchMap(wantText, nil, drop, nil, want.HighWater)
			require.NoError(t, err)
			wantText, err = EncodeMap(kept)
			require.NoError(t, err)
			assert.Equal(t, string(wantText), string(got), "ids dropped")
		})
	}
	t.Run("refuses an id twice", func(t *testing.T) {
		_, err := PatchMap(oldText, map[string]bool{"a/B": true}, nil,
			[]Entry{{ID: 3, Access: 1, Key: MethodKey{Class: "a/B", Name: "x", Desc: "()V"}}}, old.HighWater)
		assert.ErrorContains(t, err, "id 3 twice")
	})
	t.Run("refuses one new id given twice", func(t *testing.T) {
		_, err := PatchMap(oldText, map[string]bool{"a/B": true}, nil,
			[]Entry{{ID: 9, Access: 1, Key: MethodKey{Class: "a/B", Name: "x", Desc: "()V"}}, {ID: 9, Access: 1, Key: MethodKey{Class: "a/B", Name: "y", Desc: "()V"}}}, 9)
		assert.ErrorContains(t, err, "id 9 twice")
	})
	t.Run("refuses lines of other classes", func(t *testing.T) {
		_, err := PatchMap(oldText, map[string]bool{"a/B": true}, nil,
			[]Entry{{ID: 9, Access: 1, Key: MethodKey{Class: "a/C", Name: "x", Desc: "()V"}}}, 9)
		assert.ErrorContains(t, err, "not of a patched class")
	})
	t.Run("refuses text it did not write", func(t *testing.T) {
		_, err := PatchMap([]byte("1,1,a.B f ()V"), nil, nil, nil, 1)
		assert.ErrorIs(t, err, errNotEncoded)
	})
}

// TestPatchIgnoreMapIsEncodeIgnoreMap does the same for ignore maps.
func TestPatchIgnoreMapIsEncodeIgnoreMap(t *testing.T) {
	ig := func(class, name, desc string, access uint16) IgnoredMethod {
		return IgnoredMethod{Key: MethodKey{Class: class, Name: name, Desc: desc}, Access: access}
	}
	others := []IgnoredMethod{ig("a/A", "x", "()V", 1), ig("a/B$1", "y", "()V", 1), ig("a/Bz", "z", "()V", 1)}
	old := append([]IgnoredMethod{ig("a/B", "get", "()I", 1)}, others...)
	for _, after := range [][]IgnoredMethod{
		{ig("a/B", "get", "()I", 1), ig("a/B", "set", "(I)V", 1)},
		nil,
		{ig("a/B", "n", "(I)V", 0x0100), ig("a/B", "n", "(J)V", 0x0100)}, // one line: natives lose the descriptor
	} {
		got, err := PatchIgnoreMap(EncodeIgnoreMap(old), map[string]bool{"a/B": true}, after)
		require.NoError(t, err)
		assert.Equal(t, string(EncodeIgnoreMap(append(append([]IgnoredMethod(nil), others...), after...))), string(got))
	}
}

// TestSameLinesMeanUnchangedText checks what a delta run relies on to
// keep the last map texts as they are: replacing the lines of a class by
// entries that SameMapLines (SameIgnoreLines) calls the same gives back
// the old text byte for byte, and entries it calls different do not.
func TestSameLinesMeanUnchangedText(t *testing.T) {
	key := func(class, name, desc string) MethodKey { return MethodKey{Class: class, Name: name, Desc: desc} }
	before := []Method{
		{Key: key("a/B", "f", "()V"), Access: 1}, {Key: key("a/B", "n", "(I)V"), Access: 0x0101},
		{Key: key("a/C", "h", "()V"), Access: 1}, {Key: key("a/B$1", "run", "()V"), Access: 1},
	}
	old, err := Assign(before, nil)
	require.NoError(t, err)
	text, err := EncodeMap(old)
	require.NoError(t, err)
	classB := map[string]bool{"a/B": true}
	lines, err := SelectClasses(text, classB)
	require.NoError(t, err)
	require.Len(t, lines.Entries, 2)

	// The scan of a class gives the native method its descriptor; the map
	// line does not show it.
	scanned := []Entry{lines.Entries[1], lines.Entries[0]}
	scanned[0].Key.Desc = "(I)V"
	assert.True(t, SameMapLines(lines.Entries, scanned))
	got, err := PatchMap(text, classB, nil, scanned, lines.HighWater)
	require.NoError(t, err)
	assert.Equal(t, string(text), string(got))

	for name, change := range map[string]func(e *Entry){
		"id":     func(e *Entry) { e.ID = 99 },
		"access": func(e *Entry) { e.Access = 9 },
		"name":   func(e *Entry) { e.Key.Name = "g" },
	} {
		other := slices.Clone(scanned)
		change(&other[1])
		assert.False(t, SameMapLines(lines.Entries, other), name)
	}
	assert.False(t, SameMapLines(lines.Entries, scanned[:1]), "a line fewer")

	ignored := []IgnoredMethod{{Key: key("a/B", "x", "()V"), Access: 1, Reason: "empty"}, {Key: key("a/B", "y", "()V"), Access: 2, Reason: "getter"}}
	again := []IgnoredMethod{{Key: key("a/B", "y", "()V"), Access: 2, Reason: "setter"}, {Key: key("a/B", "x", "()V"), Access: 1, Reason: "empty"}}
	assert.True(t, SameIgnoreLines(ignored, again), "the reason is not on the line")
	again[0].Key.Name = "z"
	assert.False(t, SameIgnoreLines(ignored, again))
	assert.False(t, SameIgnoreLines(ignored, ignored[:1]))
}

// Merge keeps the primary map's ids, adds the secondary's methods whose
// ids are free, and retires the ids of those it leaves out.
func TestMergeBaseMaps(t *testing.T) {
	key := func(c, n string) MethodKey { return MethodKey{Class: c, Name: n, Desc: "()V"} }
	release := &Map{Entries: []Entry{{ID: 1, Key: key("a/A", "x")}, {ID: 2, Key: key("a/A", "y")}, DispatchEntry()}}
	last := &Map{Entries: []Entry{
		{ID: 1, Key: key("a/A", "x")}, // the same line
		{ID: 2, Key: key("a/B", "z")}, // id taken by the release: left out, and z gets a new id
		{ID: 7, Key: key("a/A", "y")}, // the release's id wins
		{ID: 9, Key: key("a/C", "w")}, // added since the release: kept
		DispatchEntry(),
	}, HighWater: 11}
	got := Merge(release, last)
	var lines []string
	for _, e := range got.Entries {
		lines = append(lines, fmt.Sprintf("%d %s.%s", e.ID, e.Key.Class, e.Key.Name))
	}
	assert.Equal(t, []string{"1 a/A.x", "2 a/A.y", fmt.Sprintf("%d android/os/Handler.dispatchMessage", DispatchID), "9 a/C.w"}, lines)
	assert.Equal(t, 11, got.HighWater)
	assert.Same(t, release, Merge(release, nil))
	assert.Same(t, last, Merge(nil, last))

	ids, high, err := AssignIDs([]Method{{Key: key("a/A", "y")}, {Key: key("a/B", "z")}, {Key: key("a/C", "w")}}, got)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 12, 9}, ids)
	assert.Equal(t, 12, high)

	sel := last.Select(map[string]bool{"a/C": true})
	assert.Equal(t, []Entry{{ID: 9, Key: key("a/C", "w")}}, sel.Entries)
	assert.Equal(t, 11, sel.HighWater)
}
