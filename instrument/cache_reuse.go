// What a run takes from the packs of its inputs instead of doing the work:
// the scan of an unchanged class, the outcome of its rewrite, its body,
// or an input's whole output jar. cache_run.go finds and writes the packs.

package instrument

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/instrument/store"
	"github.com/tracebeat/tracebeat/methodmap"
)

// scanned serves the scan of class entry j of input i from the pack when
// it can: the whole input is unchanged, or the entry's stored bytes hash
// as in the previous version. Otherwise (and without a cache) it returns
// the entry's contents for a fresh scan (a buffer from GetBuffer).
func (c *runCache) scanned(i, j int, e *jario.Entry) (ci *scan.Class, hit bool, data []byte, err error) {
	if c == nil {
		data, err = e.Read()
		return nil, false, data, err
	}
	ic := c.inputs[i]
	if ic.from != nil && ic.whole {
		if rec := ic.from.Classes[e.Name]; rec != nil {
			ic.sums[j] = rec.Sum
			return c.reuseScan(i, ic, j, e, rec)
		}
	}
	raw, err := e.Stored()
	if err != nil {
		return nil, false, nil, err
	}
	ic.sums[j] = jario.EntrySum(e, raw)
	if ic.from != nil {
		if rec := ic.from.Classes[e.Name]; rec != nil && rec.Sum == ic.sums[j] {
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

func (c *runCache) reuseScan(i int, ic *inputCache, j int, e *jario.Entry, rec *pack.Class) (*scan.Class, bool, []byte, error) {
	in := c.p.inputs[i]
	if ci := rec.Info; ci != nil && ci.BlockedText() != rewrite.ReasonJVMRoot && ci.BlockedText() != c.p.opt.Policy.BlockedFor(ci.OrigName, c.p.evidence.has) {
		// The generated-class rule depends on the other classes (an R
		// class added or removed elsewhere): scan the class again.
		data, err := e.Read()
		return nil, false, data, err
	}
	ic.recs[j] = &pack.Class{Sum: rec.Sum, Info: rec.Info, Warn: rec.Warn}
	c.p.tally.count(func(r *Result) { r.CachedScans++ })
	if rec.Info == nil {
		if c.p.opt.Strict {
			return nil, true, nil, errors.New(rec.Warn)
		}
		c.p.warns.at(i, "%s: %s: cannot parse, copied untouched: %s", in.Path, e.Name, rec.Warn)
	}
	return rec.Info, true, nil, nil
}

// cachedOutcome returns the recorded outcome of rewriting class entry j
// with the plans hashing to ps, replaying what that rewrite reported. ok
// is false when there is none or its body cannot be read back intact.
func (c *runCache) cachedOutcome(idx int, ic *inputCache, j int, e *jario.Entry, ci *scan.Class, ps [32]byte) (res entryResult, rec *pack.Class, ok bool) {
	if ic.from == nil {
		return res, nil, false
	}
	old := ic.from.Classes[e.Name]
	if old == nil || old.Sum != ic.sums[j] || old.Plan != ps {
		return res, nil, false
	}
	r := old.Result
	if r.Rewritten {
		body, err := ic.readBody(c.store, &r)
		if err != nil {
			c.p.opt.Log.Debug("cache: body not reused: " + err.Error())
			return res, nil, false
		}
		res = entryResult{body: body, deflated: r.Deflated, crc: r.CRC, size: r.Size}
	}
	c.p.tally.skip(ci, r.Skipped)
	for _, w := range r.Warnings {
		c.p.warns.at(idx, "%s", w)
	}
	rec = &pack.Class{Sum: old.Sum, Info: ci, Plan: ps, Result: r}
	rec.Result.Off, rec.Result.N = 0, 0
	c.p.tally.count(func(res *Result) {
		res.CachedRewrites++
		if r.Rewritten {
			res.Rewritten++
		}
	})
	return res, rec, true
}

// readBody reads a recorded body from the pack's .dat and checks it.
func (ic *inputCache) readBody(c *cacheStore, r *pack.Result) ([]byte, error) {
	ic.datOnce.Do(func() { ic.dat, ic.datErr = jario.OpenFileReader(c.Path(ic.fromKey, store.Bodies), true) })
	if ic.datErr != nil {
		return nil, ic.datErr
	}
	if r.N < 0 || r.N > jario.MaxEntrySize {
		return nil, pack.ErrBadPack
	}
	body := jario.GetBuffer(int(r.N))
	if _, err := ic.dat.ReadAt(body, r.Off); err != nil {
		jario.PutBuffer(body)
		return nil, err
	}
	if jario.SumOf(body) != r.BodySum {
		jario.PutBuffer(body)
		return nil, pack.ErrBadPack
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
		rec := ic.from.Classes[e.Name]
		ci := c.p.infos[i][j]
		if rec == nil || (rec.Info == nil) != (ci == nil) {
			return false
		}
		var ps [32]byte
		if ci != nil {
			if plans, add := c.p.focus.plansFor(ci); len(plans) > 0 || add {
				ps = planSum(plans, add, true)
			}
		}
		if rec.Plan != ps {
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
		rec := ic.from.Classes[e.Name]
		if ci == nil || rec.Plan == ([32]byte{}) {
			continue
		}
		c.p.tally.skip(ci, rec.Result.Skipped)
		for _, w := range rec.Result.Warnings {
			c.p.warns.at(i, "%s", w)
		}
		c.p.tally.count(func(r *Result) {
			r.CachedRewrites++
			if rec.Result.Rewritten {
				r.Rewritten++
			}
		})
	}
}

// keptOutcome is the output of an unchanged class of a changed jar in a
// delta run: its record's body, or the class as it is. A body that cannot
// be read back intact is made again (redoKept).
func (c *runCache) keptOutcome(idx int, e *jario.Entry, rec *pack.Class) (entryResult, *pack.Class) {
	r := &rec.Result
	if !r.Rewritten {
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
		return entryResult{body: body, deflated: r.Deflated, crc: r.CRC, size: r.Size}, rec
	}
	c.p.opt.Log.Debug("cache: body not reused: " + err.Error())
	return c.redoKept(idx, e, rec)
}

// redoKept rewrites an unchanged class whose recorded body is lost with
// the plans it had: the ids of its methods are the kept map's. What the
// rewrite reports was reported for it already (the snapshot's counts, the
// record's warnings), so nothing is counted again.
func (c *runCache) redoKept(idx int, e *jario.Entry, rec *pack.Class) (entryResult, *pack.Class) {
	in := c.p.inputs[idx]
	fail := func(err error) (entryResult, *pack.Class) {
		return entryResult{err: fmt.Errorf("%s: %s: cache: %w", in.Path, e.Name, err)}, nil
	}
	ci, err := rec.DecodeInfo(c.p.texts)
	if err != nil || ci == nil {
		return fail(pack.ErrBadPack)
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
	plans, addFocus := c.p.focus.plansFor(ci)
	ps := planSum(plans, addFocus, true)
	if ps != rec.Plan {
		return fail(errors.New("internal error: an unchanged class plans differently"))
	}
	raw, err := e.Read()
	if err != nil {
		return fail(err)
	}
	out, err := rewriteClass(raw, ci, plans, addFocus, &c.p.opt)
	jario.PutBuffer(raw)
	if err != nil || out.body == nil {
		return fail(cmp.Or(err, errors.New("internal error: an unchanged class rewrites differently")))
	}
	res, err := compressed(out.body, !storedEntry(e))
	if err != nil {
		return fail(err)
	}
	redone := &pack.Class{Sum: rec.Sum, Info: ci, Plan: ps, Result: pack.Result{Rewritten: true,
		Deflated: res.deflated, CRC: res.crc, Size: res.size, Skipped: out.skipped, Warnings: out.warnings}}
	return res, redone
}
