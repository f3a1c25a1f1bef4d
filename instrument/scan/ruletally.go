package scan

// RuleTally counts what the policy's rules decided over a run: the
// classes each class rule covered and the methods each rule decided
// (Result.RuleClasses, RuleMethods). It is a sum over classes, so a delta
// run patches the last run's by taking the changed classes' scans out and
// their new ones in.
type ruleTally struct {
	Classes, Methods map[string]int
}

func NewRuleTally() ruleTally {
	return ruleTally{Classes: map[string]int{}, Methods: map[string]int{}}
}

// Add counts class ci's rules sign times (+1 in, -1 out).
func (t ruleTally) Add(ci *Class, sign int) {
	if ci.Rule != 0 {
		t.Classes[ci.RuleText()] += sign
	}
	for k := range ci.Methods {
		if r := ci.Methods[k].Rule; r != 0 {
			t.Methods[Reasons.Text(r)] += sign
		}
	}
}
