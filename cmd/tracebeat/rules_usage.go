package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/tracebeat/tracebeat/blacklist"
	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/methodmap"
)

// ruleUsage records, while the pipeline asks the block list, which class
// each rule blocked and which classes there are: after the run every
// rule of the user's file that blocked nothing is reported, with what
// Matrix's prefix reading of it would have blocked.
type ruleUsage struct {
	list    *blacklist.List
	mu      sync.Mutex
	classes map[string]bool           // every class asked about
	blocked map[string]blacklist.Rule // class -> the rule that blocked it
	hits    map[blacklist.Rule]int    // methods matched by method-level and forcing rules
}

// hit records that a method-level or forcing rule matched a method.
func (u *ruleUsage) hit(r blacklist.Rule) {
	if u == nil || u.list == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.hits == nil {
		u.hits = map[blacklist.Rule]int{}
	}
	u.hits[r]++
}

// note records one answer of the block list; without a block-list file
// there is nothing to report and nothing is kept.
func (u *ruleUsage) note(class string, r blacklist.Rule, ok bool) {
	if u == nil || u.list == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.classes == nil {
		u.classes, u.blocked = map[string]bool{}, map[string]blacklist.Rule{}
	}
	u.classes[class] = true
	if ok {
		u.blocked[class] = r
	}
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

// complete reports whether every class of the run was asked about: a run
// that patched its last result (a delta run) asks about the changed
// classes only, and its counts would mislead.
func complete(res *instrument.Result) bool { return res.Map != nil }

// warn reports the rules that blocked nothing.
func (u *ruleUsage) warn(res *instrument.Result, log *zap.Logger) {
	rules := u.userRules()
	if len(rules) == 0 || !complete(res) {
		return
	}
	hits := map[blacklist.Rule]int{}
	for _, r := range u.blocked {
		hits[r]++
	}
	for r, n := range u.hits {
		hits[r] += n
	}
	for _, r := range rules {
		if hits[r] == 0 && !u.allowUsed(r) {
			log.Warn(u.noMatch(r))
		}
	}
}

// allowUsed reports whether an -allowpackage rule holds some input class.
func (u *ruleUsage) allowUsed(r blacklist.Rule) bool {
	if r.Kind != blacklist.AllowPackage {
		return false
	}
	for c := range u.classes {
		if strings.HasPrefix(c, r.Name+"/") {
			return true
		}
	}
	return false
}

// noMatch words the warning of a rule that matched no class.
func (u *ruleUsage) noMatch(r blacklist.Rule) string {
	switch r.Kind {
	case blacklist.BlockClassMethods, blacklist.TraceClassMethods:
		return fmt.Sprintf("%s: %s matches no method of the inputs", r.Origin, r.Directive())
	case blacklist.TraceMethodAnnotation:
		return fmt.Sprintf("%s: %s matches no method of the inputs", r.Origin, r.Directive())
	}
	msg := fmt.Sprintf("%s: %s matches no class of the inputs", r.Origin, r.Directive())
	if r.Kind != blacklist.KeepClass && r.Kind != blacklist.KeepPackage {
		if near := u.nearestPackage(r.Name); near != "" {
			return fmt.Sprintf("%s; the nearest package among them is %s/", msg, near)
		}
		return msg
	}
	// Matrix compares string prefixes: the same rule there blocks every
	// class whose name starts with it.
	var prefixed []string
	for c := range u.classes {
		if strings.HasPrefix(c, r.Name) {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) > 0 {
		return fmt.Sprintf("%s; Matrix read it as a prefix and blocked %d classes: write %s",
			msg, len(prefixed), wholeRules(r.Name, prefixed))
	}
	if near := u.nearestPackage(r.Name); near != "" {
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
func (u *ruleUsage) nearestPackage(name string) string {
	for p := name; ; {
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return ""
		}
		p = p[:i]
		for c := range u.classes {
			if strings.HasPrefix(c, p+"/") {
				return p
			}
		}
	}
}

// counts says, per rule of the file, how many classes and methods it
// blocked, for the report (nil for a delta run, which does not know).
func (u *ruleUsage) counts(res *instrument.Result) []methodmap.RuleCount {
	rules := u.userRules()
	if len(rules) == 0 || !complete(res) {
		return nil
	}
	classes := map[blacklist.Rule]int{}
	for _, r := range u.blocked {
		classes[r]++
	}
	methods := map[blacklist.Rule]int{}
	for _, m := range res.Ignored {
		if m.Reason != methodmap.ReasonBlocked {
			continue
		}
		if r, ok := u.blocked[m.Key.Class]; ok {
			methods[r]++
		}
	}
	for r, n := range u.hits { // method-level and forcing rules
		methods[r] += n
	}
	for _, r := range rules {
		if r.Kind == blacklist.AllowPackage { // the classes it lets through
			for c := range u.classes {
				if strings.HasPrefix(c, r.Name+"/") {
					classes[r]++
				}
			}
		}
	}
	out := make([]methodmap.RuleCount, 0, len(rules))
	for _, r := range rules {
		out = append(out, methodmap.RuleCount{Rule: r.Directive(), Origin: r.Origin, Classes: classes[r], Methods: methods[r]})
	}
	return out
}
