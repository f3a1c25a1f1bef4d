package instrument

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/instrument/store"
	"github.com/tracebeat/tracebeat/internal/buildid"
)

// cacheStore is the pipeline's view of its cache (package store, which
// owns the directory): the keys of packs, and what the pipeline encodes in
// them. A jar's pack key hashes the options and the jar's bytes, so an
// unchanged jar finds its pack wherever it lives. A changed jar (or a
// directory) finds the pack of its previous version through LastPack,
// keyed by its path, and reuses what it can class by class: a record
// serves only when the class's stored bytes and its plans hash the same
// as then.
type cacheStore struct {
	packStore
	optSum   [32]byte // everything but the inputs and plans that decides outputs
	identity string   // runIdentity's answer, once asked
}

// packStore is what the pipeline asks of its cache directory: files of
// packs by key, the last pack of an input path, the map kept for a map
// path, the record of a run and its report. *store.Store is the one on disk.
type packStore interface {
	Key(parts ...[]byte) string
	Path(key string, part store.Part) string
	Write(key string, part store.Part, write func(io.Writer) error) error
	CreateTemp() (*os.File, error)
	Commit(tmp, key string, part store.Part) error
	PutFile(key string, part store.Part, src string) error
	Remove(key string, part store.Part)
	RemovePack(key string)
	LastPack(path string) string
	SetLastPack(path, key string) error
	Map(mapPath string) ([]byte, error)
	MapName(mapPath string) string
	PutMap(mapPath string, data []byte) error
	Run(identity string) (record, ignore []byte, ok bool)
	PutRun(identity string, record, ignore []byte) error
	RemoveRun(identity string)
	Report(identity string) []byte
	PutReport(identity string, data []byte) error
	Used(packs []string, identity string)
	Trim(maxAge time.Duration, now time.Time) int
}

var _ packStore = (*store.Store)(nil)

func openCache(opt *Options) (*cacheStore, error) {
	exe, err := executableSum()
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%x\x00%q\x00%#v\x00merge=%v\x00", pack.Magic, exe, opt.CacheKey, opt.Runtime, opt.Merge)
	c := &cacheStore{}
	h.Sum(c.optSum[:0])
	if c.packStore, err = store.Open(opt.Cache, c.optSum); err != nil {
		return nil, err
	}
	return c, nil
}

var (
	exeSumOnce sync.Once
	exeSum     [32]byte
	exeSumErr  error
)

// executableSum names the running program: a cached result is only as
// good as the code that made it, and a name of the binary's content is
// the one version number that cannot lie (a "dev" build changes without
// a new version string). The Go build ID the linker stamps into the
// binary is one (its second half hashes the linked output), read in
// microseconds; a binary without one (linked with -buildid=) is hashed
// whole, 10 MB and some 13 ms of every run.
func executableSum() ([32]byte, error) {
	exeSumOnce.Do(func() {
		path, err := os.Executable()
		if err != nil {
			exeSumErr = err
			return
		}
		if id := buildid.Read(path); id != "" {
			exeSum = sha256.Sum256([]byte("go-build-id:" + id))
			return
		}
		exeSum, exeSumErr = fileSum(path)
	})
	return exeSum, exeSumErr
}

func fileSum(path string) ([32]byte, error) {
	var sum [32]byte
	h := sha256.New()
	if err := jario.HashFile(h, path); err != nil {
		return sum, err
	}
	h.Sum(sum[:0])
	return sum, nil
}

// packJarIntact reports whether the jar of pack key is there with the
// size and checksum its pack recorded.
func (c *cacheStore) packJarIntact(key string, size int64, sum jario.Checksum) bool {
	jar := c.Path(key, store.Jar)
	st, err := os.Stat(jar)
	if err != nil || st.Size() != size {
		return false
	}
	got, err := jario.FileCheckSum(jar)
	return err == nil && got == sum
}

// packKeyOf is the key of the pack made from a jar with these bytes.
func (c *cacheStore) packKeyOf(inputSum [32]byte) string { return c.Key([]byte("jar"), inputSum[:]) }

// pathKey is the pack key of a directory input.
func (c *cacheStore) pathKey(absPath string) string { return c.Key([]byte("path"), []byte(absPath)) }

// inputPackKey is the key of the pack of input ic with content sum sum: a
// jar's pack is named by its bytes, wherever the jar lies; a directory's
// by its path, since its files change in place.
func (c *cacheStore) inputPackKey(ic *inputCache, sum [32]byte) string {
	if ic.isJar {
		return c.packKeyOf(sum)
	}
	return c.pathKey(ic.abs)
}

// planSum hashes what a class is to be rewritten with.
func planSum(plans []rewrite.MethodPlan, addFocus, toJar bool) [32]byte {
	buf := make([]byte, 0, 2+len(plans)*10)
	buf = append(buf, boolByte(addFocus), boolByte(toJar))
	for _, p := range plans {
		buf = binary.AppendUvarint(buf, uint64(p.Index))
		buf = binary.AppendUvarint(buf, uint64(p.ID))
		buf = append(buf, boolByte(p.Trace)<<1|boolByte(p.Focus))
	}
	sum := sha256.Sum256(buf)
	sum[0] |= 1 // never the zero sum, which means "no plans recorded"
	return sum
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
