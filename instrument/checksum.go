package instrument

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/zeebo/xxh3"
)

// Checksums guard what the cache wrote against damage and change: the
// bodies of a pack, its index and jar, a run snapshot, the kept map. A
// delta run checks about 300 MB of them, so they are XXH3-128 (25 GB/s
// here, 14 times SHA-256 with SHA instructions): a corruption or an edit
// goes unnoticed with probability 2^-128. Entries of a jar are compared
// with their previous version's by checksum too; what names content in
// the cache (the pack key of a jar's bytes) stays SHA-256. A checksum fills the
// first half of a [32]byte, the width of the fields it shares with those.
type checksum = [32]byte

func checkSum(data []byte) checksum { return toChecksum(xxh3.Hash128(data)) }

func toChecksum(u xxh3.Uint128) checksum {
	var c checksum
	binary.BigEndian.PutUint64(c[:], u.Hi)
	binary.BigEndian.PutUint64(c[8:], u.Lo)
	return c
}

// checkHasher computes a checksum of a stream.
type checkHasher struct{ h *xxh3.Hasher }

func newCheckHasher() checkHasher { return checkHasher{xxh3.New()} }

func (c checkHasher) Write(p []byte) (int, error) { return c.h.Write(p) }

func (c checkHasher) writeString(s string) { c.h.WriteString(s) }

func (c checkHasher) sum() checksum { return toChecksum(c.h.Sum128()) }

// fileCheckSum is the checksum of a file's bytes.
func fileCheckSum(path string) (checksum, error) {
	h := newCheckHasher()
	if err := hashFile(h, path); err != nil {
		return checksum{}, err
	}
	return h.sum(), nil
}

// unseal returns what a cache file holds between its magic and its
// checksum (the last 32 bytes, over all before them); ok is false when
// the magic is another or the checksum does not match.
func unseal(data []byte, magic string) (body []byte, ok bool) {
	if len(data) < len(magic)+32 || string(data[:len(magic)]) != magic {
		return nil, false
	}
	body, sum := data[:len(data)-32], data[len(data)-32:]
	if got := checkSum(body); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	return body[len(magic):], true
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

// entrySumOf computes entrySum of class entry j of in, from the jar's map
// without copying its bytes where there is one; a directory's was computed
// with its check.
func (in *input) entrySumOf(j int) (checksum, error) {
	e := &in.entries[j]
	if in.fileSums != nil {
		return in.fileSums[j], nil
	}
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

// dirCheck is a class directory's check: every file's name and the
// checksum of its bytes (entrySum), in the order of the listing. A
// directory has no bytes of its own to hash, and a file's time says
// nothing certain about its contents, so every file is read; the sums are
// kept (in.fileSums) for the comparison with the last run's records,
// which then reads no file twice.
func (in *input) dirCheck() (checksum, error) {
	h := newCheckHasher()
	in.fileSums = make([]checksum, len(in.entries))
	for j := range in.entries {
		e := &in.entries[j]
		data, err := os.ReadFile(e.file)
		if err != nil {
			return checksum{}, fmt.Errorf("%s: %w", in.path, err)
		}
		in.fileSums[j] = entrySum(e, data)
		h.Write([]byte(e.name))
		h.Write([]byte{0})
		h.Write(in.fileSums[j][:])
	}
	return h.sum(), nil
}
