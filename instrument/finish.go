package instrument

import (
	"bytes"
	"cmp"
	"io"
	"slices"
	"sort"
	"sync"

	"github.com/tracebeat/tracebeat/methodmap"
)

// finish builds the method lists of the result. The map is the assigned
// one less the methods that could not be rewritten; their ids stay retired
// through the high-water mark.
func (p *pipeline) finish() {
	// The two lists are independent; each is a pass over every method.
	var traced *tracedList
	done := make(chan struct{})
	go func() {
		defer close(done)
		traced = p.tracedList()
	}()
	ignored := p.ignoredMethods()
	<-done
	maps := &p.res.maps
	maps.traced, maps.ignored = traced, ignored
	if p.opt.Lists {
		p.res.Ignored = ignored
	}
	for k := range p.focus {
		p.res.Focus = append(p.res.Focus, k)
	}
	sort.Strings(p.res.Focus)
	p.res.Traced = traced.lines()
	p.res.IgnoredCount = len(ignored)
	p.res.IgnoredByReason = map[string]int{}
	for _, m := range ignored {
		p.res.IgnoredByReason[string(m.Reason)]++
	}
	p.tallyRules()
}

// encodeTexts lays out the maps as files (Options.MapPath): the method
// map and the planned map, which are one text when nothing was skipped,
// and the ignore map, at once.
func (p *pipeline) encodeTexts() error {
	m := &p.res.maps
	var planErr, mapErr error
	var wg sync.WaitGroup
	wg.Go(func() { m.plannedText, planErr = encoded(m.traced.writePlanned) })
	if m.traced.kept != nil {
		wg.Go(func() { m.mapText, mapErr = encoded(m.traced.writeMethodMap) })
	}
	m.ignoreText = methodmap.EncodeIgnoreMap(m.ignored)
	wg.Wait()
	if m.traced.kept == nil {
		m.mapText = m.plannedText
	}
	return cmp.Or(planErr, mapErr)
}

// encoded returns what write writes.
func encoded(write func(io.Writer) error) ([]byte, error) {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ignoredMethods lists the methods left untraced, planned ones that could
// not be rewritten included, sorted by key.
func (p *pipeline) ignoredMethods() []IgnoredMethod {
	n := 0
	p.eachMethod(func(ci *classInfo, j int) {
		if !ci.methods[j].trace {
			n++
		}
	})
	ignored := make([]IgnoredMethod, 0, n+len(p.skipped))
	p.eachMethod(func(ci *classInfo, j int) {
		m := &ci.methods[j]
		if !m.trace {
			ignored = append(ignored, IgnoredMethod{Key: ci.key(m), Access: m.access, Reason: methodmap.Reason(reasons.text(m.reason))})
		} else if len(p.skipped) > 0 {
			if r, bad := p.skipped[ci.key(m)]; bad {
				ignored = append(ignored, IgnoredMethod{Key: ci.key(m), Access: m.access, Reason: methodmap.Reason(r)})
			}
		}
	})
	// The same method can come twice (a class in two inputs, multi-release
	// variants): sort, then keep the first of each key.
	slices.SortStableFunc(ignored, func(a, b IgnoredMethod) int { return compareFields(a.Key, b.Key) })
	return slices.CompactFunc(ignored, func(a, b IgnoredMethod) bool { return a.Key == b.Key })
}
