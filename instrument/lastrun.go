package instrument

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

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
	p        *pipeline // the run that patches
	identity string
	snap     *runSnapshot
	kept     []byte // the kept planned map text
	changed  []bool // by input: its bytes changed
	// summed is closed when the content sums of the changed inputs (their
	// new pack keys) are in p.cache.known.sums; sumErr says why not.
	summed chan struct{}
	sumErr error
	// keep[i][j]: the record of class entry j of changed input i, reused
	// as it is (its class is unchanged).
	keep    [][]*pack.Class
	classes map[string]bool // the changed classes (internal names)
	edits   []classEdit
	base    *methodmap.Map    // the kept map's lines of the changed classes
	entries []methodmap.Entry // the planned map's entries of the changed classes
	// lastOut is the merged jar the last run wrote; splices[i], when set,
	// the directory records of unchanged input i's span in it, checked
	// (outspan.go): the span is copied from there.
	lastOut *jario.LastJar
	splices [][]byte
	// unlisted[i]: unchanged input i of a merged output, not yet listed
	// nor its pack read, because its span may be copied (planSplices).
	unlisted []bool
	// ignoredSame: the run's ignored list is the last run's (with
	// Options.Lists), so its encoding and report are too.
	ignoredSame bool
}

// classEdit is one changed class: its entry and its scans then and now.
type classEdit struct {
	in, j  int
	old    *scan.Class
	oldRec *pack.Class
	cur    *scan.Class
}

// openStore opens the cache and computes the checks of the inputs, which
// tell the jars that changed since the last run.
func (p *pipeline) openStore(ctx context.Context) (err error) {
	store, err := openCache(&p.opt)
	if err != nil {
		return err
	}
	p.cache = &runCache{p: p, store: store}
	if p.opt.MapPath != "" {
		rc, mapPath, res := p.cache, p.opt.MapPath, p.res
		res.keep = func() error {
			if err := rc.store.PutMap(mapPath, res.maps.plannedText); err != nil {
				return err
			}
			if res.report == nil || res.reportKept {
				return nil
			}
			identity, err := rc.store.runIdentity(&rc.p.opt)
			if err != nil {
				return err
			}
			return rc.store.PutReport(identity, sealReport(res.report, ignoredListSum(res.Ignored)))
		}
	}
	return p.cache.known.check(ctx, p.inputs, p.classpath, p.opt.Workers)
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
	for _, in := range p.inputs {
		if in.IsDir && !o.Merge {
			// A mirrored directory's output is no pack's jar to check.
			return nil, "a directory input without --merge"
		}
	}
	for _, in := range p.classpath {
		if in.IsDir {
			return nil, "a directory on the class path"
		}
	}
	identity, err := p.cache.store.runIdentity(&p.opt)
	if err != nil {
		return nil, err.Error()
	}
	snap := p.cache.store.loadSnapshot(identity)
	switch {
	case snap == nil:
		return nil, "no snapshot of this command"
	case len(snap.inputs) != len(p.inputs) || !slices.Equal(snap.classpath, p.cache.known.checks[len(p.inputs):]):
		return nil, "classpath changed"
	case o.Lists && !snap.listed:
		return nil, "the method lists are needed and the last run did not keep them"
	}
	d := &delta{p: p, identity: identity, snap: snap, changed: make([]bool, len(p.inputs)),
		keep: make([][]*pack.Class, len(p.inputs)), classes: map[string]bool{}, unlisted: make([]bool, len(p.inputs))}
	p.cache.inputs = make([]*inputCache, len(p.inputs))
	for i, in := range p.inputs {
		abs, err := filepath.Abs(in.Path)
		if err != nil {
			return nil, err.Error()
		}
		d.changed[i] = p.cache.known.checks[i] != snap.inputs[i].check
		ic := &inputCache{abs: abs, isJar: !in.IsDir}
		p.cache.inputs[i] = ic
		if !d.changed[i] {
			p.cache.known.sums[i] = snap.inputs[i].sum
			ic.sum, ic.key = snap.inputs[i].sum, p.cache.store.inputPackKey(ic, snap.inputs[i].sum)
			ic.stored = snap.inputs[i]
		}
	}
	// The changed jars' content sums name their new packs, which are only
	// written at the end: they are computed meanwhile.
	d.summed = make(chan struct{})
	go func() {
		defer close(d.summed)
		d.sumErr = p.cache.known.sum(ctx, p.inputs, p.opt.Workers, d.changed)
	}()
	defer func() {
		if dd == nil {
			<-d.summed // a full run follows, which needs them (and the files)
			d.closeLastOutput()
		}
	}()
	// The kept map must be the one the snapshot's run planned, and the
	// outputs of unchanged inputs, the packs' jars, must be as they were
	// written: both are checked while the changed jars are compared.
	var checks sync.WaitGroup
	keptOK := false
	checks.Go(func() {
		var err error
		d.kept, err = p.cache.store.Map(o.MapPath)
		keptOK = err == nil && jario.SumOf(d.kept) == snap.plannedSum
	})
	// A merged output is written whole, from records: no pack jar is used.
	jarOK := make([]bool, len(p.inputs))
	checks.Go(func() {
		for i := range p.inputs {
			if !d.changed[i] {
				si := &snap.inputs[i]
				jarOK[i] = o.Merge || p.cache.store.packJarIntact(p.cache.inputs[i].key, si.jarSize, si.jarSum)
			}
		}
	})
	// The spans of unchanged inputs in the last merged output are read
	// meanwhile too.
	var intact []bool
	if o.Merge {
		checks.Go(func() {
			if d.lastOut = jario.OpenLastJar(o.Output); d.lastOut == nil {
				return
			}
			intact = make([]bool, len(p.inputs))
			for i := range p.inputs {
				if span := snap.inputs[i].out; !d.changed[i] && span.Count > 0 {
					intact[i] = d.lastOut.Intact(span)
				}
			}
		})
	}
	for i, in := range p.inputs {
		if why != "" {
			break
		}
		switch {
		case d.changed[i]:
			why = d.diffInput(ctx, i)
		case o.Merge && snap.inputs[i].out.Count > 0:
			d.unlisted[i] = true // its span may be copied: planSplices
		case o.Merge:
			// A merged jar is written whole: an unchanged input's classes
			// come from its pack's records, as a changed input's unchanged
			// ones do.
			why = d.keepInput(i)
		}
		if why != "" {
			why = in.Path + ": " + why
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
			return nil, p.inputs[i].Path + ": its pack's jar is gone or altered"
		}
	}
	if o.Merge {
		if why := d.planSplices(intact); why != "" {
			return nil, why
		}
	}
	return d, ""
}

// keepInput takes every class of unchanged input i from the records of
// its pack (a merged output, which is written whole).
func (d *delta) keepInput(i int) string {
	d.unlisted[i] = false
	in, ic := d.p.inputs[i], d.p.cache.inputs[i]
	ix, classes, why := d.openPack(i, ic.key, ic.sum)
	if why != "" {
		return why
	}
	for _, j := range classes {
		rec := ix.Classes[in.Entries[j].Name]
		if rec == nil {
			return "classes added or removed"
		}
		if !rec.Parsed() && d.p.opt.Strict {
			return in.Entries[j].Name + ": does not parse" // the full run reports it
		}
		d.keep[i][j], ic.recs[j] = rec, rec
	}
	return ""
}

// openPack lists input i and reads the index of pack key, made from jar
// bytes with checksum sum, as the pack its records come from; it returns
// the indexes of the input's class entries, or why the pack does not
// serve.
func (d *delta) openPack(i int, key string, sum [32]byte) (ix *pack.Index, classes []int, why string) {
	in, ic := d.p.inputs[i], d.p.cache.inputs[i]
	listed := make(chan error, 1) // the jar's directory is read meanwhile
	go func() { listed <- in.List() }()
	ix, err := pack.ReadIndex(d.p.cache.store.Path(key, store.Index), false, d.p.texts)
	if lerr := <-listed; lerr != nil {
		return nil, nil, lerr.Error()
	}
	if err != nil || ix.OptSum != d.p.cache.store.optSum || ix.InputSum != sum {
		return nil, nil, "no pack of its last version"
	}
	ic.from, ic.fromKey = ix, key
	ic.sums = make([][32]byte, len(in.Entries))
	ic.recs = make([]*pack.Class, len(in.Entries))
	d.keep[i] = make([]*pack.Class, len(in.Entries))
	for j := range in.Entries {
		if in.Entries[j].IsClass() {
			classes = append(classes, j)
		}
	}
	if len(classes) != len(ix.Classes) {
		return nil, nil, "classes added or removed"
	}
	return ix, classes, ""
}

// diffInput finds the changed classes of changed input i against the pack
// of its last version and scans them.
func (d *delta) diffInput(ctx context.Context, i int) string {
	in, ic := d.p.inputs[i], d.p.cache.inputs[i]
	si := &d.snap.inputs[i]
	ix, classes, why := d.openPack(i, d.p.cache.store.inputPackKey(ic, si.sum), si.sum)
	// Only the changed jars are listed: a changed class that the
	// generated-class rule judges by another jar's R comes out differently
	// from its last scan, and sameHierarchy sends the run to a full one.
	d.p.evidence.note(in, &d.p.opt.Policy)
	if why != "" {
		return why
	}
	var mu sync.Mutex
	var edits []classEdit
	scanners := d.p.newScanners()
	errStop := errors.New("stop")
	stop := func(reason string) error {
		mu.Lock()
		if why == "" {
			why = reason
		}
		mu.Unlock()
		return errStop
	}
	err := parallel(ctx, d.p.opt.Workers, len(classes), func(k, w int) error {
		j := classes[k]
		e := &in.Entries[j]
		rec := ix.Classes[e.Name]
		if rec == nil {
			return stop("classes added or removed")
		}
		sum, err := in.EntrySumOf(j)
		if err != nil {
			return stop(err.Error())
		}
		ic.sums[j] = sum
		if sum == rec.Sum {
			if !rec.Parsed() && d.p.opt.Strict {
				return stop(e.Name + ": does not parse") // the full run reports it
			}
			d.keep[i][j], ic.recs[j] = rec, rec
			return nil
		}
		data, err := e.Read()
		if err != nil {
			return stop(err.Error())
		}
		old, err := rec.DecodeInfo(d.p.texts)
		if err != nil || old == nil {
			jario.PutBuffer(data)
			return stop(e.Name + ": no scan of its last version")
		}
		cur, err := scanEntry(scanners[w], e, data)
		if err != nil {
			return stop(e.Name + ": does not parse")
		}
		if !sameHierarchy(old, cur) || d.snap.shared[cur.Name] || d.snap.shared[cur.OrigName] {
			return stop(e.Name + ": changes the class hierarchy")
		}
		ic.recs[j] = &pack.Class{Sum: ic.sums[j], Info: cur}
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
		d.classes[ed.cur.OrigName] = true // map lines name classes so
	}
	d.edits = append(d.edits, edits...)
	return ""
}
