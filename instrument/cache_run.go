package instrument

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"github.com/tracebeat/tracebeat/instrument/store"
	"github.com/tracebeat/tracebeat/methodmap"
)

// inputCache is the cache's view of one input during a run.
type inputCache struct {
	abs   string
	isJar bool
	key   string   // the pack this run writes
	sum   [32]byte // the jar's bytes; zero for a directory
	// from is the pack records are taken from: the one made from these
	// exact bytes (whole) or the one of the input's previous version.
	from    *pack.Index
	fromKey string
	whole   bool
	jarOK   bool              // from's jar is there and hashes as recorded
	dat     *jario.FileReader // from's .dat, opened on first use
	datOnce sync.Once
	datErr  error

	sums [][32]byte    // entry content hashes, by entry index (classes)
	recs []*pack.Class // this run's records, by entry index (classes)

	unchanged  bool     // the output was the pack's jar: nothing to store
	newDat     *os.File // this run's .dat, being written
	newDatOff  int64
	sharedDat  bool               // newDat is from's .dat, appended to (a delta run)
	stored     snapInput          // the pack this run leaves for the input
	jarHash    *jario.CheckHasher // of the output jar as it is written
	emitWarned bool               // writing the output warned: keep no jar
}

// prepareCache hashes the jar inputs and loads the packs they can use,
// and starts reading the kept map. Without a cache there is nothing to
// prepare.
func (c *runCache) prepareCache(ctx context.Context) error {
	if c == nil {
		return nil
	}
	c.keptBase = c.store.readKeptMap(&c.p.opt, c.p.warns.warn)
	st := c.store
	if err := c.known.sum(ctx, c.p.inputs, c.p.opt.Workers, nil); err != nil {
		return err
	}
	c.inputs = make([]*inputCache, len(c.p.inputs))
	return parallel(ctx, c.p.opt.Workers, len(c.p.inputs), func(i, _ int) error {
		in := c.p.inputs[i]
		abs, err := filepath.Abs(in.Path)
		if err != nil {
			return err
		}
		ic := &inputCache{abs: abs, isJar: !in.IsDir,
			sums: make([][32]byte, len(in.Entries)), recs: make([]*pack.Class, len(in.Entries))}
		c.inputs[i] = ic
		if in.IsDir {
			// Its content sum (dirSum) goes into its pack for a delta run
			// to check; its records are checked class by class.
			ic.sum, ic.key = c.known.sums[i], st.inputPackKey(ic, c.known.sums[i])
			ic.from, ic.fromKey = st.loadPack(ic.key, nil, c.p.texts), ic.key
			return nil
		}
		ic.sum = c.known.sums[i]
		ic.key = st.packKeyOf(ic.sum)
		if ix := st.loadPack(ic.key, &ic.sum, c.p.texts); ix != nil {
			ic.from, ic.fromKey, ic.whole = ix, ic.key, true
			if ix.HasJar && !c.p.opt.Merge {
				// Checked here, on the workers, rather than while the
				// writer copies it.
				ic.jarOK = st.packJarIntact(ic.key, ix.JarSize, ix.JarSum)
			}
		} else if last := st.LastPack(abs); last != "" {
			ic.from, ic.fromKey = st.loadPack(last, nil, c.p.texts), last
		}
		return nil
	})
}

// loadPack reads a pack index; a missing or damaged one is no pack. With
// InputSum set, the pack must have been made from those bytes.
func (c *cacheStore) loadPack(key string, inputSum *[32]byte, texts *scan.TextTable) *pack.Index {
	ix, err := pack.ReadIndex(c.Path(key, store.Index), true, texts)
	if err != nil || ix.OptSum != c.optSum || (inputSum != nil && ix.InputSum != *inputSum) {
		return nil
	}
	return ix
}

// startPack opens this run's .dat for the input in c.
func (ic *inputCache) startPack(c *cacheStore) error {
	f, err := c.CreateTemp()
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	ic.newDat = f
	return nil
}

// shareDat makes the .dat of a delta run's changed jar the one of its
// last version, appended to: the records of its unchanged classes point
// into it as they are. The old pack's index never reads past what it
// wrote, so the appended bodies do not disturb it before storePack renames
// the file to the new pack.
func (ic *inputCache) shareDat(c *cacheStore) error {
	f, err := os.OpenFile(c.Path(ic.fromKey, store.Bodies), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("cache: %w", err)
	}
	ic.newDat, ic.newDatOff, ic.sharedDat = f, st.Size(), true
	return nil
}

// discardDat closes this run's .dat and removes it unless it is shared.
func (ic *inputCache) discardDat() {
	if ic.newDat == nil {
		return
	}
	ic.newDat.Close()
	if !ic.sharedDat {
		os.Remove(ic.newDat.Name())
	}
	ic.newDat = nil
}

// appendBody adds a rewritten body to this run's .dat (writer goroutine).
func (ic *inputCache) appendBody(rec *pack.Class, body []byte) error {
	if ic.newDat == nil {
		return nil
	}
	if _, err := ic.newDat.Write(body); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	rec.Result.Off, rec.Result.N = ic.newDatOff, int64(len(body))
	rec.Result.BodySum = jario.SumOf(body)
	ic.newDatOff += int64(len(body))
	return nil
}

// storeCache writes the packs of this run after its outputs are in place.
// A cache that cannot be written costs the next run time, not this one
// its result: problems are warnings.
func (c *runCache) storeCache() {
	if c == nil {
		return
	}
	for i, ic := range c.inputs {
		if err := c.storePack(i, ic); err != nil {
			c.p.warns.warn("cache: %s: %v", c.p.inputs[i].Path, err)
		}
	}
}

// snapshotUsable reports whether a delta run can take an input from pack
// ix: with the pack's output jar for mirrored outputs (the delta copies
// it), with its records alone for a merged jar (written whole).
func snapshotUsable(ix *pack.Index, merge bool) bool {
	return ix.HasJar || merge
}

func (c *runCache) storePack(i int, ic *inputCache) error {
	if ic.dat != nil {
		ic.dat.Close()
		ic.dat = nil
	}
	// On success the file was renamed and this does nothing.
	defer ic.discardDat()
	if ic.unchanged {
		if ix := ic.from; ix != nil && snapshotUsable(ix, c.p.opt.Merge) {
			ic.stored = snapInput{sum: ic.sum, jarSum: ix.JarSum, jarSize: ix.JarSize}
		}
		return c.store.SetLastPack(ic.abs, ic.key)
	}
	if ic.newDat == nil {
		return nil
	}
	in := c.p.inputs[i]
	ix := &pack.Index{OptSum: c.store.optSum, InputSum: ic.sum, Classes: map[string]*pack.Class{}}
	var names []string
	for j := range in.Entries {
		if rec := ic.recs[j]; rec != nil {
			if _, dup := ix.Classes[in.Entries[j].Name]; dup {
				continue
			}
			ix.Classes[in.Entries[j].Name] = rec
			names = append(names, in.Entries[j].Name)
		}
	}
	if err := ic.newDat.Close(); err != nil {
		return err
	}
	if err := c.store.Commit(ic.newDat.Name(), ic.key, store.Bodies); err != nil {
		return err
	}
	c.store.Remove(ic.key, store.Jar)
	if ic.jarHash != nil && !ic.emitWarned && len(c.p.written) > i {
		out := c.p.written[i]
		if err := c.store.PutFile(ic.key, store.Jar, out); err == nil {
			if st, err := os.Stat(c.store.Path(ic.key, store.Jar)); err == nil {
				ix.HasJar, ix.JarSize = true, st.Size()
				ix.JarSum = ic.jarHash.Sum()
			}
		}
	}
	if err := c.store.Write(ic.key, store.Index, func(w io.Writer) error { return pack.WriteIndex(w, ix, names) }); err != nil {
		return err
	}
	if snapshotUsable(ix, c.p.opt.Merge) {
		ic.stored = snapInput{sum: ic.sum, jarSum: ix.JarSum, jarSize: ix.JarSize}
	}
	prev := c.store.LastPack(ic.abs)
	if err := c.store.SetLastPack(ic.abs, ic.key); err != nil {
		return err
	}
	if prev != "" && prev != ic.key {
		// One pack per input path and options: the superseded one goes.
		c.store.RemovePack(prev)
	}
	return nil
}

// readKeptMap reads the kept map of a run with a cache and
// Options.MapPath while the scan runs, and returns the run's base map:
// the kept map merged under Policy.BaseMap. A missing kept map is none; a
// damaged one only costs the ids their history.
func (c *cacheStore) readKeptMap(opt *Options, warn func(format string, args ...any)) <-chan *methodmap.Map {
	out := make(chan *methodmap.Map, 1)
	if opt.MapPath == "" {
		out <- opt.Policy.BaseMap
		return out
	}
	go func() {
		var m *methodmap.Map
		data, err := c.Map(opt.MapPath)
		if err == nil {
			m, err = methodmap.ParseMap(bytes.NewReader(data), c.MapName(opt.MapPath))
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			warn("cache: previous method map not used: %v", err)
		}
		out <- methodmap.Merge(opt.Policy.BaseMap, m)
	}()
	return out
}
