// The output of one entry: a class rewritten by its plans (or its
// outcome taken from the cache), anything else copied as its compressed
// bytes, and the deflate that a rewritten body or a directory's file
// going into a jar gets. write.go streams these into the sinks.

package instrument

import (
	"archive/zip"
	"fmt"
	"hash/crc32"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"go.uber.org/zap"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
)

// classRewriter makes the output of a run's entries on the workers: it
// asks the focus set for a class's plans, the cache for a kept outcome,
// and counts what each rewrite reports.
type classRewriter struct {
	inputs []*jario.Input
	opt    *Options
	focus  focusSet
	tally  *runTally
	warns  *runWarnings
	cache  *runCache
}

// processEntry decides, on a worker, what entry j of input idx becomes in
// the output: its raw bytes copied (a zero entryResult) or new contents;
// with a cache, rec is the record of a class that had plans (its body, if
// any, still to be stored by emit). entryOutput chooses; the cache lookup,
// the rewrite and the compression are steps of their own.
func (cr *classRewriter) processEntry(idx, j int, ci *scan.Class, toJar bool) (entryResult, *pack.Class) {
	in := cr.inputs[idx]
	e := &in.Entries[j]
	res, rec, err := cr.entryOutput(idx, j, e, ci, toJar)
	if err != nil {
		return entryResult{err: fmt.Errorf("%s: %s: %w", in.Path, e.Name, err)}, nil
	}
	return res, rec
}

func (cr *classRewriter) entryOutput(idx, j int, e *jario.Entry, ci *scan.Class, toJar bool) (entryResult, *pack.Class, error) {
	// A directory's files going into a jar get new (compressed) contents
	// even when unchanged; a jar's unchanged entries are copied raw.
	repack := toJar && cr.inputs[idx].IsDir
	var plans []rewrite.MethodPlan
	addFocus := false
	if ci != nil {
		plans, addFocus = cr.focus.plansFor(ci)
	}
	if len(plans) == 0 && !addFocus {
		if ci == nil && e.NeedsCheck() {
			if err := e.Check(); err != nil {
				return entryResult{}, nil, err
			}
		}
		if !repack {
			return entryResult{}, nil, nil
		}
		res, err := readCompressed(e, toJar)
		return res, nil, err
	}
	var ps [32]byte
	ic := cr.cache.pack(idx)
	if ic != nil {
		ps = planSum(plans, addFocus, toJar)
		if res, rec, ok := cr.cache.cachedOutcome(idx, ic, j, e, ci, ps); ok {
			if res.body != nil || !repack {
				return res, rec, nil
			}
			// An unchanged class of a directory going into a jar.
			res, err := readCompressed(e, toJar)
			return res, rec, err
		}
	}
	data, changed, rec, err := cr.rewriteEntry(idx, j, e, ci, plans, addFocus, ic, ps)
	if err != nil {
		return entryResult{}, nil, err
	}
	if !changed && !repack {
		jario.PutBuffer(data)
		return entryResult{}, rec, nil // copied raw
	}
	res, err := compressed(data, toJar && !storedEntry(e))
	if err != nil {
		return entryResult{}, nil, err
	}
	if rec != nil && changed {
		rec.Result.Deflated, rec.Result.CRC, rec.Result.Size = res.deflated, res.crc, res.size
	}
	return res, rec, nil
}

// rewriteEntry rewrites class entry j by its plans: it returns the new
// class bytes (changed) or, when no method could be changed, the raw ones,
// and, with a cache, the record of the outcome.
func (cr *classRewriter) rewriteEntry(idx, j int, e *jario.Entry, ci *scan.Class, plans []rewrite.MethodPlan, addFocus bool, ic *inputCache, ps [32]byte) (data []byte, changed bool, rec *pack.Class, err error) {
	raw, err := e.Read()
	if err != nil {
		return nil, false, nil, err
	}
	out, err := rewriteClass(raw, ci, plans, addFocus, cr.opt)
	if err != nil {
		jario.PutBuffer(raw)
		return nil, false, nil, err
	}
	cr.reportRewrite(idx, ci, &out)
	if ic != nil {
		rec = &pack.Class{Sum: ic.sums[j], Info: ci, Plan: ps, Result: pack.Result{
			Rewritten: out.body != nil, Skipped: out.skipped, Warnings: out.warnings}}
	}
	if out.body == nil {
		return raw, false, rec, nil
	}
	jario.PutBuffer(raw)
	return out.body, true, rec, nil
}

// readCompressed makes an entry's unchanged contents the new contents of
// an output entry (a directory's file going into a jar).
func readCompressed(e *jario.Entry, toJar bool) (entryResult, error) {
	data, err := e.Read()
	if err != nil {
		return entryResult{}, err
	}
	return compressed(data, toJar && !storedEntry(e))
}

// storedEntry reports whether e is a jar entry stored uncompressed. Its
// rewritten form is stored too: the jar's author chose to trade size for
// loading speed (kotlin-compiler.jar stores all its classes), and keeping
// the method keeps the output jar shaped like its input.
func storedEntry(e *jario.Entry) bool { return e.ZipFile != nil && e.ZipFile.Method == zip.Store }

// compressed makes the entry result of new contents, deflated when deflate
// is set (the entry goes into a jar and was not stored). data is consumed.
func compressed(data []byte, deflate bool) (entryResult, error) {
	res := entryResult{crc: crc32.ChecksumIEEE(data), size: len(data)}
	if !deflate {
		res.body = data
		return res, nil
	}
	comp, err := jario.DeflateBytes(data)
	jario.PutBuffer(data)
	if err != nil {
		return entryResult{}, err
	}
	res.body, res.deflated = comp, true
	return res, nil
}

// rewriteOutcome is what rewriting one class produced: the new bytes (a
// buffer from GetBuffer), or nil when no method could be changed, and what
// it reported.
type rewriteOutcome struct {
	body     []byte
	skipped  []pack.Skip
	warnings []string
}

// rewriteClass applies the plans to one class, with opt's runtime and log.
func rewriteClass(raw []byte, ci *scan.Class, plans []rewrite.MethodPlan, addFocus bool, opt *Options) (rewriteOutcome, error) {
	var out rewriteOutcome
	c, err := cf.Parse(raw)
	if err != nil {
		return out, err
	}
	skipped, changed, err := rewrite.RewriteClass(c, &opt.Runtime, plans)
	if err != nil {
		return out, err
	}
	for _, s := range skipped {
		k := ci.Key(&ci.Methods[s.Index])
		out.skipped = append(out.skipped, pack.Skip{Index: int32(s.Index), Reason: s.Reason})
		opt.Log.Debug("method left untouched", zap.String("class", ci.Name), zap.String("method", k.Name+k.Desc), zap.String("reason", s.Reason), zap.Error(s.Err))
	}
	if addFocus {
		if err := rewrite.AddFocusMethod(c, &opt.Runtime); err != nil {
			out.warnings = append(out.warnings, fmt.Sprintf("class %s: focus method not added: %v", ci.Name, err))
		} else {
			changed = true
		}
	}
	if !changed {
		return out, nil
	}
	body, err := c.AppendTo(jario.GetBuffer(c.Size())[:0])
	if err != nil {
		return out, err
	}
	// Never write a class we cannot read back.
	if _, err := cf.Parse(body); err != nil {
		jario.PutBuffer(body)
		return out, fmt.Errorf("internal error: rewritten class does not parse: %w", err)
	}
	out.body = body
	return out, nil
}

// reportRewrite counts and reports what rewriting a class of input idx
// produced.
func (cr *classRewriter) reportRewrite(idx int, ci *scan.Class, out *rewriteOutcome) {
	cr.tally.skip(ci, out.skipped)
	for _, w := range out.warnings {
		cr.warns.at(idx, "%s", w)
	}
	if out.body != nil {
		cr.tally.count(func(r *Result) { r.Rewritten++ })
	}
}
