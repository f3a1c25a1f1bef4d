package recording_test

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
	rt "github.com/tracebeat/tracebeat/decode/recording/recordingtest"
)

// A version 4 file written the way the runtime writes it (TraceFile,
// BlockEncoder), for the reader's edges: cuts, damage, gaps, bounds.

// event is a record as a consumer gets it; "close k@t" is an OnOpen call.
func readAll(t *testing.T, data []byte) (*recording.Recording, map[int64][]string) {
	t.Helper()
	rec, err := recording.ReadAt(bufio.NewReader(bytes.NewReader(data)), bytes.NewReader(data), int64(len(data)), "t.trace")
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
		tk := (&rt.Tokens{}).Enter(100).Leaf(101).Leaf(200).Time(5).Enter(70).Exits(2).Time(-1).Enter(5).ExitWord(5).Enter(6).ExitWord(99)
		// 100 open, 101 leaf, 200 leaf (far), t+5, 70 enters, 2 exits (70, 100),
		// t-1 (a time back: kept as given), 5 in and out by word, 6 in, an exit of 99 (stray).
		f := rt.NewV4(recording.KindExit)
		f.Chunk(rt.ChunkData, rt.Data(0, 10, 15, 0, rt.Block{Tid: 1, Name: "main", Records: 12, T0: 10, Tokens: tk.B, Deflate: deflate}))
		f.Chunk(rt.ChunkFooter, rt.Footer(20, 0))
		rec, ev := readAll(t, f.Bytes())
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
	f := rt.NewV4(recording.KindStream)
	f.Chunk(rt.ChunkBuilds, func() []byte { p := &rt.Payload{}; p.U16(1); p.Str("00000000000000aa"); return p.B }())
	var ends []int
	for i := range 6 {
		tk := (&rt.Tokens{}).Enter(uint32(10 + i)).Time(3).Leaf(11).Exits(1)
		f.Chunk(rt.ChunkData, rt.Data(uint64(i), uint64(100*i), uint64(100*i+3), 0, rt.Block{Tid: 1, Name: "main", Records: 4, T0: uint64(100 * i), Tokens: tk.B}))
		ends = append(ends, f.Len())
	}
	f.Chunk(rt.ChunkFooter, rt.Footer(700, 0))
	data := f.Bytes()
	prev := -1
	for n := rt.V4HeaderLen; n <= len(data); n++ {
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
	_, err := recording.ReadAt(bufio.NewReader(bytes.NewReader(data[:20])), bytes.NewReader(data[:20]), 20, "t.trace")
	assert.ErrorContains(t, err, "the file ends at byte 20, in its header")
}

// TestV4Damage: a damaged chunk is skipped, with a note; the others read,
// and the calls open across it close where the next block says.
func TestV4Damage(t *testing.T) {
	f := rt.NewV4(recording.KindStream)
	// main enters 1 then 2 (chunk 0); chunk 1 (damaged) holds 2's exit and an
	// enter of 3; chunk 2 starts with 1 and 3 open and ends both.
	f.Chunk(rt.ChunkData, rt.Data(0, 10, 10, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 10, Tokens: (&rt.Tokens{}).Enter(1).Enter(2).B}))
	bad := f.Chunk(rt.ChunkData, rt.Data(1, 20, 30, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 20,
		Open: []rt.Open{{Word: 1, At: 10}, {Word: 2, At: 10}}, Tokens: (&rt.Tokens{}).Exits(1).Time(10).Enter(3).B}))
	f.Chunk(rt.ChunkData, rt.Data(2, 40, 50, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 40,
		Open: []rt.Open{{Word: 1, At: 10}, {Word: 3, At: 30}}, Tokens: (&rt.Tokens{}).Time(10).Exits(2).B}))
	f.Chunk(rt.ChunkFooter, rt.Footer(60, 0))
	data := bytes.Clone(f.Bytes())
	data[bad+rt.ChunkHeaderLen+3] ^= 0xFF // a byte of its payload
	rec, ev := readAll(t, data)
	assert.Equal(t, []string{">1@10", ">2@10", "close>1@30", ">3@30", "<3@50", "<1@50"}, ev[1],
		"2 closes (as missing its exit) when the block after the damage says 3 is open, entered at 30")
	notes := strings.Join(rec.Notes, "\n")
	assert.Contains(t, notes, fmt.Sprintf("the chunk at byte %d (records) is damaged (its checksum differs): skipped", bad))

	// Its magic damaged: the next chunk is found by its magic.
	data = bytes.Clone(f.Bytes())
	data[bad] = 'X'
	rec, ev = readAll(t, data)
	assert.Equal(t, []string{">1@10", ">2@10", "close>1@30", ">3@30", "<3@50", "<1@50"}, ev[1])
	assert.Contains(t, strings.Join(rec.Notes, "\n"), fmt.Sprintf("no chunk at byte %d (damaged)", bad))
	assert.False(t, rec.Cut, "the footer is there")
}

// TestV4Dropped: a stream whose bound dropped its oldest chunks says so,
// and its first block's open calls come as enters with their own times.
func TestV4Dropped(t *testing.T) {
	f := rt.NewV4(recording.KindStream)
	p := &rt.Payload{}
	p.U64(3)
	p.U64(1200)
	p.U64(0)
	p.U64(2_000_000_000)
	p.U8(1)
	f.Chunk(rt.ChunkDropped, p.B)
	f.Chunk(rt.ChunkData, rt.Data(3, 2_500_000_000, 2_600_000_000, 0, rt.Block{Tid: 7, Name: "loop", Records: 1, T0: 2_600_000_000,
		Open: []rt.Open{{Word: 5, At: 1_000}, {Word: 6, At: 2_400_000_000}}, Tokens: (&rt.Tokens{}).Exits(1).B}))
	f.Chunk(rt.ChunkFooter, rt.Footer(2_700_000_000, 0))
	rec, ev := readAll(t, f.Bytes())
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
		block  rt.Block
		tokens []byte
		note   string
	}{
		{"a huge time", rt.Block{T0: 1}, (&rt.Tokens{}).Enter(1).Time(1 << 62).B, "a time past 146 years"},
		{"an exit of nothing", rt.Block{}, (&rt.Tokens{}).Exits(1).B, "an exit with no call open"},
		{"a bad token", rt.Block{}, []byte{0xC5}, "token 0xc5"},
		{"a cut number", rt.Block{}, []byte{rt.TokEnterFar, 0x80}, "a cut number"},
		{"a word below 0", rt.Block{}, []byte{rt.TokEnterFar, 0x01}, "an enter of word -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := rt.NewV4(recording.KindExit)
			b := tc.block
			b.Tid, b.Name, b.Tokens = 1, "main", tc.tokens
			b.Records = 2
			f.Chunk(rt.ChunkData, rt.Data(0, 0, 0, 0, b))
			f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
			rec, _ := readAll(t, f.Bytes())
			assert.Contains(t, strings.Join(rec.Notes, "\n"), tc.note)
		})
	}
	// A block that claims more tokens than its chunk holds.
	f := rt.NewV4(recording.KindExit)
	payload := rt.Data(0, 0, 0, 0, rt.Block{Tid: 1, Name: "main", Records: 1, Tokens: []byte{0x80}})
	binary.BigEndian.PutUint32(payload[len(payload)-5:], 1<<30)
	at := f.Chunk(rt.ChunkData, payload)
	rec, _ := readAll(t, f.Bytes())
	assert.Contains(t, strings.Join(rec.Notes, "\n"), fmt.Sprintf("the chunk at byte %d: block 1 of 1: 1073741824 bytes of tokens where 1 are left: damaged: skipped", at))
}

// TestV4TimeSource: the header's time source is read (1: Android's boot
// clock, with its value at the start), and one that is neither refused,
// naming its byte.
func TestV4TimeSource(t *testing.T) {
	f := rt.NewV4(recording.KindExit)
	data := f.Bytes()
	data[len(recording.RecordingMagic)+2+38] = recording.TimeBoot
	binary.BigEndian.PutUint64(data[len(recording.RecordingMagic)+2+39:], 123_456_789)
	f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
	rec, _ := readAll(t, f.Bytes())
	assert.Equal(t, recording.TimeBoot, rec.TimeSource)
	assert.Equal(t, uint64(123_456_789), rec.Origin)

	bad := rt.NewV4(recording.KindExit)
	bad.Bytes()[len(recording.RecordingMagic)+2+38] = 2
	bad.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
	_, err := recording.Read(bufio.NewReader(bytes.NewReader(bad.Bytes())), "r")
	assert.ErrorContains(t, err, "r: recording header: time source 2 at byte 46 is neither 0 (System.nanoTime) nor 1 (SystemClock.elapsedRealtimeNanos)")
}

// payloadOf builds a payload with the format's numbers.
func payloadOf(fill func(p *rt.Payload)) []byte {
	p := &rt.Payload{}
	fill(p)
	return p.B
}

// TestV4ClockChunks: the typical lateness is the last clock chunk's sum
// over its count (its figures add up from the start); the bound is the
// largest any chunk gives.
func TestV4ClockChunks(t *testing.T) {
	clock := func(bound, sum, n uint64) []byte {
		return payloadOf(func(p *rt.Payload) { p.U64(bound); p.U64(sum); p.U64(n) })
	}
	f := rt.NewV4(recording.KindExit)
	f.Chunk(rt.ChunkClock, clock(5_000, 3_000, 3))
	f.Chunk(rt.ChunkClock, clock(100, 8_000, 4))
	f.Chunk(rt.ChunkFooter, rt.Footer(10_000, 70))
	rec, _ := readAll(t, f.Bytes())
	assert.True(t, rec.Clock.TypicalKnown)
	assert.Equal(t, uint64(2_000), rec.Clock.Typical)
	assert.Equal(t, uint64(5_000), rec.Clock.LongestGap)
	assert.Empty(t, rec.Notes)

	f = rt.NewV4(recording.KindExit)
	f.Chunk(rt.ChunkClock, clock(50, 0, 0))
	f.Chunk(rt.ChunkFooter, rt.Footer(10_000, 70))
	rec, _ = readAll(t, f.Bytes())
	assert.False(t, rec.Clock.TypicalKnown, "no read counted")
	assert.Equal(t, uint64(70), rec.Clock.LongestGap, "the footer's bound, the larger")
}

// TestV4ShortPayloads: a chunk whose checksum holds but whose payload is
// a byte short of its fields is skipped, saying where it ends, and sets
// nothing.
func TestV4ShortPayloads(t *testing.T) {
	report := rt.Report(recording.Report{Kind: recording.ReportSlow, Tid: 1, Thread: "main", Entered: 1, End: 2}, 5)
	for _, tc := range []struct {
		name    string
		typ     byte
		payload []byte
		unset   func(rec *recording.Recording) bool
		short   string // what the note says of the payload a byte short
	}{
		{"builds", rt.ChunkBuilds, payloadOf(func(p *rt.Payload) { p.U16(1); p.Str("00000000000000aa") }),
			func(rec *recording.Recording) bool { return len(rec.Builds) == 0 }, "it ends at byte 4 of 19, 1 bytes short"},
		{"sections", rt.ChunkSections, payloadOf(func(p *rt.Payload) { p.U32(1); p.U32(0); p.Str("inflate") }),
			func(rec *recording.Recording) bool { return len(rec.Sections) == 0 }, "it ends at byte 10 of 16, 1 bytes short"},
		{"records", rt.ChunkData, rt.Data(0, 5, 5, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 5, Tokens: (&rt.Tokens{}).Leaf(1).B}),
			func(rec *recording.Recording) bool { return rec.Threads == 0 }, "block 1 of 1: 1 bytes of tokens where 0 are left: damaged"},
		{"dropped", rt.ChunkDropped, payloadOf(func(p *rt.Payload) { p.U64(1); p.U64(2); p.U64(3); p.U64(4); p.U8(1) }),
			func(rec *recording.Recording) bool { return rec.Dropped == nil }, "it ends at byte 32 of 32, 1 bytes short"},
		{"report", rt.ChunkReport, report,
			func(rec *recording.Recording) bool { return rec.Report == nil }, "it ends at byte 51 of 58, 1 bytes short"},
		{"clock", rt.ChunkClock, payloadOf(func(p *rt.Payload) { p.U64(9_999); p.U64(4); p.U64(2) }),
			func(rec *recording.Recording) bool { return !rec.Clock.TypicalKnown && rec.Clock.LongestGap == 0 }, "it ends at byte 16 of 23, 1 bytes short"},
		{"footer", rt.ChunkFooter, rt.Footer(10_000, 9_999),
			func(rec *recording.Recording) bool { return rec.Cut && rec.Clock.LongestGap == 0 }, "it ends at byte 16 of 16, 1 bytes short"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole := rt.NewV4(recording.KindExit)
			whole.Chunk(tc.typ, tc.payload)
			if tc.typ != rt.ChunkFooter {
				whole.Chunk(rt.ChunkFooter, rt.Footer(10_000, 0))
			}
			rec, _ := readAll(t, whole.Bytes())
			assert.False(t, tc.unset(rec), "the whole chunk is read")
			assert.NotContains(t, strings.Join(rec.Notes, "\n"), "skipped")

			short := rt.NewV4(recording.KindExit)
			at := short.Chunk(tc.typ, tc.payload[:len(tc.payload)-1])
			if tc.typ != rt.ChunkFooter {
				short.Chunk(rt.ChunkFooter, rt.Footer(10_000, 0))
			}
			rec, _ = readAll(t, short.Bytes())
			assert.True(t, tc.unset(rec), "a short chunk sets nothing")
			assert.Equal(t, fmt.Sprintf("t.trace: the chunk at byte %d: %s: skipped", at, tc.short), rec.Notes[0])
		})
	}
}

// TestV4DamageNamed: each kind of damage a chunk's frame or a block's
// header can have, in the note that skips it.
func TestV4DamageNamed(t *testing.T) {
	block := rt.Block{Tid: 1, Name: "main", Records: 2, T0: 5, Tokens: (&rt.Tokens{}).Leaf(1).B}
	data := rt.Data(0, 5, 5, 0, block)
	// where the block's fields are in data: after the chunk's 36 bytes and
	// the tid, name, flags, lost and records
	blockAt := 36 + 8 + 2 + len("main") + 1 + 8 + 4
	patched := func(at int, v ...byte) []byte {
		out := bytes.Clone(data)
		copy(out[at:], v)
		return out
	}
	withOpen := func(at uint64) []byte {
		b := block
		b.Open = []rt.Open{{Word: 1, At: at}}
		return rt.Data(0, 5, 5, 0, b)
	}
	for _, tc := range []struct {
		name    string
		payload []byte
		note    string
	}{
		{"more open calls than bytes", patched(blockAt, 0, 0, 0, 2), "block 1 of 1: 2 open calls: damaged"},
		{"an open call past 146 years", withOpen(recording.MaxTime), "block 1 of 1: an open call at 4611686018427387904 ns (over 146 years): damaged"},
		{"an open call just in time", withOpen(recording.MaxTime - 1), ""},
		{"a first time past 146 years", patched(blockAt+4, 0x40, 0, 0, 0, 0, 0, 0, 0), "block 1 of 1: a first time of 4611686018427387904 ns (over 146 years): damaged"},
		{"an encoding it does not know", patched(blockAt+12, 3), "block 1 of 1: encoding 3 is not 0 (raw), 1 (deflate) or 2 (LZ4)"},
		{"raw tokens of another size", patched(blockAt+13, 0, 0, 0, 2), "block 1 of 1: 2 token bytes stored as 1: damaged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := rt.NewV4(recording.KindExit)
			at := f.Chunk(rt.ChunkData, tc.payload)
			f.Chunk(rt.ChunkFooter, rt.Footer(10_000, 0))
			rec, ev := readAll(t, f.Bytes())
			if tc.note == "" {
				assert.Empty(t, rec.Notes)
				assert.NotEmpty(t, ev[1])
				return
			}
			assert.Equal(t, []string{fmt.Sprintf("t.trace: the chunk at byte %d: %s: skipped", at, tc.note)}, rec.Notes)
			assert.Empty(t, ev[1])
		})
	}
}

// TestV4Frames: a chunk's frame damaged or cut, each named, and reading
// going on where it can.
func TestV4Frames(t *testing.T) {
	leaf := func(seq uint64) []byte {
		return rt.Data(seq, 5, 5, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 5, Tokens: (&rt.Tokens{}).Leaf(1).B})
	}
	f := rt.NewV4(recording.KindExit)
	first := f.Chunk(rt.ChunkData, leaf(0))
	second := f.Chunk(rt.ChunkData, leaf(1))
	f.Chunk('Z', []byte("a chunk of a type decode does not know"))
	f.Chunk(rt.ChunkFooter, rt.Footer(10_000, 0))
	good := bytes.Clone(f.Bytes())
	rec, ev := readAll(t, good)
	assert.Empty(t, rec.Notes, "an unknown type is skipped quietly")
	assert.Len(t, ev[1], 4)

	for _, tc := range []struct {
		name   string
		damage func(b []byte) []byte
		note   string
		events int
	}{
		{"a length past 1 GiB", func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[first+5:], 1<<30+1)
			return b
		}, fmt.Sprintf("t.trace: the chunk at byte %d claims 1073741825 bytes (damaged): skipped", first), 2},
		{"a checksum wrong and no chunk after", func(b []byte) []byte {
			b[second+rt.ChunkHeaderLen] ^= 1
			return b[:second+rt.ChunkHeaderLen+len(leaf(1))]
		}, fmt.Sprintf("t.trace: the chunk at byte %d is damaged (its checksum differs): the rest of the file is skipped", second), 2},
		{"a magic damaged and none after", func(b []byte) []byte {
			b[second] = 'X'
			return b[:second+rt.ChunkHeaderLen+len(leaf(1))]
		}, fmt.Sprintf("t.trace: no chunk at byte %d (damaged), nor after it: the rest of the file (%d bytes) is skipped", second, rt.ChunkHeaderLen+len(leaf(1))), 2},
		{"a header cut", func(b []byte) []byte {
			return b[:second+5]
		}, fmt.Sprintf("t.trace: the file is cut at byte %d, in a chunk's header (5 of 13 bytes)", second+5), 2},
		{"a payload cut", func(b []byte) []byte {
			return b[:second+rt.ChunkHeaderLen+3]
		}, fmt.Sprintf("t.trace: the file is cut at byte %d, in the last chunk (records at byte %d: 3 of its %d bytes)", second+rt.ChunkHeaderLen+3, second, len(leaf(1))), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, ev := readAll(t, tc.damage(bytes.Clone(good)))
			assert.Equal(t, tc.note, rec.Notes[0])
			assert.Len(t, ev[1], tc.events)
		})
	}
}

// TestV4HeaderRefused: a header's clock that is neither precise nor
// shared is refused, naming its byte; the dropped note names the age
// bound when the size bound did not drop.
func TestV4HeaderRefused(t *testing.T) {
	f := rt.NewV4(recording.KindExit)
	f.Bytes()[len(recording.RecordingMagic)+2+24] = 2
	f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
	_, err := recording.Read(bufio.NewReader(bytes.NewReader(f.Bytes())), "r")
	assert.ErrorContains(t, err, "r: recording header: clock 2 at byte 32 is neither 0 (precise) nor 1 (shared)")

	f = rt.NewV4(recording.KindStream)
	f.Chunk(rt.ChunkDropped, payloadOf(func(p *rt.Payload) { p.U64(2); p.U64(10); p.U64(0); p.U64(1_000); p.U8(2) }))
	f.Chunk(rt.ChunkFooter, rt.Footer(10_000, 0))
	rec, _ := readAll(t, f.Bytes())
	assert.Equal(t, []string{"t.trace: the stream's oldest 2 chunks went to its age bound (-Dtracebeat.maxage): 10 records, from 0 ns to 1 µs after the start"}, rec.Notes)
}

// TestV4BlockEncodings: a block stored raw, deflated or as LZ4 reads the
// same; one that does not decompress is skipped with a note, and the
// thread's next block reads.
func TestV4BlockEncodings(t *testing.T) {
	// 300 leaves: tokens longer than an LZ4 length's first 15 and 255.
	tk := &rt.Tokens{}
	for i := range 300 {
		tk.Leaf(uint32(1 + i%7))
	}
	var want []string
	for i := range 300 {
		want = append(want, fmt.Sprintf(">%d@5", 1+i%7), fmt.Sprintf("<%d@5", 1+i%7))
	}
	for _, tc := range []struct {
		name string
		b    rt.Block
	}{
		{"raw", rt.Block{}},
		{"deflate", rt.Block{Deflate: true}},
		{"lz4", rt.Block{LZ4: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.b
			b.Tid, b.Name, b.Records, b.T0, b.Tokens = 1, "main", 600, 5, tk.B
			f := rt.NewV4(recording.KindExit)
			f.Chunk(rt.ChunkData, rt.Data(0, 5, 5, 0, b))
			f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
			rec, ev := readAll(t, f.Bytes())
			assert.Empty(t, rec.Notes)
			assert.Equal(t, want, ev[1])
		})
	}
	next := rt.Block{Tid: 1, Name: "main", Records: 2, T0: 7, Tokens: (&rt.Tokens{}).Leaf(9).B}
	for _, tc := range []struct {
		name string
		b    rt.Block
		why  string
	}{
		{"not deflate", rt.Block{Deflate: true, Stored: []byte{0xFF, 0xFF}}, "flate: corrupt input before offset 1"},
		{"deflate too short", rt.Block{Deflate: true, Stored: deflated([]byte{0x45})}, "unexpected EOF"},
		{"lz4 too short", rt.Block{LZ4: true, Stored: []byte{0x10, 0x45}}, "1 bytes where the block says 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.b
			b.Tid, b.Name, b.Records, b.T0, b.Tokens = 1, "main", 4, 5, (&rt.Tokens{}).Leaf(1).Leaf(2).B
			f := rt.NewV4(recording.KindExit)
			at := f.Chunk(rt.ChunkData, rt.Data(0, 5, 5, 0, b))
			f.Chunk(rt.ChunkData, rt.Data(1, 7, 7, 0, next))
			f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
			rec, ev := readAll(t, f.Bytes())
			// the block's tokens begin after the chunk's frame and fields
			// and the block's header (tid, name, flags, lost, records,
			// open, t0, encoding, sizes)
			tokensAt := at + rt.ChunkHeaderLen + 36 + 8 + 2 + 4 + 1 + 8 + 4 + 4 + 8 + 1 + 4 + 4
			assert.Equal(t, []string{fmt.Sprintf("t.trace: thread 1 (tid 1 \"main\"): block 1 at byte %d does not decompress (%s): its 4 records are skipped", tokensAt, tc.why)}, rec.Notes)
			assert.Equal(t, []string{">9@7", "<9@7"}, ev[1])
		})
	}
}

// deflated is b deflated as java.util.zip's nowrap writes it.
func deflated(b []byte) []byte {
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, 1)
	w.Write(b)
	w.Close()
	return z.Bytes()
}

// TestV4TokensRefused: each token that cannot be read ends its block's
// reading at its byte, with a note of what was read.
func TestV4TokensRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tokens *rt.Tokens
		note   string
	}{
		{"a time before the start", (&rt.Tokens{}).Leaf(1).Time(-6), "token byte 1: a time before the start (damaged?): the rest of the block (2 of its 4 records)"},
		{"a time back to the start", (&rt.Tokens{}).Leaf(1).Time(-5).Leaf(2), ""},
		{"an exit word past 31 bits", (&rt.Tokens{}).Leaf(1).ExitWord(0x80000000), "token byte 1: a cut or too large word (damaged?): the rest of the block (2 of its 4 records)"},
		{"the largest exit word", (&rt.Tokens{}).Enter(0x7FFFFFFF).ExitWord(0x7FFFFFFF).Leaf(1), ""},
		{"an enter past 31 bits", (&rt.Tokens{}).Enter(0x7FFFFFFF).Leaf(0x80000000), "token byte 6: an enter of word 2147483648 (damaged?): the rest of the block (3 of its 4 records)"},
		{"a cut time", &rt.Tokens{B: []byte{0x40 + 33, 0xF0, 0x80}}, "token byte 1: a cut number (damaged?)"},
		{"a cut gap", &rt.Tokens{B: []byte{0x40 + 33, 0xF4, 0x80}}, "token byte 1: a cut number (damaged?)"},
		{"a cut exit word", &rt.Tokens{B: []byte{0x40 + 33, 0xF1, 0x80}}, "token byte 1: a cut or too large word (damaged?)"},
		{"a cut far leaf", &rt.Tokens{B: []byte{0x40 + 33, 0xF2, 0x80}}, "token byte 1: a cut number (damaged?)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := rt.NewV4(recording.KindExit)
			f.Chunk(rt.ChunkData, rt.Data(0, 5, 5, 0, rt.Block{Tid: 1, Name: "main", Records: 4, T0: 5, Tokens: tc.tokens.B}))
			f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
			rec, _ := readAll(t, f.Bytes())
			if tc.note == "" {
				assert.Empty(t, rec.Notes)
				return
			}
			require.NotEmpty(t, rec.Notes)
			assert.Contains(t, rec.Notes[0], `t.trace: thread 1 (tid 1 "main"): block 1, `+tc.note)
		})
	}
}

// TestV4Gap: records that went (a ring overwritten before it was written
// out) count as lost, and no call is known open after them: an exit then
// closes nothing the gap hid.
func TestV4Gap(t *testing.T) {
	f := rt.NewV4(recording.KindExit)
	tk := (&rt.Tokens{}).Enter(1).Enter(2).Gap(300).Enter(3).Exits(1)
	f.Chunk(rt.ChunkData, rt.Data(0, 5, 5, 0, rt.Block{Tid: 1, Name: "main", Lost: 2, Records: 4, T0: 5, Tokens: tk.B}))
	f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
	data := f.Bytes()
	rec, err := recording.ReadAt(bufio.NewReader(bytes.NewReader(data)), bytes.NewReader(data), int64(len(data)), "t.trace")
	require.NoError(t, err)
	th, err := rec.NextThread()
	require.NoError(t, err)
	var got []string
	require.NoError(t, rec.Records(func(enter bool, id int, at uint64) error {
		got = append(got, fmt.Sprintf("%v%d", enter, id))
		return nil
	}))
	assert.Equal(t, []string{"true1", "true2", "true3", "false3"}, got)
	assert.Equal(t, int64(302), th.Lost, "the block's and the gap's")
	assert.Empty(t, rec.Notes)

	// One more exit, after the gap: no call is open to close.
	f = rt.NewV4(recording.KindExit)
	tk.Exits(1)
	f.Chunk(rt.ChunkData, rt.Data(0, 5, 5, 0, rt.Block{Tid: 1, Name: "main", Records: 5, T0: 5, Tokens: tk.B}))
	f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
	rec, _ = readAll(t, f.Bytes())
	assert.Contains(t, rec.Notes[0], "an exit with no call open")
}

// TestV4CallbackErrors: an error of the caller's functions ends Records
// with it (a write that failed is not damage of the file).
func TestV4CallbackErrors(t *testing.T) {
	stop := errors.New("stop")
	f := rt.NewV4(recording.KindStream)
	f.Chunk(rt.ChunkData, rt.Data(0, 10, 10, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 10,
		Open: []rt.Open{{Word: 4, At: 1}}, Tokens: (&rt.Tokens{}).Enter(1).Enter(2).B}))
	f.Chunk(rt.ChunkData, rt.Data(2, 40, 50, 0, rt.Block{Tid: 1, Name: "main", Records: 1, T0: 40,
		Open: []rt.Open{{Word: 4, At: 1}, {Word: 3, At: 30}}, Tokens: (&rt.Tokens{}).Exits(1).B}))
	f.Chunk(rt.ChunkFooter, rt.Footer(60, 0))
	data := f.Bytes()
	for _, tc := range []struct {
		name    string
		failAt  int // the call of fn that fails (0: none)
		onOpen  bool
		calls   int
		wantErr bool
	}{
		{"an open call's enter", 1, false, 1, true},
		{"a token's enter", 2, false, 2, true},
		{"the next block's open call", 4, false, 4, true},
		{"OnOpen", 0, true, 3, true},
		{"none", 0, false, 5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := recording.ReadAt(bufio.NewReader(bytes.NewReader(data)), bytes.NewReader(data), int64(len(data)), "t.trace")
			require.NoError(t, err)
			_, err = rec.NextThread()
			require.NoError(t, err)
			if tc.onOpen {
				rec.OnOpen = func(int, uint64) error { return stop }
			}
			calls := 0
			err = rec.Records(func(bool, int, uint64) error {
				calls++
				if calls == tc.failAt {
					return stop
				}
				return nil
			})
			if tc.wantErr {
				assert.ErrorIs(t, err, stop)
			} else {
				assert.NoError(t, err)
			}
			assert.Equal(t, tc.calls, calls)
		})
	}
}

// TestV4Header: each field of the header, as the runtime writes it.
func TestV4Header(t *testing.T) {
	f := rt.NewV4(recording.KindDump)
	f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
	rec, _ := readAll(t, f.Bytes())
	assert.Equal(t, time.UnixMilli(1_700_000_000_000).UTC(), rec.Start)
	assert.Equal(t, int64(4242), rec.Pid)
	assert.Equal(t, int64(16<<20), rec.Budget)
	assert.Equal(t, recording.RecordingClock{Shared: true, Tick: 1_000_000, ReadEvery: 64, Adaptive: true}, rec.Clock)
	assert.Equal(t, recording.KindDump, rec.Kind)
	assert.Equal(t, 4, rec.Version)

	precise := bytes.Clone(f.Bytes())
	precise[len(recording.RecordingMagic)+2+24] = 0
	rec, _ = readAll(t, precise)
	assert.False(t, rec.Clock.Shared)
}

// TestV4BuildsAndKinds: the builds of every builds chunk, once each and
// sorted, at most 1,024 a chunk; the note of a file without its footer
// says what a stream's missing footer may mean.
func TestV4BuildsAndKinds(t *testing.T) {
	builds := func(ids ...string) []byte {
		return payloadOf(func(p *rt.Payload) {
			p.U16(uint16(len(ids)))
			for _, id := range ids {
				p.Str(id)
			}
		})
	}
	f := rt.NewV4(recording.KindExit)
	f.Chunk(rt.ChunkBuilds, builds("00000000000000bb", "00000000000000aa"))
	f.Chunk(rt.ChunkBuilds, builds("00000000000000aa", "000000000000000c"))
	many := make([]string, 1024)
	for i := range many {
		many[i] = fmt.Sprintf("%016x", 0x1000+i)
	}
	f.Chunk(rt.ChunkBuilds, builds(many...))
	at := f.Chunk(rt.ChunkBuilds, builds(append(many, "00000000000000ff")...))
	f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
	rec, _ := readAll(t, f.Bytes())
	require.Len(t, rec.Builds, 3+1024)
	assert.Equal(t, []string{"000000000000000c", "00000000000000aa", "00000000000000bb"}, rec.Builds[:3])
	assert.NotContains(t, rec.Builds, "00000000000000ff")
	assert.Equal(t, []string{fmt.Sprintf("t.trace: the chunk at byte %d: 1025 builds (at most 1024 expected): skipped", at)}, rec.Notes)

	for kind, what := range map[byte]string{
		recording.KindStream: "ends without its footer (the program was killed, or still runs, or the file was cut)",
		recording.KindExit:   "ends without its footer (cut or damaged)",
		recording.KindReport: "ends without its footer (cut or damaged)",
	} {
		f := rt.NewV4(kind)
		f.Chunk(rt.ChunkData, rt.Data(0, 5, 2_000, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 5, Tokens: (&rt.Tokens{}).Leaf(1).B}))
		rec, _ := readAll(t, f.Bytes())
		assert.Equal(t, []string{"t.trace: the recording " + what + ": it covers 2 µs from its start, up to its last whole chunk"}, rec.Notes, "kind %d", kind)
	}
}

// TestV4ReportAndClockFields: a report's word of all ones is a call whose
// enter the ring lost (-1); one clock read counted is a mean.
func TestV4ReportAndClockFields(t *testing.T) {
	f := rt.NewV4(recording.KindReport)
	want := recording.Report{Kind: recording.ReportStall, Tid: 7, Thread: "worker", Entered: 11, End: 22, Threshold: 33, From: 1, To: 44}
	f.Chunk(rt.ChunkReport, rt.Report(want, 0xFFFFFFFF))
	f.Chunk(rt.ChunkClock, payloadOf(func(p *rt.Payload) { p.U64(900); p.U64(250); p.U64(1) }))
	f.Chunk(rt.ChunkFooter, rt.Footer(50, 0))
	rec, _ := readAll(t, f.Bytes())
	want.ID = -1
	require.NotNil(t, rec.Report)
	assert.Equal(t, want, *rec.Report)
	assert.True(t, rec.Clock.TypicalKnown)
	assert.Equal(t, uint64(250), rec.Clock.Typical)

	f = rt.NewV4(recording.KindReport)
	f.Chunk(rt.ChunkReport, rt.Report(want, 1<<30|3))
	f.Chunk(rt.ChunkFooter, rt.Footer(50, 0))
	rec, _ = readAll(t, f.Bytes())
	assert.Equal(t, recording.SectionID(3), rec.Report.ID)
}

// TestV4Resync: after a damaged chunk the next is found by its magic
// wherever it is: past the reader's 64 KiB window, across its edge, as
// the file's last four bytes; a damaged chunk that holds the magic in
// its payload is skipped whole.
func TestV4Resync(t *testing.T) {
	leaf := rt.Data(0, 5, 5, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 5, Tokens: (&rt.Tokens{}).Leaf(1).B})
	// The search starts a byte after the damaged magic and reads 64 KiB at
	// a time, each window overlapping the last by three bytes: the next
	// magic at 65,533 bytes from the start straddles the first window's
	// end.
	for _, at := range []int{12 + len(leaf), 12 + len(leaf) + 1, 65_532, 65_533, 65_534, 65_536, 140_000} {
		gap := at - 12 - len(leaf)
		f := rt.NewV4(recording.KindExit)
		bad := f.Chunk(rt.ChunkData, leaf)
		data := bytes.Clone(f.Bytes())
		data[bad] = 'X'
		data = append(data, make([]byte, gap)...)
		g := &rt.V4{}
		g.Chunk(rt.ChunkData, leaf)
		g.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
		next := len(data)
		data = append(data, g.Bytes()...)
		rec, ev := readAll(t, data)
		assert.Equal(t, []string{fmt.Sprintf("t.trace: no chunk at byte %d (damaged): %d bytes skipped", bad, next-bad)}, rec.Notes, "gap %d", gap)
		assert.Len(t, ev[1], 2, "gap %d", gap)
	}

	// The last four bytes are a chunk's magic.
	f := rt.NewV4(recording.KindExit)
	bad := f.Chunk(rt.ChunkData, leaf)
	data := bytes.Clone(f.Bytes())
	data[bad] = 'X'
	data = append(data, "TBCK"...)
	rec, _ := readAll(t, data)
	assert.Equal(t, fmt.Sprintf("t.trace: no chunk at byte %d (damaged): %d bytes skipped", bad, len(data)-4-bad), rec.Notes[0])
	assert.Equal(t, fmt.Sprintf("t.trace: the file is cut at byte %d, in a chunk's header (4 of 13 bytes)", len(data)), rec.Notes[1])

	// A damaged chunk whose payload holds the magic.
	f = rt.NewV4(recording.KindExit)
	holds := f.Chunk(rt.ChunkSections, payloadOf(func(p *rt.Payload) { p.U32(1); p.U32(0); p.Str("TBCK inside") }))
	f.Chunk(rt.ChunkData, leaf)
	f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
	data = bytes.Clone(f.Bytes())
	data[holds+rt.ChunkHeaderLen] ^= 1
	rec, ev := readAll(t, data)
	assert.Equal(t, []string{fmt.Sprintf("t.trace: the chunk at byte %d (section names) is damaged (its checksum differs): skipped", holds)}, rec.Notes)
	assert.Len(t, ev[1], 2)
}

// TestV4ChunkOfTheLargestLength: a length of 1 GiB is allowed (the file
// is then cut in it); one byte more is damage.
func TestV4ChunkOfTheLargestLength(t *testing.T) {
	f := rt.NewV4(recording.KindExit)
	at := f.Chunk(rt.ChunkData, []byte{1, 2, 3})
	data := bytes.Clone(f.Bytes())
	binary.BigEndian.PutUint32(data[at+5:], 1<<30)
	rec, _ := readAll(t, data)
	assert.Equal(t, fmt.Sprintf("t.trace: the file is cut at byte %d, in the last chunk (records at byte %d: 3 of its 1073741824 bytes)", len(data), at), rec.Notes[0])
}

// readerAt fails as a disk does from a byte on, or says io.EOF with a
// whole read that ends at the file's end (which io.ReaderAt allows).
type readerAt struct {
	data   []byte
	failAt int64
	eofEnd bool
}

var errDisk = errors.New("input/output error")

func (r *readerAt) ReadAt(p []byte, off int64) (int, error) {
	if r.failAt > 0 && off+int64(len(p)) > r.failAt {
		return 0, errDisk
	}
	n, err := bytes.NewReader(r.data).ReadAt(p, off)
	if r.eofEnd && err == nil && off+int64(n) == int64(len(r.data)) {
		err = io.EOF
	}
	return n, err
}

// TestV4ReadErrors: a read that fails is named with its byte; a whole
// read that says io.EOF at the file's end is a whole read.
func TestV4ReadErrors(t *testing.T) {
	leaf := rt.Data(0, 5, 5, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 5, Tokens: (&rt.Tokens{}).Leaf(1).B})
	f := rt.NewV4(recording.KindExit)
	at := f.Chunk(rt.ChunkData, leaf)
	f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
	data := f.Bytes()
	open := func(ra io.ReaderAt) (*recording.Recording, error) {
		return recording.ReadAt(bufio.NewReader(bytes.NewReader(data)), ra, int64(len(data)), "t.trace")
	}
	_, err := open(&readerAt{data: data, failAt: 20})
	assert.EqualError(t, err, "t.trace: input/output error")

	noFooter := "t.trace: the recording ends without its footer (cut or damaged): it covers 0 ns from its start, up to its last whole chunk"
	rec, err := open(&readerAt{data: data, failAt: int64(at + 5)})
	require.NoError(t, err)
	assert.Equal(t, []string{fmt.Sprintf("t.trace: byte %d: input/output error", at), noFooter}, rec.Notes)

	rec, err = open(&readerAt{data: data, failAt: int64(at + rt.ChunkHeaderLen + 3)})
	require.NoError(t, err)
	assert.Equal(t, []string{fmt.Sprintf("t.trace: byte %d: input/output error", at+rt.ChunkHeaderLen), noFooter}, rec.Notes)

	rec, err = open(&readerAt{data: data, eofEnd: true})
	require.NoError(t, err)
	assert.Empty(t, rec.Notes)
	assert.False(t, rec.Cut)
}

// TestV4DataCutInItsHeaders: a records chunk whose payload ends inside
// its own fields, or just after a block's open calls, is skipped saying
// where; nothing of it is kept.
func TestV4DataCutInItsHeaders(t *testing.T) {
	block := rt.Block{Tid: 1, Name: "main", Records: 2, T0: 5, Open: []rt.Open{{Word: 9, At: 1}}, Tokens: (&rt.Tokens{}).Leaf(1).B}
	whole := rt.Data(0, 5, 5, 0, block)
	afterOpen := 36 + 8 + 2 + len("main") + 1 + 8 + 4 + 4 + 12
	for _, tc := range []struct {
		cut  int
		want string
	}{
		{10, "it ends at byte 8 of 10, 6 bytes short"},
		{afterOpen, fmt.Sprintf("it ends at byte %d of %d, 8 bytes short", afterOpen, afterOpen)},
		{afterOpen - 1, "block 1 of 1: 1 open calls: damaged"},
	} {
		f := rt.NewV4(recording.KindExit)
		at := f.Chunk(rt.ChunkData, whole[:tc.cut])
		f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
		rec, ev := readAll(t, f.Bytes())
		assert.Equal(t, []string{fmt.Sprintf("t.trace: the chunk at byte %d: %s: skipped", at, tc.want)}, rec.Notes, "cut at %d", tc.cut)
		assert.Zero(t, rec.Threads, "cut at %d", tc.cut)
		assert.Empty(t, ev)
	}
}

// TestV4OpenCallsAcrossBlocks: a block's open calls against what the
// reader knows: the same (nothing happens), one more (a lost chunk held
// just an enter: it begins at its own time), the first different (all
// close and the block's begin).
func TestV4OpenCallsAcrossBlocks(t *testing.T) {
	first := rt.Block{Tid: 1, Name: "main", Records: 2, T0: 10, Tokens: (&rt.Tokens{}).Enter(1).Enter(2).B}
	for _, tc := range []struct {
		name string
		open []rt.Open
		want []string
	}{
		{"the same", []rt.Open{{Word: 1, At: 10}, {Word: 2, At: 10}},
			[]string{">1@10", ">2@10", "<2@40", "<1@40"}},
		{"one more", []rt.Open{{Word: 1, At: 10}, {Word: 2, At: 10}, {Word: 3, At: 30}},
			[]string{">1@10", ">2@10", ">3@30", "<3@40", "<2@40"}},
		{"the first different", []rt.Open{{Word: 5, At: 3}, {Word: 2, At: 10}},
			[]string{">1@10", ">2@10", "close>0@10", ">5@3", ">2@10", "<2@40", "<5@40"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := rt.NewV4(recording.KindStream)
			f.Chunk(rt.ChunkData, rt.Data(0, 10, 10, 0, first))
			f.Chunk(rt.ChunkData, rt.Data(1, 40, 40, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 40, Open: tc.open, Tokens: (&rt.Tokens{}).Exits(2).B}))
			f.Chunk(rt.ChunkFooter, rt.Footer(50, 0))
			rec, ev := readAll(t, f.Bytes())
			assert.Equal(t, tc.want, ev[1])
			assert.Empty(t, rec.Notes)
		})
	}
}

// TestV4RecordsOnce: Records before NextThread gives nothing; a thread's
// records are given once, a second call gives none.
func TestV4RecordsOnce(t *testing.T) {
	f := rt.NewV4(recording.KindExit)
	f.Chunk(rt.ChunkData, rt.Data(0, 5, 5, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 5, Tokens: (&rt.Tokens{}).Leaf(1).B}))
	f.Chunk(rt.ChunkData, rt.Data(1, 6, 6, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 6, Tokens: (&rt.Tokens{}).Leaf(2).B}))
	f.Chunk(rt.ChunkFooter, rt.Footer(10, 0))
	data := f.Bytes()
	rec, err := recording.ReadAt(bufio.NewReader(bytes.NewReader(data)), bytes.NewReader(data), int64(len(data)), "t.trace")
	require.NoError(t, err)
	n := 0
	count := func(bool, int, uint64) error { n++; return nil }
	require.NoError(t, rec.Records(count))
	assert.Zero(t, n, "before a thread")
	_, err = rec.NextThread()
	require.NoError(t, err)
	require.NoError(t, rec.Records(count))
	assert.Equal(t, 4, n)
	require.NoError(t, rec.Records(count))
	assert.Equal(t, 4, n, "given once")
}

// TestV4TokensReadAfterTheChunks: a block's tokens are read again when
// its thread's records are; a read that fails then is Records' error,
// and io.EOF with a whole read at the file's end is a whole read.
func TestV4TokensReadAfterTheChunks(t *testing.T) {
	f := rt.NewV4(recording.KindExit)
	f.Chunk(rt.ChunkData, rt.Data(0, 5, 5, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 5, Tokens: (&rt.Tokens{}).Leaf(1).B}))
	data := f.Bytes() // no footer: the tokens end the file
	for _, tc := range []struct {
		name string
		ra   io.ReaderAt
		err  string
	}{
		{"io.EOF at the end", &readerAt{data: data, eofEnd: true}, ""},
		{"a read that fails", &failLater{readerAt: readerAt{data: data}, left: 3}, `t.trace: thread 1 (tid 1 "main"): block 1: input/output error`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := recording.ReadAt(bufio.NewReader(bytes.NewReader(data)), tc.ra, int64(len(data)), "t.trace")
			require.NoError(t, err)
			_, err = rec.NextThread()
			require.NoError(t, err)
			err = rec.Records(func(bool, int, uint64) error { return nil })
			if tc.err == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, tc.err)
			}
		})
	}
}

// failLater reads left times (the header, a chunk's header and its
// payload), then fails every read.
type failLater struct {
	readerAt
	left int
}

func (r *failLater) ReadAt(p []byte, off int64) (int, error) {
	if r.left == 0 {
		return 0, errDisk
	}
	r.left--
	return r.readerAt.ReadAt(p, off)
}
