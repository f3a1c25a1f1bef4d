package instrument

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/klauspost/compress/flate"
	"go.uber.org/zap"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/instrument/store"
	"github.com/tracebeat/tracebeat/internal/atomicfile"
	"github.com/tracebeat/tracebeat/internal/outset"
)

// dirEntryTime is the timestamp of jar entries that come from class
// directories, fixed so the output does not depend on checkout times.
var dirEntryTime = time.Date(1980, 2, 1, 0, 0, 0, 0, time.UTC)

// sink receives the entries of one output in order.
type sink interface {
	// copyRaw copies an untouched jar entry without recompressing it.
	copyRaw(f *zip.File) error
	// put writes an entry; body is compressed when deflated is set.
	put(name string, orig *entry, body []byte, deflated bool, crc uint32, size int) error
	// seen reports whether name was already written (merge mode).
	seen(name string) bool
	commit() error
	// stage is commit for Options.Publish: the finished output goes into
	// the set, which the caller publishes with the maps.
	stage(set *outset.Set) error
	// where is the file or folder that holds the finished output: the
	// final path once committed, the temporary one once staged.
	where() string
	abort()
}

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
	e    *entry
	j    int // entry index in its input
	ci   *classInfo
	done chan struct{}
	res  entryResult
	rec  *cachedClass // with a cache: the record whose body emit stores
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

	var sinks []sink
	createdOut := false
	abortAll := func() {
		for _, s := range sinks {
			s.abort()
		}
		if createdOut {
			os.Remove(p.opt.Output) // only when still empty
		}
	}
	var merged sink
	if p.opt.Merge {
		s, err := newJarSink(p.opt.Output)
		if err != nil {
			return err
		}
		merged = s
		sinks = append(sinks, s)
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
			target := filepath.Join(p.opt.Output, outputName(in.path))
			if d := p.delta; d != nil && !d.changed[i] {
				// Checked by prepareDelta.
				c, err := newCopiedJar(target, p.cache.Path(p.caches[i].key, store.Jar))
				if err != nil {
					abortAll()
					return err
				}
				sinks = append(sinks, c)
				p.res.Outputs = append(p.res.Outputs, target)
				p.caches[i].unchanged = true
				continue
			}
			if p.wholeJarReusable(i) {
				if c, err := newCopiedJar(target, p.cache.Path(p.caches[i].key, store.Jar)); err == nil {
					sinks = append(sinks, c)
					p.res.Outputs = append(p.res.Outputs, target)
					p.reuseWholeJar(i, tick)
					continue
				}
			}
			var err error
			if in.isDir {
				s, err = newDirSink(target)
			} else {
				var js *jarSink
				js, err = newJarSink(target)
				if err == nil && p.cache != nil {
					js.hashOutput(p.caches[i])
				}
				s = js
			}
			if err != nil {
				abortAll()
				return err
			}
			sinks = append(sinks, s)
			p.res.Outputs = append(p.res.Outputs, target)
		}
		if p.delta != nil {
			if err := p.shareDat(p.caches[i]); err != nil {
				p.warn("%v", err)
			}
		} else if p.cache != nil {
			if err := p.startPack(p.caches[i]); err != nil {
				p.warn("%v", err) // the run goes on; it just leaves no pack
			}
		}
		if err := in.load(); err != nil {
			abortAll()
			return err
		}
		if js, ok := s.(*jarSink); ok && merged == nil && in.zr != nil {
			// A jar's mirror keeps its archive comment (a merged jar has none).
			if err := js.zw.SetComment(in.zr.Comment); err != nil {
				abortAll()
				return fmt.Errorf("%s: %w", in.path, err)
			}
		}
		err := p.writeInput(ctx, i, s, tick)
		in.drop()
		if js, ok := s.(*jarSink); ok && err == nil && merged == nil {
			err = js.finish() // renamed into place with the others below
		}
		if err != nil {
			abortAll()
			return err
		}
	}
	if merged != nil {
		p.res.Outputs = append(p.res.Outputs, p.opt.Output)
	}
	p.written = make([]string, len(sinks))
	for k, s := range sinks {
		commit := s.commit
		if p.opt.Publish != nil {
			commit = func() error { return s.stage(p.opt.Publish) }
		}
		if err := commit(); err != nil { // a failed commit cleans up after itself
			for _, rest := range sinks[k+1:] {
				rest.abort()
			}
			return err
		}
		p.written[k] = s.where()
	}
	return nil
}

// jobBatch is how many entries a worker takes at once.
const jobBatch = 8

// writeInput streams one input's entries into s.
func (p *pipeline) writeInput(ctx context.Context, idx int, s sink, tick func()) error {
	in := p.inputs[idx]
	infos := p.infos[idx]
	toJar := p.opt.Merge || !in.isDir
	var keep []*cachedClass // a delta run's unchanged classes
	if p.delta != nil {
		keep = p.delta.keep[idx]
	}
	modified := false
	for j, ci := range infos {
		if ci != nil {
			if plans, add := p.plansFor(ci); len(plans) > 0 || add {
				modified = true
				break
			}
		} else if keep != nil && keep[j] != nil && keep[j].plan != ([32]byte{}) {
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
	for w := 0; w < p.opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range jobs {
				for _, f := range batch {
					if f.rec != nil {
						f.res, f.rec = p.keptOutcome(idx, f.e, f.rec)
					} else {
						f.res, f.rec = p.processEntry(idx, f.j, f.ci, toJar)
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
		for j := range in.entries {
			if ctx.Err() != nil {
				abandon()
				return
			}
			f := &future{e: &in.entries[j], j: j, ci: infos[j], done: make(chan struct{})}
			if keep != nil && keep[j] != nil {
				f.rec = keep[j]
			}
			ready := f.ci == nil && (f.rec == nil || !f.rec.result.rewritten) && !(toJar && in.isDir) && !needsCheck(f.e)
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
		if f.e.isClass() {
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
func (p *pipeline) emit(s sink, idx int, f *future, modified bool) error {
	in := p.inputs[idx]
	e := f.e
	if f.res.err != nil {
		return f.res.err
	}
	var ic *inputCache
	if p.cache != nil {
		ic = p.caches[idx]
		if f.rec != nil {
			if f.rec.result.rewritten && f.rec.raw == nil { // a kept record's body is in the shared .dat
				if err := ic.appendBody(f.rec, f.res.body); err != nil {
					p.warn("%v", err)
					ic.discardDat()
				}
			}
			ic.recs[f.j] = f.rec
		}
	}
	if modified && !in.isDir && isSignatureFile(e.name) {
		p.warnAt(idx, "%s: %s: signature dropped: the jar's classes were rewritten", in.path, e.name)
		if ic != nil {
			ic.emitWarned = true
		}
		return nil
	}
	if s.seen(e.name) {
		if !isDirName(e.name) {
			p.warnAt(idx, "%s: %s: already written from an earlier input, skipped", in.path, e.name)
			if ic != nil {
				ic.emitWarned = true
			}
		}
		return nil
	}
	if f.res.body == nil && e.zf != nil {
		return s.copyRaw(e.zf)
	}
	body := f.res.body
	if body == nil { // directory file copied into a directory
		data, err := e.read()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", in.path, e.name, err)
		}
		defer putBuffer(data)
		return s.put(e.name, e, data, false, crc32.ChecksumIEEE(data), len(data))
	}
	f.res.body = nil
	defer putBuffer(body)
	return s.put(e.name, e, body, f.res.deflated, f.res.crc, f.res.size)
}

func isDirName(name string) bool { return len(name) > 0 && name[len(name)-1] == '/' }

// needsCheck reports whether an entry that is copied raw must first be
// inflated to check it: class entries were read (and their CRC checked) by
// the scan; other jar entries were not, and a corrupt one must not reach
// the output unnoticed.
func needsCheck(e *entry) bool { return e.zf != nil && !e.isClass() && !isDirName(e.name) }

// checkEntry inflates a jar entry, which verifies its size and CRC.
func checkEntry(e *entry) error {
	data, err := e.read()
	putBuffer(data)
	return err
}

// processEntry decides, on a worker, what entry j of input idx becomes in
// the output: its raw bytes copied (a zero entryResult) or new contents;
// with a cache, rec is the record of a class that had plans (its body, if
// any, still to be stored by emit). entryOutput chooses; the cache lookup,
// the rewrite and the compression are steps of their own.
func (p *pipeline) processEntry(idx, j int, ci *classInfo, toJar bool) (entryResult, *cachedClass) {
	in := p.inputs[idx]
	e := &in.entries[j]
	res, rec, err := p.entryOutput(idx, j, e, ci, toJar)
	if err != nil {
		return entryResult{err: fmt.Errorf("%s: %s: %w", in.path, e.name, err)}, nil
	}
	return res, rec
}

func (p *pipeline) entryOutput(idx, j int, e *entry, ci *classInfo, toJar bool) (entryResult, *cachedClass, error) {
	// A directory's files going into a jar get new (compressed) contents
	// even when unchanged; a jar's unchanged entries are copied raw.
	repack := toJar && p.inputs[idx].isDir
	var plans []rewrite.MethodPlan
	addFocus := false
	if ci != nil {
		plans, addFocus = p.plansFor(ci)
	}
	if len(plans) == 0 && !addFocus {
		if ci == nil && needsCheck(e) {
			if err := checkEntry(e); err != nil {
				return entryResult{}, nil, err
			}
		}
		if !repack {
			return entryResult{}, nil, nil
		}
		res, err := readCompressed(e, toJar)
		return res, nil, err
	}
	var ic *inputCache
	var ps [32]byte
	if p.cache != nil {
		ic, ps = p.caches[idx], planSum(plans, addFocus, toJar)
		if res, rec, ok := p.cachedOutcome(idx, ic, j, e, ci, ps); ok {
			if res.body != nil || !repack {
				return res, rec, nil
			}
			// An unchanged class of a directory going into a jar.
			res, err := readCompressed(e, toJar)
			return res, rec, err
		}
	}
	data, changed, rec, err := p.rewriteEntry(idx, j, e, ci, plans, addFocus, ic, ps)
	if err != nil {
		return entryResult{}, nil, err
	}
	if !changed && !repack {
		putBuffer(data)
		return entryResult{}, rec, nil // copied raw
	}
	res, err := compressed(data, toJar && !storedEntry(e))
	if err != nil {
		return entryResult{}, nil, err
	}
	if rec != nil && changed {
		rec.result.deflated, rec.result.crc, rec.result.size = res.deflated, res.crc, res.size
	}
	return res, rec, nil
}

// rewriteEntry rewrites class entry j by its plans: it returns the new
// class bytes (changed) or, when no method could be changed, the raw ones,
// and, with a cache, the record of the outcome.
func (p *pipeline) rewriteEntry(idx, j int, e *entry, ci *classInfo, plans []rewrite.MethodPlan, addFocus bool, ic *inputCache, ps [32]byte) (data []byte, changed bool, rec *cachedClass, err error) {
	raw, err := e.read()
	if err != nil {
		return nil, false, nil, err
	}
	out, err := p.rewrite(raw, ci, plans, addFocus)
	if err != nil {
		putBuffer(raw)
		return nil, false, nil, err
	}
	p.reportRewrite(idx, ci, &out)
	if ic != nil {
		rec = &cachedClass{sum: ic.sums[j], info: ci, plan: ps, result: cachedResult{
			rewritten: out.body != nil, skipped: out.skipped, warnings: out.warnings}}
	}
	if out.body == nil {
		return raw, false, rec, nil
	}
	putBuffer(raw)
	return out.body, true, rec, nil
}

// readCompressed makes an entry's unchanged contents the new contents of
// an output entry (a directory's file going into a jar).
func readCompressed(e *entry, toJar bool) (entryResult, error) {
	data, err := e.read()
	if err != nil {
		return entryResult{}, err
	}
	return compressed(data, toJar && !storedEntry(e))
}

// storedEntry reports whether e is a jar entry stored uncompressed. Its
// rewritten form is stored too: the jar's author chose to trade size for
// loading speed (kotlin-compiler.jar stores all its classes), and keeping
// the method keeps the output jar shaped like its input.
func storedEntry(e *entry) bool { return e.zf != nil && e.zf.Method == zip.Store }

// compressed makes the entry result of new contents, deflated when deflate
// is set (the entry goes into a jar and was not stored). data is consumed.
func compressed(data []byte, deflate bool) (entryResult, error) {
	res := entryResult{crc: crc32.ChecksumIEEE(data), size: len(data)}
	if !deflate {
		res.body = data
		return res, nil
	}
	comp, err := deflateBytes(data)
	putBuffer(data)
	if err != nil {
		return entryResult{}, err
	}
	res.body, res.deflated = comp, true
	return res, nil
}

// rewriteOutcome is what rewriting one class produced: the new bytes (a
// buffer from getBuffer), or nil when no method could be changed, and what
// it reported.
type rewriteOutcome struct {
	body     []byte
	skipped  []cachedSkip
	warnings []string
}

// rewrite applies the plans to one class.
func (p *pipeline) rewrite(raw []byte, ci *classInfo, plans []rewrite.MethodPlan, addFocus bool) (rewriteOutcome, error) {
	var out rewriteOutcome
	c, err := cf.Parse(raw)
	if err != nil {
		return out, err
	}
	skipped, changed, err := rewrite.RewriteClass(c, &p.opt.Runtime, plans)
	if err != nil {
		return out, err
	}
	for _, s := range skipped {
		k := ci.key(&ci.methods[s.Index])
		out.skipped = append(out.skipped, cachedSkip{index: int32(s.Index), reason: s.Reason})
		p.opt.Log.Debug("method left untouched", zap.String("class", ci.name), zap.String("method", k.Name+k.Desc), zap.String("reason", s.Reason), zap.Error(s.Err))
	}
	if addFocus {
		if err := rewrite.AddFocusMethod(c, &p.opt.Runtime); err != nil {
			out.warnings = append(out.warnings, fmt.Sprintf("class %s: focus method not added: %v", ci.name, err))
		} else {
			changed = true
		}
	}
	if !changed {
		return out, nil
	}
	body, err := c.AppendTo(getBuffer(c.Size())[:0])
	if err != nil {
		return out, err
	}
	// Never write a class we cannot read back.
	if _, err := cf.Parse(body); err != nil {
		putBuffer(body)
		return out, fmt.Errorf("internal error: rewritten class does not parse: %w", err)
	}
	out.body = body
	return out, nil
}

// reportRewrite counts and reports what rewriting a class of input idx
// produced.
func (p *pipeline) reportRewrite(idx int, ci *classInfo, out *rewriteOutcome) {
	p.recordSkipped(ci, out.skipped)
	for _, w := range out.warnings {
		p.warnAt(idx, "%s", w)
	}
	if out.body != nil {
		p.mu.Lock()
		p.res.Rewritten++
		p.mu.Unlock()
	}
}

// deflateLevel matches archive/zip's default. klauspost/compress's deflate
// runs about 1.7x faster than compress/flate at this level for a ratio
// within 1% on class files, and compression is the largest cost of a run.
const deflateLevel = 5

// deflaters reuses compressor state, which is large to allocate.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, deflateLevel)
	return w
}}

// deflateBytes compresses data into a buffer from getBuffer.
func deflateBytes(data []byte) ([]byte, error) {
	buf := bytes.NewBuffer(getBuffer(len(data)/2 + 64)[:0])
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(buf)
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// jarSink writes a jar to a temporary file renamed into place on commit.
type jarSink struct {
	path    string
	tmp     *os.File // nil once finished
	tmpName string   // set when tmp is closed
	staged  bool     // handed to an outset.Set, not renamed
	zw      *zip.Writer
	bw      *bufio.Writer // between zw and the file
	names   map[string]bool
	copyBuf []byte // raw copies (the sink is written by one goroutine)
}

// newJarSink writes a jar at path.
func newJarSink(path string) (*jarSink, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	tmp, err := atomicfile.CreateTemp(path)
	if err != nil {
		return nil, err
	}
	j := &jarSink{path: path, tmp: tmp, names: map[string]bool{}}
	j.writeTo(tmp)
	return j, nil
}

func (j *jarSink) seen(name string) bool {
	if j.names[name] {
		return true
	}
	j.names[name] = true
	return false
}

func (j *jarSink) copyRaw(f *zip.File) error {
	if isDirName(f.Name) && f.CompressedSize64 != 0 {
		// A directory stored as a deflated empty stream: archive/zip will not
		// write data for a directory, so store it empty, which reads the same.
		fh := f.FileHeader
		fh.Method, fh.CRC32, fh.CompressedSize64, fh.UncompressedSize64 = zip.Store, 0, 0, 0
		fh.Flags &^= 0x8
		_, err := j.zw.CreateRaw(&fh)
		return err
	}
	fh := f.FileHeader // the writer keeps the header it is given
	w, err := j.zw.CreateRaw(&fh)
	if err != nil {
		return err
	}
	r, err := f.OpenRaw()
	if err != nil {
		return err
	}
	if j.copyBuf == nil {
		j.copyBuf = make([]byte, copyChunk)
	}
	_, err = io.CopyBuffer(w, r, j.copyBuf)
	return err
}

// copyChunk is the buffer size of raw entry copies.
const copyChunk = 64 << 10

func (j *jarSink) put(name string, orig *entry, body []byte, deflated bool, crc uint32, size int) error {
	var fh zip.FileHeader
	if orig != nil && orig.zf != nil {
		fh = orig.zf.FileHeader
	} else {
		fh = zip.FileHeader{Name: name, Modified: dirEntryTime}
		fh.SetMode(0o644)
	}
	fh.Name = name
	fh.Flags &^= 0x8 // sizes are known: no data descriptor
	fh.CRC32 = crc
	fh.UncompressedSize64 = uint64(size)
	fh.CompressedSize64 = uint64(len(body))
	fh.Method = zip.Store
	if deflated {
		fh.Method = zip.Deflate
	}
	w, err := j.zw.CreateRaw(&fh)
	if err != nil {
		return err
	}
	_, err = w.Write(body)
	return err
}

// hashOutput makes the sink hash what it writes into ic.jarHash.
func (j *jarSink) hashOutput(ic *inputCache) {
	h := newCheckHasher()
	ic.jarHash = &h
	j.writeTo(io.MultiWriter(j.tmp, h))
}

// writeTo makes the zip writer write to w (which writes j.tmp) through a
// large buffer: archive/zip's own is 4 KB, a system call per class or two.
func (j *jarSink) writeTo(w io.Writer) {
	j.bw = bufio.NewWriterSize(w, 1<<20)
	j.zw = zip.NewWriter(j.bw)
}

// finish ends the jar: the zip directory written, the buffers flushed and
// let go, the file cut and closed. What is left until commit is a name:
// a run over a hundred jars held a megabyte of buffer and the zip
// writer's directory per jar until the end, and an open file each.
func (j *jarSink) finish() error {
	if j.tmp == nil {
		return nil
	}
	err := j.zw.Close()
	if err == nil {
		err = j.bw.Flush()
	}
	j.zw, j.bw, j.names, j.copyBuf = nil, nil, nil, nil
	if err != nil {
		j.abort()
		return err
	}
	return j.closeFile()
}

// closeFile closes the finished temporary file, readable like any jar.
func (j *jarSink) closeFile() error {
	// CreateTemp makes the file 0600; a jar is an ordinary readable file.
	err := j.tmp.Chmod(0o644)
	if cerr := j.tmp.Close(); err == nil {
		err = cerr
	}
	j.tmpName, j.tmp = j.tmp.Name(), nil
	if err != nil {
		os.Remove(j.tmpName)
	}
	return err
}

func (j *jarSink) commit() error {
	if err := j.finish(); err != nil {
		return err
	}
	return j.publish()
}

func (j *jarSink) where() string {
	if j.staged {
		return j.tmpName
	}
	return j.path
}

// stage finishes the jar and hands it to set instead of renaming it.
func (j *jarSink) stage(set *outset.Set) error {
	if err := j.finish(); err != nil {
		return err
	}
	j.handTo(set)
	return nil
}

// handTo gives the finished temporary file to set, which renames it.
func (j *jarSink) handTo(set *outset.Set) {
	set.Add(j.tmpName, j.path)
	j.staged = true
}

// publish renames the finished temporary file into place.
func (j *jarSink) publish() error {
	if err := atomicfile.Replace(j.tmpName, j.path); err != nil {
		os.Remove(j.tmpName)
		return err
	}
	return nil
}

func (j *jarSink) abort() {
	if j.tmp != nil {
		j.tmpName = j.tmp.Name()
		j.tmp.Close()
		j.tmp = nil
	}
	os.Remove(j.tmpName)
}

// dirSink writes a class directory into a temporary directory that
// replaces the target on commit.
type dirSink struct {
	path, tmp string
	names     map[string]bool
	staged    bool
}

func newDirSink(path string) (*dirSink, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	tmp, err := atomicfile.MkdirTemp(path)
	if err != nil {
		return nil, err
	}
	return &dirSink{path: path, tmp: tmp, names: map[string]bool{}}, nil
}

func (d *dirSink) seen(name string) bool {
	if d.names[name] {
		return true
	}
	d.names[name] = true
	return false
}

func (d *dirSink) copyRaw(f *zip.File) error {
	return errors.New("internal error: raw zip copy into a directory")
}

func (d *dirSink) put(name string, orig *entry, body []byte, deflated bool, _ uint32, _ int) error {
	if deflated {
		return errors.New("internal error: compressed entry for a directory")
	}
	dst := filepath.Join(d.tmp, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if orig != nil && orig.mode != 0 {
		mode = orig.mode.Perm()
	}
	if err := os.WriteFile(dst, body, mode); err != nil {
		return err
	}
	if orig != nil && orig.file != "" {
		if st, err := os.Stat(orig.file); err == nil {
			_ = os.Chtimes(dst, st.ModTime(), st.ModTime())
		}
	}
	return nil
}

func (d *dirSink) where() string {
	if d.staged {
		return d.tmp
	}
	return d.path
}

func (d *dirSink) stage(set *outset.Set) error {
	// MkdirTemp makes the directory 0700; a class directory is ordinary.
	if err := os.Chmod(d.tmp, 0o755); err != nil {
		d.abort()
		return err
	}
	set.Add(d.tmp, d.path)
	d.staged = true
	return nil
}

func (d *dirSink) commit() error {
	// MkdirTemp makes the directory 0700; a class directory is ordinary.
	if err := os.Chmod(d.tmp, 0o755); err != nil {
		d.abort()
		return err
	}
	if err := os.RemoveAll(d.path); err != nil {
		d.abort()
		return err
	}
	if err := os.Rename(d.tmp, d.path); err != nil {
		d.abort()
		return err
	}
	return nil
}

func (d *dirSink) abort() { os.RemoveAll(d.tmp) }
