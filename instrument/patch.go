package instrument

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"github.com/tracebeat/tracebeat/methodmap"
)

// patchResult makes the result of the run from the snapshot's with the
// changed classes' contributions replaced.
func (d *delta) patchResult() error {
	snap, res := d.snap, d.p.res
	entries := d.entries
	if d.p.opt.Progress != nil { // the copied jars did not tick
		defer d.p.opt.Progress(snap.classes, snap.classes)
	}
	res.Focus = slices.Clone(snap.focus)
	res.Duplicates = duplicateNames(snap.duplicates)
	res.Rewritten += snap.rewritten
	res.IgnoredCount = snap.ignored
	skipped := map[string]int{}
	for r, n := range snap.skipped {
		skipped[r] = n
	}
	ignoredBy := map[string]int{}
	for r, n := range snap.ignoredBy {
		ignoredBy[r] = n
	}
	var ignored, wasIgnored []methodmap.IgnoredMethod
	rules := scan.NewRuleTally()
	maps.Copy(rules.Classes, snap.ruleClasses)
	maps.Copy(rules.Methods, snap.ruleMethods)
	for k := range d.edits {
		ed := &d.edits[k]
		rules.Add(ed.old, -1)
		rules.Add(ed.cur, +1)
		old := &ed.oldRec.Result
		if old.Rewritten {
			res.Rewritten--
		}
		for _, s := range old.Skipped {
			skipped[s.Reason]--
		}
		for r, n := range ignoredContribution(ed.old, old.Skipped, &wasIgnored) {
			ignoredBy[r] -= n
			res.IgnoredCount -= n
		}
		// The write left the class's record: its scan, and what its
		// rewrite (if it had plans) left untouched.
		now := d.p.cache.inputs[ed.in].recs[ed.j]
		for r, n := range ignoredContribution(ed.cur, now.Result.Skipped, &ignored) {
			ignoredBy[r] += n
			res.IgnoredCount += n
		}
	}
	for r, n := range res.Skipped {
		skipped[r] += n
	}
	res.Skipped, res.IgnoredByReason = dropZero(skipped), dropZero(ignoredBy)
	res.RuleClasses, res.RuleMethods = dropZero(rules.Classes), dropZero(rules.Methods)
	res.ClassNames = snap.classNames // a delta run has the classes of the last

	// The ignore map is patched while the method maps are. A change to
	// method bodies only (the usual edit) leaves both maps as they were:
	// the last texts are the result, without a pass over them.
	var ignoreErr error
	ignoreDone := make(chan struct{})
	go func() {
		defer close(ignoreDone)
		if methodmap.SameIgnoreLines(wasIgnored, ignored) {
			res.maps.ignoreText = snap.ignoreText
			return
		}
		res.maps.ignoreText, ignoreErr = methodmap.PatchIgnoreMap(snap.ignoreText, d.classes, ignored)
	}()
	defer func() { <-ignoreDone }()
	planned := d.kept
	if d.p.highWater != d.base.HighWater || !methodmap.SameMapLines(d.base.Entries, entries) {
		var err error
		if planned, err = methodmap.PatchMap(d.kept, d.classes, nil, entries, d.p.highWater); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	} else if methodmap.SameIgnoreLines(wasIgnored, ignored) {
		d.p.opt.Log.Debug("cache: maps unchanged")
	}
	var skippedIDs []snapSkip
	for _, s := range snap.skippedIDs {
		if !d.classes[s.class] {
			skippedIDs = append(skippedIDs, s)
		}
	}
	for _, e := range entries {
		if _, bad := d.p.tally.skipped[e.Key]; bad {
			skippedIDs = append(skippedIDs, snapSkip{id: e.ID, class: e.Key.Class})
		}
	}
	d.snap.skippedIDs = skippedIDs
	res.maps.plannedText, res.maps.mapText = planned, planned
	if len(skippedIDs) > 0 {
		drop := map[int]bool{}
		for _, s := range skippedIDs {
			drop[s.id] = true
		}
		var err error
		if res.maps.mapText, err = methodmap.PatchMap(planned, nil, drop, nil, d.p.highWater); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	}
	if <-ignoreDone; ignoreErr != nil {
		return fmt.Errorf("cache: %w", ignoreErr)
	}
	if d.p.opt.Lists {
		res.Ignored = patchIgnored(snap.ignoredList, d.classes, ignored)
		if d.ignoredSame = slices.Equal(res.Ignored, snap.ignoredList); d.ignoredSame {
			store, identity, listSum, log := d.p.cache.store, d.identity, jario.SumOf(snap.ignoredRaw), d.p.opt.Log
			res.lastReport = func(head []byte) []byte {
				report := keptReport(store.Report(identity), listSum, head)
				if report != nil {
					log.Debug("cache: report unchanged")
				}
				return report
			}
		}
	}
	res.Traced = mapEntries(res.maps.mapText) - 1
	res.CachedScans = snap.classes - len(d.edits)
	for i := range d.p.inputs {
		if !d.changed[i] {
			res.CachedInputs++
		}
	}
	return nil
}

// patchIgnored is the last run's ignored list with the methods of the
// changed classes replaced by theirs now, in key order as a full run's:
// the last list is in that order already, so only the few new entries
// are sorted and merged in (a large app ignores hundreds of thousands).
func patchIgnored(last []methodmap.IgnoredMethod, classes map[string]bool, now []methodmap.IgnoredMethod) []methodmap.IgnoredMethod {
	byKey := func(a, b methodmap.IgnoredMethod) int { return scan.CompareFields(a.Key, b.Key) }
	now = slices.Clone(now)
	slices.SortStableFunc(now, byKey)
	now = slices.CompactFunc(now, func(a, b methodmap.IgnoredMethod) bool { return a.Key == b.Key })
	out := make([]methodmap.IgnoredMethod, 0, len(last)+len(now))
	for _, m := range last {
		if classes[m.Key.Class] {
			continue
		}
		// (no key is in both: the changed classes' are out of last)
		for len(now) > 0 && byKey(now[0], m) < 0 {
			out, now = append(out, now[0]), now[1:]
		}
		out = append(out, m)
	}
	return append(out, now...)
}

// ignoredContribution counts the methods of one class the ignore map
// lists, by reason: the untraced ones and the traced ones left untouched.
// With list set it also appends them.
func ignoredContribution(ci *scan.Class, skipped []pack.Skip, list *[]methodmap.IgnoredMethod) map[string]int {
	counts := map[string]int{}
	add := func(m *scan.Method, reason string) {
		counts[reason]++
		if list != nil {
			*list = append(*list, methodmap.IgnoredMethod{Key: ci.Key(m), Access: m.Access, Reason: methodmap.Reason(reason)})
		}
	}
	for k := range ci.Methods {
		m := &ci.Methods[k]
		if !m.Trace {
			add(m, scan.Reasons.Text(m.Reason))
			continue
		}
		for _, s := range skipped {
			if int(s.Index) == k {
				add(m, s.Reason)
				break
			}
		}
	}
	return counts
}

func dropZero(m map[string]int) map[string]int {
	for k, v := range m {
		if v == 0 {
			delete(m, k)
		}
	}
	return m
}

// mapEntries counts the entry lines of a map text.
func mapEntries(text []byte) int {
	n := bytes.Count(text, []byte{'\n'})
	if bytes.HasPrefix(text, []byte("#")) {
		n--
	}
	return n
}
