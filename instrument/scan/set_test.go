package scan

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/jario"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// twoInputs scans the fixtures as two inputs: a.jar with every class,
// b.jar with second copies of sc/Plain and sc/Screen, an entry that is
// no class, and a multi-release variant of sc/Quiet.
func twoInputs(t *testing.T, pol Policy) (Set, []*jario.Input) {
	t.Helper()
	classes := fixtures(t)
	s := NewScanner(&pol, rewrite.DefaultRuntime(), NewTextTable(), nil)
	scan := func(name string) *Class {
		ci, err := s.Scan(classes[name+".class"], name+".class")
		require.NoError(t, err)
		return ci
	}
	var a []*Class
	for _, name := range []string{"sc/Plain", "sc/Already", "sc/Screen", "sc/Deaf", "sc/Quiet", "sc/Reported", "sc/Elsewhere", "sc/Focusable", "sc/Seen", "sc/Kept"} {
		a = append(a, scan(name))
	}
	versioned := scan("sc/Quiet")
	versioned.Versioned = true
	b := []*Class{scan("sc/Screen"), nil, scan("sc/Plain"), versioned}
	return Set{a, b}, []*jario.Input{{Path: "a.jar"}, {Path: "b.jar"}}
}

// allTraced lists the traced methods of a set as methodmap's methods.
func allTraced(s Set) []methodmap.Method {
	var out []methodmap.Method
	s.eachTraced(func(ci *Class, m *Method) {
		out = append(out, methodmap.Method{Key: ci.Key(m), Access: m.Access})
	})
	return out
}

// TestAssignIDs: the class-by-class walk gives the ids methodmap's
// assignment gives the whole list, with and without a base map, and
// falls back to it where the walk's order is not the map's (a class
// name with a space); a class in two inputs has one id per method; an
// unusable base map is an error.
func TestAssignIDs(t *testing.T) {
	spaced := func(name string) string {
		if name == "sc/Already" {
			return "sc/Plain a"
		}
		return name
	}
	for _, tc := range []struct {
		name    string
		pol     Policy
		base    bool
		ordered bool
	}{
		{"no base", Policy{}, false, true},
		{"a base", Policy{}, true, true},
		{"a class name with a space", Policy{OriginalClass: spaced}, false, false},
		{"a class name with a space and a base", Policy{OriginalClass: spaced}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set, _ := twoInputs(t, tc.pol)
			var base *methodmap.Map
			if tc.base {
				base = &methodmap.Map{HighWater: 50, Entries: []methodmap.Entry{
					{ID: 40, Access: cf.AccPublic, Key: methodmap.MethodKey{Class: "sc/Plain", Name: "add", Desc: "(II)I"}},
					{ID: 41, Access: cf.AccPublic, Key: methodmap.MethodKey{Class: "gone/Class", Name: "f", Desc: "()V"}},
					methodmap.DispatchEntry(),
				}}
			}
			want, wantHigh, err := methodmap.AssignIDs(allTraced(set), base)
			require.NoError(t, err)
			_, ordered := set.assignIDsInOrder(base)
			assert.Equal(t, tc.ordered, ordered)
			high, err := set.AssignIDs(base)
			require.NoError(t, err)
			assert.Equal(t, wantHigh, high)
			var got []int
			ids := map[methodmap.MethodKey]int32{}
			set.eachTraced(func(ci *Class, m *Method) {
				got = append(got, int(m.ID))
				if id, seen := ids[ci.Key(m)]; seen {
					assert.Equal(t, id, m.ID, "one id per key")
				}
				ids[ci.Key(m)] = m.ID
			})
			assert.Equal(t, want, got)
			if tc.base {
				assert.Equal(t, int32(40), ids[methodmap.MethodKey{Class: "sc/Plain", Name: "add", Desc: "(II)I"}])
				assert.Greater(t, high, 50)
			}
		})
	}
	t.Run("an unusable base", func(t *testing.T) {
		set, _ := twoInputs(t, Policy{})
		k := methodmap.MethodKey{Class: "a/B", Name: "f", Desc: "()V"}
		base := &methodmap.Map{HighWater: 3, Entries: []methodmap.Entry{{ID: 2, Key: k}, {ID: 2, Key: methodmap.MethodKey{Class: "a/B", Name: "g", Desc: "()V"}}}}
		high, err := set.AssignIDs(base)
		assert.Error(t, err)
		assert.Zero(t, high)
	})
}

// TestTracedList: a line per id in id order, with the least access of the
// methods sharing it, the dispatch line last; the planned map and the
// method map written are the maps made, and the methods that could not
// be rewritten leave the method map only.
func TestTracedList(t *testing.T) {
	set, _ := twoInputs(t, Policy{})
	high, err := set.AssignIDs(nil)
	require.NoError(t, err)
	second := set[1][2] // b.jar's sc/Plain
	require.Equal(t, "sc/Plain", second.Name)
	add := method(t, second, "add")
	add.Access = cf.AccPublic | cf.AccFinal // more than a.jar's: the least wins
	init := method(t, second, "<init>")
	init.Access = 0 // less than a.jar's public

	tl := set.TracedList(high, nil)
	want, _, err := methodmap.AssignIDs(allTraced(set), nil)
	require.NoError(t, err)
	lines := len(slices.Compact(slices.Sorted(slices.Values(want))))
	assert.Equal(t, lines, tl.Lines())
	planned := tl.PlannedMap()
	assert.Equal(t, high, planned.HighWater)
	require.Len(t, planned.Entries, lines+1)
	for i, e := range planned.Entries[:lines] {
		assert.Equal(t, i+1, e.ID, "ids 1..N in order")
	}
	assert.Equal(t, methodmap.DispatchEntry(), planned.Entries[lines])
	byKey := map[methodmap.MethodKey]methodmap.Entry{}
	for _, e := range planned.Entries {
		byKey[e.Key] = e
	}
	assert.Equal(t, uint16(cf.AccPublic), byKey[methodmap.MethodKey{Class: "sc/Plain", Name: "add", Desc: "(II)I"}].Access)
	assert.Equal(t, uint16(0), byKey[methodmap.MethodKey{Class: "sc/Plain", Name: "<init>", Desc: "()V"}].Access)
	var text bytes.Buffer
	require.NoError(t, tl.WritePlanned(&text))
	encoded, err := methodmap.EncodeMap(planned)
	require.NoError(t, err)
	assert.Equal(t, string(encoded), text.String())
	assert.Equal(t, planned, tl.MethodMap(), "nothing skipped: one map")
	tl.EachSkipped(func(e methodmap.Entry) { t.Errorf("skipped %v with nothing skipped", e) })

	bad := methodmap.MethodKey{Class: "sc/Screen", Name: "before", Desc: "()V"}
	badID := byKey[bad].ID
	tl = set.TracedList(high, map[methodmap.MethodKey]string{bad: rewrite.ReasonCodeTooLarge})
	assert.Equal(t, lines-1, tl.Lines())
	m := tl.MethodMap()
	assert.Len(t, m.Entries, lines)
	assert.Equal(t, high, m.HighWater)
	for _, e := range m.Entries {
		assert.NotEqual(t, bad, e.Key)
	}
	assert.Equal(t, planned, tl.PlannedMap(), "the planned map keeps it")
	var skipped []methodmap.Entry
	tl.EachSkipped(func(e methodmap.Entry) { skipped = append(skipped, e) })
	assert.Equal(t, []methodmap.Entry{{ID: badID, Access: 0, Key: bad}}, skipped)
	text.Reset()
	require.NoError(t, tl.WriteMethodMap(&text))
	encoded, err = methodmap.EncodeMap(m)
	require.NoError(t, err)
	assert.Equal(t, string(encoded), text.String())
}

// TestIgnoredList: the untraced methods and the skipped ones, sorted by
// key, each key once (the first input's), with their reasons; written as
// methodmap writes the list.
func TestIgnoredList(t *testing.T) {
	set, _ := twoInputs(t, Policy{})
	second := set[1][2] // b.jar's sc/Plain
	noCode := method(t, second, "noCode")
	noCode.Reason = Reasons.Code("another reason")
	skipped := map[methodmap.MethodKey]string{{Class: "sc/Plain", Name: "add", Desc: "(II)I"}: rewrite.ReasonBranchOverflow}
	l := set.IgnoredList(skipped)
	got := l.Methods()
	assert.Equal(t, len(got), l.Len())
	assert.True(t, slices.IsSortedFunc(got, func(a, b methodmap.IgnoredMethod) int { return CompareFields(a.Key, b.Key) }))
	reasons := map[string]methodmap.Reason{}
	for _, m := range got {
		k := m.Key.Class + "." + m.Key.Name
		_, twice := reasons[k]
		assert.False(t, twice, k)
		reasons[k] = m.Reason
	}
	assert.Equal(t, map[string]methodmap.Reason{
		"sc/Plain.add":                      methodmap.Reason(rewrite.ReasonBranchOverflow),
		"sc/Plain.noCode":                   methodmap.ReasonNoCode,
		"sc/Plain.nativeCode":               methodmap.ReasonNoCode,
		"sc/Already.beat":                   rewrite.ReasonAlreadyInstrumented,
		"sc/Already.section":                rewrite.ReasonAlreadyInstrumented,
		"sc/Reported.onWindowFocusChanged":  rewrite.ReasonAlreadyInstrumented,
		"sc/Focusable.onWindowFocusChanged": methodmap.ReasonNoCode,
	}, reasons)
	assert.Equal(t, map[string]int{string(rewrite.ReasonBranchOverflow): 1, string(methodmap.ReasonNoCode): 3, rewrite.ReasonAlreadyInstrumented: 3}, l.CountByReason())
	var text bytes.Buffer
	require.NoError(t, l.WriteText(&text))
	assert.Equal(t, string(methodmap.EncodeIgnoreMap(got)), text.String())
	assert.Equal(t, len(got)-1, set.IgnoredList(nil).Len(), "without the skipped method")
}

// TestRuleTally: class rules count each class name once however many
// inputs hold it; method rules count every method of those classes; a
// class counted out takes its counts back.
func TestRuleTally(t *testing.T) {
	pol := Policy{
		ClassRule: func(orig string) string {
			if strings.HasSuffix(orig, "Plain") || strings.HasSuffix(orig, "Screen") {
				return "class rule"
			}
			return ""
		},
		Decide: func(f *MethodFacts) (bool, string, string) {
			if f.Key.Name == "<init>" {
				return true, "", "init rule"
			}
			return true, "", ""
		},
	}
	set, _ := twoInputs(t, pol)
	tally, names := set.RuleTally(true)
	assert.Equal(t, map[string]int{"class rule": 2}, tally.Classes)
	// Every class but the two annotations and the interface has a
	// constructor; Already's is traced, none is already instrumented.
	assert.Equal(t, map[string]int{"init rule": 7}, tally.Methods)
	assert.Equal(t, []string{"sc/Already", "sc/Deaf", "sc/Elsewhere", "sc/Focusable", "sc/Kept", "sc/Plain", "sc/Quiet", "sc/Reported", "sc/Screen", "sc/Seen"}, names)
	again, none := set.RuleTally(false)
	assert.Nil(t, none)
	assert.Equal(t, tally, again)
	tally.Add(set[0][0], -1) // sc/Plain out
	assert.Equal(t, map[string]int{"class rule": 1}, tally.Classes)
	assert.Equal(t, map[string]int{"init rule": 6}, tally.Methods)
}

// TestPlanClasses: a class in a second input is a duplicate (named once
// however often it repeats, in input order), not a class an input holds
// twice or a multi-release variant.
func TestPlanClasses(t *testing.T) {
	set, inputs := twoInputs(t, Policy{})
	// A third input at a.jar's path: the same jar listed twice.
	set = append(set, []*Class{set[0][1]})
	inputs = append(inputs, &jario.Input{Path: "a.jar"})
	// And a fourth with sc/Screen a third time.
	set = append(set, []*Class{set[1][0]})
	inputs = append(inputs, &jario.Input{Path: "c.jar"})
	plan := set.PlanClasses(inputs, map[string]string{"lib/Base": "android/app/Activity"}, func(s string) string { return s })
	assert.Equal(t, []Duplicate{{First: "a.jar", Second: "b.jar", Class: "sc/Screen"}, {First: "a.jar", Second: "b.jar", Class: "sc/Plain"}}, plan.Dups)
	assert.Equal(t, []string{"sc/Plain", "sc/Screen"}, plan.Duplicates)
	assert.Same(t, set[0][2], plan.Hierarchy.inInput["sc/Screen"], "the first input's")
	assert.Equal(t, "android/app/Activity", plan.Hierarchy.super["sc/Screen"])
	assert.Equal(t, "android/app/Activity", plan.Hierarchy.super["lib/Base"])
	assert.Equal(t, map[string]bool{"sc/Screen": true, "sc/Deaf": true, "sc/Reported": true}, plan.Hierarchy.FocusTargets())
}

// TestFocusTargets: the topmost unblocked input class of each Activity
// chain, and every Activity whose focus method does not call super.
func TestFocusTargets(t *testing.T) {
	orig := map[string]string{"a/c": "androidx/appcompat/app/AppCompatActivity"}
	classes := []*Class{
		{Name: "app/Top", Super: "lib/Base", FocusCode: true, FocusSuper: true},
		{Name: "app/Mid", Super: "app/Top"},
		{Name: "app/Leaf", Super: "app/Mid", FocusCode: true},
		{Name: "app/BTop", Super: "android/app/Activity", Blocked: 1, FocusCode: true},
		{Name: "app/BChild", Super: "app/BTop"},
		{Name: "app/BLeaf", Super: "app/BChild", Blocked: 1, FocusCode: true},
		{Name: "app/IFace", Super: "android/app/Activity", Access: cf.AccInterface},
		{Name: "app/Plain", Super: "java/lang/Object", FocusCode: true},
		{Name: "a/b", Super: "a/c"},
		{Name: "app/X", Super: "app/Y", FocusCode: true},
		{Name: "app/Y", Super: "app/X"},
		{Name: "app/Lost", Super: "lib/Unknown", FocusCode: true},
		{Name: "app/Versioned", Super: "android/app/Activity", Versioned: true, FocusCode: true},
	}
	for _, ci := range classes {
		ci.OrigName = ci.Name
	}
	set := Set{classes}
	plan := set.PlanClasses([]*jario.Input{{Path: "app.jar"}}, map[string]string{"lib/Base": "android/app/Activity"},
		func(s string) string {
			if o, ok := orig[s]; ok {
				return o
			}
			return s
		})
	assert.Equal(t, map[string]bool{"app/Top": true, "app/Leaf": true, "app/BChild": true, "a/b": true}, plan.Hierarchy.FocusTargets())
	assert.False(t, plan.Hierarchy.isActivity("app/X"), "a cycle ends")
	assert.False(t, plan.Hierarchy.isActivity(""))
	assert.True(t, plan.Hierarchy.isActivity("lib/Base"))
}

// TestScanInstrumented lists the methods with code of a jar with the ids
// pushed before the runtime's calls, by mode; a module-info and entries
// that are no classes are passed over; a class that does not parse is an
// error naming the jar and the entry.
func TestScanInstrumented(t *testing.T) {
	classes := fixtures(t)
	c, err := cf.Parse(classes["sc/Plain.class"])
	require.NoError(t, err)
	c.Access |= cf.AccModule
	c.ThisClass, err = c.Pool.AddClass("module-info")
	require.NoError(t, err)
	module, err := c.Encode()
	require.NoError(t, err)
	entries := map[string][]byte{"module-info.class": module, "META-INF/MANIFEST.MF": []byte("Manifest-Version: 1.0\r\n\r\n")}
	for name, data := range classes {
		entries[name] = data
	}
	jar := javatest.WriteJar(t, entries)
	ids := func(rt rewrite.Runtime) map[string][]int {
		methods, err := ScanInstrumented(jar, rt)
		require.NoError(t, err)
		out := map[string][]int{}
		for _, m := range methods {
			assert.NotEqual(t, "module-info", m.Class)
			out[m.Class+"."+m.Name+m.Desc] = m.InjectedIDs
		}
		return out
	}
	beat := ids(rewrite.DefaultRuntime())
	assert.Equal(t, []int{7, 7}, beat["sc/Already.beat()V"])
	assert.Empty(t, beat["sc/Already.section()V"])
	assert.Empty(t, beat["sc/Already.computed(I)V"])
	assert.Contains(t, beat, "sc/Already.work()V")
	assert.NotContains(t, beat, "sc/Plain.noCode()V")
	assert.NotContains(t, beat, "sc/Focusable.onWindowFocusChanged(Z)V")
	systrace := rewrite.DefaultRuntime()
	systrace.Mode = rewrite.ModeSystrace
	sections := ids(systrace)
	assert.Equal(t, []int{12}, sections["sc/Already.section()V"])
	assert.Empty(t, sections["sc/Already.beat()V"])

	entries["sc/Broken.class"] = classes["sc/Plain.class"][:30]
	broken := javatest.WriteJar(t, entries)
	_, err = ScanInstrumented(broken, rewrite.DefaultRuntime())
	assert.ErrorContains(t, err, broken+": sc/Broken.class: ")
	_, err = ScanInstrumented(broken+".missing", rewrite.DefaultRuntime())
	assert.Error(t, err)
}
