package instrument

import (
	"context"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"go.uber.org/zap"

	"github.com/tracebeat/tracebeat/instrument/store"
)

// entryResult is what a worker hands to the writer for one entry.
type entryResult struct {
	body     []byte // new content, nil when the entry is copied as is
	deflated bool
	crc      uint32
	size     int
	err      error
}

// future is one entry on its way from the workers to the writer.
type future struct {
	e    *jario.Entry
	j    int // entry index in its input
	ci   *scan.Class
	done chan struct{}
	res  entryResult
	rec  *pack.Class // with a cache: the record whose body emit stores
}

// write produces every output: rewriting runs on the workers, writing
// follows input order through a bounded window.
func (p *pipeline) write(ctx context.Context) error {
	total := p.res.Classes
	var done int
	var progressMu sync.Mutex
	tick := func() {
		if p.opt.Progress == nil {
			return
		}
		progressMu.Lock()
		done++
		d := done
		progressMu.Unlock()
		p.opt.Progress(d, total)
	}

	var sinks []jario.Sink
	createdOut := false
	abortAll := func() {
		for _, s := range sinks {
			s.Abort()
		}
		if createdOut {
			os.Remove(p.opt.Output) // only when still empty
		}
	}
	var merged jario.Sink
	var mergedJar *jario.JarSink
	var spans []jario.Span // where each input's entries lie in the merged jar
	if p.opt.Merge {
		s, err := jario.NewJarSink(p.opt.Output)
		if err != nil {
			return err
		}
		merged, mergedJar = s, s
		sinks = append(sinks, s)
		spans = make([]jario.Span, len(p.inputs))
	} else {
		if _, err := os.Stat(p.opt.Output); os.IsNotExist(err) {
			createdOut = true
		}
		if err := os.MkdirAll(p.opt.Output, 0o755); err != nil {
			return err
		}
	}
	for i, in := range p.inputs {
		s := merged
		if s == nil {
			target := filepath.Join(p.opt.Output, outputName(in.Path))
			if d := p.cache.delta(); d != nil && !d.changed[i] {
				// Checked by prepareDelta.
				c, err := jario.NewCopiedJar(target, p.cache.store.Path(p.cache.inputs[i].key, store.Jar))
				if err != nil {
					abortAll()
					return err
				}
				sinks = append(sinks, c)
				p.res.Outputs = append(p.res.Outputs, target)
				p.cache.inputs[i].unchanged = true
				continue
			}
			if p.cache.wholeJarReusable(i) {
				if c, err := jario.NewCopiedJar(target, p.cache.store.Path(p.cache.inputs[i].key, store.Jar)); err == nil {
					sinks = append(sinks, c)
					p.res.Outputs = append(p.res.Outputs, target)
					p.cache.reuseWholeJar(i, tick)
					continue
				}
			}
			var err error
			if in.IsDir {
				s, err = jario.NewDirSink(target)
			} else {
				var js *jario.JarSink
				js, err = jario.NewJarSink(target)
				if ic := p.cache.pack(i); err == nil && ic != nil {
					ic.jarHash = js.HashOutput()
				}
				s = js
			}
			if err != nil {
				abortAll()
				return err
			}
			sinks = append(sinks, s)
			p.res.Outputs = append(p.res.Outputs, target)
		} else {
			moved, spliced, err := p.cache.delta().spliceInput(mergedJar, i, tick)
			if err != nil {
				abortAll()
				return err
			}
			if spliced {
				spans[i] = moved
				p.opt.Log.Debug("cache: copied from the last output", zap.String("input", in.Path))
				continue
			}
			mergedJar.Writer.BeginSpan()
		}
		if err := p.cache.startOutput(i); err != nil {
			p.warns.warn("%v", err) // the run goes on; it just leaves no pack
		}
		if err := in.Load(); err != nil {
			abortAll()
			return err
		}
		if js, ok := s.(*jario.JarSink); ok && merged == nil && in.Zip != nil {
			// A jar's mirror keeps its archive comment (a merged jar has none).
			if err := js.Writer.SetComment(in.Zip.Comment); err != nil {
				abortAll()
				return fmt.Errorf("%s: %w", in.Path, err)
			}
		}
		err := p.writeInput(ctx, i, s, tick)
		in.Drop()
		if mergedJar != nil {
			spans[i] = mergedJar.Writer.EndSpan(in.Entries)
		}
		if js, ok := s.(*jario.JarSink); ok && err == nil && merged == nil {
			err = js.Finish() // renamed into place with the others below
		}
		if err != nil {
			abortAll()
			return err
		}
	}
	if merged != nil {
		p.res.Outputs = append(p.res.Outputs, p.opt.Output)
		p.cache.keepSpans(spans)
	}
	// The last output is replaced below: Windows renames nothing over a
	// file still open.
	p.cache.delta().closeLastOutput()
	p.written = make([]string, len(sinks))
	for k, s := range sinks {
		commit := s.Commit
		if p.opt.Publish != nil {
			commit = func() error { return s.Stage(p.opt.Publish) }
		}
		if err := commit(); err != nil { // a failed commit cleans up after itself
			for _, rest := range sinks[k+1:] {
				rest.Abort()
			}
			return err
		}
		p.written[k] = s.Where()
	}
	return nil
}

// jobBatch is how many entries a worker takes at once.
const jobBatch = 8

// writeInput streams one input's entries into s.
func (p *pipeline) writeInput(ctx context.Context, idx int, s jario.Sink, tick func()) error {
	in := p.inputs[idx]
	infos := p.infos[idx]
	toJar := p.opt.Merge || !in.IsDir
	var keep []*pack.Class // a delta run's unchanged classes
	if p.cache.delta() != nil {
		keep = p.cache.delta().keep[idx]
	}
	modified := false
	for j, ci := range infos {
		if ci != nil {
			if plans, add := p.focus.plansFor(ci); len(plans) > 0 || add {
				modified = true
				break
			}
		} else if keep != nil && keep[j] != nil && keep[j].Plan != ([32]byte{}) {
			modified = true
			break
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Entries go to the workers in batches: one hand-over per entry (a
	// channel send, often a sleeping thread woken) left the workers of a
	// jar of small classes idle a third of the time. The window holds a
	// few batches per worker while the writer waits for the oldest entry.
	window := make(chan *future, p.opt.Workers*jobBatch*4)
	jobs := make(chan []*future, p.opt.Workers)
	var wg sync.WaitGroup
	rw := &classRewriter{inputs: p.inputs, opt: &p.opt, focus: p.focus, tally: p.tally, warns: p.warns, cache: p.cache}
	for w := 0; w < p.opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range jobs {
				for _, f := range batch {
					if f.rec != nil {
						f.res, f.rec = p.cache.keptOutcome(idx, f.e, f.rec)
					} else {
						f.res, f.rec = rw.processEntry(idx, f.j, f.ci, toJar)
					}
					close(f.done)
				}
			}
		}()
	}
	go func() {
		defer close(window)
		defer close(jobs)
		var batch []*future
		// abandon closes the futures of the batch, which the writer waits
		// on: the run is cancelled.
		abandon := func() {
			for _, f := range batch {
				close(f.done)
			}
			batch = nil
		}
		// dispatch hands the batch to the workers; false when cancelled.
		dispatch := func() bool {
			if len(batch) == 0 {
				return true
			}
			select {
			case jobs <- batch:
				batch = nil
				return true
			case <-ctx.Done():
				abandon()
				return false
			}
		}
		for j := range in.Entries {
			if ctx.Err() != nil {
				abandon()
				return
			}
			f := &future{e: &in.Entries[j], j: j, ci: infos[j], done: make(chan struct{})}
			if keep != nil && keep[j] != nil {
				f.rec = keep[j]
			}
			ready := f.ci == nil && (f.rec == nil || !f.rec.Result.Rewritten) && !(toJar && in.IsDir) && !f.e.NeedsCheck()
			select {
			case window <- f:
			default: // the writer is behind: what is batched must not wait for it
				if !dispatch() {
					return
				}
				select {
				case window <- f:
				case <-ctx.Done():
					return
				}
			}
			if ready {
				close(f.done) // copied as is by the writer, or done
				continue
			}
			if batch = append(batch, f); len(batch) == jobBatch && !dispatch() {
				return
			}
		}
		dispatch()
	}()
	var firstErr error
	for f := range window {
		<-f.done
		if f.e.IsClass() {
			tick()
		}
		if firstErr == nil {
			if firstErr = p.emit(s, idx, f, modified); firstErr != nil {
				cancel()
			}
		}
	}
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

// emit writes one finished entry.
func (p *pipeline) emit(s jario.Sink, idx int, f *future, modified bool) error {
	in := p.inputs[idx]
	e := f.e
	if f.res.err != nil {
		return f.res.err
	}
	if err := p.cache.keepOutcome(idx, f.j, f.rec, f.res.body); err != nil {
		p.warns.warn("%v", err)
	}
	if e.HasWrongCRC() || (f.ci != nil && f.ci.CRCWrong) {
		if p.opt.Strict {
			return fmt.Errorf("%s: %s: %w (--strict)", in.Path, e.Name, jario.ErrWrongCRC)
		}
		p.warns.atOutput(idx, "%s: %s: %v; read as Java's class loader reads it, which ignores the CRC", in.Path, e.Name, jario.ErrWrongCRC)
		p.cache.noteOutputWarning(idx)
	}
	if modified && !in.IsDir && jario.IsSignatureFile(e.Name) {
		p.warns.atOutput(idx, "%s: %s: signature dropped: the jar's classes were rewritten", in.Path, e.Name)
		p.cache.noteOutputWarning(idx)
		return nil
	}
	if s.Seen(e.Name) {
		if !jario.IsDirName(e.Name) {
			p.warns.atOutput(idx, "%s: %s%s", in.Path, e.Name, mergeSkipSuffix)
			p.cache.noteOutputWarning(idx)
		}
		return nil
	}
	if f.res.body == nil && e.ZipFile != nil {
		if jario.IsDirName(e.Name) && e.ZipFile.UncompressedSize64 != 0 {
			// archive/zip writes no data for a directory (CopyRaw).
			if p.opt.Strict {
				return fmt.Errorf("%s: %s: a directory entry holding %d bytes (--strict)", in.Path, e.Name, e.ZipFile.UncompressedSize64)
			}
			p.warns.atOutput(idx, "%s: %s: a directory entry holding %d bytes: written empty", in.Path, e.Name, e.ZipFile.UncompressedSize64)
			p.cache.noteOutputWarning(idx)
		}
		return s.CopyRaw(e.ZipFile)
	}
	body := f.res.body
	if body == nil { // directory file copied into a directory
		data, err := e.Read()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", in.Path, e.Name, err)
		}
		defer jario.PutBuffer(data)
		return s.Put(e.Name, e, data, false, crc32.ChecksumIEEE(data), len(data))
	}
	f.res.body = nil
	defer jario.PutBuffer(body)
	return s.Put(e.Name, e, body, f.res.deflated, f.res.crc, f.res.size)
}
