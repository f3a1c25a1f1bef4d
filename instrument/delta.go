package instrument

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/tracebeat/tracebeat/instrument/store"
	"github.com/tracebeat/tracebeat/methodmap"
)

// A delta run patches the result of the last run of the same command
// (its runSnapshot) instead of planning every method again. It applies
// when the kept map is the one that run planned, so every method of an
// unchanged class keeps its id and plan, and when the classes that
// changed leave the class hierarchy as it was: same names, superclasses
// and Activity facts, none of them in more than one entry. Then only the
// changed classes are scanned, planned and rewritten; unchanged jars come
// from their packs whole, changed jars are written from their packs'
// bodies and the new classes, and the maps are the last run's texts with
// the lines of the changed classes replaced. The result is the one a full
// run with the kept map as its base map gives (TestDeltaRunIsAFullRun),
// and whenever one condition does not hold the run is a full one.
type delta struct {
	identity string
	snap     *runSnapshot
	kept     []byte // the kept planned map text
	changed  []bool // by input: its bytes changed
	// summed is closed when the content sums of the changed inputs (their
	// new pack keys) are in p.inputSums; sumErr says why not.
	summed chan struct{}
	sumErr error
	// keep[i][j]: the record of class entry j of changed input i, reused
	// as it is (its class is unchanged).
	keep    [][]*cachedClass
	classes map[string]bool // the changed classes (internal names)
	edits   []classEdit
	base    *methodmap.Map    // the kept map's lines of the changed classes
	entries []methodmap.Entry // the planned map's entries of the changed classes
}

// classEdit is one changed class: its entry and its scans then and now.
type classEdit struct {
	in, j  int
	old    *classInfo
	oldRec *cachedClass
	cur    *classInfo
}

// runIdentity names the command a snapshot belongs to: options, inputs,
// classpath, outputs and the base map. It is computed once a run (the
// base map can hold hundreds of thousands of lines).
func (p *pipeline) runIdentity() (string, error) {
	if p.identity == "" {
		id, err := p.computeIdentity()
		if err != nil {
			return "", err
		}
		p.identity = id
	}
	return p.identity, nil
}

func (p *pipeline) computeIdentity() (string, error) {
	parts := [][]byte{[]byte("run"), boolBytes(p.opt.Merge), baseMapDigest(p.opt.Policy.BaseMap)}
	for _, group := range [][]string{{p.opt.Output, p.opt.MapPath}, p.opt.Inputs, {""}, p.opt.Classpath} {
		for _, path := range group {
			abs := ""
			if path != "" {
				var err error
				if abs, err = filepath.Abs(path); err != nil {
					return "", err
				}
			}
			parts = append(parts, []byte(abs))
		}
	}
	return p.cache.Key(parts...), nil
}

func boolBytes(b bool) []byte { return []byte{boolByte(b)} }

// baseMapDigest stands for a given base map in a run's identity: a run
// with another one plans every method again.
func baseMapDigest(m *methodmap.Map) []byte {
	if m == nil {
		return nil
	}
	h := sha256.New()
	line := strconv.AppendInt(nil, int64(m.HighWater), 10)
	h.Write(append(line, '\n'))
	for _, e := range m.Entries {
		line = strconv.AppendInt(line[:0], int64(e.ID), 10)
		line = append(line, ',')
		line = strconv.AppendUint(line, uint64(e.Access), 10)
		for _, part := range []string{e.Key.Class, e.Key.Name, e.Key.Desc} {
			line = append(append(line, ' '), part...)
		}
		h.Write(append(line, '\n'))
	}
	return h.Sum(nil)
}

// openStore opens the cache and computes the checks of the inputs, which
// tell the jars that changed since the last run.
func (p *pipeline) openStore(ctx context.Context) (err error) {
	if p.cache, err = openCache(&p.opt); err != nil {
		return err
	}
	if p.opt.MapPath != "" {
		cache, mapPath, res := p.cache, p.opt.MapPath, p.res
		res.keep = func() error { return cache.PutMap(mapPath, res.plannedText) }
	}
	return p.checkInputs(ctx)
}

// prepareDelta checks every condition of a delta run and scans the
// changed classes; nil and the reason when it does not apply. It writes
// nothing and reports nothing.
func (p *pipeline) prepareDelta(ctx context.Context) (dd *delta, why string) {
	o := &p.opt
	switch {
	case o.MapPath == "":
		return nil, "no map path"
	}
	for _, in := range append(append([]*input(nil), p.inputs...), p.classpath...) {
		if in.isDir {
			return nil, "a directory input"
		}
	}
	identity, err := p.runIdentity()
	if err != nil {
		return nil, err.Error()
	}
	snap := p.cache.loadSnapshot(identity)
	switch {
	case snap == nil:
		return nil, "no snapshot of this command"
	case len(snap.inputs) != len(p.inputs) || !slices.Equal(snap.classpath, p.checks[len(p.inputs):]):
		return nil, "classpath changed"
	case o.Lists && !snap.listed:
		return nil, "the method lists are needed and the last run did not keep them"
	}
	d := &delta{identity: identity, snap: snap, changed: make([]bool, len(p.inputs)),
		keep: make([][]*cachedClass, len(p.inputs)), classes: map[string]bool{}}
	p.caches = make([]*inputCache, len(p.inputs))
	for i, in := range p.inputs {
		abs, err := filepath.Abs(in.path)
		if err != nil {
			return nil, err.Error()
		}
		d.changed[i] = p.checks[i] != snap.inputs[i].check
		p.caches[i] = &inputCache{abs: abs, isJar: true}
		if !d.changed[i] {
			p.inputSums[i] = snap.inputs[i].sum
			p.caches[i].sum, p.caches[i].key = snap.inputs[i].sum, p.cache.packKeyOf(snap.inputs[i].sum)
			p.caches[i].stored = snap.inputs[i]
		}
	}
	// The changed jars' content sums name their new packs, which are only
	// written at the end: they are computed meanwhile.
	d.summed = make(chan struct{})
	go func() {
		defer close(d.summed)
		d.sumErr = p.sumInputs(ctx, d.changed)
	}()
	defer func() {
		if dd == nil {
			<-d.summed // a full run follows, which needs them (and the files)
		}
	}()
	// The kept map must be the one the snapshot's run planned, and the
	// outputs of unchanged inputs, the packs' jars, must be as they were
	// written: both are checked while the changed jars are compared.
	var checks sync.WaitGroup
	keptOK := false
	checks.Go(func() {
		var err error
		d.kept, err = p.cache.Map(o.MapPath)
		keptOK = err == nil && checkSum(d.kept) == snap.plannedSum
	})
	// A merged output is written whole, from records: no pack jar is used.
	jarOK := make([]bool, len(p.inputs))
	checks.Go(func() {
		for i := range p.inputs {
			if !d.changed[i] {
				si := &snap.inputs[i]
				jarOK[i] = o.Merge || p.cache.packJarIntact(p.caches[i].key, si.jarSize, si.jarSum)
			}
		}
	})
	for i, in := range p.inputs {
		if why != "" {
			break
		}
		switch {
		case d.changed[i]:
			why = p.diffInput(ctx, d, i)
		case o.Merge:
			// A merged jar is written whole: an unchanged input's classes
			// come from its pack's records, as a changed input's unchanged
			// ones do.
			why = p.keepInput(d, i)
		}
		if why != "" {
			why = in.path + ": " + why
		}
	}
	checks.Wait()
	if why != "" {
		return nil, why
	}
	if !keptOK {
		return nil, "kept map is not the last run's"
	}
	for i := range p.inputs {
		if !d.changed[i] && !jarOK[i] {
			return nil, p.inputs[i].path + ": its pack's jar is gone or altered"
		}
	}
	return d, ""
}

// keepInput takes every class of unchanged input i from the records of
// its pack (a merged output, which is written whole).
func (p *pipeline) keepInput(d *delta, i int) string {
	in, ic := p.inputs[i], p.caches[i]
	ix, classes, why := p.openPack(d, i, ic.key, ic.sum)
	if why != "" {
		return why
	}
	for _, j := range classes {
		rec := ix.classes[in.entries[j].name]
		if rec == nil {
			return "classes added or removed"
		}
		if !rec.parsed() && p.opt.Strict {
			return in.entries[j].name + ": does not parse" // the full run reports it
		}
		d.keep[i][j], ic.recs[j] = rec, rec
	}
	return ""
}

// openPack lists input i and reads the index of pack key, made from jar
// bytes with checksum sum, as the pack its records come from; it returns
// the indexes of the input's class entries, or why the pack does not
// serve.
func (p *pipeline) openPack(d *delta, i int, key string, sum [32]byte) (ix *packIndex, classes []int, why string) {
	in, ic := p.inputs[i], p.caches[i]
	listed := make(chan error, 1) // the jar's directory is read meanwhile
	go func() { listed <- in.list() }()
	ix, err := readIndex(p.cache.Path(key, store.Index), false, p.descs)
	if lerr := <-listed; lerr != nil {
		return nil, nil, lerr.Error()
	}
	if err != nil || ix.optSum != p.cache.optSum || ix.inputSum != sum {
		return nil, nil, "no pack of its last version"
	}
	ic.from, ic.fromKey = ix, key
	ic.sums = make([][32]byte, len(in.entries))
	ic.recs = make([]*cachedClass, len(in.entries))
	d.keep[i] = make([]*cachedClass, len(in.entries))
	for j := range in.entries {
		if in.entries[j].isClass() {
			classes = append(classes, j)
		}
	}
	if len(classes) != len(ix.classes) {
		return nil, nil, "classes added or removed"
	}
	return ix, classes, ""
}

// diffInput finds the changed classes of changed input i against the pack
// of its last version and scans them.
func (p *pipeline) diffInput(ctx context.Context, d *delta, i int) string {
	in, ic := p.inputs[i], p.caches[i]
	si := &d.snap.inputs[i]
	ix, classes, why := p.openPack(d, i, p.cache.packKeyOf(si.sum), si.sum)
	// Only the changed jars are listed: a changed class that the
	// generated-class rule judges by another jar's R comes out differently
	// from its last scan, and sameHierarchy sends the run to a full one.
	p.noteEvidence(in)
	if why != "" {
		return why
	}
	var mu sync.Mutex
	var edits []classEdit
	scanners := make([]*scanner, p.opt.Workers)
	for w := range scanners {
		scanners[w] = newScanner(&p.opt.Policy, p.opt.Runtime, p.descs, p.hasClass)
	}
	errStop := errors.New("stop")
	stop := func(reason string) error {
		mu.Lock()
		if why == "" {
			why = reason
		}
		mu.Unlock()
		return errStop
	}
	err := p.parallel(ctx, len(classes), func(k, w int) error {
		j := classes[k]
		e := &in.entries[j]
		rec := ix.classes[e.name]
		if rec == nil {
			return stop("classes added or removed")
		}
		sum, err := in.entrySumOf(e)
		if err != nil {
			return stop(err.Error())
		}
		ic.sums[j] = sum
		if sum == rec.sum {
			if !rec.parsed() && p.opt.Strict {
				return stop(e.name + ": does not parse") // the full run reports it
			}
			d.keep[i][j], ic.recs[j] = rec, rec
			return nil
		}
		data, err := e.read()
		if err != nil {
			return stop(err.Error())
		}
		old, err := rec.decodeInfo(p.descs)
		if err != nil || old == nil {
			putBuffer(data)
			return stop(e.name + ": no scan of its last version")
		}
		cur, err := scanners[w].scan(data)
		putBuffer(data) // the scan copies what it keeps
		if err != nil {
			return stop(e.name + ": does not parse")
		}
		_, cur.versioned = versionedClass(e.name)
		if !sameHierarchy(old, cur) || d.snap.shared[cur.name] || d.snap.shared[cur.origName] {
			return stop(e.name + ": changes the class hierarchy")
		}
		ic.recs[j] = &cachedClass{sum: ic.sums[j], info: cur}
		mu.Lock()
		edits = append(edits, classEdit{in: i, j: j, old: old, oldRec: rec, cur: cur})
		mu.Unlock()
		return nil
	})
	if err != nil {
		if why == "" {
			why = err.Error()
		}
		return why
	}
	slices.SortFunc(edits, func(a, b classEdit) int { return a.j - b.j })
	for _, ed := range edits {
		d.classes[ed.cur.origName] = true // map lines name classes so
	}
	d.edits = append(d.edits, edits...)
	return ""
}

// sameHierarchy reports whether two scans of one class entry say the same
// about the class hierarchy and the Activity facts the plans of other
// classes depend on.
func sameHierarchy(a, b *classInfo) bool {
	return a.name == b.name && a.super == b.super && a.origName == b.origName && a.access == b.access &&
		a.versioned == b.versioned && a.blocked == b.blocked && a.focusCode == b.focusCode && a.focusSuper == b.focusSuper
}

// takeChanges is a delta run's scan: the changed classes' scans (made
// when prepareDelta compared them) and, for the rest, what the last run
// found and reported, again.
func (p *pipeline) takeChanges() {
	d := p.delta
	snap := d.snap
	p.res.Classes = snap.classes // the total of the progress
	p.res.Renamed = snap.renamed
	p.focus = map[string]bool{}
	for _, f := range snap.focus {
		p.focus[f] = true
	}
	p.infos = make([][]*classInfo, len(p.inputs))
	for i, in := range p.inputs {
		if d.changed[i] || p.opt.Merge {
			p.infos[i] = make([]*classInfo, len(in.entries))
		}
		if !d.changed[i] && p.opt.Merge {
			p.caches[i].unchanged = true // its pack stays as it is
		}
	}
	for _, ed := range d.edits {
		p.infos[ed.in][ed.j] = ed.cur
	}
	p.dups = snap.duplicates
	p.warnDuplicates()
	for i, in := range p.inputs {
		if !d.changed[i] {
			for _, w := range snap.inputs[i].warnings {
				p.warnAt(i, "%s", w)
			}
			continue
		}
		for j, rec := range d.keep[i] {
			if rec == nil {
				continue
			}
			if !rec.parsed() {
				p.warnAt(i, "%s: %s: cannot parse, copied untouched: %s", in.path, in.entries[j].name, rec.warn)
			}
			for _, w := range rec.result.warnings {
				p.warnAt(i, "%s", w)
			}
		}
	}
	for _, in := range p.classpath {
		in.close()
	}
}

// planChanges gives the traced methods of the changed classes their ids
// as a full run would with the kept map (merged under Policy.BaseMap) as
// its base map: only the base map's lines of those classes can match
// them, and new ones get ids above its high-water mark. p.infos holds
// only the changed classes, so planIDs and plannedMap plan just them.
func (p *pipeline) planChanges() error {
	d := p.delta
	kept, err := methodmap.SelectClasses(d.kept, d.classes)
	if err != nil {
		return fmt.Errorf("cache: kept map: %w", err)
	}
	d.base, p.base = kept, kept
	if given := p.opt.Policy.BaseMap; given != nil {
		p.base = methodmap.Merge(given.Select(d.classes), kept)
	}
	if err := p.planIDs(); err != nil {
		return err
	}
	planned := p.plannedMap()
	d.entries = planned.Entries[:len(planned.Entries)-1] // less the dispatch entry
	p.skipped = map[MethodKey]string{}
	return nil
}

// adoptChangedSums names the new packs of a delta run's changed jars by
// their content sums, computed while the run went on.
func (p *pipeline) adoptChangedSums() {
	d := p.delta
	if <-d.summed; d.sumErr != nil {
		p.warn("cache: %v", d.sumErr) // the outputs stand; the packs are not kept
	}
	for i, ic := range p.caches {
		if d.changed[i] {
			if d.sumErr != nil {
				ic.discardDat()
				continue
			}
			ic.sum, ic.key = p.inputSums[i], p.cache.packKeyOf(p.inputSums[i])
		}
	}
}

// patchResult makes the result of the run from the snapshot's with the
// changed classes' contributions replaced.
func (p *pipeline) patchResult() error {
	d, snap, res := p.delta, p.delta.snap, p.res
	entries := d.entries
	if p.opt.Progress != nil { // the copied jars did not tick
		defer p.opt.Progress(snap.classes, snap.classes)
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
	rules := newRuleTally()
	maps.Copy(rules.classes, snap.ruleClasses)
	maps.Copy(rules.methods, snap.ruleMethods)
	for k := range d.edits {
		ed := &d.edits[k]
		rules.add(ed.old, -1)
		rules.add(ed.cur, +1)
		old := &ed.oldRec.result
		if old.rewritten {
			res.Rewritten--
		}
		for _, s := range old.skipped {
			skipped[s.reason]--
		}
		for r, n := range ignoredContribution(ed.old, old.skipped, &wasIgnored) {
			ignoredBy[r] -= n
			res.IgnoredCount -= n
		}
		// The write left the class's record: its scan, and what its
		// rewrite (if it had plans) left untouched.
		now := p.caches[ed.in].recs[ed.j]
		for r, n := range ignoredContribution(ed.cur, now.result.skipped, &ignored) {
			ignoredBy[r] += n
			res.IgnoredCount += n
		}
	}
	for r, n := range res.Skipped {
		skipped[r] += n
	}
	res.Skipped, res.IgnoredByReason = dropZero(skipped), dropZero(ignoredBy)
	res.RuleClasses, res.RuleMethods = dropZero(rules.classes), dropZero(rules.methods)
	res.ClassNames = snap.classNames // a delta run has the classes of the last

	// The ignore map is patched while the method maps are. A change to
	// method bodies only (the usual edit) leaves both maps as they were:
	// the last texts are the result, without a pass over them.
	var ignoreErr error
	ignoreDone := make(chan struct{})
	go func() {
		defer close(ignoreDone)
		if methodmap.SameIgnoreLines(wasIgnored, ignored) {
			res.ignoreText = snap.ignoreText
			return
		}
		res.ignoreText, ignoreErr = methodmap.PatchIgnoreMap(snap.ignoreText, d.classes, ignored)
	}()
	defer func() { <-ignoreDone }()
	planned := d.kept
	if p.highWater != d.base.HighWater || !methodmap.SameMapLines(d.base.Entries, entries) {
		var err error
		if planned, err = methodmap.PatchMap(d.kept, d.classes, nil, entries, p.highWater); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	} else if methodmap.SameIgnoreLines(wasIgnored, ignored) {
		p.opt.Log.Debug("cache: maps unchanged")
	}
	var skippedIDs []snapSkip
	for _, s := range snap.skippedIDs {
		if !d.classes[s.class] {
			skippedIDs = append(skippedIDs, s)
		}
	}
	for _, e := range entries {
		if _, bad := p.skipped[e.Key]; bad {
			skippedIDs = append(skippedIDs, snapSkip{id: e.ID, class: e.Key.Class})
		}
	}
	d.snap.skippedIDs = skippedIDs
	res.plannedText, res.mapText = planned, planned
	if len(skippedIDs) > 0 {
		drop := map[int]bool{}
		for _, s := range skippedIDs {
			drop[s.id] = true
		}
		var err error
		if res.mapText, err = methodmap.PatchMap(planned, nil, drop, nil, p.highWater); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	}
	if <-ignoreDone; ignoreErr != nil {
		return fmt.Errorf("cache: %w", ignoreErr)
	}
	if p.opt.Lists {
		res.Ignored = patchIgnored(snap.ignoredList, d.classes, ignored)
	}
	res.Traced = mapEntries(res.mapText) - 1
	res.CachedScans = snap.classes - len(d.edits)
	for i := range p.inputs {
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
	byKey := func(a, b methodmap.IgnoredMethod) int { return compareFields(a.Key, b.Key) }
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
func ignoredContribution(ci *classInfo, skipped []cachedSkip, list *[]methodmap.IgnoredMethod) map[string]int {
	counts := map[string]int{}
	add := func(m *methodInfo, reason string) {
		counts[reason]++
		if list != nil {
			*list = append(*list, methodmap.IgnoredMethod{Key: ci.key(m), Access: m.access, Reason: methodmap.Reason(reason)})
		}
	}
	for k := range ci.methods {
		m := &ci.methods[k]
		if !m.trace {
			add(m, reasons.text(m.reason))
			continue
		}
		for _, s := range skipped {
			if int(s.index) == k {
				add(m, s.reason)
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

// keptOutcome is the output of an unchanged class of a changed jar in a
// delta run: its record's body, or the class as it is. A body that cannot
// be read back intact is made again (redoKept).
func (p *pipeline) keptOutcome(idx int, e *entry, rec *cachedClass) (entryResult, *cachedClass) {
	r := &rec.result
	if !r.rewritten {
		return entryResult{}, rec
	}
	body, err := p.caches[idx].readBody(p.cache, r)
	if err == nil {
		return entryResult{body: body, deflated: r.deflated, crc: r.crc, size: r.size}, rec
	}
	p.opt.Log.Debug("cache: body not reused: " + err.Error())
	return p.redoKept(idx, e, rec)
}

// redoKept rewrites an unchanged class whose recorded body is lost with
// the plans it had: the ids of its methods are the kept map's. What the
// rewrite reports was reported for it already (the snapshot's counts, the
// record's warnings), so nothing is counted again.
func (p *pipeline) redoKept(idx int, e *entry, rec *cachedClass) (entryResult, *cachedClass) {
	in := p.inputs[idx]
	fail := func(err error) (entryResult, *cachedClass) {
		return entryResult{err: fmt.Errorf("%s: %s: cache: %w", in.path, e.name, err)}, nil
	}
	ci, err := rec.decodeInfo(p.descs)
	if err != nil || ci == nil {
		return fail(errBadPack)
	}
	base, err := methodmap.SelectClasses(p.delta.kept, map[string]bool{ci.origName: true})
	if err != nil {
		return fail(err)
	}
	var traced []methodmap.Method
	for k := range ci.methods {
		if m := &ci.methods[k]; m.trace {
			traced = append(traced, methodmap.Method{Key: ci.key(m), Access: m.access})
		}
	}
	ids, _, err := methodmap.AssignIDs(traced, base)
	if err != nil {
		return fail(err)
	}
	n := 0
	for k := range ci.methods {
		if m := &ci.methods[k]; m.trace {
			m.id = int32(ids[n])
			n++
		}
	}
	plans, addFocus := p.plansFor(ci)
	ps := planSum(plans, addFocus, true)
	if ps != rec.plan {
		return fail(errors.New("internal error: an unchanged class plans differently"))
	}
	raw, err := e.read()
	if err != nil {
		return fail(err)
	}
	out, err := p.rewrite(raw, ci, plans, addFocus)
	putBuffer(raw)
	if err != nil || out.body == nil {
		return fail(cmp.Or(err, errors.New("internal error: an unchanged class rewrites differently")))
	}
	res, err := compressed(out.body, !storedEntry(e))
	if err != nil {
		return fail(err)
	}
	redone := &cachedClass{sum: rec.sum, info: ci, plan: ps, result: cachedResult{rewritten: true,
		deflated: res.deflated, crc: res.crc, size: res.size, skipped: out.skipped, warnings: out.warnings}}
	return res, redone
}
