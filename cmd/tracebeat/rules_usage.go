package main

import (
	"fmt"
	"sort"
	"strings"

	"go.uber.org/zap"

	"github.com/tracebeat/tracebeat/blacklist"
	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/methodmap"

	"github.com/tracebeat/tracebeat/internal/english"
)

// ruleUsage reports on the rules of the user's block list after a run:
// every rule that decided nothing is warned about (with what Matrix's
// prefix reading of it would have blocked), and the report counts what
// each decided. The counts are the pipeline's (instrument.Result's
// RuleClasses and RuleMethods, by ruleKey), which it keeps with each
// class's scan: a run that reuses cached scans or patches its last result
// counts the same as a fresh one.
type ruleUsage struct {
	list *blacklist.List
}

// userRules are the rules that came from the block-list file.
func (u *ruleUsage) userRules() []blacklist.Rule {
	if u == nil || u.list == nil {
		return nil
	}
	var out []blacklist.Rule
	for _, r := range u.list.Rules() {
		if !r.BuiltIn() && r.Directive() != "" {
			out = append(out, r)
		}
	}
	return out
}

// warn reports the rules that decided nothing.
func (u *ruleUsage) warn(res *instrument.Result, log *zap.Logger) {
	for _, r := range u.userRules() {
		if res.RuleClasses[ruleKey(r)] == 0 && res.RuleMethods[ruleKey(r)] == 0 {
			log.Warn(u.noMatch(r, res.ClassNames))
		}
	}
}

// noMatch words the warning of a rule that matched no class.
func (u *ruleUsage) noMatch(r blacklist.Rule, classes []string) string {
	switch r.Kind {
	case blacklist.BlockClassMethods, blacklist.TraceClassMethods:
		return fmt.Sprintf("%s: %s matches no method of the inputs", r.Origin, r.Directive())
	case blacklist.TraceMethodAnnotation:
		return fmt.Sprintf("%s: %s matches no method of the inputs", r.Origin, r.Directive())
	}
	msg := fmt.Sprintf("%s: %s matches no class of the inputs", r.Origin, r.Directive())
	if r.Kind != blacklist.KeepClass && r.Kind != blacklist.KeepPackage {
		if near := nearestPackage(r.Name, classes); near != "" {
			return fmt.Sprintf("%s; the nearest package among them is %s/", msg, near)
		}
		return msg
	}
	// Matrix compares string prefixes: the same rule there blocks every
	// class whose name starts with it.
	var prefixed []string
	for _, c := range classes {
		if strings.HasPrefix(c, r.Name) {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) > 0 {
		return fmt.Sprintf("%s; Matrix read it as a prefix and blocked %s: write %s",
			msg, english.Count(len(prefixed), "class"), wholeRules(r.Name, prefixed))
	}
	if near := nearestPackage(r.Name, classes); near != "" {
		return fmt.Sprintf("%s; the nearest package among them is %s/", msg, near)
	}
	return msg + "; no input class shares its first package"
}

// wholeRules words the rules that block, by whole names, what the prefix
// name blocked in Matrix: a -keeppackage for each package that begins
// with it, a -keepclass for each class (three at most, then "...").
func wholeRules(name string, classes []string) string {
	parent := name[:strings.LastIndexByte(name, '/')+1]
	seen := map[string]bool{}
	var rules []string
	for _, c := range classes {
		seg, _, inPackage := strings.Cut(c[len(parent):], "/")
		rule := "-keepclass " + c
		if inPackage {
			rule = "-keeppackage " + parent + seg + "/"
		}
		if !seen[rule] {
			seen[rule] = true
			rules = append(rules, rule)
		}
	}
	sort.Strings(rules)
	if len(rules) > 3 {
		rules = append(rules[:3], "...")
	}
	return strings.Join(rules, ", ")
}

// nearestPackage is the deepest package of a rule's name that holds some
// input class.
func nearestPackage(name string, classes []string) string {
	for p := name; ; {
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return ""
		}
		p = p[:i]
		for _, c := range classes {
			if strings.HasPrefix(c, p+"/") {
				return p
			}
		}
	}
}

// counts says, per rule of the file, how many classes and methods it
// decided, for the report.
func (u *ruleUsage) counts(res *instrument.Result) []methodmap.RuleCount {
	rules := u.userRules()
	if len(rules) == 0 {
		return nil
	}
	out := make([]methodmap.RuleCount, 0, len(rules))
	for _, r := range rules {
		k := ruleKey(r)
		out = append(out, methodmap.RuleCount{Rule: r.Directive(), Origin: r.Origin, Classes: res.RuleClasses[k], Methods: res.RuleMethods[k]})
	}
	return out
}
