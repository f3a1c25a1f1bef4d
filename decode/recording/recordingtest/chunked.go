package recordingtest

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// The chunk types and tokens of version 4, as RECORDING.md gives them
// (written from the format, not from the reader's constants, so that a
// test meets a reader's slip).
const (
	ChunkBuilds   = 'B'
	ChunkSections = 'N'
	ChunkData     = 'T'
	ChunkDropped  = 'D'
	ChunkReport   = 'R'
	ChunkClock    = 'C'
	ChunkFooter   = 'F'

	// ChunkHeaderLen is a chunk's magic, type, length and CRC.
	ChunkHeaderLen = 13
	// V4HeaderLen is the file's header: the magic, the version and the
	// fixed fields after it.
	V4HeaderLen = 6 + 2 + 47

	TokEnterFar = 0xF3 // an enter, its word's distance a zigzag varint
)

// V4 is a version 4 recording as TraceFile writes it, chunk by chunk.
type V4 struct{ b bytes.Buffer }

// NewV4 starts a file of the kind (recording.KindExit, ...) with a shared
// clock of a 1 ms tick and 64 records between reads.
func NewV4(kind byte) *V4 {
	f := &V4{}
	p := &Payload{}
	p.B = append(p.B, recording.RecordingMagic...)
	p.U16(4)
	p.U64(1_700_000_000_000) // the start, ms
	p.U64(4242)              // pid
	p.U64(16 << 20)          // budget
	p.U8(1)                  // shared clock
	p.U64(1_000_000)         // its tick
	p.U32(64)                // records between reads
	p.U8(kind)
	p.U8(0) // System.nanoTime
	p.U64(0)
	f.b.Write(p.B)
	return f
}

// Chunk appends a chunk of the type and returns the byte it starts at.
func (f *V4) Chunk(typ byte, payload []byte) int {
	at := f.b.Len()
	var h [ChunkHeaderLen]byte
	copy(h[:], "TBCK")
	h[4] = typ
	binary.BigEndian.PutUint32(h[5:], uint32(len(payload)))
	crc := crc32.NewIEEE()
	crc.Write([]byte{typ})
	crc.Write(payload)
	binary.BigEndian.PutUint32(h[9:], crc.Sum32())
	f.b.Write(h[:])
	f.b.Write(payload)
	return at
}

// Bytes is the file so far; it aliases what the next Chunk appends to.
func (f *V4) Bytes() []byte { return f.b.Bytes() }

// Len is the file's length so far.
func (f *V4) Len() int { return f.b.Len() }

// Payload builds a chunk's payload in the format's big-endian numbers.
type Payload struct{ B []byte }

func (p *Payload) U8(v byte)    { p.B = append(p.B, v) }
func (p *Payload) U16(v uint16) { p.B = binary.BigEndian.AppendUint16(p.B, v) }
func (p *Payload) U32(v uint32) { p.B = binary.BigEndian.AppendUint32(p.B, v) }
func (p *Payload) U64(v uint64) { p.B = binary.BigEndian.AppendUint64(p.B, v) }
func (p *Payload) Str(s string) { p.U16(uint16(len(s))); p.B = append(p.B, s...) }

// Block is one thread's block of a records chunk.
type Block struct {
	Tid     int64
	Name    string
	Lost    uint64
	Records uint32
	Open    []Open // the calls open at its start
	T0      uint64 // the time of its first record
	Tokens  []byte
	Deflate bool   // stored deflated (encoding 1)
	LZ4     bool   // stored as one LZ4 block of literals (encoding 2)
	Stored  []byte // when not nil, the bytes stored in place of the encoded tokens
}

// Open is a call open at a block's start.
type Open struct {
	Word uint32
	At   uint64
}

// Data is a records chunk's payload.
func Data(seq, first, last, bound uint64, blocks ...Block) []byte {
	p := &Payload{}
	p.U64(seq)
	p.U64(first)
	p.U64(last)
	p.U64(bound)
	p.U32(uint32(len(blocks)))
	for _, b := range blocks {
		p.U64(uint64(b.Tid))
		p.Str(b.Name)
		p.U8(0)
		p.U64(b.Lost)
		p.U32(b.Records)
		p.U32(uint32(len(b.Open)))
		for _, o := range b.Open {
			p.U32(o.Word)
			p.U64(o.At)
		}
		p.U64(b.T0)
		stored := b.Tokens
		switch {
		case b.Deflate:
			var z bytes.Buffer
			w, _ := flate.NewWriter(&z, 1)
			w.Write(b.Tokens)
			w.Close()
			stored = z.Bytes()
			p.U8(1)
		case b.LZ4:
			stored = lz4Literals(b.Tokens)
			p.U8(2)
		default:
			p.U8(0)
		}
		if b.Stored != nil {
			stored = b.Stored
		}
		p.U32(uint32(len(b.Tokens)))
		p.U32(uint32(len(stored)))
		p.B = append(p.B, stored...)
	}
	return p.B
}

// lz4Literals is an LZ4 block of one sequence, all literals: the length
// in the token's high nibble, 15 and more continued in bytes of 255 and a
// last one below it.
func lz4Literals(b []byte) []byte {
	n := len(b)
	if n < 15 {
		return append([]byte{byte(n << 4)}, b...)
	}
	out := []byte{0xF0}
	for n -= 15; n >= 255; n -= 255 {
		out = append(out, 255)
	}
	return append(append(out, byte(n)), b...)
}

// Footer is a footer chunk's payload, written at exit.
func Footer(end, bound uint64) []byte {
	p := &Payload{}
	p.U64(end)
	p.U64(bound)
	p.U8(0)
	return p.B
}

// Report is a report chunk's payload; word is the call's (0xFFFFFFFF: a
// stall whose enter the ring lost).
func Report(r recording.Report, word uint32) []byte {
	p := &Payload{}
	p.U8(byte(r.Kind))
	p.U64(uint64(r.Tid))
	p.Str(r.Thread)
	p.U32(word)
	for _, v := range []uint64{r.Entered, r.End, r.Threshold, r.From, r.To} {
		p.U64(v)
	}
	return p.B
}

// Tokens builds a block's tokens; each method returns it for the next.
type Tokens struct {
	B    []byte
	prev int64 // the last enter's word
}

func (t *Tokens) near(base byte, far byte, w uint32) *Tokens {
	d := int64(w) - t.prev
	t.prev = int64(w)
	if d >= -32 && d < 32 {
		t.B = append(t.B, byte(int64(base)+32+d))
	} else {
		t.B = append(t.B, far)
		t.B = binary.AppendVarint(t.B, d)
	}
	return t
}

// Enter opens a call of word w.
func (t *Tokens) Enter(w uint32) *Tokens { return t.near(0x80, TokEnterFar, w) }

// Leaf is a call of word w that returns at once.
func (t *Tokens) Leaf(w uint32) *Tokens { return t.near(0x40, 0xF2, w) }

// Exits closes the n innermost open calls (1 to 64).
func (t *Tokens) Exits(n int) *Tokens { t.B = append(t.B, byte(n-1)); return t }

// Time moves the time on by d ns.
func (t *Tokens) Time(d int64) *Tokens {
	t.B = append(t.B, 0xF0)
	t.B = binary.AppendVarint(t.B, d)
	return t
}

// ExitWord is an exit of word w that is not the innermost call.
func (t *Tokens) ExitWord(w uint32) *Tokens {
	t.B = append(t.B, 0xF1)
	t.B = binary.AppendUvarint(t.B, uint64(w))
	return t
}

// Gap says n records went here.
func (t *Tokens) Gap(n uint64) *Tokens {
	t.B = append(t.B, 0xF4)
	t.B = binary.AppendUvarint(t.B, n)
	return t
}
