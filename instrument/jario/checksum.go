package jario

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
type Checksum = [32]byte

func SumOf(data []byte) Checksum { return toChecksum(xxh3.Hash128(data)) }

func toChecksum(u xxh3.Uint128) Checksum {
	var c Checksum
	binary.BigEndian.PutUint64(c[:], u.Hi)
	binary.BigEndian.PutUint64(c[8:], u.Lo)
	return c
}

// CheckHasher computes a checksum of a stream.
type CheckHasher struct{ h *xxh3.Hasher }

func NewCheckHasher() CheckHasher { return CheckHasher{xxh3.New()} }

func (c CheckHasher) Write(p []byte) (int, error) { return c.h.Write(p) }

func (c CheckHasher) writeString(s string) { c.h.WriteString(s) }

func (c CheckHasher) Sum() Checksum { return toChecksum(c.h.Sum128()) }

// FileCheckSum is the checksum of a file's bytes.
func FileCheckSum(path string) (Checksum, error) {
	h := NewCheckHasher()
	if err := HashFile(h, path); err != nil {
		return Checksum{}, err
	}
	return h.Sum(), nil
}

// Unseal returns what a cache file holds between its magic and its
// checksum (the last 32 bytes, over all before them); ok is false when
// the magic is another or the checksum does not match.
func Unseal(data []byte, magic string) (body []byte, ok bool) {
	if len(data) < len(magic)+32 || string(data[:len(magic)]) != magic {
		return nil, false
	}
	body, sum := data[:len(data)-32], data[len(data)-32:]
	if got := SumOf(body); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	return body[len(magic):], true
}

// HashFile feeds a file's bytes to h, through a map where it can.
func HashFile(h io.Writer, path string) error {
	r, err := OpenFileReader(path, true)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.CopyTo(h)
}

// hashFrom feeds what r reads to h through a pooled buffer.
func hashFrom(h io.Writer, r io.Reader) error {
	buf := GetBuffer(copyChunk)
	defer PutBuffer(buf)
	_, err := io.CopyBuffer(h, r, buf[:copyChunk])
	return err
}

// EntrySum is the checksum of a jar entry's stored bytes (with the
// method and the size and CRC its header declares) or of a file's bytes:
// within an input whose previous version is known, what tells an entry
// that changed from one that did not. The header fields seed the hash of
// the bytes, which hashes them in one call, with no hasher to allocate.
func EntrySum(e *Entry, raw []byte) Checksum {
	return toChecksum(xxh3.Hash128Seed(raw, entrySeed(e)))
}

func entrySeed(e *Entry) uint64 {
	var hdr [15]byte
	if e.ZipFile != nil {
		hdr[0] = 'z'
		binary.LittleEndian.PutUint16(hdr[1:], e.ZipFile.Method)
		binary.LittleEndian.PutUint32(hdr[3:], e.ZipFile.CRC32)
		binary.LittleEndian.PutUint64(hdr[7:], e.ZipFile.UncompressedSize64)
	} else {
		hdr[0] = 'f'
	}
	return xxh3.Hash(hdr[:])
}

// EntrySumOf computes EntrySum of class entry j of in, from the jar's map
// without copying its bytes where there is one; a directory's was computed
// with its check.
func (in *Input) EntrySumOf(j int) (Checksum, error) {
	e := &in.Entries[j]
	if in.fileSums != nil {
		return in.fileSums[j], nil
	}
	var m *mappedFile
	if in.Jar != nil {
		m = in.Jar.m
	}
	if m == nil || e.ZipFile == nil {
		raw, err := e.Stored()
		if err != nil {
			return Checksum{}, err
		}
		defer PutBuffer(raw)
		return EntrySum(e, raw), nil
	}
	off, err := e.ZipFile.DataOffset()
	if err != nil {
		return Checksum{}, err
	}
	n := e.ZipFile.CompressedSize64
	if off < 0 || n > uint64(m.size()-off) {
		return Checksum{}, fmt.Errorf("entry data past the end of the jar (%d+%d of %d bytes)", off, n, m.size())
	}
	seed := entrySeed(e)
	var sum Checksum
	err = m.view(off, int64(n), func(raw []byte) { sum = toChecksum(xxh3.Hash128Seed(raw, seed)) })
	return sum, err
}

// DirCheck is a class directory's check: every file's name and the
// checksum of its bytes (EntrySum), in the order of the listing. A
// directory has no bytes of its own to hash, and a file's time says
// nothing certain about its contents, so every file is read; the sums are
// kept (in.fileSums) for the comparison with the last run's records,
// which then reads no file twice.
func (in *Input) DirCheck() (Checksum, error) {
	h := NewCheckHasher()
	in.fileSums = make([]Checksum, len(in.Entries))
	for j := range in.Entries {
		e := &in.Entries[j]
		data, err := os.ReadFile(e.file)
		if err != nil {
			return Checksum{}, fmt.Errorf("%s: %w", in.Path, err)
		}
		in.fileSums[j] = EntrySum(e, data)
		h.Write([]byte(e.Name))
		h.Write([]byte{0})
		h.Write(in.fileSums[j][:])
	}
	return h.Sum(), nil
}
