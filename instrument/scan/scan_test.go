package scan

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// fixtures compiles testdata/scan/src (package sc) against the beat and
// systrace stubs, keyed by entry name ("sc/Plain.class").
func fixtures(t *testing.T) map[string][]byte {
	t.Helper()
	javatest.RequireJava(t)
	dir := javatest.Javac(t, javatest.Options{Release: 17, Debug: true,
		Classpath: []string{javatest.BeatStub(t), javatest.SystraceStub(t)}}, javatest.Testdata(t, "scan", "src"))
	return javatest.ClassFiles(t, dir)
}

// scanned is the scan of one fixture class under pol.
func scanned(t *testing.T, classes map[string][]byte, pol Policy, class string) *Class {
	t.Helper()
	s := NewScanner(&pol, rewrite.DefaultRuntime(), NewTextTable(), func(string) bool { return false })
	ci, err := s.Scan(classes[class+".class"], class+".class")
	require.NoError(t, err, class)
	return ci
}

// method finds a method record by name.
func method(t *testing.T, ci *Class, name string) *Method {
	t.Helper()
	for i := range ci.Methods {
		if ci.Texts.Str(ci.Methods[i].Name) == name {
			return &ci.Methods[i]
		}
	}
	t.Fatalf("%s has no method %s", ci.Name, name)
	return nil
}

// decision is what the scan decided for one method: traced, or why not,
// and the rule.
type decision struct {
	trace        bool
	reason, rule string
}

func decided(ci *Class, m *Method) decision {
	return decision{m.Trace, Reasons.Text(m.Reason), Reasons.Text(m.Rule)}
}

// TestScanDecides: the default policy traces what has code; a method
// that already calls the runtime with an id (or reports focus) is left
// as it is; a runtime call with a computed value is the app's own.
func TestScanDecides(t *testing.T) {
	classes := fixtures(t)
	for _, tc := range []struct {
		class, method string
		want          decision
	}{
		{"sc/Plain", "add", decision{trace: true}},
		{"sc/Plain", "<init>", decision{trace: true}},
		{"sc/Plain", "noCode", decision{reason: string(methodmap.ReasonNoCode)}},
		{"sc/Plain", "nativeCode", decision{reason: string(methodmap.ReasonNoCode)}},
		{"sc/Already", "beat", decision{reason: rewrite.ReasonAlreadyInstrumented}},
		{"sc/Already", "section", decision{reason: rewrite.ReasonAlreadyInstrumented}},
		{"sc/Already", "computed", decision{trace: true}},
		{"sc/Already", "work", decision{trace: true}},
		{"sc/Reported", "onWindowFocusChanged", decision{reason: rewrite.ReasonAlreadyInstrumented}},
		{"sc/Reported", "<init>", decision{trace: true}},
		{"sc/Screen", "onWindowFocusChanged", decision{trace: true}},
	} {
		t.Run(tc.class+"."+tc.method, func(t *testing.T) {
			ci := scanned(t, classes, Policy{}, tc.class)
			assert.Equal(t, tc.want, decided(ci, method(t, ci, tc.method)))
			assert.Zero(t, ci.Blocked)
			assert.Zero(t, ci.Rule)
		})
	}
}

// TestScanRecordsTheClass: names, super, access, the methods in the
// class file's order with their access, and the keys they give.
func TestScanRecordsTheClass(t *testing.T) {
	classes := fixtures(t)
	c, err := cf.Parse(classes["sc/Plain.class"])
	require.NoError(t, err)
	ci := scanned(t, classes, Policy{}, "sc/Plain")
	assert.Equal(t, "sc/Plain", ci.Name)
	assert.Equal(t, "sc/Plain", ci.OrigName)
	assert.Equal(t, "java/lang/Object", ci.Super)
	assert.Equal(t, c.Access, ci.Access)
	require.Len(t, ci.Methods, len(c.Methods))
	for i := range c.Methods {
		name, desc, err := c.MemberName(&c.Methods[i])
		require.NoError(t, err)
		m := &ci.Methods[i]
		assert.Equal(t, methodmap.MethodKey{Class: "sc/Plain", Name: name, Desc: desc}, ci.Key(m))
		assert.Equal(t, c.Methods[i].Access, m.Access, name)
	}
	focus := method(t, ci, "onWindowFocusChanged")
	assert.NotZero(t, focus.Access&cf.AccStatic)
	assert.Equal(t, -1, ci.FocusIndex(), "a static onWindowFocusChanged is not the focus method")
	assert.Empty(t, ci.BlockedText())
	assert.Empty(t, ci.RuleText())
}

// TestScanFindsTheFocusMethod: its index, whether it has code, whether
// it calls super's.
func TestScanFindsTheFocusMethod(t *testing.T) {
	classes := fixtures(t)
	for _, tc := range []struct {
		class            string
		focus            bool
		code, callsSuper bool
	}{
		{"sc/Screen", true, true, true},
		{"sc/Deaf", true, true, false},
		{"sc/Quiet", false, false, false},
		{"sc/Elsewhere", true, true, false},
		{"sc/Focusable", true, false, false},
		{"sc/Plain", false, false, false},
	} {
		t.Run(tc.class, func(t *testing.T) {
			ci := scanned(t, classes, Policy{}, tc.class)
			if !tc.focus {
				assert.Equal(t, -1, ci.FocusIndex())
				assert.Equal(t, uint16(NoFocus), ci.FocusAt)
				return
			}
			require.GreaterOrEqual(t, ci.FocusIndex(), 0)
			assert.Equal(t, "onWindowFocusChanged", ci.Texts.Str(ci.Methods[ci.FocusIndex()].Name))
			assert.Equal(t, "(Z)V", ci.Texts.Str(ci.Methods[ci.FocusIndex()].Desc))
			assert.Equal(t, tc.code, ci.FocusCode)
			assert.Equal(t, tc.callsSuper, ci.FocusSuper)
		})
	}
}

// TestScanPolicy: each field of the policy reaches the records: original
// names, blocked and generated classes with their rules, the decision
// and its rule, the facts Decide is given.
func TestScanPolicy(t *testing.T) {
	classes := fixtures(t)
	t.Run("original names", func(t *testing.T) {
		pol := Policy{
			OriginalClass: func(name string) string { return strings.Replace(name, "sc/", "orig/", 1) },
			OriginalMethod: func(class, name, desc string) (string, string) {
				if class == "sc/Plain" && name == "add" {
					return "sum", "(JJ)J"
				}
				return name, desc
			},
		}
		ci := scanned(t, classes, pol, "sc/Plain")
		assert.Equal(t, "sc/Plain", ci.Name)
		assert.Equal(t, "orig/Plain", ci.OrigName)
		m := method(t, ci, "sum")
		assert.Equal(t, methodmap.MethodKey{Class: "orig/Plain", Name: "sum", Desc: "(JJ)J"}, ci.Key(m))
		assert.Equal(t, "orig/Plain", pol.OriginalName("sc/Plain"))
		assert.Equal(t, "sc/Plain", (&Policy{}).OriginalName("sc/Plain"))
	})
	t.Run("blocked by the rule that names the class", func(t *testing.T) {
		pol := Policy{
			Blocked:   func(orig string) (string, bool) { return "block sc.Plain", orig == "sc/Plain" },
			ClassRule: func(orig string) string { return "block sc.Plain" },
		}
		ci := scanned(t, classes, pol, "sc/Plain")
		assert.Equal(t, "block sc.Plain", ci.BlockedText())
		assert.Equal(t, "block sc.Plain", ci.RuleText())
		for i := range ci.Methods {
			assert.Equal(t, decision{reason: string(methodmap.ReasonBlocked), rule: "block sc.Plain"}, decided(ci, &ci.Methods[i]))
		}
		other := scanned(t, classes, pol, "sc/Already")
		assert.Zero(t, other.Blocked)
		assert.Equal(t, "block sc.Plain", other.RuleText(), "the class rule is the policy's answer")
		assert.Equal(t, decision{trace: true}, decided(other, method(t, other, "work")))
	})
	t.Run("blocked under another class rule", func(t *testing.T) {
		pol := Policy{
			Blocked:   func(string) (string, bool) { return "block sc.*", true },
			ClassRule: func(string) string { return "allow sc.Plain" },
		}
		ci := scanned(t, classes, pol, "sc/Plain")
		assert.Equal(t, "block sc.*", ci.BlockedText())
		assert.Equal(t, "allow sc.Plain", ci.RuleText())
		assert.Equal(t, decision{reason: string(methodmap.ReasonBlocked)}, decided(ci, method(t, ci, "add")))
	})
	t.Run("generated, asked with the run's classes", func(t *testing.T) {
		var asked []string
		pol := Policy{Generated: func(orig string, hasClass func(string) bool) (string, bool) {
			return "generated R", hasClass(orig + "$Inner")
		}}
		s := NewScanner(&pol, rewrite.DefaultRuntime(), NewTextTable(), func(c string) bool {
			asked = append(asked, c)
			return c == "sc/Plain$Inner"
		})
		ci, err := s.Scan(classes["sc/Plain.class"], "sc/Plain.class")
		require.NoError(t, err)
		assert.Equal(t, "generated R", ci.BlockedText())
		assert.Equal(t, []string{"sc/Plain$Inner"}, asked)
		ci, err = s.Scan(classes["sc/Quiet.class"], "sc/Quiet.class")
		require.NoError(t, err)
		assert.Zero(t, ci.Blocked)
		assert.Equal(t, "", pol.BlockedFor("sc/Quiet", func(string) bool { return false }))
		block := Policy{Blocked: func(string) (string, bool) { return "block", true }, Generated: pol.Generated}
		assert.Equal(t, "block", block.BlockedFor("sc/Plain", func(string) bool { return true }), "the block list first")
	})
	t.Run("decide", func(t *testing.T) {
		facts := map[string]MethodFacts{}
		pol := Policy{Annotations: true, Decide: func(f *MethodFacts) (bool, string, string) {
			g := *f
			g.Opcodes = append([]byte(nil), f.Opcodes...)
			if f.Opcodes == nil {
				g.Opcodes = nil
			}
			facts[f.Key.Name] = g
			if f.Key.Name == "add" {
				return false, "getter-setter", "rule 3"
			}
			return true, "", "rule 4"
		}}
		ci := scanned(t, classes, pol, "sc/Plain")
		assert.Equal(t, decision{reason: "getter-setter", rule: "rule 3"}, decided(ci, method(t, ci, "add")))
		assert.Equal(t, decision{trace: true, rule: "rule 4"}, decided(ci, method(t, ci, "annotated")))
		add := facts["add"]
		assert.Equal(t, []byte{cf.ILOAD_1, cf.ILOAD_1 + 1, 0x60 /* iadd */, cf.IRETURN}, add.Opcodes)
		assert.Equal(t, ci.Access, add.ClassAccess)
		assert.Equal(t, uint16(cf.AccPublic), add.Access)
		assert.Nil(t, facts["noCode"].Opcodes)
		assert.Nil(t, facts["add"].Annotations)
		assert.ElementsMatch(t, []string{"Lsc/Seen;", "Lsc/Kept;"}, facts["annotated"].Annotations)
		without := Policy{Decide: pol.Decide}
		scanned(t, classes, without, "sc/Plain")
		assert.Nil(t, facts["annotated"].Annotations, "annotations only when asked for")
	})
}

// TestScanJVMRootAndModules: java/lang/Object is never traced (HotSpot
// relies on the shape of its constructor); a module-info has no methods.
func TestScanJVMRootAndModules(t *testing.T) {
	classes := fixtures(t)
	c, err := cf.Parse(classes["sc/Already.class"])
	require.NoError(t, err)
	c.ThisClass, err = c.Pool.AddClass("java/lang/Object")
	require.NoError(t, err)
	c.SuperClass = 0
	object, err := c.Encode()
	require.NoError(t, err)
	s := NewScanner(&Policy{}, rewrite.DefaultRuntime(), NewTextTable(), nil)
	ci, err := s.Scan(object, "java/lang/Object.class")
	require.NoError(t, err)
	assert.Equal(t, "java/lang/Object", ci.Name)
	assert.Empty(t, ci.Super)
	assert.Equal(t, rewrite.ReasonJVMRoot, ci.BlockedText())
	require.NotEmpty(t, ci.Methods)
	for i := range ci.Methods {
		assert.Equal(t, decision{reason: rewrite.ReasonJVMRoot}, decided(ci, &ci.Methods[i]))
	}

	c, err = cf.Parse(classes["sc/Plain.class"])
	require.NoError(t, err)
	c.Access |= cf.AccModule
	module, err := c.Encode()
	require.NoError(t, err)
	ci, err = s.Scan(module, "module-info.class")
	require.NoError(t, err)
	assert.Empty(t, ci.Methods)
	assert.Equal(t, -1, ci.FocusIndex())
}

// TestScanNames: a class's name is its entry's stem when they agree
// (multi-release variants too), the pool's otherwise; names of methods
// are shared across classes by the scanner.
func TestScanNames(t *testing.T) {
	classes := fixtures(t)
	s := NewScanner(&Policy{}, rewrite.DefaultRuntime(), NewTextTable(), nil)
	for _, file := range []string{"sc/Quiet.class", "META-INF/versions/11/sc/Quiet.class", "elsewhere/Q.class", ""} {
		ci, err := s.Scan(classes["sc/Quiet.class"], file)
		require.NoError(t, err, file)
		assert.Equal(t, "sc/Quiet", ci.Name, file)
		assert.Equal(t, "sc/Screen", ci.Super, file)
	}
	a, err := s.Scan(classes["sc/Deaf.class"], "sc/Deaf.class")
	require.NoError(t, err)
	b, err := s.Scan(classes["sc/Screen.class"], "sc/Screen.class")
	require.NoError(t, err)
	assert.Equal(t, a.Texts.Str(method(t, a, "<init>").Desc), b.Texts.Str(method(t, b, "<init>").Desc))
	assert.Equal(t, method(t, a, "onWindowFocusChanged").Name, method(t, b, "onWindowFocusChanged").Name, "one text table")
}

// TestScanRefusesBrokenClasses: a class that does not parse, or whose
// focus method's code does not decode, is an error.
func TestScanRefusesBrokenClasses(t *testing.T) {
	classes := fixtures(t)
	s := NewScanner(&Policy{}, rewrite.DefaultRuntime(), NewTextTable(), nil)
	_, err := s.Scan(classes["sc/Plain.class"][:40], "sc/Plain.class")
	assert.Error(t, err)

	// The focus method's code cut to a bad opcode.
	c, err := cf.Parse(classes["sc/Screen.class"])
	require.NoError(t, err)
	ci := scanned(t, classes, Policy{}, "sc/Screen")
	focus := &c.Methods[ci.FocusIndex()]
	attr, ok := c.FindAttribute(focus.Attributes, "Code")
	require.True(t, ok)
	bad := append([]byte(nil), attr.Data...)
	bad[8] = 0xff // the first opcode
	attr.Data = bad
	data, err := c.Encode()
	require.NoError(t, err)
	_, err = s.Scan(data, "sc/Screen.class")
	assert.ErrorContains(t, err, "onWindowFocusChanged(Z)V")
}

// TestScanManyMethods: a class of more methods than a shared chunk of
// records holds gets records of its own, and classes scanned one after
// the other never share one.
func TestScanManyMethods(t *testing.T) {
	classes := fixtures(t)
	c, err := cf.Parse(classes["sc/Already.class"])
	require.NoError(t, err)
	one := c.Methods[len(c.Methods)-1]
	for len(c.Methods) < 5000 {
		c.Methods = append(c.Methods, one)
	}
	many, err := c.Encode()
	require.NoError(t, err)
	s := NewScanner(&Policy{}, rewrite.DefaultRuntime(), NewTextTable(), nil)
	var scans []*Class
	for _, data := range [][]byte{classes["sc/Plain.class"], many, classes["sc/Deaf.class"], many, classes["sc/Quiet.class"]} {
		ci, err := s.Scan(data, "")
		require.NoError(t, err)
		scans = append(scans, ci)
	}
	for _, ci := range scans {
		for i := range ci.Methods {
			ci.Methods[i].ID = int32(len(ci.Methods))
		}
	}
	for _, ci := range scans {
		for i := range ci.Methods {
			require.Equal(t, int32(len(ci.Methods)), ci.Methods[i].ID, ci.Name)
		}
	}
	assert.Len(t, scans[1].Methods, 5000)
}
