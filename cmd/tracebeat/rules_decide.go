package main

import (
	"github.com/tracebeat/tracebeat/blacklist"
	"github.com/tracebeat/tracebeat/instrument/scan"
	"github.com/tracebeat/tracebeat/methodmap"
)

// classBlock is the rule that keeps a whole class from being traced: a
// block-list rule (-keepclass, -keeppackage, -blockpackage, built-in), or
// the allow list when the class lies outside every -allowpackage.
func classBlock(bl *blacklist.List, orig string) (blacklist.Rule, bool) {
	if r, ok := bl.Blocked(orig); ok {
		return r, true
	}
	if _, ok := bl.Allowed(orig); !ok {
		return blacklist.Rule{Kind: blacklist.AllowPackage, Origin: "outside every -allowpackage"}, true
	}
	return blacklist.Rule{}, false
}

// decideMethod decides one method, in the order of the precedence table
// (README, "Block lists"):
//
//  1. built-in rules: never traced (the pipeline does not ask);
//  2. a -traceclassmethods line naming the exact method: traced;
//  3. blocking: -keepclass, -keeppackage, -blockpackage, outside every
//     -allowpackage (reaching here only for classes with a
//     -traceclassmethods line), -blockclassmethods: not traced;
//  4. -traceclass, -tracemethodannotation: traced, whatever Matrix's
//     method rules say (a method without code still is not);
//  5. Matrix's method rules.
//
// The third result names the rule that decided (ruleKey), for the counts
// of the report.
func decideMethod(bl *blacklist.List, rules methodmap.Options, f *scan.MethodFacts) (bool, string, string) {
	class, name, desc := f.Key.Class, f.Key.Name, f.Key.Desc
	info := methodmap.MethodInfo{ClassAccess: f.ClassAccess, Access: f.Access, Name: name, Desc: desc, Opcodes: f.Opcodes}
	if r, ok := bl.ForcedMethod(class, name, desc); ok {
		return forced(info, r)
	}
	if r, ok := classBlock(bl, class); ok && !r.BuiltIn() {
		return false, string(methodmap.ReasonBlocked), ruleKey(r)
	}
	if r, ok := bl.BlockedMethod(class, name, desc); ok {
		return false, string(methodmap.ReasonBlocked), ruleKey(r)
	}
	if r, ok := bl.TracedClass(class); ok {
		return forced(info, r)
	}
	if r, ok := bl.TracedAnnotation(f.Annotations); ok {
		return forced(info, r)
	}
	r := methodmap.Classify(info, rules)
	return r == methodmap.Traced, string(r), ""
}

// forced traces a method rule r forces, if it has code to inject into.
func forced(info methodmap.MethodInfo, r blacklist.Rule) (bool, string, string) {
	c := methodmap.Classify(info, methodmap.Options{TraceAll: true})
	return c == methodmap.Traced, string(c), ruleKey(r)
}

// ClassRule is the rule that decides about a class as a whole: the one
// that blocks it, or the -allowpackage it lies in; "" for none.
func classRule(bl *blacklist.List, orig string) string {
	if r, ok := classBlock(bl, orig); ok {
		return ruleKey(r)
	}
	if r, ok := bl.Allowed(orig); ok && r.Name != "" {
		return ruleKey(r)
	}
	return ""
}

// ruleKey names a rule in the pipeline's counts (instrument.Result's
// RuleClasses and RuleMethods): its text with its origin, one per line of
// the file. The block list's path is part of the cache key (policyKey),
// so a cached count never names a rule by another file's path.
func ruleKey(r blacklist.Rule) string { return r.String() }
