package instrument

// ruleTally counts what the policy's rules decided over a run: the
// classes each class rule covered and the methods each rule decided
// (Result.RuleClasses, RuleMethods). It is a sum over classes, so a delta
// run patches the last run's by taking the changed classes' scans out and
// their new ones in.
type ruleTally struct {
	classes, methods map[string]int
}

func newRuleTally() ruleTally {
	return ruleTally{classes: map[string]int{}, methods: map[string]int{}}
}

// add counts class ci's rules sign times (+1 in, -1 out).
func (t ruleTally) add(ci *classInfo, sign int) {
	if ci.rule != 0 {
		t.classes[ci.ruleText()] += sign
	}
	for k := range ci.methods {
		if r := ci.methods[k].rule; r != 0 {
			t.methods[reasons.text(r)] += sign
		}
	}
}
