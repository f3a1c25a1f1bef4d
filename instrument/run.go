package instrument

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"go.uber.org/zap"

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
	Policy    scan.Policy
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
	// result instead (lastrun.go, patch.go). Runs with MapPath return the maps as
	// texts.
	MapPath string
	// Lists makes the run fill Result.Ignored (for a report), also when it
	// patches its last result: the snapshot then keeps the list.
	Lists bool
	// Publish, when set, receives the finished outputs (staged under
	// temporary names) instead of their being renamed into place: the
	// caller publishes them with the maps as one set (outset).
	Publish *outset.Set
}

// Run instruments the inputs and writes the outputs. Nothing is left at
// the output paths unless the whole run succeeds.
//
// Every run takes one path: look up, scan, plan, write, finish, store.
// With a cache the store answers what it can: lookUp finds the last run
// of the same command still valid but for some changed classes (a delta
// run: p.cache.delta()) or else the pack of each input, and each stage takes its
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
	p.warns.sumUpMergeSkips()
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
	res := &Result{Skipped: map[string]int{}}
	p := &pipeline{opt: opt, res: res, texts: scan.NewTextTable(), evidence: classEvidence{}, tally: &runTally{res: res}, warns: newRunWarnings(opt.Log, res, len(opt.Inputs))}
	if err := checkPaths(&p.opt); err != nil {
		return nil, err
	}
	for _, path := range opt.Inputs {
		in, err := jario.OpenUnlisted(path)
		if err != nil {
			p.close()
			return nil, err
		}
		p.inputs = append(p.inputs, in)
	}
	for _, path := range opt.Classpath {
		in, err := jario.OpenUnlisted(path)
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
			p.cache.last = d
			p.opt.Log.Debug("cache: delta run", zap.Int("changed classes", len(d.edits)))
			return nil
		}
		p.opt.Log.Debug("cache: full run: " + why)
	}
	if err := p.listInputs(ctx); err != nil {
		return err
	}
	for _, in := range append(append([]*jario.Input(nil), p.inputs...), p.classpath...) {
		p.evidence.note(in, &p.opt.Policy)
	}
	return p.cache.prepareCache(ctx)
}

// scanStage scans every class, or in a delta run takes the changed
// classes' scans (made when they were compared) and the last run's
// answers for the rest.
func (p *pipeline) scanStage(ctx context.Context) error {
	if p.cache.delta() != nil {
		p.cache.delta().takeChanges()
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
		in.Drop()
	}
	for _, in := range p.classpath {
		in.Close()
	}
	return nil
}

// planStage plans every class with the base map, or in a delta run the
// changed classes with the kept map's lines of those classes.
func (p *pipeline) planStage(context.Context) error {
	if p.cache.delta() != nil {
		return p.cache.delta().planChanges()
	}
	p.base = p.cache.baseMap(p.opt.Policy.BaseMap)
	return p.plan()
}

// finishStage makes the result's lists and maps from the scans, or in a
// delta run patches the last run's.
func (p *pipeline) finishStage(context.Context) error {
	if p.cache.delta() != nil {
		return p.cache.delta().patchResult()
	}
	p.finish()
	if p.opt.MapPath != "" {
		return p.res.maps.encodeTexts()
	}
	return nil
}

// storeStage keeps what the run made for the next: the packs of the
// inputs and, with a map path, the run's snapshot.
func (p *pipeline) storeStage(context.Context) error {
	p.cache.keep()
	return nil
}

type pipeline struct {
	opt      Options
	evidence classEvidence
	texts    *scan.TextTable // the method names and descriptors of the run's scans
	dups     []scan.Duplicate
	// written[i] holds input i's finished output (mirrors only): its
	// final path, or its temporary one when staged for Options.Publish.
	written   []string
	res       *Result
	inputs    []*jario.Input
	classpath []*jario.Input
	infos     scan.Set
	// super of classpath classes
	cpSuper map[string]string
	// base is the base map the run plans with: Policy.BaseMap, with the
	// kept map under it in a run with a cache (readKeptMap).
	base *methodmap.Map
	// highWater of the assigned ids; the map itself is rebuilt from the
	// scan by finish rather than held through the write.
	highWater int
	focus     focusSet

	tally *runTally // counters the workers add to, and skipped methods
	warns *runWarnings

	// cache is what the run keeps of and asks from the cache (runcache.go);
	// nil without Options.Cache, which answers every question "no".
	cache *runCache
}

func (p *pipeline) close() {
	if d := p.cache.delta(); d != nil {
		<-d.summed // the inputs are read until then
		d.closeLastOutput()
	}
	for _, ic := range p.cache.packs() {
		if ic == nil {
			continue
		}
		if ic.dat != nil {
			ic.dat.Close()
		}
		ic.discardDat() // a failed run's pack in the making
	}
	for _, in := range p.inputs {
		in.Close()
	}
	for _, in := range p.classpath {
		in.Close()
	}
}

// checkPaths refuses outputs that would overwrite or land inside an input.
func checkPaths(opt *Options) error {
	var ins, outs []pathguard.Path
	for _, in := range opt.Inputs {
		st, err := os.Stat(in)
		tree := err == nil && st.IsDir()
		ins = append(ins, pathguard.Path{Role: "input", Path: in, Tree: tree})
		if !opt.Merge {
			outs = append(outs, pathguard.Path{Role: "output", Path: MirrorPath(opt.Output, in), Tree: tree})
		}
	}
	for _, cp := range opt.Classpath {
		ins = append(ins, pathguard.Path{Role: "classpath", Path: cp})
	}
	if opt.Merge {
		outs = append(outs, pathguard.Path{Role: "output", Path: opt.Output})
	}
	return pathguard.Check(ins, outs)
}

// outputName is the name of an input's mirror in the output directory.
func outputName(path string) string { return filepath.Base(filepath.Clean(path)) }

// MirrorPath is where a run without Merge writes the mirror of input.
func MirrorPath(output, input string) string { return filepath.Join(output, outputName(input)) }

// parallel runs fn(i) for i in [0, n) on workers goroutines and returns
// the first error.
func parallel(ctx context.Context, workers, n int, fn func(i, worker int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
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
