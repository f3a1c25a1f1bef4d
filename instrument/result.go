package instrument

import (
	"bytes"
	"io"
	"sync"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/methodmap"
)

// TracedMethod is a method that got an id.
type TracedMethod struct {
	Key    MethodKey
	Access uint16
	ID     int
}

// MethodKey names a method by its original (de-obfuscated) class, name
// and descriptor; class names are internal (slashes).
type MethodKey = methodmap.MethodKey

// IgnoredMethod is a method left untraced, with the reason: the map's
// own type, so the list goes to the ignore map and the report as it is.
type IgnoredMethod = methodmap.IgnoredMethod

// Result summarises a run. It has one shape whatever the run took from
// a cache: the counts are filled, and the maps answer through the methods
// below, made from what the run holds (runMaps).
type Result struct {
	Inputs  int
	Classes int // class entries read
	// Renamed counts the classes whose original name (Policy.OriginalClass)
	// is not their name: what a mapping applied to.
	Renamed   int
	Rewritten int // classes written with changes
	// Ignored lists the methods left untraced, sorted by key, when
	// Options.Lists asks for it (else nil, in every run).
	Ignored    []IgnoredMethod
	Skipped    map[string]int // planned methods left untouched, by reason
	Focus      []string       // classes that got the focus call
	Duplicates []string       // class names found in more than one input
	Warnings   []string
	Outputs    []string
	// BuildID is the identity of the method map the caller wrote
	// (methodmap.BuildID), which it stamps into an output; set by the caller.
	BuildID string
	// With Options.Cache: inputs whose output was the cached jar whole,
	// classes whose scan came from the cache, and classes whose rewrite
	// outcome did.
	CachedInputs, CachedScans, CachedRewrites int
	// Traced counts the method map's entries but the dispatch entry,
	// IgnoredCount the ignored methods, and IgnoredByReason those by
	// reason.
	Traced, IgnoredCount int
	IgnoredByReason      map[string]int
	// RuleClasses counts the classes per rule Policy.ClassRule named, and
	// RuleMethods the methods per rule that decided them (Policy.Decide,
	// and a blocked class's rule for its methods); each class name counts
	// once. ClassNames are the original names of the input classes,
	// sorted, when the policy has a ClassRule: what a caller needs to
	// explain a rule that matched nothing. Every run fills them, whatever
	// it took from a cache.
	RuleClasses, RuleMethods map[string]int
	ClassNames               []string

	maps runMaps
	keep func() error // KeepMap's work, when the run had a cache and a MapPath
	// report is what ReportText gave, reportKept whether it is the one
	// the cache kept; lastReport, in a delta run that left the ignored
	// list as it was, gives the kept report if it starts with head.
	report     []byte
	reportKept bool
	lastReport func(head []byte) []byte
}

// runMaps holds a run's three maps in the form the run made them: as
// lists (a run that planned every method), as the texts of the files (a
// run with Options.MapPath; one that patched its last result has only
// these), or both. Each form is made from the other when first asked, so
// a caller never needs to know how the run went. A run without a map
// path keeps no texts: a large build's maps are tens of MB, written
// straight from the lists.
type runMaps struct {
	mu                               sync.Mutex
	traced                           *scan.TracedList // the run planned every method
	method, planned                  *methodmap.Map
	ignored                          *scan.IgnoredList
	mapText, plannedText, ignoreText []byte
}

// MethodMap returns the method map of what was instrumented: every traced
// method with its id, and the dispatch entry.
func (r *Result) MethodMap() (*methodmap.Map, error) {
	m := &r.maps
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.method == nil && m.traced != nil {
		m.method = m.traced.MethodMap()
	}
	return m.parsed(&m.method, m.mapText, "method map")
}

// PlannedMap returns the method map with the planned methods that could
// not be rewritten (Skipped) still in, with the ids they were planned
// with. As the next run's base map it keeps those ids too, so the same
// inputs plan the same again (and a cache can serve them).
func (r *Result) PlannedMap() (*methodmap.Map, error) {
	m := &r.maps
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.planned == nil && m.traced != nil {
		m.planned = m.traced.PlannedMap()
	}
	return m.parsed(&m.planned, m.plannedText, "planned map")
}

// parsed returns *list, parsed from text first when the run made only
// the text (a run that patched its last result).
func (m *runMaps) parsed(list **methodmap.Map, text []byte, what string) (*methodmap.Map, error) {
	if *list == nil {
		parsed, err := methodmap.ParseMap(bytes.NewReader(text), "the run's "+what)
		if err != nil {
			return nil, err
		}
		for i := range parsed.Entries {
			parsed.Entries[i].Line = 0 // a map the run made was read from no file
		}
		*list = parsed
	}
	return *list, nil
}

// MapTexts returns the method map and the ignore map as the files are to
// be written, laid out now if the run made lists only: a caller can tell
// an unchanged file without writing it.
func (r *Result) MapTexts() (methodMap, ignoreMap []byte, err error) {
	m := &r.maps
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mapText == nil {
		if m.mapText, err = encoded(m.traced.WriteMethodMap); err != nil {
			return nil, nil, err
		}
	}
	if m.ignoreText == nil {
		if m.ignoreText, err = encoded(m.ignored.WriteText); err != nil {
			return nil, nil, err
		}
	}
	return m.mapText, m.ignoreText, nil
}

// WriteMethodMap writes methodMapping.txt.
func (r *Result) WriteMethodMap(w io.Writer) error {
	m := &r.maps
	m.mu.Lock()
	text, traced := m.mapText, m.traced
	m.mu.Unlock()
	if text != nil {
		_, err := w.Write(text)
		return err
	}
	return traced.WriteMethodMap(w)
}

// WriteIgnoreMap writes ignoreMethodMapping.txt.
func (r *Result) WriteIgnoreMap(w io.Writer) error {
	m := &r.maps
	m.mu.Lock()
	text, list := m.ignoreText, m.ignored
	m.mu.Unlock()
	if text != nil {
		_, err := w.Write(text)
		return err
	}
	return list.WriteText(w)
}

// KeepMap keeps the planned map (the methods left untouched keep their
// ids too) in the cache as the next run's base map, and the report
// ReportText gave, for the next run to give again if it is the same. The
// caller calls it once it has written the maps, so a run that fails
// before keeps the last good one. Without Options.Cache and MapPath it
// does nothing.
func (r *Result) KeepMap() error {
	if r.keep == nil || r.maps.plannedText == nil {
		return nil
	}
	return r.keep()
}

// NumTraced returns how many methods were instrumented (the map's entries
// but the dispatch entry).
func (r *Result) NumTraced() int { return r.Traced }

// TracedMethods lists the instrumented methods, sorted by id.
func (r *Result) TracedMethods() ([]TracedMethod, error) {
	m, err := r.MethodMap()
	if err != nil {
		return nil, err
	}
	out := make([]TracedMethod, 0, len(m.Entries))
	for _, e := range m.Entries {
		if e.ID != methodmap.DispatchID {
			out = append(out, TracedMethod{Key: e.Key, Access: e.Access, ID: e.ID})
		}
	}
	return out, nil
}
