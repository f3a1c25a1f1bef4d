package methodmap

import (
	"slices"
	"testing"
)

func TestCheckJar(t *testing.T) {
	m := &Map{Entries: []Entry{
		{ID: 1, Access: 1, Key: key("p/A", "a", "()V"), Line: 1},
		{ID: 2, Access: 1, Key: key("p/B", "b", "(I)V"), Line: 2},
		{ID: 3, Access: 0x101, Key: key("p/N", "n", ""), Line: 3},
		DispatchEntry(),
	}}
	jm := func(class, name, desc string, ids ...int) InstrumentedMethod {
		return InstrumentedMethod{Class: class, Name: name, Desc: desc, Access: 1, InjectedIDs: ids}
	}
	tests := []struct {
		name    string
		methods []InstrumentedMethod
		want    []string
		msg     string // message of the first violation, when set
	}{
		{"clean", []InstrumentedMethod{jm("p/A", "a", "()V", 1, 1, 1), jm("p/B", "b", "(I)V", 2, 2), jm("p/Z", "getZ", "()I")}, nil, ""},
		{"id not in map", []InstrumentedMethod{jm("p/A", "a", "()V", 1), jm("p/Z", "z", "()V", 99, 99)}, []string{KindNotInMap},
			"jar: method p.Z z ()V is instrumented with id 99, which map.txt does not list"},
		{"id of another method", []InstrumentedMethod{jm("p/A", "a", "()V", 2, 2)}, []string{KindOwnerMismatch},
			"jar: method p.A a ()V is instrumented with id 2, which map.txt gives to p.B b (I)V (line 2)"},
		{"same name, other descriptor", []InstrumentedMethod{jm("p/B", "b", "(J)V", 2)}, []string{KindOwnerMismatch}, ""},
		{"dispatch id injected", []InstrumentedMethod{jm("p/A", "a", "()V", DispatchID)}, []string{KindOwnerMismatch}, ""},
		{"two ids", []InstrumentedMethod{jm("p/A", "a", "()V", 1, 2, 1)}, []string{KindMultipleIDs, KindOwnerMismatch},
			"jar: method p.A a ()V is instrumented with 2 different ids: 1, 2"},
		{"mapped but not instrumented", []InstrumentedMethod{jm("p/A", "a", "()V"), jm("p/B", "b", "(I)V", 2)}, []string{KindNotTraced},
			"jar: method p.A a ()V has id 1 in map.txt (line 1) but is not instrumented"},
		{"native matched without descriptor", []InstrumentedMethod{{Class: "p/N", Name: "n", Desc: "(I)V", Access: 0x101, InjectedIDs: []int{3}}}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := CheckJar(m, "map.txt", "jar", tc.methods)
			if got := kindsOf(vs); !slices.Equal(got, tc.want) {
				t.Fatalf("kinds = %v, want %v\n%s", got, tc.want, joinViolations(vs))
			}
			if tc.msg != "" && vs[0].Msg != tc.msg {
				t.Errorf("message = %q\nwant      %q", vs[0].Msg, tc.msg)
			}
		})
	}
}

func TestCheckJarDeterministic(t *testing.T) {
	m := &Map{Entries: []Entry{{ID: 1, Access: 1, Key: key("p/A", "a", "()V")}, DispatchEntry()}}
	in := []InstrumentedMethod{
		{Class: "p/C", Name: "c", Desc: "()V", InjectedIDs: []int{7}},
		{Class: "p/A", Name: "a", Desc: "()V"},
		{Class: "p/B", Name: "b", Desc: "()V", InjectedIDs: []int{5, 1}},
	}
	first := CheckJar(m, "m", "j", in)
	slices.Reverse(in)
	if second := CheckJar(m, "m", "j", in); !slices.Equal(first, second) {
		t.Errorf("order dependent:\n%s\nvs\n%s", joinViolations(first), joinViolations(second))
	}
}
