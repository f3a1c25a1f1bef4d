package instrument

import "github.com/tracebeat/tracebeat/methodmap"

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
	// checks are the checks of the inputs then the classpath, sums the
	// content sums of the inputs (inputsum.go).
	checks []checksum
	sums   [][32]byte
	last   *delta // the last run of this command, patched; nil in a full run
	// keptBase delivers the base map of a full run (readKeptMap).
	keptBase <-chan *methodmap.Map
	identity string // runIdentity's answer, once asked
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

// baseMap is the base map a full run plans with: given, or, with a cache
// and a map path, the map the last run kept merged under it.
func (c *runCache) baseMap(given *methodmap.Map) *methodmap.Map {
	if c == nil || c.keptBase == nil {
		return given
	}
	return <-c.keptBase
}
