package instrument

import (
	"time"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"go.uber.org/zap"

	"github.com/tracebeat/tracebeat/instrument/store"
	"github.com/tracebeat/tracebeat/methodmap"
)

// runCache is the cache as one run sees it: the store, the run's view of
// each input's pack, the checks and content sums that tell the inputs
// from their last versions, the last run this one patches, and the kept
// base map on its way. The pipeline reaches all of it through its one
// field cache and keeps none of it itself. A nil *runCache is a run
// without a cache: the questions below answer "no" for it.
type runCache struct {
	// p is the run the cache serves: its inputs, options and result,
	// which the questions below are about.
	p      *pipeline
	store  *cacheStore
	inputs []*inputCache // by input
	known  inputSums     // the checks and content sums of the inputs (inputsum.go)
	last   *delta        // the last run of this command, patched; nil in a full run
	// keptBase delivers the base map of a full run (readKeptMap).
	keptBase <-chan *methodmap.Map
	// spans are where each input's entries lie in a merged output, for
	// the snapshot (a later delta run copies the unchanged ones).
	spans []jario.Span
}

// delta is the last run this run patches, or nil.
func (c *runCache) delta() *delta {
	if c == nil {
		return nil
	}
	return c.last
}

// packs are the run's views of the inputs' packs, by input; none without
// a cache.
func (c *runCache) packs() []*inputCache {
	if c == nil {
		return nil
	}
	return c.inputs
}

// BaseMap is the base map a full run plans with: given, or, with a cache
// and a map path, the map the last run kept merged under it.
func (c *runCache) baseMap(given *methodmap.Map) *methodmap.Map {
	if c == nil || c.keptBase == nil {
		return given
	}
	return <-c.keptBase
}

// pack is the run's view of input i's pack; nil without a cache.
func (c *runCache) pack(i int) *inputCache {
	if c == nil {
		return nil
	}
	return c.inputs[i]
}

// noteScan records for input i's pack what the scan of entry j found:
// the class's scan, or why it does not parse.
func (c *runCache) noteScan(i, j int, ci *scan.Class, parseErr error) {
	if c == nil {
		return
	}
	ic := c.inputs[i]
	rec := &pack.Class{Sum: ic.sums[j], Info: ci}
	if parseErr != nil {
		rec.Warn = parseErr.Error()
	}
	ic.recs[j] = rec
}

// startOutput opens the bodies file of input i's new pack as its output
// is about to be written: a delta run appends to the last one's.
func (c *runCache) startOutput(i int) error {
	switch {
	case c == nil:
		return nil
	case c.last != nil:
		return c.inputs[i].shareDat(c.store)
	}
	return c.inputs[i].startPack(c.store)
}

// keepOutcome records what the write of entry j of input idx made (rec,
// with body when it was rewritten) in the input's new pack.
func (c *runCache) keepOutcome(idx, j int, rec *pack.Class, body []byte) error {
	if c == nil || rec == nil {
		return nil
	}
	ic := c.inputs[idx]
	var err error
	if rec.Result.Rewritten && rec.Raw == nil { // a kept record's body is in the shared .dat
		if err = ic.appendBody(rec, body); err != nil {
			ic.discardDat()
		}
	}
	ic.recs[j] = rec
	return err
}

// keepSpans keeps where each input's entries lie in the merged output.
func (c *runCache) keepSpans(spans []jario.Span) {
	if c != nil {
		c.spans = spans
	}
}

// noteOutputWarning records that writing input idx's output warned: its
// pack keeps no output jar, so the warning comes again in the next run.
func (c *runCache) noteOutputWarning(idx int) {
	if c != nil {
		c.inputs[idx].emitWarned = true
	}
}

// keep stores what the run made for the next: the packs of the inputs
// and, with a map path, the run's snapshot.
func (c *runCache) keep() {
	if c == nil {
		return
	}
	if c.last != nil {
		c.last.adoptChangedSums()
	}
	c.storeCache()
	if c.p.opt.MapPath != "" {
		c.p.storeSnapshot()
	}
	// What this run used stays; what no run used for a week goes (each
	// upgrade of the binary leaves the last one's snapshots and packs).
	packs := make([]string, 0, 2*len(c.inputs))
	for _, in := range c.inputs {
		packs = append(packs, in.key, in.fromKey)
	}
	c.store.Used(packs, c.store.identity)
	if n := c.store.Trim(store.DefaultMaxAge, time.Now()); n > 0 {
		c.p.opt.Log.Debug("cache: removed what no run used for a week", zap.Int("files", n))
	}
}
