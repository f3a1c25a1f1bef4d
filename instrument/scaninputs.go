package instrument

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
)

// instrumentedBefore reports whether a class holds code instrumented
// before; such a class is left as it is, the focus call included.
func instrumentedBefore(ci *scan.Class) bool {
	code := scan.Reasons.Code(rewrite.ReasonAlreadyInstrumented)
	return slices.ContainsFunc(ci.Methods, func(m scan.Method) bool { return m.Reason == code })
}

// checkInstrumentedBefore reports, per input, the methods the scan found
// instrumented already (left as they are): one warning each, or with
// Strict an error.
func (p *pipeline) checkInstrumentedBefore() error {
	code := scan.Reasons.Code(rewrite.ReasonAlreadyInstrumented)
	for i, infos := range p.infos {
		n, example := 0, ""
		for _, ci := range infos {
			if ci == nil {
				continue
			}
			for j := range ci.Methods {
				if m := &ci.Methods[j]; m.Reason == code {
					if n++; example == "" {
						k := ci.Key(m)
						example = k.Class + "." + k.Name + k.Desc
					}
				}
			}
		}
		if n == 0 {
			continue
		}
		if p.opt.Strict {
			return fmt.Errorf("%s: %d methods are instrumented already (%s, ...): is it an output of tracebeat?", p.inputs[i].Path, n, example)
		}
		p.warns.at(i, "%s: %d methods are instrumented already (%s, ...): left as they are (%s)", p.inputs[i].Path, n, example, rewrite.ReasonAlreadyInstrumented)
	}
	return nil
}

// classEvidence holds the original names of the classes of the inputs
// and the class path that Policy.GeneratedEvidence accepts: what the
// generated-class rule asks about.
type classEvidence map[string]bool

// note records the classes of a listed input that the generated-class
// rule may ask about, by their entry names (no class is read for it).
func (ev classEvidence) note(in *jario.Input, pol *scan.Policy) {
	if pol.GeneratedEvidence == nil {
		return
	}
	for j := range in.Entries {
		name, ok := strings.CutSuffix(in.Entries[j].Name, ".class")
		if !ok {
			continue
		}
		if rest, ok := strings.CutPrefix(name, "META-INF/versions/"); ok {
			if _, class, ok := strings.Cut(rest, "/"); ok {
				name = class
			}
		}
		if orig := pol.OriginalName(name); pol.GeneratedEvidence(orig) {
			ev[orig] = true
		}
	}
}

// has answers Policy.Generated's question from the evidence.
func (ev classEvidence) has(orig string) bool { return ev[orig] }

// listInputs reads the directories of the jars, on the workers. An
// input's directory is let go of at once (the entry names stay): the scan
// reads it again while it reads the input's classes, so a run holds the
// directories of the jars in flight, not of all (60 MB over Debian's 588
// jars).
func (p *pipeline) listInputs(ctx context.Context) error {
	all := append(append([]*jario.Input(nil), p.inputs...), p.classpath...)
	return parallel(ctx, p.opt.Workers, len(all), func(i, _ int) error {
		if err := all[i].List(); err != nil {
			if i >= len(p.inputs) {
				return fmt.Errorf("classpath: %w", err)
			}
			return err
		}
		if i < len(p.inputs) {
			all[i].Drop()
		}
		return nil
	})
}

// directoryHold keeps an input's zip directory loaded while the scan
// reads its classes: the first class loads it, the last lets it go.
type directoryHold struct {
	mu   sync.Mutex
	left int // classes not yet scanned
}

func (h *directoryHold) acquire(in *jario.Input) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return in.Load()
}

func (h *directoryHold) release(in *jario.Input) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.left--; h.left == 0 {
		in.Drop()
	}
}

// scan reads every class of the inputs and the classpath.
func (p *pipeline) scan(ctx context.Context) error {
	type ref struct{ in, e int }
	var refs []ref
	p.infos = make([][]*scan.Class, len(p.inputs))
	holds := make([]directoryHold, len(p.inputs))
	for i, in := range p.inputs {
		p.infos[i] = make([]*scan.Class, len(in.Entries))
		for j := range in.Entries {
			if in.Entries[j].IsClass() {
				refs = append(refs, ref{i, j})
				holds[i].left++
			}
		}
	}
	p.res.Classes = len(refs)
	scanners := p.newScanners()
	err := parallel(ctx, p.opt.Workers, len(refs), func(k, worker int) error {
		r := refs[k]
		in := p.inputs[r.in]
		e := &in.Entries[r.e]
		if err := holds[r.in].acquire(in); err != nil {
			return err
		}
		defer holds[r.in].release(in)
		ci, hit, data, err := p.cache.scanned(r.in, r.e, e)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", in.Path, e.Name, err)
		}
		if hit {
			p.infos[r.in][r.e] = ci
			return nil
		}
		ci, err = scanEntry(scanners[worker], e, data)
		if err != nil {
			if p.opt.Strict {
				return fmt.Errorf("%s: %s: %w", in.Path, e.Name, err)
			}
			p.warns.at(r.in, "%s: %s: cannot parse, copied untouched: %v", in.Path, e.Name, err)
			p.cache.noteScan(r.in, r.e, nil, err)
			return nil
		}
		p.infos[r.in][r.e] = ci
		p.cache.noteScan(r.in, r.e, ci, nil)
		return nil
	})
	if err != nil {
		return err
	}
	// Classpath: only names and superclasses.
	p.cpSuper = map[string]string{}
	var cpRefs []ref
	for i, in := range p.classpath {
		for j := range in.Entries {
			if in.Entries[j].IsClass() {
				cpRefs = append(cpRefs, ref{i, j})
			}
		}
	}
	supers := make([][2]string, len(cpRefs))
	err = parallel(ctx, p.opt.Workers, len(cpRefs), func(k, _ int) error {
		r := cpRefs[k]
		e := &p.classpath[r.in].Entries[r.e]
		data, err := e.Read()
		if err != nil {
			return fmt.Errorf("classpath %s: %s: %w", p.classpath[r.in].Path, e.Name, err)
		}
		defer jario.PutBuffer(data)
		c, err := cf.Parse(data)
		if err != nil {
			return nil // a classpath class we cannot read only narrows Activity detection
		}
		name, err1 := c.Name()
		super, err2 := c.SuperName()
		if err1 == nil && err2 == nil {
			supers[k] = [2]string{name, super}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, s := range supers {
		if s[0] != "" {
			if _, ok := p.cpSuper[s[0]]; !ok {
				p.cpSuper[s[0]] = s[1]
			}
		}
	}
	return nil
}

// newScanners makes a scanner for each worker.
func (p *pipeline) newScanners() []*scan.Scanner {
	scanners := make([]*scan.Scanner, p.opt.Workers)
	for w := range scanners {
		scanners[w] = scan.NewScanner(&p.opt.Policy, p.opt.Runtime, p.texts, p.evidence.has)
	}
	return scanners
}

// scanEntry scans the contents of class entry e (a buffer it gives back):
// every scan of an input class, in a full run and of a changed class in a
// delta run, is this one.
func scanEntry(sc *scan.Scanner, e *jario.Entry, data []byte) (*scan.Class, error) {
	ci, err := sc.Scan(data, e.Name)
	jario.PutBuffer(data) // the scan copies what it keeps
	if err != nil {
		return nil, err
	}
	_, ci.Versioned = jario.VersionedClass(e.Name)
	ci.CRCWrong = e.HasWrongCRC()
	return ci, nil
}
