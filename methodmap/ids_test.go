package methodmap

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func key(class, name, desc string) MethodKey { return MethodKey{class, name, desc} }

func meth(class, name, desc string) Method { return Method{Key: key(class, name, desc), Access: 1} }

// idsOf returns "class.name desc=id" for every entry but the dispatch one.
func idsOf(m *Map) map[MethodKey]int {
	out := map[MethodKey]int{}
	for _, e := range m.Entries {
		if e.ID != DispatchID {
			out[e.Key] = e.ID
		}
	}
	return out
}

func TestAssignSortedOrder(t *testing.T) {
	ms := []Method{
		meth("a/B$1", "run", "()V"),
		meth("a/B", "zed", "()V"),
		meth("a/B", "foo", "(Ljava/lang/String;)V"),
		meth("a/B", "foo", "(I)V"),
		meth("a/BC", "x", "()V"),
		meth("a/A", "y", "()V"),
	}
	m, err := Assign(ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Expected order is the byte order of the dotted lines; derive it
	// independently of compareKeys.
	lines := make([]string, len(ms))
	for i, x := range ms {
		lines[i] = strings.ReplaceAll(x.Key.Class+" "+x.Key.Name+" "+x.Key.Desc, "/", ".")
	}
	slices.Sort(lines)
	if len(m.Entries) != len(ms)+1 {
		t.Fatalf("got %d entries, want %d + dispatch", len(m.Entries), len(ms))
	}
	for i, l := range lines {
		e := m.Entries[i]
		if e.ID != i+1 || e.Key.String() != l {
			t.Errorf("entry %d = %d %s, want %d %s", i, e.ID, e.Key, i+1, l)
		}
	}
	if last := m.Entries[len(m.Entries)-1]; last != DispatchEntry() {
		t.Errorf("last entry = %+v, want the dispatch entry", last)
	}
	if m.HighWater != len(ms) {
		t.Errorf("HighWater = %d, want %d", m.HighWater, len(ms))
	}
}

func TestAssignWithBase(t *testing.T) {
	a, b, c, d, e := meth("p/A", "a", "()V"), meth("p/B", "b", "()V"), meth("p/C", "c", "()V"), meth("p/D", "d", "()V"), meth("p/E", "e", "()V")
	base, err := Assign([]Method{a, b, c}, nil) // a=1 b=2 c=3
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		methods   []Method
		base      *Map
		want      map[string]int // method name -> id
		highWater int
	}{
		{"unchanged", []Method{c, a, b}, base, map[string]int{"a": 1, "b": 2, "c": 3}, 3},
		{"added methods go above the max, sorted", []Method{e, a, d, b, c}, base, map[string]int{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}, 5},
		{"removed method keeps others", []Method{a, c}, base, map[string]int{"a": 1, "c": 3}, 3},
		{"removed id not reused", []Method{a, c, d}, base, map[string]int{"a": 1, "c": 3, "d": 4}, 4},
		{"removed top id not reused", []Method{a, b, e}, base, map[string]int{"a": 1, "b": 2, "e": 4}, 4},
		{"high-water mark of the base is honoured", []Method{a, d},
			&Map{Entries: []Entry{{ID: 1, Access: 1, Key: a.Key}, DispatchEntry()}, HighWater: 7},
			map[string]int{"a": 1, "d": 8}, 8},
		{"base from a file with gaps and without dispatch", []Method{b, d},
			&Map{Entries: []Entry{{ID: 10, Access: 1, Key: b.Key}, {ID: 3, Access: 1, Key: a.Key}}},
			map[string]int{"b": 10, "d": 11}, 11},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Assign(tc.methods, tc.base)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for k, id := range idsOf(m) {
				got[k.Name] = id
			}
			if !mapsEqual(got, tc.want) {
				t.Errorf("ids = %v, want %v", got, tc.want)
			}
			if m.HighWater != tc.highWater {
				t.Errorf("HighWater = %d, want %d", m.HighWater, tc.highWater)
			}
			if v := ValidateMap(m, "assigned"); len(v) > 0 {
				t.Errorf("assigned map invalid: %v", v)
			}
		})
	}
}

// Three builds in a row: a method with the top id disappears in build 2; the
// written map carries the high-water mark so build 3 still does not reuse it.
func TestAssignNeverReusesAcrossBuilds(t *testing.T) {
	a, b, c := meth("p/A", "a", "()V"), meth("p/B", "b", "()V"), meth("p/C", "c", "()V")
	m1, err := Assign([]Method{a, b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Assign([]Method{a}, roundTrip(t, m1))
	if err != nil {
		t.Fatal(err)
	}
	m3, err := Assign([]Method{a, c}, roundTrip(t, m2))
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(m3)[c.Key]; got != 3 {
		t.Errorf("c got id %d, want 3 (id 2 belonged to b)", got)
	}
}

func roundTrip(t *testing.T, m *Map) *Map {
	t.Helper()
	data, err := EncodeMap(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseMap(strings.NewReader(string(data)), "roundtrip")
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func TestAssignNativeKeyMatchesBaseLineWithoutDescriptor(t *testing.T) {
	nat := Method{Key: key("p/N", "n", "(I)V"), Access: 0x0101}
	base := &Map{Entries: []Entry{{ID: 9, Access: 0x0101, Key: key("p/N", "n", "")}}}
	m, err := Assign([]Method{nat}, base)
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(m)[nat.Key]; got != 9 {
		t.Errorf("native method got id %d, want base id 9", got)
	}
}

func TestAssignErrors(t *testing.T) {
	a := meth("p/A", "a", "()V")
	tests := []struct {
		name    string
		methods []Method
		base    *Map
		wantErr string
	}{
		{"native overloads share a map line",
			[]Method{{Key: key("p/N", "n", "(I)V"), Access: 0x100}, {Key: key("p/N", "n", "(J)V"), Access: 0x100}}, nil,
			`would get the same map line "p.N n"`},
		{"dispatch method", []Method{{Key: DispatchKey, Access: 1}}, nil, "the map reserves it for the dispatch entry (id 1048574)"},
		{"base with duplicate ids", []Method{a},
			&Map{Entries: []Entry{{ID: 1, Key: key("p/X", "x", "()V")}, {ID: 1, Key: key("p/Y", "y", "()V")}}},
			"base map is not usable: base map: duplicate id 1"},
		{"base with id out of range", []Method{a},
			&Map{Entries: []Entry{{ID: MaxID + 2, Key: key("p/X", "x", "()V")}}}, "id 1048575 of p.X x ()V is out of range"},
		{"base with the dispatch id on another method", []Method{a},
			&Map{Entries: []Entry{{ID: DispatchID, Access: 1, Key: key("p/X", "x", "()V")}}}, "id 1048574 is reserved for"},
		{"base with id 0", []Method{a}, &Map{Entries: []Entry{{ID: 0, Key: key("p/X", "x", "()V")}}}, "out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Assign(tc.methods, tc.base)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

func TestAssignDuplicatesMerged(t *testing.T) {
	x := key("p/A", "a", "()V")
	m, err := Assign([]Method{{Key: x, Access: 9}, {Key: x, Access: 1}, {Key: x, Access: 9}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries) != 2 || m.Entries[0].Access != 1 {
		t.Errorf("entries = %+v, want one entry with the smallest access 1 plus dispatch", m.Entries)
	}
}

func TestAssignExhaustion(t *testing.T) {
	mk := func(n int) []Method {
		var ms []Method
		for i := range n {
			ms = append(ms, meth("p/A", "m"+string(rune('a'+i)), "()V"))
		}
		return ms
	}
	// Small limit: 5 ids fit, 6 do not.
	if _, err := assign(mk(5), nil, 5, false); err != nil {
		t.Fatalf("5 methods, limit 5: %v", err)
	}
	_, err := assign(mk(6), nil, 5, false)
	if !errors.Is(err, ErrIDSpaceExhausted) || !strings.Contains(err.Error(), "6 methods need ids above 0") {
		t.Fatalf("6 methods, limit 5: err = %v", err)
	}

	// The real limit, reached through a base map whose top id is MaxID-1.
	base := &Map{Entries: []Entry{{ID: MaxID - 1, Access: 1, Key: key("p/Old", "o", "()V")}, DispatchEntry()}}
	m, err := Assign(append(mk(1), meth("p/Old", "o", "()V")), base)
	if err != nil {
		t.Fatalf("one new method at MaxID: %v", err)
	}
	if got := idsOf(m)[mk(1)[0].Key]; got != MaxID || MaxID != 1048573 {
		t.Errorf("new method got %d, want MaxID=1048573 (MaxID is %d)", got, MaxID)
	}
	_, err = Assign(mk(2), base)
	want := "id space exhausted: 2 methods need ids above 1048572, but the highest usable id is 1048573"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	if DispatchID != 1048574 {
		t.Errorf("DispatchID = %d", DispatchID)
	}
}

func TestAssignDeterministic(t *testing.T) {
	var ms []Method
	for _, c := range []string{"a/B", "a/B$1", "a/B$Inner", "a/C", "z/Z", "a/b/C"} {
		for _, n := range []string{"<init>", "run", "get", "a$b"} {
			for _, d := range []string{"()V", "(I)V", "(Ljava/lang/String;)V"} {
				ms = append(ms, meth(c, n, d))
			}
		}
	}
	base := &Map{Entries: []Entry{{ID: 40, Access: 1, Key: ms[7].Key}, {ID: 3, Access: 1, Key: ms[20].Key}}}
	want, err := Assign(ms, base)
	if err != nil {
		t.Fatal(err)
	}
	wantBytes, _ := EncodeMap(want)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		shuffled := slices.Clone(ms)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		shuffledBase := &Map{Entries: slices.Clone(base.Entries)}
		rng.Shuffle(len(shuffledBase.Entries), func(i, j int) {
			shuffledBase.Entries[i], shuffledBase.Entries[j] = shuffledBase.Entries[j], shuffledBase.Entries[i]
		})
		got, err := Assign(shuffled, shuffledBase)
		if err != nil {
			t.Fatal(err)
		}
		gotBytes, _ := EncodeMap(got)
		if string(gotBytes) != string(wantBytes) {
			t.Fatalf("shuffle %d: output differs", i)
		}
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestAssignIDsFollowInputs: AssignIDs gives each input method the id its
// entry has in the map, duplicates included.
func TestAssignIDsFollowInputs(t *testing.T) {
	k := func(c, n string) MethodKey { return MethodKey{Class: c, Name: n, Desc: "()V"} }
	in := []Method{{Key: k("b/B", "x")}, {Key: k("a/A", "y")}, {Key: k("b/B", "x")}, {Key: k("a/A", "a")}}
	ids, high, err := AssignIDs(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Assign(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if high != m.HighWater {
		t.Errorf("high-water %d, map says %d", high, m.HighWater)
	}
	byKey := m.IDs()
	for i, meth := range in {
		if ids[i] != byKey[meth.Key] || ids[i] == 0 {
			t.Errorf("method %d (%v): id %d, map says %d", i, meth.Key, ids[i], byKey[meth.Key])
		}
	}
	if ids[0] != ids[2] {
		t.Errorf("duplicates got ids %d and %d", ids[0], ids[2])
	}
	if want := []int{3, 2, 3, 1}; fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Errorf("ids %v, want %v (sorted order a/A a, a/A y, b/B x)", ids, want)
	}
}

// TestAssignBaseShortcut checks that the shortcut taken with a base map
// (merge by hash, sort only the new methods) gives exactly what sorting
// everything gives: same map, same id per input method, across base maps
// that cover none, some or all of the methods, with duplicates, access
// differences and natives (which must take the sorting path).
func TestAssignBaseShortcut(t *testing.T) {
	var methods []Method
	for c := 0; c < 40; c++ {
		for m := 0; m < 25; m++ {
			k := MethodKey{Class: fmt.Sprintf("p/C%d$%d", c%7, c), Name: fmt.Sprintf("m%d", (m*7919)%25), Desc: fmt.Sprintf("(I)%c", "VIJZ"[m%4])}
			methods = append(methods, Method{Key: k, Access: uint16(1 + m%3)})
		}
	}
	// Duplicates in other orders with other access values.
	for i := len(methods) - 1; i >= 0; i -= 13 {
		d := methods[i]
		d.Access = 8
		methods = append(methods, d)
	}
	native := append(append([]Method(nil), methods...), Method{Key: MethodKey{Class: "p/N", Name: "n", Desc: "()V"}, Access: accNative})
	for _, tc := range []struct {
		name    string
		methods []Method
		every   int // every n-th unique method is in the base (0: none)
	}{
		{"half in base", methods, 2},
		{"all in base", methods, 1},
		{"few in base", methods, 17},
		{"with a native", native, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := assign(tc.methods, nil, MaxID, true)
			require.NoError(t, err)
			base := &Map{HighWater: 5000}
			for i, e := range a.toMap().Entries {
				if e.ID != DispatchID && tc.every > 0 && i%tc.every == 0 {
					e.ID = 4000 - i // not the order of keys
					base.Entries = append(base.Entries, e)
				}
			}
			wantA, err := assign(tc.methods, base, MaxID, true)
			require.NoError(t, err)
			gotA, err := assign(tc.methods, base, MaxID, false)
			require.NoError(t, err)
			want, got := wantA.toMap(), gotA.toMap()
			require.Equal(t, want, got)
			require.Equal(t, wantA.inputIDs(), gotA.inputIDs())
			if tc.every != 1 {
				require.Greater(t, got.HighWater, 5000, "new methods are numbered above the base")
			}
		})
	}
}
