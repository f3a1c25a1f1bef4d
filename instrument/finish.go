package instrument

import (
	"bytes"
	"cmp"
	"io"
	"sort"
	"sync"
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
		traced = p.infos.tracedList(p.highWater, p.tally.skipped)
	}()
	ignored := p.infos.ignoredList(p.tally.skipped)
	<-done
	maps := &p.res.maps
	maps.traced, maps.ignored = traced, ignored
	if p.opt.Lists {
		p.res.Ignored = ignored.methods()
	}
	for k := range p.focus {
		p.res.Focus = append(p.res.Focus, k)
	}
	sort.Strings(p.res.Focus)
	p.res.Traced = traced.lines()
	p.res.IgnoredCount = ignored.len()
	p.res.IgnoredByReason = ignored.countByReason()
	t, names := p.infos.ruleTally(p.opt.Policy.ClassRule != nil)
	p.res.RuleClasses, p.res.RuleMethods, p.res.ClassNames = dropZero(t.classes), dropZero(t.methods), names
}

// encodeTexts lays out the maps as files (Options.MapPath): the method
// map and the planned map, which are one text when nothing was skipped,
// and the ignore map, at once.
func (m *runMaps) encodeTexts() error {
	var planErr, mapErr, ignoreErr error
	var wg sync.WaitGroup
	wg.Go(func() { m.plannedText, planErr = encoded(m.traced.writePlanned) })
	if m.traced.kept != nil {
		wg.Go(func() { m.mapText, mapErr = encoded(m.traced.writeMethodMap) })
	}
	m.ignoreText, ignoreErr = encoded(m.ignored.writeTo)
	wg.Wait()
	if m.traced.kept == nil {
		m.mapText = m.plannedText
	}
	return cmp.Or(planErr, mapErr, ignoreErr)
}

// encoded returns what write writes.
func encoded(write func(io.Writer) error) ([]byte, error) {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
