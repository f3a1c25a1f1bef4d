// The output of one entry: a class rewritten by its plans (or its
// outcome taken from the cache), anything else copied as its compressed
// bytes, and the deflate that a rewritten body or a directory's file
// going into a jar gets. write.go streams these into the sinks.

package instrument

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"sync"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"github.com/klauspost/compress/flate"
	"go.uber.org/zap"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
)

// errWrongCRC describes an entry whose contents do not match the CRC its
// header declares.
var errWrongCRC = errors.New("contents do not match the CRC the jar declares")

// needsCheck reports whether an entry that is copied raw must first be
// inflated to check it: class entries were read (and their CRC checked) by
// the scan; other jar entries were not, and a corrupt one must not reach
// the output unnoticed.
func needsCheck(e *jario.Entry) bool {
	return e.ZipFile != nil && !e.IsClass() && !jario.IsDirName(e.Name)
}

// checkEntry inflates a jar entry, which verifies its size and CRC.
func checkEntry(e *jario.Entry) error {
	data, err := e.Read()
	jario.PutBuffer(data)
	return err
}

// processEntry decides, on a worker, what entry j of input idx becomes in
// the output: its raw bytes copied (a zero entryResult) or new contents;
// with a cache, rec is the record of a class that had plans (its body, if
// any, still to be stored by emit). entryOutput chooses; the cache lookup,
// the rewrite and the compression are steps of their own.
func (p *pipeline) processEntry(idx, j int, ci *scan.Class, toJar bool) (entryResult, *cachedClass) {
	in := p.inputs[idx]
	e := &in.Entries[j]
	res, rec, err := p.entryOutput(idx, j, e, ci, toJar)
	if err != nil {
		return entryResult{err: fmt.Errorf("%s: %s: %w", in.Path, e.Name, err)}, nil
	}
	return res, rec
}

func (p *pipeline) entryOutput(idx, j int, e *jario.Entry, ci *scan.Class, toJar bool) (entryResult, *cachedClass, error) {
	// A directory's files going into a jar get new (compressed) contents
	// even when unchanged; a jar's unchanged entries are copied raw.
	repack := toJar && p.inputs[idx].IsDir
	var plans []rewrite.MethodPlan
	addFocus := false
	if ci != nil {
		plans, addFocus = p.plansFor(ci)
	}
	if len(plans) == 0 && !addFocus {
		if ci == nil && needsCheck(e) {
			if err := checkEntry(e); err != nil {
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
	ic := p.cache.pack(idx)
	if ic != nil {
		ps = planSum(plans, addFocus, toJar)
		if res, rec, ok := p.cache.cachedOutcome(idx, ic, j, e, ci, ps); ok {
			if res.body != nil || !repack {
				return res, rec, nil
			}
			// An unchanged class of a directory going into a jar.
			res, err := readCompressed(e, toJar)
			return res, rec, err
		}
	}
	data, changed, rec, err := p.rewriteEntry(idx, j, e, ci, plans, addFocus, ic, ps)
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
		rec.result.deflated, rec.result.crc, rec.result.size = res.deflated, res.crc, res.size
	}
	return res, rec, nil
}

// rewriteEntry rewrites class entry j by its plans: it returns the new
// class bytes (changed) or, when no method could be changed, the raw ones,
// and, with a cache, the record of the outcome.
func (p *pipeline) rewriteEntry(idx, j int, e *jario.Entry, ci *scan.Class, plans []rewrite.MethodPlan, addFocus bool, ic *inputCache, ps [32]byte) (data []byte, changed bool, rec *cachedClass, err error) {
	raw, err := e.Read()
	if err != nil {
		return nil, false, nil, err
	}
	out, err := p.rewrite(raw, ci, plans, addFocus)
	if err != nil {
		jario.PutBuffer(raw)
		return nil, false, nil, err
	}
	p.reportRewrite(idx, ci, &out)
	if ic != nil {
		rec = &cachedClass{sum: ic.sums[j], info: ci, plan: ps, result: cachedResult{
			rewritten: out.body != nil, skipped: out.skipped, warnings: out.warnings}}
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
	comp, err := deflateBytes(data)
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
	skipped  []cachedSkip
	warnings []string
}

// rewrite applies the plans to one class.
func (p *pipeline) rewrite(raw []byte, ci *scan.Class, plans []rewrite.MethodPlan, addFocus bool) (rewriteOutcome, error) {
	var out rewriteOutcome
	c, err := cf.Parse(raw)
	if err != nil {
		return out, err
	}
	skipped, changed, err := rewrite.RewriteClass(c, &p.opt.Runtime, plans)
	if err != nil {
		return out, err
	}
	for _, s := range skipped {
		k := ci.Key(&ci.Methods[s.Index])
		out.skipped = append(out.skipped, cachedSkip{index: int32(s.Index), reason: s.Reason})
		p.opt.Log.Debug("method left untouched", zap.String("class", ci.Name), zap.String("method", k.Name+k.Desc), zap.String("reason", s.Reason), zap.Error(s.Err))
	}
	if addFocus {
		if err := rewrite.AddFocusMethod(c, &p.opt.Runtime); err != nil {
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
func (p *pipeline) reportRewrite(idx int, ci *scan.Class, out *rewriteOutcome) {
	p.tally.skip(ci, out.skipped)
	for _, w := range out.warnings {
		p.warns.at(idx, "%s", w)
	}
	if out.body != nil {
		p.tally.count(func(r *Result) { r.Rewritten++ })
	}
}

// deflateLevel matches archive/zip's default. klauspost/compress's deflate
// runs about 1.7x faster than compress/flate at this level for a ratio
// within 1% on class files, and compression is the largest cost of a run.
const deflateLevel = 5

// deflaters reuses compressor state, which is large to allocate.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, deflateLevel)
	return w
}}

// deflateBytes compresses data into a buffer from GetBuffer.
func deflateBytes(data []byte) ([]byte, error) {
	buf := bytes.NewBuffer(jario.GetBuffer(len(data)/2 + 64)[:0])
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(buf)
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
