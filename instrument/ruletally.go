package instrument

import (
	"slices"
)

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

// tallyRules counts the rules over every class of the run, each class
// name once (a class in two inputs is one class to the rules), and lists
// the original class names when the policy has class rules.
func (p *pipeline) tallyRules() {
	t := newRuleTally()
	seen := map[string]bool{}
	for _, infos := range p.infos {
		for _, ci := range infos {
			if ci == nil || seen[ci.origName] {
				continue
			}
			seen[ci.origName] = true
			t.add(ci, +1)
		}
	}
	p.res.RuleClasses, p.res.RuleMethods = dropZero(t.classes), dropZero(t.methods)
	if p.opt.Policy.ClassRule != nil {
		names := make([]string, 0, len(seen))
		for name := range seen {
			names = append(names, name)
		}
		slices.Sort(names)
		p.res.ClassNames = names
	}
}
