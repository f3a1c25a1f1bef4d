package instrument

import (
	"bytes"
	"cmp"
	"io"
	"sort"
	"sync"

	"github.com/tracebeat/tracebeat/instrument/scan"
)

// finish builds the method lists of the result. The map is the assigned
// one less the methods that could not be rewritten; their ids stay retired
// through the high-water mark.
func (p *pipeline) finish() {
	// The two lists are independent; each is a pass over every method.
	var traced *scan.TracedList
	done := make(chan struct{})
	go func() {
		defer close(done)
		traced = p.infos.TracedList(p.highWater, p.tally.skipped)
	}()
	ignored := p.infos.IgnoredList(p.tally.skipped)
	<-done
	maps := &p.res.maps
	maps.traced, maps.ignored = traced, ignored
	if p.opt.Lists {
		p.res.Ignored = ignored.Methods()
	}
	for k := range p.focus {
		p.res.Focus = append(p.res.Focus, k)
	}
	sort.Strings(p.res.Focus)
	p.res.Traced = traced.Lines()
	p.res.IgnoredCount = ignored.Len()
	p.res.IgnoredByReason = ignored.CountByReason()
	t, names := p.infos.RuleTally(p.opt.Policy.ClassRule != nil)
	p.res.RuleClasses, p.res.RuleMethods, p.res.ClassNames = dropZero(t.Classes), dropZero(t.Methods), names
}

// encodeTexts lays out the maps as files (Options.MapPath): the method
// map and the planned map, which are one text when nothing was skipped,
// and the ignore map, at once.
func (m *runMaps) encodeTexts() error {
	var planErr, mapErr, ignoreErr error
	var wg sync.WaitGroup
	wg.Go(func() { m.plannedText, planErr = encoded(m.traced.WritePlanned) })
	if m.traced.Kept != nil {
		wg.Go(func() { m.mapText, mapErr = encoded(m.traced.WriteMethodMap) })
	}
	m.ignoreText, ignoreErr = encoded(m.ignored.WriteText)
	wg.Wait()
	if m.traced.Kept == nil {
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
