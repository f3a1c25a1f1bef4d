package recording

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"
)

// Tokens of a version 4 block (the runtime's BlockEncoder writes them).
const (
	tokExitRun  = 0x00 // 0x00-0x3F: 1 to 64 exits of the innermost open call
	tokLeaf     = 0x40 // 0x40-0x7F: a leaf call, word = last enter + (token - 0x60)
	tokEnter    = 0x80 // 0x80-0xBF: an enter, word = last enter + (token - 0xA0)
	tokTime     = 0xF0 // zigzag varint: the time moves by it
	tokExitWord = 0xF1 // uvarint word: an exit that is not of the innermost call
	tokLeafFar  = 0xF2 // zigzag varint: a leaf call, word = last enter + it
	tokEnterFar = 0xF3 // zigzag varint: an enter, word = last enter + it
	tokGap      = 0xF4 // uvarint: records that went here; no call is known open after
)

// OpenHandler closes, as calls whose exit is missing, the open calls of
// the current thread above the first keep, at time t: a stream's chunks
// that went (its bound) or were damaged held their exits. A consumer that
// pairs records (decode.Pairer) sets it; the calls open after the gap come
// as enters with their own times.
type OpenHandler func(keep int, t uint64) error

// callEntry is an open call as the reader knows it.
type callEntry struct {
	word uint32
	at   uint64
}

// v4Reading is the reading state of one thread of a version 4 file.
type v4Reading struct {
	tok   []callEntry // the encoder's stack: what its tokens lean on
	pair  []callEntry // what the consumer was told is open (the pairer's stack)
	last  uint64      // the latest time given
	seen  uint32      // records given
	block int         // index of the block being read, for messages
}

// records gives the current thread's records in order: each block's open
// calls first where they are not what the reader knows (a gap), then its
// tokens.
func (v *v4) records(rec *Recording, fn func(enter bool, id int, t uint64) error) error {
	t := v.cur
	if t == nil {
		return nil
	}
	st := &v4Reading{}
	var raw []byte
	var stored []byte
	for i := v.curAt; i < len(t.blocks); i++ {
		v.curAt = i + 1
		st.block = i
		b := &t.blocks[i]
		stored = grow(stored, int(b.stored))
		if _, err := v.ra.ReadAt(stored, b.off); err != nil && !(err == io.EOF && len(stored) == int(b.stored)) {
			return fmt.Errorf("%s: thread %d (%s): block %d: %v", v.src, t.Index+1, t.Label(), i+1, err)
		}
		tokens := stored
		if b.enc != encRaw {
			raw = grow(raw, int(b.raw))
			var err error
			if b.enc == encDeflate {
				var n int
				if n, err = io.ReadFull(flate.NewReader(bytes.NewReader(stored)), raw); err == nil && n != int(b.raw) {
					err = fmt.Errorf("%d bytes where the block says %d", n, b.raw)
				}
			} else {
				err = unlz(stored, raw)
			}
			if err != nil {
				rec.Notes = append(rec.Notes, fmt.Sprintf("%s: thread %d (%s): block %d at byte %d does not decompress (%v): its %d records are skipped",
					v.src, t.Index+1, t.Label(), i+1, b.off, err, b.records))
				st.tok = st.tok[:0]
				continue
			}
			tokens = raw
		}
		if err := v.openCalls(rec, st, b, fn); err != nil {
			return err
		}
		if err := v.tokens(rec, st, b, tokens, fn); err != nil {
			return err
		}
	}
	return nil
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// openCalls makes the reader's stacks the block's open calls, where they
// differ (the thread's first block, or one after chunks that went).
func (v *v4) openCalls(rec *Recording, st *v4Reading, b *block, fn func(enter bool, id int, t uint64) error) error {
	same := len(st.tok) == len(b.open)
	for k := 0; same && k < len(b.open); k++ {
		same = st.tok[k] == callEntry(b.open[k])
	}
	if same {
		return nil
	}
	keep := 0
	for keep < len(st.pair) && keep < len(b.open) && st.pair[keep] == callEntry(b.open[keep]) {
		keep++
	}
	if keep < len(st.pair) {
		at := b.t0
		if keep < len(b.open) {
			at = min(at, b.open[keep].at)
		}
		at = max(at, st.last)
		if rec.OnOpen != nil {
			if err := rec.OnOpen(keep, at); err != nil {
				return err
			}
		}
		st.pair = st.pair[:keep]
	}
	for _, o := range b.open[keep:] {
		st.pair = append(st.pair, callEntry(o))
		st.last = max(st.last, o.at)
		if err := fn(true, wordID(o.word), o.at); err != nil {
			return err
		}
	}
	st.tok = append(st.tok[:0], st.pair...)
	return nil
}

// tokens gives a block's records.
func (v *v4) tokens(rec *Recording, st *v4Reading, b *block, p []byte, fn func(enter bool, id int, t uint64) error) error {
	now := b.t0
	prev := int64(0)
	var given uint32
	// failed is the caller's own error (a write that failed, a pairer's
	// refusal): returned as it is, never taken for damage of the block.
	var failed error
	emit := func(enter bool, w uint32) error {
		given++
		st.seen++
		st.last = max(st.last, now)
		if enter {
			st.pair = append(st.pair, callEntry{w, now})
		} else {
			for k := len(st.pair) - 1; k >= 0; k-- {
				if st.pair[k].word == w {
					st.pair = st.pair[:k]
					break
				}
			}
		}
		failed = fn(enter, wordID(w), now)
		return failed
	}
	word := func(d int64) (uint32, error) {
		w := prev + d
		if w < 0 || w > 0x7FFFFFFF {
			return 0, fmt.Errorf("an enter of word %d", w)
		}
		prev = w
		return uint32(w), nil
	}
	for i := 0; i < len(p); {
		at := i
		c := p[i]
		i++
		var err error
		switch {
		case c < tokLeaf:
			for n := int(c) + 1; n > 0 && err == nil; n-- {
				if len(st.tok) == 0 {
					err = fmt.Errorf("an exit with no call open")
					break
				}
				top := st.tok[len(st.tok)-1]
				st.tok = st.tok[:len(st.tok)-1]
				err = emit(false, top.word)
			}
		case c < tokEnter, c == tokLeafFar, c < 0xC0, c == tokEnterFar:
			d := int64(c&0x3F) - 32
			if c == tokLeafFar || c == tokEnterFar {
				var n int
				d, n = binary.Varint(p[i:])
				if n <= 0 {
					err = fmt.Errorf("a cut number")
					break
				}
				i += n
			}
			var w uint32
			if w, err = word(d); err != nil {
				break
			}
			leaf := c < tokEnter || c == tokLeafFar
			if err = emit(true, w); err == nil && leaf {
				err = emit(false, w)
			} else if err == nil {
				st.tok = append(st.tok, callEntry{w, now})
			}
		case c == tokTime:
			d, n := binary.Varint(p[i:])
			if n <= 0 {
				err = fmt.Errorf("a cut number")
				break
			}
			i += n
			if d < 0 && uint64(-d) > now {
				err = fmt.Errorf("a time before the start")
				break
			}
			now = uint64(int64(now) + d)
			if now >= MaxTime {
				err = fmt.Errorf("a time past 146 years")
			}
		case c == tokExitWord:
			u, n := binary.Uvarint(p[i:])
			if n <= 0 || u > 0x7FFFFFFF {
				err = fmt.Errorf("a cut or too large word")
				break
			}
			i += n
			w := uint32(u)
			for k := len(st.tok) - 1; k >= 0; k-- {
				if st.tok[k].word == w {
					st.tok = st.tok[:k]
					break
				}
			}
			err = emit(false, w)
		case c == tokGap:
			u, n := binary.Uvarint(p[i:])
			if n <= 0 {
				err = fmt.Errorf("a cut number")
				break
			}
			i += n
			st.tok = st.tok[:0]
			v.cur.Lost += int64(min(u, 1<<62))
		default:
			err = fmt.Errorf("token 0x%02x", c)
		}
		if failed != nil {
			return failed
		}
		if err != nil {
			t := v.cur
			rec.Notes = append(rec.Notes, fmt.Sprintf("%s: thread %d (%s): block %d, token byte %d: %v (damaged?): the rest of the block (%d of its %d records) is skipped",
				v.src, t.Index+1, t.Label(), st.block+1, at, err, int64(b.records)-int64(given), b.records))
			st.tok = st.tok[:0]
			return nil
		}
	}
	if given != b.records {
		t := v.cur
		rec.Notes = append(rec.Notes, fmt.Sprintf("%s: thread %d (%s): block %d: %d records where its header says %d (damaged?)",
			v.src, t.Index+1, t.Label(), st.block+1, given, b.records))
	}
	return nil
}
