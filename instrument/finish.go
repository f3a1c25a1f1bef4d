package instrument

import (
	"cmp"
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
	var planned *methodmap.Map
	done := make(chan struct{})
	go func() {
		defer close(done)
		planned = p.plannedMap()
	}()
	p.res.Ignored = p.ignoredMethods()
	<-done
	p.res.Map, p.res.Planned = planned, planned
	if len(p.skipped) > 0 {
		p.res.Map = &methodmap.Map{HighWater: planned.HighWater}
		for _, e := range planned.Entries {
			if _, bad := p.skipped[e.Key]; bad {
				p.res.Map.HighWater = max(p.res.Map.HighWater, e.ID)
				continue
			}
			p.res.Map.Entries = append(p.res.Map.Entries, e)
		}
	}
	for k := range p.focus {
		p.res.Focus = append(p.res.Focus, k)
	}
	sort.Strings(p.res.Focus)
	p.res.Traced = len(p.res.Map.Entries) - 1 // the dispatch entry
	p.res.IgnoredCount = len(p.res.Ignored)
	p.res.IgnoredByReason = map[string]int{}
	for _, m := range p.res.Ignored {
		p.res.IgnoredByReason[string(m.Reason)]++
	}
	p.tallyRules()
}

// encodeTexts lays out the maps as files (Options.MapPath): the method
// map and the planned map, which are one text when nothing was skipped,
// and the ignore map, at once.
func (p *pipeline) encodeTexts() error {
	var planErr, mapErr error
	var wg sync.WaitGroup
	wg.Go(func() { p.res.plannedText, planErr = methodmap.EncodeMap(p.res.Planned) })
	if p.res.Map != p.res.Planned {
		wg.Go(func() { p.res.mapText, mapErr = methodmap.EncodeMap(p.res.Map) })
	}
	p.res.ignoreText = methodmap.EncodeIgnoreMap(p.res.Ignored)
	wg.Wait()
	if p.res.Map == p.res.Planned {
		p.res.mapText = p.res.plannedText
	}
	return cmp.Or(planErr, mapErr)
}

// ignoredMethods lists the methods left untraced, planned ones that could
// not be rewritten included, sorted by key.
func (p *pipeline) ignoredMethods() []IgnoredMethod {
	n := 0
	for _, infos := range p.infos {
		for _, ci := range infos {
			if ci != nil {
				for j := range ci.methods {
					if !ci.methods[j].trace {
						n++
					}
				}
			}
		}
	}
	ignored := make([]IgnoredMethod, 0, n+len(p.skipped))
	for _, infos := range p.infos {
		for _, ci := range infos {
			if ci == nil {
				continue
			}
			for j := range ci.methods {
				m := &ci.methods[j]
				if !m.trace {
					ignored = append(ignored, IgnoredMethod{Key: ci.key(m), Access: m.access, Reason: methodmap.Reason(reasons.text(m.reason))})
				} else if len(p.skipped) > 0 {
					if r, bad := p.skipped[ci.key(m)]; bad {
						ignored = append(ignored, IgnoredMethod{Key: ci.key(m), Access: m.access, Reason: methodmap.Reason(r)})
					}
				}
			}
		}
	}
	// The same method can come twice (a class in two inputs, multi-release
	// variants): sort, then keep the first of each key.
	slices.SortStableFunc(ignored, func(a, b IgnoredMethod) int { return compareFields(a.Key, b.Key) })
	return slices.CompactFunc(ignored, func(a, b IgnoredMethod) bool { return a.Key == b.Key })
}
