package instrument

import (
	"errors"
	"maps"
	"slices"
	"sort"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"github.com/tracebeat/tracebeat/methodmap"
)

// A run snapshot is what a run with a cache leaves for the next run of
// the same command (same inputs, classpath, outputs, options and kept
// map): the hashes of its inputs (which name their packs),
// its result in counts, and its ignore map. The next run that finds only
// some jars changed, and their class hierarchy as it was, patches that
// result class by class instead of planning every method again
// (lastrun.go, patch.go).
type runSnapshot struct {
	inputs     []snapInput
	classpath  []jario.Checksum // the checks of the classpath jars
	plannedSum jario.Checksum   // of the planned map text (the next base map)
	highWater  int
	classes    int
	renamed    int
	rewritten  int
	skipped    map[string]int // Result.Skipped
	ignoredBy  map[string]int // Result.IgnoredByReason
	ignored    int            // Result.IgnoredCount
	// Result.RuleClasses, RuleMethods and ClassNames.
	ruleClasses, ruleMethods map[string]int
	classNames               []string
	// listed says that IgnoredList holds Result.Ignored (a run with
	// Options.Lists keeps it, for the report of the next).
	listed      bool
	ignoredList []methodmap.IgnoredMethod
	// ignoredRaw is IgnoredList as encoded, when it is the list the last
	// snapshot held: an edit that changes method bodies only leaves the
	// list as it was, and it is written again as it was read.
	ignoredRaw []byte
	// skippedIDs are the planned methods that could not be rewritten:
	// their lines are in the planned map and not in the method map.
	skippedIDs []snapSkip
	focus      []string
	duplicates []scan.Duplicate
	// shared are the class names found in more than one class entry
	// (versioned variants included): their methods share ids and lines
	// across entries, so a delta never touches them.
	shared map[string]bool
	// ignoreText is the ignore map, kept beside the snapshot (its file is
	// only written again when it changes, which a change of method bodies
	// does not); ignoreSum is its checksum.
	ignoreText []byte
	ignoreSum  jario.Checksum
}

type snapInput struct {
	check    jario.Checksum // the jar's bytes (inputsum.go)
	sum      [32]byte       // the jar's bytes, which name its pack (packKeyOf)
	jarSum   jario.Checksum // the pack's jar
	jarSize  int64
	warnings []string // what scanning and rewriting it reported
	// outWarnings are what writing its entries reported: a run that
	// writes them says them again, one that copies its span replays them.
	outWarnings []string
	out         jario.Span // with --merge: where its entries lie in the output
}

type snapSkip struct {
	id    int
	class string
}

const snapMagic = "tracebeat-run-11\n"

// encode serialises s as its magic, fields, the ignore map and the
// checksum of all before.
func (s *runSnapshot) encode() []byte {
	var e pack.Encoder
	e.Buf = append(e.Buf, snapMagic...)
	e.Uvarint(uint64(len(s.inputs)))
	for _, in := range s.inputs {
		e.Buf = append(e.Buf, in.check[:]...)
		e.Buf = append(e.Buf, in.sum[:]...)
		e.Buf = append(e.Buf, in.jarSum[:]...)
		e.Uvarint(uint64(in.jarSize))
		e.Strs(in.warnings)
		e.Strs(in.outWarnings)
		e.OutSpan(in.out)
	}
	e.Uvarint(uint64(len(s.classpath)))
	for _, sum := range s.classpath {
		e.Buf = append(e.Buf, sum[:]...)
	}
	e.Buf = append(e.Buf, s.plannedSum[:]...)
	e.Uvarint(uint64(s.highWater))
	e.Uvarint(uint64(s.classes))
	e.Uvarint(uint64(s.renamed))
	e.Uvarint(uint64(s.rewritten))
	e.Counts(s.skipped)
	e.Counts(s.ignoredBy)
	e.Uvarint(uint64(s.ignored))
	e.Counts(s.ruleClasses)
	e.Counts(s.ruleMethods)
	e.Strs(s.classNames)
	e.Bool(s.listed)
	if s.ignoredRaw != nil {
		e.Buf = append(e.Buf, s.ignoredRaw...)
	} else {
		e.IgnoredList(s.ignoredList)
	}
	e.Uvarint(uint64(len(s.skippedIDs)))
	for _, k := range s.skippedIDs {
		e.Uvarint(uint64(k.id))
		e.Str(k.class)
	}
	e.Strs(s.focus)
	e.Uvarint(uint64(len(s.duplicates)))
	for _, d := range s.duplicates {
		e.Str(d.First)
		e.Str(d.Second)
		e.Str(d.Class)
	}
	e.Strs(slices.Sorted(maps.Keys(s.shared)))
	e.Buf = append(e.Buf, s.ignoreSum[:]...)
	sum := jario.SumOf(e.Buf)
	return append(e.Buf, sum[:]...)
}

var errBadSnapshot = errors.New("cache run snapshot is damaged")

// decodeSnapshot reads a snapshot from data, which must not change
// afterwards: the snapshot's texts share its bytes.
func decodeSnapshot(data []byte) (*runSnapshot, error) {
	body, ok := jario.Unseal(data, snapMagic)
	if !ok {
		return nil, errBadSnapshot
	}
	d := pack.Decoder{Buf: body, Shared: true}
	s := &runSnapshot{}
	s.inputs = make([]snapInput, d.Count())
	for i := range s.inputs {
		in := &s.inputs[i]
		d.Sum(&in.check)
		d.Sum(&in.sum)
		d.Sum(&in.jarSum)
		in.jarSize = int64(d.Uvarint())
		in.warnings = d.Strs()
		in.outWarnings = d.Strs()
		in.out = d.OutSpan()
	}
	s.classpath = make([]jario.Checksum, d.Count())
	for i := range s.classpath {
		d.Sum(&s.classpath[i])
	}
	d.Sum(&s.plannedSum)
	s.highWater = int(d.Uvarint())
	s.classes = int(d.Uvarint())
	s.renamed = int(d.Uvarint())
	s.rewritten = int(d.Uvarint())
	s.skipped = d.Counts()
	s.ignoredBy = d.Counts()
	s.ignored = int(d.Uvarint())
	s.ruleClasses = d.Counts()
	s.ruleMethods = d.Counts()
	s.classNames = d.Strs()
	s.listed = d.Bool()
	rest := d.Buf
	s.ignoredList = d.IgnoredList()
	s.ignoredRaw = rest[:len(rest)-len(d.Buf)]
	s.skippedIDs = make([]snapSkip, d.Count())
	for i := range s.skippedIDs {
		s.skippedIDs[i] = snapSkip{id: int(d.Uvarint()), class: d.Str()}
	}
	s.focus = d.Strs()
	s.duplicates = make([]scan.Duplicate, d.Count())
	for i := range s.duplicates {
		s.duplicates[i] = scan.Duplicate{First: d.Str(), Second: d.Str(), Class: d.Str()}
	}
	s.shared = map[string]bool{}
	for _, name := range d.Strs() {
		s.shared[name] = true
	}
	d.Sum(&s.ignoreSum)
	if d.Err != nil || len(d.Buf) != 0 {
		return nil, errBadSnapshot
	}
	return s, nil
}

// loadSnapshot returns the snapshot of the last run with this identity,
// nil when there is none or it (or its ignore map) is damaged.
func (c *cacheStore) loadSnapshot(identity string) *runSnapshot {
	record, ignore, ok := c.Run(identity)
	if !ok {
		return nil
	}
	s, err := decodeSnapshot(record)
	if err != nil || jario.SumOf(ignore) != s.ignoreSum {
		return nil
	}
	s.ignoreText = ignore
	return s
}

func (c *cacheStore) storeSnapshot(identity string, s *runSnapshot) error {
	s.ignoreSum = jario.SumOf(s.ignoreText)
	return c.PutRun(identity, s.encode(), s.ignoreText)
}

// removeSnapshot removes the snapshot of identity, which no longer
// describes the outputs.
func (c *cacheStore) removeSnapshot(identity string) { c.RemoveRun(identity) }

// storeSnapshot keeps this run's result for the next run of the same
// command, after the outputs and packs are in place. Only a run whose
// inputs are all jars kept in packs with their output jars leaves one;
// any other removes the last one, which no longer describes the outputs.
func (p *pipeline) storeSnapshot() {
	identity, err := p.cache.store.runIdentity(&p.opt)
	if err != nil {
		return
	}
	s := p.snapshot()
	if s == nil {
		p.cache.store.removeSnapshot(identity)
		return
	}
	if err := p.cache.store.storeSnapshot(identity, s); err != nil {
		p.warns.warn("cache: %v", err)
		p.cache.store.removeSnapshot(identity)
	}
}

// snapshot describes this run; nil when some input cannot be reused
// from its pack.
func (p *pipeline) snapshot() *runSnapshot {
	res := p.res
	s := &runSnapshot{
		inputs:      make([]snapInput, len(p.inputs)),
		classpath:   p.cache.known.checks[len(p.inputs):],
		plannedSum:  jario.SumOf(res.maps.plannedText),
		highWater:   p.highWater,
		classes:     res.Classes,
		renamed:     res.Renamed,
		rewritten:   res.Rewritten,
		skipped:     res.Skipped,
		ignoredBy:   res.IgnoredByReason,
		ignored:     res.IgnoredCount,
		ruleClasses: res.RuleClasses,
		ruleMethods: res.RuleMethods,
		classNames:  res.ClassNames,
		listed:      p.opt.Lists,
		focus:       res.Focus,
		duplicates:  p.dups,
		ignoreText:  res.maps.ignoreText,
	}
	if p.opt.Lists {
		s.ignoredList = res.Ignored
		if d := p.cache.delta(); d != nil && d.ignoredSame {
			s.ignoredRaw = d.snap.ignoredRaw
		}
	}
	for _, in := range p.classpath {
		if in.IsDir {
			return nil
		}
	}
	for i, ic := range p.cache.inputs {
		if ic == nil || ic.stored.sum == ([32]byte{}) {
			return nil
		}
		s.inputs[i] = ic.stored
		s.inputs[i].check = p.cache.known.checks[i]
		s.inputs[i].warnings = p.warns.forInput(i)
		s.inputs[i].outWarnings = p.warns.forOutput(i)
		if i < len(p.cache.spans) {
			s.inputs[i].out = p.cache.spans[i]
		}
	}
	if d := p.cache.delta(); d != nil {
		s.skippedIDs, s.shared = d.snap.skippedIDs, d.snap.shared
		return s
	}
	res.maps.traced.EachSkipped(func(e methodmap.Entry) {
		s.skippedIDs = append(s.skippedIDs, snapSkip{id: e.ID, class: e.Key.Class})
	})
	// Class names (as in the inputs and as in the maps) of more than one
	// class entry.
	seen := map[string]bool{}
	s.shared = map[string]bool{}
	for _, infos := range p.infos {
		for _, ci := range infos {
			if ci == nil {
				continue
			}
			for _, name := range []string{ci.Name, ci.OrigName} {
				if seen[name] {
					s.shared[name] = true
				}
			}
			seen[ci.Name], seen[ci.OrigName] = true, true
		}
	}
	return s
}

// duplicateNames lists the classes of a snapshot's duplicates, sorted.
func duplicateNames(dups []scan.Duplicate) []string {
	var names []string
	for _, d := range dups {
		names = append(names, d.Class)
	}
	sort.Strings(names)
	return slices.Compact(names)
}
