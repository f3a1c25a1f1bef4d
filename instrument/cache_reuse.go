// What a run takes from the packs of its inputs instead of doing the work:
// the scan of an unchanged class, the outcome of its rewrite, its body,
// or an input's whole output jar. cache_run.go finds and writes the packs.

package instrument

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/instrument/store"
	"github.com/tracebeat/tracebeat/methodmap"
)

// scanFromCache serves the scan of class entry j from the pack when it
// can: the whole input is unchanged, or the entry's stored bytes hash as
// in the previous version. Otherwise it returns the entry's contents for
// a fresh scan (a buffer from GetBuffer).
func (c *runCache) scanFromCache(i int, ic *inputCache, j int, e *jario.Entry) (ci *scan.Class, hit bool, data []byte, err error) {
	if ic.from != nil && ic.whole {
		if rec := ic.from.classes[e.Name]; rec != nil {
			ic.sums[j] = rec.sum
			return c.reuseScan(i, ic, j, e, rec)
		}
	}
	raw, err := e.Stored()
	if err != nil {
		return nil, false, nil, err
	}
	ic.sums[j] = jario.EntrySum(e, raw)
	if ic.from != nil {
		if rec := ic.from.classes[e.Name]; rec != nil && rec.sum == ic.sums[j] {
			jario.PutBuffer(raw)
			return c.reuseScan(i, ic, j, e, rec)
		}
	}
	if e.ZipFile == nil {
		return nil, false, raw, nil // a file's stored bytes are its contents
	}
	data, err = e.Contents(raw)
	jario.PutBuffer(raw)
	return nil, false, data, err
}

func (c *runCache) reuseScan(i int, ic *inputCache, j int, e *jario.Entry, rec *cachedClass) (*scan.Class, bool, []byte, error) {
	in := c.p.inputs[i]
	if ci := rec.info; ci != nil && ci.BlockedText() != rewrite.ReasonJVMRoot && ci.BlockedText() != c.p.opt.Policy.BlockedFor(ci.OrigName, c.p.evidence.has) {
		// The generated-class rule depends on the other classes (an R
		// class added or removed elsewhere): scan the class again.
		data, err := e.Read()
		return nil, false, data, err
	}
	ic.recs[j] = &cachedClass{sum: rec.sum, info: rec.info, warn: rec.warn}
	c.p.tally.count(func(r *Result) { r.CachedScans++ })
	if rec.info == nil {
		if c.p.opt.Strict {
			return nil, true, nil, errors.New(rec.warn)
		}
		c.p.warns.at(i, "%s: %s: cannot parse, copied untouched: %s", in.Path, e.Name, rec.warn)
	}
	return rec.info, true, nil, nil
}

// cachedOutcome returns the recorded outcome of rewriting class entry j
// with the plans hashing to ps, replaying what that rewrite reported. ok
// is false when there is none or its body cannot be read back intact.
func (c *runCache) cachedOutcome(idx int, ic *inputCache, j int, e *jario.Entry, ci *scan.Class, ps [32]byte) (res entryResult, rec *cachedClass, ok bool) {
	if ic.from == nil {
		return res, nil, false
	}
	old := ic.from.classes[e.Name]
	if old == nil || old.sum != ic.sums[j] || old.plan != ps {
		return res, nil, false
	}
	r := old.result
	if r.rewritten {
		body, err := ic.readBody(c.store, &r)
		if err != nil {
			c.p.opt.Log.Debug("cache: body not reused: " + err.Error())
			return res, nil, false
		}
		res = entryResult{body: body, deflated: r.deflated, crc: r.crc, size: r.size}
	}
	c.p.tally.skip(ci, r.skipped)
	for _, w := range r.warnings {
		c.p.warns.at(idx, "%s", w)
	}
	rec = &cachedClass{sum: old.sum, info: ci, plan: ps, result: r}
	rec.result.off, rec.result.n = 0, 0
	c.p.tally.count(func(res *Result) {
		res.CachedRewrites++
		if r.rewritten {
			res.Rewritten++
		}
	})
	return res, rec, true
}

// readBody reads a recorded body from the pack's .dat and checks it.
func (ic *inputCache) readBody(c *cacheStore, r *cachedResult) ([]byte, error) {
	ic.datOnce.Do(func() { ic.dat, ic.datErr = jario.OpenFileReader(c.Path(ic.fromKey, store.Bodies), true) })
	if ic.datErr != nil {
		return nil, ic.datErr
	}
	if r.n < 0 || r.n > jario.MaxEntrySize {
		return nil, errBadPack
	}
	body := jario.GetBuffer(int(r.n))
	if _, err := ic.dat.ReadAt(body, r.off); err != nil {
		jario.PutBuffer(body)
		return nil, err
	}
	if jario.SumOf(body) != r.bodySum {
		jario.PutBuffer(body)
		return nil, errBadPack
	}
	return body, nil
}

// wholeJarReusable reports whether input i's output is exactly the jar of
// its pack: same bytes in, and every class has the plans it had then.
func (c *runCache) wholeJarReusable(i int) bool {
	if c == nil {
		return false
	}
	ic := c.inputs[i]
	if ic == nil || !ic.whole || !ic.jarOK || c.p.opt.Merge {
		return false
	}
	in := c.p.inputs[i]
	for j := range in.Entries {
		e := &in.Entries[j]
		if !e.IsClass() {
			continue
		}
		rec := ic.from.classes[e.Name]
		ci := c.p.infos[i][j]
		if rec == nil || (rec.info == nil) != (ci == nil) {
			return false
		}
		var ps [32]byte
		if ci != nil {
			if plans, add := c.p.plansFor(ci); len(plans) > 0 || add {
				ps = planSum(plans, add, true)
			}
		}
		if rec.plan != ps {
			return false
		}
	}
	return true
}

// reuseWholeJar replays what writing input i reported last time; its
// output comes from the pack's jar.
func (c *runCache) reuseWholeJar(i int, tick func()) {
	ic, in := c.inputs[i], c.p.inputs[i]
	ic.unchanged = true
	c.p.tally.count(func(r *Result) { r.CachedInputs++ })
	for j := range in.Entries {
		e := &in.Entries[j]
		if !e.IsClass() {
			continue
		}
		tick()
		ci := c.p.infos[i][j]
		rec := ic.from.classes[e.Name]
		if ci == nil || rec.plan == ([32]byte{}) {
			continue
		}
		c.p.tally.skip(ci, rec.result.skipped)
		for _, w := range rec.result.warnings {
			c.p.warns.at(i, "%s", w)
		}
		c.p.tally.count(func(r *Result) {
			r.CachedRewrites++
			if rec.result.rewritten {
				r.Rewritten++
			}
		})
	}
}

// keptOutcome is the output of an unchanged class of a changed jar in a
// delta run: its record's body, or the class as it is. A body that cannot
// be read back intact is made again (redoKept).
func (c *runCache) keptOutcome(idx int, e *jario.Entry, rec *cachedClass) (entryResult, *cachedClass) {
	r := &rec.result
	if !r.rewritten {
		if in := c.p.inputs[idx]; in.IsDir {
			// A class directory goes into a merged jar (a delta run takes
			// no other): its classes are compressed, as a full run does.
			res, err := readCompressed(e, true)
			if err != nil {
				return entryResult{err: fmt.Errorf("%s: %s: %w", in.Path, e.Name, err)}, nil
			}
			return res, rec
		}
		return entryResult{}, rec
	}
	body, err := c.inputs[idx].readBody(c.store, r)
	if err == nil {
		return entryResult{body: body, deflated: r.deflated, crc: r.crc, size: r.size}, rec
	}
	c.p.opt.Log.Debug("cache: body not reused: " + err.Error())
	return c.redoKept(idx, e, rec)
}

// redoKept rewrites an unchanged class whose recorded body is lost with
// the plans it had: the ids of its methods are the kept map's. What the
// rewrite reports was reported for it already (the snapshot's counts, the
// record's warnings), so nothing is counted again.
func (c *runCache) redoKept(idx int, e *jario.Entry, rec *cachedClass) (entryResult, *cachedClass) {
	in := c.p.inputs[idx]
	fail := func(err error) (entryResult, *cachedClass) {
		return entryResult{err: fmt.Errorf("%s: %s: cache: %w", in.Path, e.Name, err)}, nil
	}
	ci, err := rec.decodeInfo(c.p.texts)
	if err != nil || ci == nil {
		return fail(errBadPack)
	}
	base, err := methodmap.SelectClasses(c.delta().kept, map[string]bool{ci.OrigName: true})
	if err != nil {
		return fail(err)
	}
	var traced []methodmap.Method
	for k := range ci.Methods {
		if m := &ci.Methods[k]; m.Trace {
			traced = append(traced, methodmap.Method{Key: ci.Key(m), Access: m.Access})
		}
	}
	ids, _, err := methodmap.AssignIDs(traced, base)
	if err != nil {
		return fail(err)
	}
	n := 0
	for k := range ci.Methods {
		if m := &ci.Methods[k]; m.Trace {
			m.ID = int32(ids[n])
			n++
		}
	}
	plans, addFocus := c.p.plansFor(ci)
	ps := planSum(plans, addFocus, true)
	if ps != rec.plan {
		return fail(errors.New("internal error: an unchanged class plans differently"))
	}
	raw, err := e.Read()
	if err != nil {
		return fail(err)
	}
	out, err := c.p.rewrite(raw, ci, plans, addFocus)
	jario.PutBuffer(raw)
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
