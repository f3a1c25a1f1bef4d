package instrument

import (
	"bytes"
	"encoding/binary"

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
