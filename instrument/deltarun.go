// A delta run's stages once prepareDelta (lastrun.go) has found the last
// run still valid: the scan that takes the changed classes' scans and the
// last run's answers, the plan of the changed classes, and the new packs'
// names. patch.go patches the result.

package instrument

import (
	"fmt"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/methodmap"
)

// sameHierarchy reports whether two scans of one class entry say the same
// about the class hierarchy and the Activity facts the plans of other
// classes depend on.
func sameHierarchy(a, b *scan.Class) bool {
	return a.Name == b.Name && a.Super == b.Super && a.OrigName == b.OrigName && a.Access == b.Access &&
		a.Versioned == b.Versioned && a.Blocked == b.Blocked && a.FocusCode == b.FocusCode && a.FocusSuper == b.FocusSuper
}

// takeChanges is a delta run's scan: the changed classes' scans (made
// when prepareDelta compared them) and, for the rest, what the last run
// found and reported, again.
func (d *delta) takeChanges() {
	snap := d.snap
	d.p.res.Classes = snap.classes // the total of the progress
	d.p.res.Renamed = snap.renamed
	d.p.focus = focusSet{}
	for _, f := range snap.focus {
		d.p.focus[f] = true
	}
	d.p.infos = make([][]*scan.Class, len(d.p.inputs))
	for i, in := range d.p.inputs {
		if d.changed[i] || d.p.opt.Merge {
			d.p.infos[i] = make([]*scan.Class, len(in.Entries))
		}
		if !d.changed[i] && d.p.opt.Merge {
			d.p.cache.inputs[i].unchanged = true // its pack stays as it is
		}
	}
	for _, ed := range d.edits {
		d.p.infos[ed.in][ed.j] = ed.cur
	}
	d.p.dups = snap.duplicates
	d.p.warns.duplicates(d.p.dups, d.p.opt.Log)
	for i, in := range d.p.inputs {
		if !d.changed[i] {
			for _, w := range snap.inputs[i].warnings {
				d.p.warns.at(i, "%s", w)
			}
			continue
		}
		for j, rec := range d.keep[i] {
			if rec == nil {
				continue
			}
			if !rec.Parsed() {
				d.p.warns.at(i, "%s: %s: cannot parse, copied untouched: %s", in.Path, in.Entries[j].Name, rec.Warn)
			}
			for _, w := range rec.Result.Warnings {
				d.p.warns.at(i, "%s", w)
			}
		}
	}
	for _, in := range d.p.classpath {
		in.Close()
	}
}

// planChanges gives the traced methods of the changed classes their ids
// as a full run would with the kept map (merged under Policy.BaseMap) as
// its base map: only the base map's lines of those classes can match
// them, and new ones get ids above its high-water mark. p.infos holds
// only the changed classes, so AssignIDs and PlannedMap plan just them.
func (d *delta) planChanges() error {
	kept, err := methodmap.SelectClasses(d.kept, d.classes)
	if err != nil {
		return fmt.Errorf("cache: kept map: %w", err)
	}
	d.base, d.p.base = kept, kept
	if given := d.p.opt.Policy.BaseMap; given != nil {
		d.p.base = methodmap.Merge(given.Select(d.classes), kept)
	}
	highWater, err := d.p.infos.AssignIDs(d.p.base)
	if err != nil {
		return err
	}
	d.p.highWater = highWater
	planned := d.p.infos.TracedList(d.p.highWater, d.p.tally.skipped).PlannedMap()
	d.entries = planned.Entries[:len(planned.Entries)-1] // less the dispatch entry
	d.p.tally.skipped = map[MethodKey]string{}
	return nil
}

// adoptChangedSums names the new packs of a delta run's changed jars by
// their content sums, computed while the run went on.
func (d *delta) adoptChangedSums() {
	if <-d.summed; d.sumErr != nil {
		d.p.warns.warn("cache: %v", d.sumErr) // the outputs stand; the packs are not kept
	}
	for i, ic := range d.p.cache.inputs {
		if d.changed[i] {
			if d.sumErr != nil {
				ic.discardDat()
				continue
			}
			ic.sum, ic.key = d.p.cache.known.sums[i], d.p.cache.store.inputPackKey(ic, d.p.cache.known.sums[i])
		}
	}
}
