package instrument

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/outset"
	"github.com/tracebeat/tracebeat/internal/pathguard"
	"github.com/tracebeat/tracebeat/methodmap"
)

// Options configure a run of the pipeline.
type Options struct {
	Inputs    []string // jars and class directories, rewritten
	Classpath []string // jars read for the class hierarchy only
	Output    string   // directory (mirror) or, with Merge, a jar
	Merge     bool
	Workers   int
	Runtime   rewrite.Runtime
	Policy    Policy
	// Strict makes a class that fails to parse fatal; by default it is
	// copied untouched with a warning.
	Strict bool
	Log    *zap.Logger
	// Progress, when set, is called as classes are written.
	Progress func(done, total int)
	// Cache, when set, is a directory where runs keep what they made, so
	// that a later run reuses it for unchanged inputs and classes.
	Cache string
	// CacheKey names, in any stable text, what besides the inputs, the
	// runtime and the plans decides the outputs: the caller's policy
	// (mapping, block list, tracing rules). Runs with different keys share
	// nothing.
	CacheKey string
	// MapPath, with Cache, is the method map file the caller writes. The
	// cache keeps each run's planned map under it (Result.KeepMap) for the
	// next run of the same command. That map is the base map, merged under
	// Policy.BaseMap when one is set (methodmap.Merge: the given map's ids
	// win, and methods it lacks keep the ids of the last build); it is read
	// only when the run plans every method: a run that finds the last
	// run's result still valid but for a few changed classes patches that
	// result instead (delta.go). Runs with MapPath return the maps as
	// texts.
	MapPath string
	// Lists makes a run with MapPath fill Result.Ignored (for a report),
	// also when it patches its last result: the snapshot then keeps the
	// list. A run that plans every method fills Map, Planned and Ignored
	// anyway.
	Lists bool
	// Publish, when set, receives the finished outputs (staged under
	// temporary names) instead of their being renamed into place: the
	// caller publishes them with the maps as one set (outset).
	Publish *outset.Set
}

// TracedMethod is a method that got an id.
type TracedMethod struct {
	Key    MethodKey
	Access uint16
	ID     int
}

// IgnoredMethod is a method left untraced, with the reason: the map's
// own type, so the list goes to the ignore map and the report as it is.
type IgnoredMethod = methodmap.IgnoredMethod

// Result summarises a run.
type Result struct {
	// Map is the method map of what was instrumented: every traced method
	// with its id, and the dispatch entry.
	Map *methodmap.Map
	// Planned is Map with the planned methods that could not be rewritten
	// (Skipped) still in, with the ids they were planned with. As the next
	// run's base map it keeps those ids too, so the same inputs plan the
	// same again (and a cache can serve them).
	Planned *methodmap.Map
	Inputs  int
	Classes int // class entries read
	// Renamed counts the classes whose original name (Policy.OriginalClass)
	// is not their name: what a mapping applied to.
	Renamed    int
	Rewritten  int // classes written with changes
	Ignored    []IgnoredMethod
	Skipped    map[string]int // planned methods left untouched, by reason
	Focus      []string       // classes that got the focus call
	Duplicates []string       // class names found in more than one input
	Warnings   []string
	Outputs    []string
	// With Options.Cache: inputs whose output was the cached jar whole,
	// classes whose scan came from the cache, and classes whose rewrite
	// outcome did.
	CachedInputs, CachedScans, CachedRewrites int
	// With Options.MapPath: the method map, the planned map and the ignore
	// map as the files are to be written. A run that patched its last
	// result leaves Map and Planned nil (and Ignored, without
	// Options.Lists) and sets only these.
	// Callers write the maps through WriteMethodMap and WriteIgnoreMap,
	// which take whichever the run has.
	mapText, plannedText, ignoreText []byte
	// Traced counts Map's entries but the dispatch entry, IgnoredCount
	// Ignored's, and IgnoredByReason Ignored's by reason.
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

	keep func() error // KeepMap's work, when the run had a cache and a MapPath
}

// KeepMap keeps the planned map (the methods left untouched
// keep their ids too) in the cache as the next run's base map. The caller
// calls it once it has written the maps, so a run that fails before keeps
// the last good one. Without Options.Cache and MapPath it does nothing.
func (r *Result) KeepMap() error {
	if r.keep == nil || r.plannedText == nil {
		return nil
	}
	return r.keep()
}

// WriteMethodMap writes methodMapping.txt as the run made it.
func (r *Result) WriteMethodMap(w io.Writer) error {
	if r.mapText != nil {
		_, err := w.Write(r.mapText)
		return err
	}
	return methodmap.EncodeMapTo(w, r.Map)
}

// WriteIgnoreMap writes ignoreMethodMapping.txt as the run made it.
func (r *Result) WriteIgnoreMap(w io.Writer) error {
	if r.ignoreText != nil {
		_, err := w.Write(r.ignoreText)
		return err
	}
	return methodmap.EncodeIgnoreMapTo(w, r.Ignored)
}

// MapTexts returns the method map and the ignore map as bytes when the
// run has them at hand (runs with Options.MapPath), else nil: a caller can
// tell an unchanged file without writing it.
func (r *Result) MapTexts() (methodMap, ignoreMap []byte) { return r.mapText, r.ignoreText }

// NumTraced returns how many methods were instrumented (the map's entries
// but the dispatch entry).
func (r *Result) NumTraced() int { return r.Traced }

// TracedMethods lists the instrumented methods, sorted by id.
func (r *Result) TracedMethods() []TracedMethod {
	out := make([]TracedMethod, 0, len(r.Map.Entries))
	for _, e := range r.Map.Entries {
		if e.ID != methodmap.DispatchID {
			out = append(out, TracedMethod{Key: e.Key, Access: e.Access, ID: e.ID})
		}
	}
	return out
}

// Run instruments the inputs and writes the outputs. Nothing is left at
// the output paths unless the whole run succeeds.
//
// Every run takes one path: look up, scan, plan, write, finish, store.
// With a cache the store answers what it can: lookUp finds the last run
// of the same command still valid but for some changed classes (a delta
// run: p.delta) or else the pack of each input, and each stage takes its
// answers from there instead of doing the work: the scans and ids of
// unchanged classes, their rewritten bodies, whole output jars, the maps.
func Run(ctx context.Context, opt Options) (*Result, error) {
	p, err := openPipeline(opt)
	if err != nil {
		return nil, err
	}
	defer p.close()
	phase := newPhaseLog(p.opt.Log)
	for _, stage := range []struct {
		name string
		run  func(context.Context) error
	}{
		{"look up", p.lookUp},
		{"scan", p.scanStage},
		{"plan", p.planStage},
		{"write", p.write},
		{"finish", p.finishStage},
		{"store", p.storeStage},
	} {
		if err := stage.run(ctx); err != nil {
			return nil, err
		}
		phase(stage.name)
	}
	return p.res, nil
}

// openPipeline checks the options and opens (without reading) the inputs.
func openPipeline(opt Options) (*pipeline, error) {
	if opt.Log == nil {
		opt.Log = zap.NewNop()
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	if opt.Runtime.BeatClass == "" {
		opt.Runtime = rewrite.DefaultRuntime()
	}
	if len(opt.Inputs) == 0 {
		return nil, errors.New("no inputs")
	}
	if opt.Output == "" {
		return nil, errors.New("no output path (-o)")
	}
	p := &pipeline{opt: opt, res: &Result{Skipped: map[string]int{}}, descs: newDescTable()}
	if err := p.checkPaths(); err != nil {
		return nil, err
	}
	for _, path := range opt.Inputs {
		in, err := openUnlisted(path)
		if err != nil {
			p.close()
			return nil, err
		}
		p.inputs = append(p.inputs, in)
	}
	for _, path := range opt.Classpath {
		in, err := openUnlisted(path)
		if err != nil {
			p.close()
			return nil, fmt.Errorf("classpath: %w", err)
		}
		p.classpath = append(p.classpath, in)
	}
	p.res.Inputs = len(p.inputs)
	return p, nil
}

// lookUp lists the inputs and, with a cache, asks the store what it keeps
// for them: the last run of this command, when only some classes changed
// and the class hierarchy with them did not (prepareDelta; the changed
// classes are scanned to tell), else the pack of each input, whose
// records serve the unchanged classes class by class.
func (p *pipeline) lookUp(ctx context.Context) error {
	if p.opt.Cache != "" {
		if err := p.openStore(ctx); err != nil {
			return err
		}
		d, why := p.prepareDelta(ctx)
		if d != nil {
			p.delta = d
			p.opt.Log.Debug("cache: delta run", zap.Int("changed classes", len(d.edits)))
			return nil
		}
		p.opt.Log.Debug("cache: full run: " + why)
	}
	if err := p.listInputs(ctx); err != nil {
		return err
	}
	for _, in := range append(append([]*input(nil), p.inputs...), p.classpath...) {
		p.noteEvidence(in)
	}
	if p.cache != nil {
		if err := p.prepareCache(ctx); err != nil {
			return err
		}
	}
	p.keptBase = p.readKeptMap()
	return nil
}

// scanStage scans every class, or in a delta run takes the changed
// classes' scans (made when they were compared) and the last run's
// answers for the rest.
func (p *pipeline) scanStage(ctx context.Context) error {
	if p.delta != nil {
		p.takeChanges()
		return nil
	}
	if err := p.scan(ctx); err != nil {
		return err
	}
	if err := p.checkInstrumentedBefore(); err != nil {
		return err
	}
	// The zip directories are not needed until each jar is written.
	for _, in := range p.inputs {
		in.drop()
	}
	for _, in := range p.classpath {
		in.close()
	}
	return nil
}

// planStage plans every class with the base map, or in a delta run the
// changed classes with the kept map's lines of those classes.
func (p *pipeline) planStage(context.Context) error {
	if p.delta != nil {
		return p.planChanges()
	}
	p.base = <-p.keptBase
	return p.plan()
}

// finishStage makes the result's lists and maps from the scans, or in a
// delta run patches the last run's.
func (p *pipeline) finishStage(context.Context) error {
	if p.delta != nil {
		return p.patchResult()
	}
	p.finish()
	if p.opt.MapPath != "" {
		return p.encodeTexts()
	}
	return nil
}

// storeStage keeps what the run made for the next: the packs of the
// inputs and, with a map path, the run's snapshot.
func (p *pipeline) storeStage(context.Context) error {
	if p.cache == nil {
		return nil
	}
	if p.delta != nil {
		p.adoptChangedSums()
	}
	p.storeCache()
	if p.opt.MapPath != "" {
		p.storeSnapshot()
	}
	return nil
}

// instrumentedBefore reports whether a class holds code instrumented
// before; such a class is left as it is, the focus call included.
func instrumentedBefore(ci *classInfo) bool {
	code := reasons.code(rewrite.ReasonAlreadyInstrumented)
	return slices.ContainsFunc(ci.methods, func(m methodInfo) bool { return m.reason == code })
}

// checkInstrumentedBefore reports, per input, the methods the scan found
// instrumented already (left as they are): one warning each, or with
// Strict an error.
func (p *pipeline) checkInstrumentedBefore() error {
	code := reasons.code(rewrite.ReasonAlreadyInstrumented)
	for i, infos := range p.infos {
		n, example := 0, ""
		for _, ci := range infos {
			if ci == nil {
				continue
			}
			for j := range ci.methods {
				if m := &ci.methods[j]; m.reason == code {
					if n++; example == "" {
						k := ci.key(m)
						example = k.Class + "." + k.Name + k.Desc
					}
				}
			}
		}
		if n == 0 {
			continue
		}
		if p.opt.Strict {
			return fmt.Errorf("%s: %d methods are instrumented already (%s, ...): is it an output of tracebeat?", p.inputs[i].path, n, example)
		}
		p.warnAt(i, "%s: %d methods are instrumented already (%s, ...): left as they are (%s)", p.inputs[i].path, n, example, rewrite.ReasonAlreadyInstrumented)
	}
	return nil
}

// noteEvidence records the classes of a listed input that the
// generated-class rule may ask about, by their entry names (no class is
// read for it).
func (p *pipeline) noteEvidence(in *input) {
	pol := &p.opt.Policy
	if pol.GeneratedEvidence == nil {
		return
	}
	if p.evidence == nil {
		p.evidence = map[string]bool{}
	}
	for j := range in.entries {
		name, ok := strings.CutSuffix(in.entries[j].name, ".class")
		if !ok {
			continue
		}
		if rest, ok := strings.CutPrefix(name, "META-INF/versions/"); ok {
			if _, class, ok := strings.Cut(rest, "/"); ok {
				name = class
			}
		}
		if orig := pol.originalClass(name); pol.GeneratedEvidence(orig) {
			p.evidence[orig] = true
		}
	}
}

// hasClass answers Policy.Generated's question from the evidence.
func (p *pipeline) hasClass(orig string) bool { return p.evidence[orig] }

// listInputs reads the directories of the jars, on the workers.
func (p *pipeline) listInputs(ctx context.Context) error {
	all := append(append([]*input(nil), p.inputs...), p.classpath...)
	return p.parallel(ctx, len(all), func(i, _ int) error {
		if err := all[i].list(); err != nil {
			if i >= len(p.inputs) {
				return fmt.Errorf("classpath: %w", err)
			}
			return err
		}
		return nil
	})
}

// readKeptMap reads the kept map of a run with a cache and
// Options.MapPath while the scan runs, and returns the run's base map:
// the kept map merged under Policy.BaseMap. A missing kept map is none; a
// damaged one only costs the ids their history.
func (p *pipeline) readKeptMap() <-chan *methodmap.Map {
	out := make(chan *methodmap.Map, 1)
	if p.cache == nil || p.opt.MapPath == "" {
		out <- p.opt.Policy.BaseMap
		return out
	}
	go func() {
		var m *methodmap.Map
		data, err := p.cache.Map(p.opt.MapPath)
		if err == nil {
			m, err = methodmap.ParseMap(bytes.NewReader(data), p.cache.MapName(p.opt.MapPath))
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			p.warn("cache: previous method map not used: %v", err)
		}
		out <- methodmap.Merge(p.opt.Policy.BaseMap, m)
	}()
	return out
}

type pipeline struct {
	opt Options
	// evidence holds the original names of the classes of the inputs and
	// the class path that Policy.GeneratedEvidence accepts (noteEvidence).
	evidence map[string]bool
	descs    *descTable // the method descriptors of the run's scans
	dups     []duplicate
	// written[i] holds input i's finished output (mirrors only): its
	// final path, or its temporary one when staged for Options.Publish.
	written   []string
	res       *Result
	inputs    []*input
	classpath []*input
	// infos[i][j] is the scan of entry j of input i (nil: not a class, or unparsable).
	infos [][]*classInfo
	// super of classpath classes
	cpSuper map[string]string
	// base is the base map the run plans with: Policy.BaseMap, with the
	// kept map under it in a run with a cache (readKeptMap).
	base *methodmap.Map
	// highWater of the assigned ids; the map itself is rebuilt from the
	// scan by finish rather than held through the write.
	highWater int
	focus     map[string]bool

	mu      sync.Mutex
	skipped map[MethodKey]string // planned methods that could not be rewritten
	// inputWarnings are the warnings about each input (warnAt).
	inputWarnings [][]string

	cache  *cacheStore
	caches []*inputCache // by input; nil without a cache
	// With a cache: checks are the checks of the inputs then the
	// classpath, inputSums the content sums of the inputs (inputsum.go;
	// zero for a directory).
	checks    []checksum
	inputSums [][32]byte
	delta     *delta // set when the run patches the last one
	// keptBase delivers the base map of a full run (readKeptMap).
	keptBase <-chan *methodmap.Map
	identity string // runIdentity's answer, once asked
}

func (p *pipeline) close() {
	if p.delta != nil {
		<-p.delta.summed // the inputs are read until then
	}
	for _, ic := range p.caches {
		if ic == nil {
			continue
		}
		if ic.dat != nil {
			ic.dat.Close()
		}
		ic.discardDat() // a failed run's pack in the making
	}
	for _, in := range p.inputs {
		in.close()
	}
	for _, in := range p.classpath {
		in.close()
	}
}

func (p *pipeline) warn(format string, args ...any) { p.warnAt(-1, format, args...) }

// warnAt warns about input i; a run snapshot keeps what each input
// reported, for a later run that reuses the input to report again.
func (p *pipeline) warnAt(i int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	p.mu.Lock()
	p.res.Warnings = append(p.res.Warnings, msg)
	if i >= 0 {
		if p.inputWarnings == nil {
			p.inputWarnings = make([][]string, len(p.inputs))
		}
		p.inputWarnings[i] = append(p.inputWarnings[i], msg)
	}
	p.mu.Unlock()
	p.opt.Log.Warn(msg)
}

// checkPaths refuses outputs that would overwrite or land inside an input.
func (p *pipeline) checkPaths() error {
	var ins, outs []pathguard.Path
	for _, in := range p.opt.Inputs {
		st, err := os.Stat(in)
		tree := err == nil && st.IsDir()
		ins = append(ins, pathguard.Path{Role: "input", Path: in, Tree: tree})
		if !p.opt.Merge {
			outs = append(outs, pathguard.Path{Role: "output", Path: MirrorPath(p.opt.Output, in), Tree: tree})
		}
	}
	for _, cp := range p.opt.Classpath {
		ins = append(ins, pathguard.Path{Role: "classpath", Path: cp})
	}
	if p.opt.Merge {
		outs = append(outs, pathguard.Path{Role: "output", Path: p.opt.Output})
	}
	return pathguard.Check(ins, outs)
}

// outputName is the name of an input's mirror in the output directory.
func outputName(path string) string { return filepath.Base(filepath.Clean(path)) }

// MirrorPath is where a run without Merge writes the mirror of input.
func MirrorPath(output, input string) string { return filepath.Join(output, outputName(input)) }

// parallel runs fn(i) for i in [0, n) on the configured workers and
// returns the first error.
func (p *pipeline) parallel(ctx context.Context, n int, fn func(i, worker int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for w := 0; w < p.opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i, w); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// scan reads every class of the inputs and the classpath.
func (p *pipeline) scan(ctx context.Context) error {
	type ref struct{ in, e int }
	var refs []ref
	p.infos = make([][]*classInfo, len(p.inputs))
	for i, in := range p.inputs {
		p.infos[i] = make([]*classInfo, len(in.entries))
		for j := range in.entries {
			if in.entries[j].isClass() {
				refs = append(refs, ref{i, j})
			}
		}
	}
	p.res.Classes = len(refs)
	scanners := make([]*scanner, p.opt.Workers)
	for i := range scanners {
		scanners[i] = newScanner(&p.opt.Policy, p.opt.Runtime, p.descs, p.hasClass)
	}
	err := p.parallel(ctx, len(refs), func(k, worker int) error {
		r := refs[k]
		in := p.inputs[r.in]
		e := &in.entries[r.e]
		var data []byte
		var err error
		if p.cache != nil {
			ci, hit, d, err := p.scanFromCache(r.in, p.caches[r.in], r.e, e)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", in.path, e.name, err)
			}
			if hit {
				p.infos[r.in][r.e] = ci
				return nil
			}
			data = d
		} else if data, err = e.read(); err != nil {
			return fmt.Errorf("%s: %s: %w", in.path, e.name, err)
		}
		ci, err := scanners[worker].scan(data)
		putBuffer(data) // the scan copies what it keeps
		if err != nil {
			if p.opt.Strict {
				return fmt.Errorf("%s: %s: %w", in.path, e.name, err)
			}
			p.warnAt(r.in, "%s: %s: cannot parse, copied untouched: %v", in.path, e.name, err)
			if p.cache != nil {
				ic := p.caches[r.in]
				ic.recs[r.e] = &cachedClass{sum: ic.sums[r.e], warn: err.Error()}
			}
			return nil
		}
		_, ci.versioned = versionedClass(e.name)
		p.infos[r.in][r.e] = ci
		if p.cache != nil {
			ic := p.caches[r.in]
			ic.recs[r.e] = &cachedClass{sum: ic.sums[r.e], info: ci}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Classpath: only names and superclasses.
	p.cpSuper = map[string]string{}
	var cpRefs []ref
	for i, in := range p.classpath {
		for j := range in.entries {
			if in.entries[j].isClass() {
				cpRefs = append(cpRefs, ref{i, j})
			}
		}
	}
	supers := make([][2]string, len(cpRefs))
	err = p.parallel(ctx, len(cpRefs), func(k, _ int) error {
		r := cpRefs[k]
		e := &p.classpath[r.in].entries[r.e]
		data, err := e.read()
		if err != nil {
			return fmt.Errorf("classpath %s: %s: %w", p.classpath[r.in].path, e.name, err)
		}
		defer putBuffer(data)
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

// plan assigns ids and finds the Activity classes that get the focus call.
func (p *pipeline) plan() error {
	// Classes (duplicates, the Activity hierarchy) and methods (ids) are
	// planned at once: they read different fields of the scan records.
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.planClasses()
	}()
	err := p.planIDs()
	<-done
	p.warnDuplicates()
	for _, infos := range p.infos {
		for _, ci := range infos {
			if ci != nil && ci.origName != ci.name {
				p.res.Renamed++
			}
		}
	}
	if err != nil {
		return err
	}
	p.skipped = map[MethodKey]string{}
	return nil
}

// duplicate is a class found in a second input: Java loads the first.
type duplicate struct{ first, second, class string }

// warnDuplicates reports the classes in more than one input: one line per
// pair of inputs with the count and three examples (two copies of one
// library give thousands), every class at debug level.
func (p *pipeline) warnDuplicates() {
	type pair struct{ first, second string }
	byPair := map[pair][]string{}
	var order []pair
	for _, d := range p.dups {
		k := pair{d.first, d.second}
		if _, ok := byPair[k]; !ok {
			order = append(order, k)
		}
		byPair[k] = append(byPair[k], d.class)
		p.opt.Log.Debug("class in more than one input", zap.String("class", d.class), zap.String("used", d.first), zap.String("also", d.second))
	}
	for _, k := range order {
		classes := byPair[k]
		sort.Strings(classes)
		eg := strings.Join(classes[:min(3, len(classes))], ", ")
		if len(classes) > 3 {
			eg += ", ..."
		}
		noun := "classes are"
		if len(classes) == 1 {
			noun = "class is"
		}
		p.warn("%d %s in both %s and %s (the first is used; all at --log-level debug): %s",
			len(classes), noun, k.first, k.second, eg)
	}
}

// planClasses finds the classes in more than one input and the Activity
// classes that get the focus call.
func (p *pipeline) planClasses() {
	h := &hierarchy{super: map[string]string{}, inInput: map[string]*classInfo{}, orig: p.opt.Policy.originalClass}
	for k, v := range p.cpSuper {
		h.super[k] = v
	}
	where := map[string]string{}
	dups := map[string]bool{}
	for i, infos := range p.infos {
		for _, ci := range infos {
			if ci == nil || ci.versioned {
				continue
			}
			if prev, seen := where[ci.name]; seen && prev != p.inputs[i].path {
				if !dups[ci.name] {
					p.dups = append(p.dups, duplicate{first: prev, second: p.inputs[i].path, class: ci.name})
				}
				dups[ci.name] = true
			} else if !seen {
				where[ci.name] = p.inputs[i].path
				h.inInput[ci.name] = ci
			}
			h.super[ci.name] = ci.super
		}
	}
	for d := range dups {
		p.res.Duplicates = append(p.res.Duplicates, d)
	}
	sort.Strings(p.res.Duplicates)
	if p.opt.Runtime.Mode == rewrite.ModeBeat {
		p.focus = h.focusTargets()
	}
}

// planIDs gives every traced method its id.
func (p *pipeline) planIDs() error {
	if p.planIDsInOrder() {
		return nil
	}
	// Names whose order the class-by-class walk cannot follow (a class
	// name with a space, say), or an error to report: the whole list.
	n := 0
	p.eachTraced(func(*classInfo, *methodInfo) { n++ })
	traced := make([]methodmap.Method, 0, n)
	tracedAt := make([]*methodInfo, 0, n)
	p.eachTraced(func(ci *classInfo, m *methodInfo) {
		traced = append(traced, methodmap.Method{Key: ci.key(m), Access: m.access})
		tracedAt = append(tracedAt, m)
	})
	ids, highWater, err := methodmap.AssignIDs(traced, p.base)
	if err != nil {
		return err
	}
	p.highWater = highWater
	for i, mi := range tracedAt {
		mi.id = int32(ids[i])
	}
	return nil
}

// planIDsInOrder gives the ids class by class: the classes sorted by
// name, the methods of each (and of its copies in other inputs) by name
// and descriptor, handed to an OrderedAssigner in that order. Nothing is
// held per method but its id, where a list of every traced method with
// its key text, for one global sort, took some 240 bytes per method (160
// MB for a build of 700,000). It reports false, having decided nothing
// for good, when the assigner refuses the order or a method.
func (p *pipeline) planIDsInOrder() bool {
	var classes []*classInfo
	for _, infos := range p.infos {
		for _, ci := range infos {
			if ci != nil && slices.ContainsFunc(ci.methods, func(m methodInfo) bool { return m.trace }) {
				classes = append(classes, ci)
			}
		}
	}
	slices.SortFunc(classes, func(a, b *classInfo) int { return strings.Compare(a.origName, b.origName) })
	a, err := methodmap.NewOrderedAssigner(p.base)
	if err != nil {
		return false
	}
	type traced struct {
		ci *classInfo
		m  *methodInfo
	}
	var group []traced
	for i := 0; i < len(classes); {
		group = group[:0]
		j := i
		for ; j < len(classes) && classes[j].origName == classes[i].origName; j++ {
			ci := classes[j]
			for k := range ci.methods {
				if m := &ci.methods[k]; m.trace {
					group = append(group, traced{ci, m})
				}
			}
		}
		slices.SortFunc(group, func(x, y traced) int {
			kx, ky := x.ci.key(x.m), y.ci.key(y.m)
			return cmp.Or(strings.Compare(kx.Name, ky.Name), strings.Compare(kx.Desc, ky.Desc), int(x.m.access)-int(y.m.access))
		})
		for _, t := range group {
			id, err := a.Add(t.ci.key(t.m), t.m.access)
			if err != nil {
				return false
			}
			t.m.id = int32(id)
		}
		i = j
	}
	p.highWater = a.HighWater()
	return true
}

// newPhaseLog returns a function that logs, at debug level, how long the
// run spent since the previous call.
func newPhaseLog(log *zap.Logger) func(name string) {
	last := time.Now()
	return func(name string) {
		now := time.Now()
		log.Debug("phase done", zap.String("phase", name), zap.Duration("took", now.Sub(last)))
		last = now
	}
}

// plannedMap is the map Assign would have returned, built from the ids
// the scan records carry: one entry per id (methods with one key share
// it), the smallest access of its methods, sorted by id, the dispatch
// entry last. The entries are laid out in id order at once: rank[id] is
// first a mark of the ids in use, then 1 + the entry index of the id.
func (p *pipeline) plannedMap() *methodmap.Map {
	rank := make([]int32, p.highWater+1)
	p.eachTraced(func(_ *classInfo, m *methodInfo) { rank[m.id] = 1 })
	n := int32(0)
	for id, r := range rank {
		if r != 0 {
			n++
			rank[id] = n
		}
	}
	entries := make([]methodmap.Entry, n, n+1)
	p.eachTraced(func(ci *classInfo, m *methodInfo) {
		e := &entries[rank[m.id]-1]
		if e.ID == 0 { // ids start at 1
			*e = methodmap.Entry{ID: int(m.id), Access: m.access, Key: ci.key(m)}
		} else {
			e.Access = min(e.Access, m.access)
		}
	})
	return &methodmap.Map{HighWater: p.highWater, Entries: append(entries, methodmap.DispatchEntry())}
}

// eachTraced calls fn for every traced method of the inputs, in input order.
func (p *pipeline) eachTraced(fn func(ci *classInfo, m *methodInfo)) {
	for _, infos := range p.infos {
		for _, ci := range infos {
			if ci == nil {
				continue
			}
			for j := range ci.methods {
				if m := &ci.methods[j]; m.trace {
					fn(ci, m)
				}
			}
		}
	}
}

// compareFields orders keys by class, name, then descriptor.
func compareFields(a, b MethodKey) int {
	return cmp.Or(strings.Compare(a.Class, b.Class), strings.Compare(a.Name, b.Name), strings.Compare(a.Desc, b.Desc))
}

// plansFor returns what to do with one class.
func (p *pipeline) plansFor(ci *classInfo) (plans []rewrite.MethodPlan, addFocus bool) {
	focus := p.focus[ci.name] && !ci.versioned && !instrumentedBefore(ci)
	for i, m := range ci.methods {
		mp := rewrite.MethodPlan{Index: i}
		if m.trace {
			mp.Trace, mp.ID = true, int(m.id)
		}
		if focus && i == ci.focusIndex && ci.focusCode {
			mp.Focus = true
		}
		if mp.Trace || mp.Focus {
			plans = append(plans, mp)
		}
	}
	return plans, focus && ci.focusIndex < 0
}

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
