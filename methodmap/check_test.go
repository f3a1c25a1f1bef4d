package methodmap

import (
	"slices"
	"strings"
	"testing"
)

// kindsOf lists the Kind of each violation, in order, for compact comparisons.
func kindsOf(vs []Violation) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Kind
	}
	return out
}

func TestCheckMapFileBroken(t *testing.T) {
	const path = "testdata/check/broken.txt"
	m, vs, err := CheckMapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ kind, msgPrefix string }{
		{KindSyntax, path + ":5: want <id>,<access>,<class> <method> <descriptor>"},
		{KindSyntax, path + `:10: missing descriptor in "com.ex.E noDesc"`},
		{KindDuplicateID, path + ":4: duplicate id 2: com.ex.B start ()V, already used by com.ex.A stop ()V (line 3)"},
		{KindIDOutOfRange, path + ":6: id 0 of com.ex.C zero ()V is out of range 1..1048573"},
		{KindIDOutOfRange, path + ":7: id 1048575 of com.ex.C tooBig ()V is out of range"},
		{KindDuplicateMethod, path + ":8: duplicate method com.ex.A run ()V: id 5, already id 1 (line 2)"},
		{KindUnsorted, path + ":9: id 4 comes after id 5"},
		{KindDispatch, path + `: missing the dispatch entry "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V"`},
	}
	if len(vs) != len(want) {
		t.Fatalf("got %d violations, want %d:\n%s", len(vs), len(want), joinViolations(vs))
	}
	for i, w := range want {
		if vs[i].Kind != w.kind || !strings.HasPrefix(vs[i].Msg, w.msgPrefix) {
			t.Errorf("violation %d = %s %q\nwant %s %q...", i, vs[i].Kind, vs[i].Msg, w.kind, w.msgPrefix)
		}
	}
	if len(m.Entries) != 7 {
		t.Errorf("parsed %d entries, want the 7 well-formed lines", len(m.Entries))
	}
}

func joinViolations(vs []Violation) string {
	var b strings.Builder
	for _, v := range vs {
		b.WriteString(v.Kind + " " + v.Msg + "\n")
	}
	return b.String()
}

func TestCheckMapFileGood(t *testing.T) {
	m, vs, err := CheckMapFile("testdata/check/good.txt")
	if err != nil || len(vs) != 0 {
		t.Fatalf("err=%v violations:\n%s", err, joinViolations(vs))
	}
	if len(m.Entries) != 4 {
		t.Errorf("%d entries", len(m.Entries))
	}
}

func TestValidateMapDispatch(t *testing.T) {
	a := Entry{ID: 1, Access: 1, Key: key("p/A", "a", "()V")}
	tests := []struct {
		name    string
		entries []Entry
		want    []string
	}{
		{"ok", []Entry{a, DispatchEntry()}, nil},
		{"missing", []Entry{a}, []string{KindDispatch}},
		{"other method on the dispatch id", []Entry{a, {ID: DispatchID, Access: 1, Key: a.Key}}, []string{KindDispatch, KindDuplicateMethod}},
		{"wrong access", []Entry{a, {ID: DispatchID, Access: 9, Key: DispatchKey}}, []string{KindDispatch}},
		{"dispatch method on a normal id", []Entry{a, {ID: 2, Access: 1, Key: DispatchKey}, DispatchEntry()}, []string{KindDuplicateMethod}},
		{"native overloads collide", []Entry{
			{ID: 1, Access: 0x100, Key: key("p/N", "n", "(I)V")},
			{ID: 2, Access: 0x100, Key: key("p/N", "n", "(J)V")}, DispatchEntry()}, []string{KindDuplicateMethod}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := kindsOf(ValidateMap(&Map{Entries: tc.entries}, "m"))
			if !slices.Equal(got, tc.want) {
				t.Errorf("kinds = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCompareWithBase(t *testing.T) {
	a, b, c, d := key("p/A", "a", "()V"), key("p/B", "b", "()V"), key("p/C", "c", "()V"), key("p/D", "d", "()V")
	e := func(id int, k MethodKey) Entry { return Entry{ID: id, Access: 1, Key: k} }
	base := &Map{Entries: []Entry{e(1, a), e(2, b), e(3, c), DispatchEntry()}}
	tests := []struct {
		name string
		cur  []Entry
		want []string
	}{
		{"same", []Entry{e(1, a), e(2, b), e(3, c)}, nil},
		{"new method above base", []Entry{e(1, a), e(2, b), e(3, c), e(4, d)}, nil},
		{"changed id", []Entry{e(1, a), e(2, b), e(4, c)}, []string{KindIDChanged}},
		{"removed", []Entry{e(1, a), e(3, c)}, []string{KindRemoved}},
		{"reused for a new method", []Entry{e(1, a), e(3, c), e(2, d)}, []string{KindRemoved, KindIDReused}},
		{"swapped", []Entry{e(2, a), e(1, b), e(3, c)}, []string{KindIDChanged, KindIDReused, KindIDChanged, KindIDReused}},
		{"new method below the base max", []Entry{e(1, a), e(2, b), e(3, c), e(0, d)}, nil}, // id 0 is ValidateMap's
		{"new method may skip ids above the base", []Entry{e(1, a), e(2, b), e(3, c), e(5, d)},
			nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := CompareWithBase(&Map{Entries: append(tc.cur, DispatchEntry())}, "cur.txt", base, "base.txt")
			if got := kindsOf(vs); !slices.Equal(got, tc.want) {
				t.Errorf("kinds = %v, want %v\n%s", got, tc.want, joinViolations(vs))
			}
		})
	}

	vs := CompareWithBase(&Map{Entries: []Entry{{ID: 1, Access: 1, Key: a, Line: 1}, {ID: 7, Access: 1, Key: c, Line: 2}}}, "cur.txt",
		&Map{Entries: []Entry{{ID: 1, Access: 1, Key: a, Line: 1}, {ID: 3, Access: 1, Key: c, Line: 4}}}, "base.txt")
	if len(vs) != 1 || vs[0].Msg != "cur.txt:2: method p.C c ()V has id 7, but id 3 at base.txt:4" {
		t.Errorf("message: %v", vs)
	}

	// The base's high-water mark counts: id 5 was handed out before.
	vs = CompareWithBase(&Map{Entries: []Entry{e(1, a), e(5, d)}}, "cur.txt", &Map{Entries: []Entry{e(1, a)}, HighWater: 6}, "base.txt")
	if got := kindsOf(vs); !slices.Equal(got, []string{KindNewIDTooLow}) {
		t.Errorf("high-water: %v", got)
	}

	// Assign's output always passes its own base comparison, except for
	// removed methods.
	cur, err := Assign([]Method{{Key: a, Access: 1}, {Key: d, Access: 1}, {Key: c, Access: 1}}, base)
	if err != nil {
		t.Fatal(err)
	}
	if got := kindsOf(CompareWithBase(cur, "cur", base, "base")); !slices.Equal(got, []string{KindRemoved}) {
		t.Errorf("Assign vs base: %v", got)
	}
}
