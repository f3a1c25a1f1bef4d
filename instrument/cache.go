package instrument

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/atomicfile"
	"github.com/zeebo/xxh3"
)

// cacheStore is the directory given with Options.Cache. Layout (v2):
//
//	packs/<key>.idx  index of one input's pack (cache_index.go)
//	packs/<key>.dat  the rewritten class bodies the index points into
//	packs/<key>.jar  the output jar made from that input, when it is one
//	last/<key>       the pack key last written for an input path
//	maps/<key>.txt   the method map last written to a map path
//
// A jar's pack key hashes the options and the jar's bytes, so an unchanged
// jar finds its pack wherever it lives. A changed jar (or a directory)
// finds the pack of its previous version through last/, keyed by its
// path, and reuses what it can class by class: a record serves only when
// the class's stored bytes and its plans hash the same as then.
type cacheStore struct {
	dir    string
	optSum [32]byte // everything but the inputs and plans that decides outputs
}

const cacheLayout = "v2"

func openCache(opt *Options) (*cacheStore, error) {
	dir := filepath.Join(opt.Cache, cacheLayout)
	// spare/ held superseded jars to write over, before that went (it
	// helped only this project's VM); its files are of no use now.
	_ = os.RemoveAll(filepath.Join(dir, "spare"))
	for _, sub := range []string{"packs", "last", "maps", "runs"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
		// What killed runs left half-written; runs at work keep theirs.
		_ = atomicfile.SweepOwnTemps(filepath.Join(dir, sub))
	}
	exe, err := executableSum()
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%x\x00%q\x00%#v\x00merge=%v\x00", packMagic, exe, opt.CacheKey, opt.Runtime, opt.Merge)
	c := &cacheStore{dir: dir}
	h.Sum(c.optSum[:0])
	return c, nil
}

var (
	exeSumOnce sync.Once
	exeSum     [32]byte
	exeSumErr  error
)

// executableSum hashes the running program: a cached result is only as
// good as the code that made it, and a hash of the binary is the one
// version number that cannot lie (a "dev" build changes without a new
// version string).
func executableSum() ([32]byte, error) {
	exeSumOnce.Do(func() {
		path, err := os.Executable()
		if err != nil {
			exeSumErr = err
			return
		}
		exeSum, exeSumErr = fileSum(path)
	})
	return exeSum, exeSumErr
}

func fileSum(path string) ([32]byte, error) {
	var sum [32]byte
	h := sha256.New()
	if err := hashFile(h, path); err != nil {
		return sum, err
	}
	h.Sum(sum[:0])
	return sum, nil
}

// hashFile feeds a file's bytes to h, through a map where it can.
func hashFile(h io.Writer, path string) error {
	r, err := openFileReader(path, true)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.writeTo(h)
}

// hashFrom feeds what r reads to h through a pooled buffer.
func hashFrom(h io.Writer, r io.Reader) error {
	buf := getBuffer(copyChunk)
	defer putBuffer(buf)
	_, err := io.CopyBuffer(h, r, buf[:copyChunk])
	return err
}

// packJarIntact reports whether the jar of pack key is there with the
// size and checksum its pack recorded.
func (c *cacheStore) packJarIntact(key string, size int64, sum checksum) bool {
	jar := c.packPath(key, ".jar")
	st, err := os.Stat(jar)
	if err != nil || st.Size() != size {
		return false
	}
	got, err := fileCheckSum(jar)
	return err == nil && got == sum
}

func (c *cacheStore) key(parts ...[]byte) string {
	h := sha256.New()
	h.Write(c.optSum[:])
	for _, p := range parts {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// packKeyOf is the key of the pack made from a jar with these bytes.
func (c *cacheStore) packKeyOf(inputSum [32]byte) string { return c.key([]byte("jar"), inputSum[:]) }

// pathKey is the pack key of a directory input.
func (c *cacheStore) pathKey(absPath string) string { return c.key([]byte("path"), []byte(absPath)) }

// lastKey is the key under last/ for an input path. It leaves out the
// options, so a run with other options supersedes (and deletes) the pack
// of the same path: the cache holds one pack per input path.
func lastKey(absPath string) string {
	sum := sha256.Sum256([]byte(absPath))
	return hex.EncodeToString(sum[:])
}

func (c *cacheStore) packPath(key, ext string) string {
	return filepath.Join(c.dir, "packs", key+ext)
}

// lastPack returns the pack key last recorded for an input path.
func (c *cacheStore) lastPack(absPath string) string {
	b, err := os.ReadFile(filepath.Join(c.dir, "last", lastKey(absPath)))
	if err != nil || len(b) != 64 {
		return ""
	}
	return string(b)
}

func (c *cacheStore) setLastPack(absPath, key string) error {
	if c.lastPack(absPath) == key { // most inputs of most runs
		return nil
	}
	return writeFileAtomic(filepath.Join(c.dir, "last", lastKey(absPath)), []byte(key))
}

// CachedMapPath is where a run with Options.Cache = dir keeps a copy of
// the method map it wrote to mapPath; the next run takes it as its base
// map, so ids survive even when the build directory is cleaned.
func CachedMapPath(dir, mapPath string) (string, error) {
	abs, err := filepath.Abs(mapPath)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, cacheLayout, "maps", hex.EncodeToString(sum[:16])+".txt"), nil
}

// entrySum is the checksum of a jar entry's stored bytes (with the
// method and the size and CRC its header declares) or of a file's bytes:
// within an input whose previous version is known, what tells an entry
// that changed from one that did not. The header fields seed the hash of
// the bytes, which hashes them in one call, with no hasher to allocate.
func entrySum(e *entry, raw []byte) checksum {
	return toChecksum(xxh3.Hash128Seed(raw, entrySeed(e)))
}

func entrySeed(e *entry) uint64 {
	var hdr [15]byte
	if e.zf != nil {
		hdr[0] = 'z'
		binary.LittleEndian.PutUint16(hdr[1:], e.zf.Method)
		binary.LittleEndian.PutUint32(hdr[3:], e.zf.CRC32)
		binary.LittleEndian.PutUint64(hdr[7:], e.zf.UncompressedSize64)
	} else {
		hdr[0] = 'f'
	}
	return xxh3.Hash(hdr[:])
}

// entrySumOf computes entrySum of a class entry of in, from the jar's map
// without copying its bytes where there is one.
func (in *input) entrySumOf(e *entry) (checksum, error) {
	var m *mappedFile
	if in.jar != nil {
		m = in.jar.m
	}
	if m == nil || e.zf == nil {
		raw, err := e.stored()
		if err != nil {
			return checksum{}, err
		}
		defer putBuffer(raw)
		return entrySum(e, raw), nil
	}
	off, err := e.zf.DataOffset()
	if err != nil {
		return checksum{}, err
	}
	n := e.zf.CompressedSize64
	if off < 0 || n > uint64(m.size()-off) {
		return checksum{}, fmt.Errorf("entry data past the end of the jar (%d+%d of %d bytes)", off, n, m.size())
	}
	seed := entrySeed(e)
	var sum checksum
	err = m.view(off, int64(n), func(raw []byte) { sum = toChecksum(xxh3.Hash128Seed(raw, seed)) })
	return sum, err
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
