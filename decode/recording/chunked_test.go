package recording

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A version 4 file written the way the runtime writes it (TraceFile,
// BlockEncoder), for the reader's edges: cuts, damage, gaps, bounds.

type v4File struct {
	b bytes.Buffer
}

func newV4File(kind byte) *v4File {
	f := &v4File{}
	f.b.WriteString(RecordingMagic)
	be := binary.BigEndian
	var h [2 + v4HeaderLen]byte
	be.PutUint16(h[0:], 4)
	be.PutUint64(h[2:], 1_700_000_000_000)
	be.PutUint64(h[10:], 4242)
	be.PutUint64(h[18:], 16<<20)
	h[26] = 1 // shared clock
	be.PutUint64(h[27:], 1_000_000)
	be.PutUint32(h[35:], 64)
	h[39] = kind
	f.b.Write(h[:])
	return f
}

func (f *v4File) chunk(typ byte, payload []byte) int {
	at := f.b.Len()
	var h [chunkHeader]byte
	copy(h[:], chunkMagic)
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

type pw struct{ b []byte }

func (p *pw) u8(v byte)    { p.b = append(p.b, v) }
func (p *pw) u16(v uint16) { p.b = binary.BigEndian.AppendUint16(p.b, v) }
func (p *pw) u32(v uint32) { p.b = binary.BigEndian.AppendUint32(p.b, v) }
func (p *pw) u64(v uint64) { p.b = binary.BigEndian.AppendUint64(p.b, v) }
func (p *pw) str(s string) { p.u16(uint16(len(s))); p.b = append(p.b, s...) }

// testBlock is one thread's block: its open calls at its start and tokens.
type testBlock struct {
	tid     int64
	name    string
	lost    uint64
	records uint32
	open    []callEntry
	t0      uint64
	tokens  []byte
	deflate bool
}

func dataChunk(seq, first, last, bound uint64, blocks ...testBlock) []byte {
	p := &pw{}
	p.u64(seq)
	p.u64(first)
	p.u64(last)
	p.u64(bound)
	p.u32(uint32(len(blocks)))
	for _, b := range blocks {
		p.u64(uint64(b.tid))
		p.str(b.name)
		p.u8(0)
		p.u64(b.lost)
		p.u32(b.records)
		p.u32(uint32(len(b.open)))
		for _, o := range b.open {
			p.u32(o.word)
			p.u64(o.at)
		}
		p.u64(b.t0)
		stored := b.tokens
		if b.deflate {
			var z bytes.Buffer
			w, _ := flate.NewWriter(&z, 1)
			w.Write(b.tokens)
			w.Close()
			stored = z.Bytes()
			p.u8(1)
		} else {
			p.u8(0)
		}
		p.u32(uint32(len(b.tokens)))
		p.u32(uint32(len(stored)))
		p.b = append(p.b, stored...)
	}
	return p.b
}

func footer(end, bound uint64) []byte {
	p := &pw{}
	p.u64(end)
	p.u64(bound)
	p.u8(0)
	return p.b
}

// tokens builds a block's tokens.
type tokens struct {
	b    []byte
	prev int64
}

func (t *tokens) enter(w uint32) *tokens {
	d := int64(w) - t.prev
	t.prev = int64(w)
	if d >= -32 && d < 32 {
		t.b = append(t.b, byte(tokEnter+32+d))
	} else {
		t.b = append(t.b, tokEnterFar)
		t.b = binary.AppendVarint(t.b, d)
	}
	return t
}

func (t *tokens) leaf(w uint32) *tokens {
	d := int64(w) - t.prev
	t.prev = int64(w)
	if d >= -32 && d < 32 {
		t.b = append(t.b, byte(tokLeaf+32+d))
	} else {
		t.b = append(t.b, tokLeafFar)
		t.b = binary.AppendVarint(t.b, d)
	}
	return t
}

func (t *tokens) exits(n int) *tokens { t.b = append(t.b, byte(n-1)); return t }
func (t *tokens) time(d int64) *tokens {
	t.b = append(t.b, tokTime)
	t.b = binary.AppendVarint(t.b, d)
	return t
}
func (t *tokens) exitWord(w uint32) *tokens {
	t.b = append(t.b, tokExitWord)
	t.b = binary.AppendUvarint(t.b, uint64(w))
	return t
}
func (t *tokens) gap(n uint64) *tokens {
	t.b = append(t.b, tokGap)
	t.b = binary.AppendUvarint(t.b, n)
	return t
}

// event is a record as a consumer gets it; "close k@t" is an OnOpen call.
func readAll(t *testing.T, data []byte) (*Recording, map[int64][]string) {
	t.Helper()
	rec, err := ReadAt(bufio.NewReader(bytes.NewReader(data)), bytes.NewReader(data), int64(len(data)), "t.trace")
	require.NoError(t, err)
	out := map[int64][]string{}
	for {
		th, err := rec.NextThread()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		rec.OnOpen = func(keep int, at uint64) error {
			out[th.Tid] = append(out[th.Tid], fmt.Sprintf("close>%d@%d", keep, at))
			return nil
		}
		require.NoError(t, rec.Records(func(enter bool, id int, at uint64) error {
			c := "<"
			if enter {
				c = ">"
			}
			out[th.Tid] = append(out[th.Tid], fmt.Sprintf("%s%d@%d", c, id, at))
			return nil
		}))
	}
	return rec, out
}

// TestV4Tokens: every token form, in a raw and a deflated block.
func TestV4Tokens(t *testing.T) {
	for _, deflate := range []bool{false, true} {
		tk := (&tokens{}).enter(100).leaf(101).leaf(200).time(5).enter(70).exits(2).time(-1).enter(5).exitWord(5).enter(6).exitWord(99)
		// 100 open, 101 leaf, 200 leaf (far), t+5, 70 enters, 2 exits (70, 100),
		// t-1 (a time back: kept as given), 5 in and out by word, 6 in, an exit of 99 (stray).
		f := newV4File(KindExit)
		f.chunk(chunkData, dataChunk(0, 10, 15, 0, testBlock{tid: 1, name: "main", records: 12, t0: 10, tokens: tk.b, deflate: deflate}))
		f.chunk(chunkFooter, footer(20, 0))
		rec, ev := readAll(t, f.b.Bytes())
		assert.Equal(t, []string{">100@10", ">101@10", "<101@10", ">200@10", "<200@10", ">70@15", "<70@15", "<100@15",
			">5@14", "<5@14", ">6@14", "<99@14"}, ev[1], "deflate %v", deflate)
		assert.Equal(t, uint64(20), rec.End)
		assert.False(t, rec.Cut)
		assert.Empty(t, rec.Notes)
	}
}

// TestV4Cuts: a file cut at any byte reads up to its last whole chunk, with
// a note; the records read never shrink as the cut moves on.
func TestV4Cuts(t *testing.T) {
	f := newV4File(KindStream)
	f.chunk(chunkBuilds, func() []byte { p := &pw{}; p.u16(1); p.str("00000000000000aa"); return p.b }())
	var ends []int
	for i := range 6 {
		tk := (&tokens{}).enter(uint32(10 + i)).time(3).leaf(11).exits(1)
		f.chunk(chunkData, dataChunk(uint64(i), uint64(100*i), uint64(100*i+3), 0, testBlock{tid: 1, name: "main", records: 4, t0: uint64(100 * i), tokens: tk.b}))
		ends = append(ends, f.b.Len())
	}
	f.chunk(chunkFooter, footer(700, 0))
	data := f.b.Bytes()
	prev := -1
	for n := len(RecordingMagic) + 2 + v4HeaderLen; n <= len(data); n++ {
		rec, ev := readAll(t, data[:n])
		whole := 0
		for _, e := range ends {
			if e <= n {
				whole++
			}
		}
		assert.Len(t, ev[1], 4*whole, "cut at %d", n)
		assert.GreaterOrEqual(t, len(ev[1]), prev)
		prev = len(ev[1])
		if n < len(data) {
			assert.True(t, rec.Cut, "cut at %d", n)
			assert.Contains(t, strings.Join(rec.Notes, "\n"), "ends without its footer", "cut at %d", n)
		}
	}
	_, err := ReadAt(bufio.NewReader(bytes.NewReader(data[:20])), bytes.NewReader(data[:20]), 20, "t.trace")
	assert.ErrorContains(t, err, "the file ends at byte 20, in its header")
}

// TestV4Damage: a damaged chunk is skipped, with a note; the others read,
// and the calls open across it close where the next block says.
func TestV4Damage(t *testing.T) {
	f := newV4File(KindStream)
	// main enters 1 then 2 (chunk 0); chunk 1 (damaged) holds 2's exit and an
	// enter of 3; chunk 2 starts with 1 and 3 open and ends both.
	f.chunk(chunkData, dataChunk(0, 10, 10, 0, testBlock{tid: 1, name: "main", records: 2, t0: 10, tokens: (&tokens{}).enter(1).enter(2).b}))
	bad := f.chunk(chunkData, dataChunk(1, 20, 30, 0, testBlock{tid: 1, name: "main", records: 2, t0: 20,
		open: []callEntry{{1, 10}, {2, 10}}, tokens: (&tokens{}).exits(1).time(10).enter(3).b}))
	f.chunk(chunkData, dataChunk(2, 40, 50, 0, testBlock{tid: 1, name: "main", records: 2, t0: 40,
		open: []callEntry{{1, 10}, {3, 30}}, tokens: (&tokens{}).time(10).exits(2).b}))
	f.chunk(chunkFooter, footer(60, 0))
	data := bytes.Clone(f.b.Bytes())
	data[bad+chunkHeader+3] ^= 0xFF // a byte of its payload
	rec, ev := readAll(t, data)
	assert.Equal(t, []string{">1@10", ">2@10", "close>1@30", ">3@30", "<3@50", "<1@50"}, ev[1],
		"2 closes (as missing its exit) when the block after the damage says 3 is open, entered at 30")
	notes := strings.Join(rec.Notes, "\n")
	assert.Contains(t, notes, fmt.Sprintf("the chunk at byte %d (records) is damaged (its checksum differs): skipped", bad))

	// Its magic damaged: the next chunk is found by its magic.
	data = bytes.Clone(f.b.Bytes())
	data[bad] = 'X'
	rec, ev = readAll(t, data)
	assert.Equal(t, []string{">1@10", ">2@10", "close>1@30", ">3@30", "<3@50", "<1@50"}, ev[1])
	assert.Contains(t, strings.Join(rec.Notes, "\n"), fmt.Sprintf("no chunk at byte %d (damaged)", bad))
	assert.False(t, rec.Cut, "the footer is there")
}

// TestV4Dropped: a stream whose bound dropped its oldest chunks says so,
// and its first block's open calls come as enters with their own times.
func TestV4Dropped(t *testing.T) {
	f := newV4File(KindStream)
	p := &pw{}
	p.u64(3)
	p.u64(1200)
	p.u64(0)
	p.u64(2_000_000_000)
	p.u8(1)
	f.chunk(chunkDropped, p.b)
	f.chunk(chunkData, dataChunk(3, 2_500_000_000, 2_600_000_000, 0, testBlock{tid: 7, name: "loop", records: 1, t0: 2_600_000_000,
		open: []callEntry{{5, 1_000}, {6, 2_400_000_000}}, tokens: (&tokens{}).exits(1).b}))
	f.chunk(chunkFooter, footer(2_700_000_000, 0))
	rec, ev := readAll(t, f.b.Bytes())
	assert.Equal(t, []string{">5@1000", ">6@2400000000", "<6@2600000000"}, ev[7])
	require.NotNil(t, rec.Dropped)
	assert.Equal(t, int64(1200), rec.Dropped.Records)
	assert.Contains(t, strings.Join(rec.Notes, "\n"),
		"the stream's oldest 3 chunks went to its size bound (-Dtracebeat.maxsize): 1200 records, from 0 ns to 2 s after the start")
}

// TestV4Refuses: damage inside a checked chunk is named, never a panic or
// a huge allocation; times past 146 years are damage.
func TestV4Refuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		block  testBlock
		tokens []byte
		note   string
	}{
		{"a huge time", testBlock{t0: 1}, (&tokens{}).enter(1).time(1 << 62).b, "a time past 146 years"},
		{"an exit of nothing", testBlock{}, (&tokens{}).exits(1).b, "an exit with no call open"},
		{"a bad token", testBlock{}, []byte{0xC5}, "token 0xc5"},
		{"a cut number", testBlock{}, []byte{tokEnterFar, 0x80}, "a cut number"},
		{"a word below 0", testBlock{}, []byte{tokEnterFar, 0x01}, "an enter of word -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newV4File(KindExit)
			b := tc.block
			b.tid, b.name, b.tokens = 1, "main", tc.tokens
			b.records = 2
			f.chunk(chunkData, dataChunk(0, 0, 0, 0, b))
			f.chunk(chunkFooter, footer(10, 0))
			rec, _ := readAll(t, f.b.Bytes())
			assert.Contains(t, strings.Join(rec.Notes, "\n"), tc.note)
		})
	}
	// A block that claims more tokens than its chunk holds.
	f := newV4File(KindExit)
	payload := dataChunk(0, 0, 0, 0, testBlock{tid: 1, name: "main", records: 1, tokens: []byte{0x80}})
	binary.BigEndian.PutUint32(payload[len(payload)-5:], 1<<30)
	at := f.chunk(chunkData, payload)
	rec, _ := readAll(t, f.b.Bytes())
	assert.Contains(t, strings.Join(rec.Notes, "\n"), fmt.Sprintf("the chunk at byte %d: block 1 of 1: 1073741824 bytes of tokens where 1 are left: damaged: skipped", at))
}

// TestUnlz: LZ4 blocks as the runtime's Lz writes them (literals, matches
// that overlap what they copy, lengths of 15 and more), and damage named.
func TestUnlz(t *testing.T) {
	long := bytes.Repeat([]byte("ab"), 200)
	for _, tc := range []struct {
		name string
		src  []byte
		want []byte
		err  string
	}{
		{"literals", []byte{0x50, 'h', 'e', 'l', 'l', 'o'}, []byte("hello"), ""},
		// "ab", then a match of 398 bytes at offset 2 (it copies what it writes), then 5 literals.
		{"overlapping match", append([]byte{0x2F, 'a', 'b', 2, 0, 255, 124}, append([]byte{0x50}, "xyzzy"...)...),
			append(append([]byte{}, long...), "xyzzy"...), ""},
		{"15 literals", append([]byte{0xF0, 0}, "0123456789abcde"...), []byte("0123456789abcde"), ""},
		{"offset zero", []byte{0x10, 'a', 0, 0, 0x00}, make([]byte, 6), "an offset of 0"},
		{"offset past", []byte{0x10, 'a', 2, 0, 0x00}, make([]byte, 6), "an offset of 2 at byte 2, 1 bytes decoded"},
		{"too long", []byte{0x60, 'a', 'b', 'c', 'd', 'e', 'f'}, make([]byte, 5), "6 literals at byte 1, past the end"},
		{"too short", []byte{0x20, 'a', 'b'}, make([]byte, 5), "2 bytes where the block says 5"},
		{"cut length", []byte{0xF0}, make([]byte, 20), "a length cut at byte 1"},
		{"cut offset", []byte{0x10, 'a', 1}, make([]byte, 9), "an offset cut at byte 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]byte, len(tc.want))
			err := unlz(tc.src, dst)
			if tc.err != "" {
				assert.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, dst)
		})
	}
}

// TestV4TimeSource: the header's time source is read (1: Android's boot
// clock, with its value at the start), and one that is neither refused,
// naming its byte.
func TestV4TimeSource(t *testing.T) {
	f := newV4File(KindExit)
	data := f.b.Bytes()
	data[len(RecordingMagic)+2+38] = TimeBoot
	binary.BigEndian.PutUint64(data[len(RecordingMagic)+2+39:], 123_456_789)
	f.chunk(chunkFooter, footer(10, 0))
	rec, _ := readAll(t, f.b.Bytes())
	assert.Equal(t, TimeBoot, rec.TimeSource)
	assert.Equal(t, uint64(123_456_789), rec.Origin)

	bad := newV4File(KindExit)
	bad.b.Bytes()[len(RecordingMagic)+2+38] = 2
	bad.chunk(chunkFooter, footer(10, 0))
	_, err := Read(bufio.NewReader(bytes.NewReader(bad.b.Bytes())), "r")
	assert.ErrorContains(t, err, "r: recording header: time source 2 at byte 46 is neither 0 (System.nanoTime) nor 1 (SystemClock.elapsedRealtimeNanos)")
}
