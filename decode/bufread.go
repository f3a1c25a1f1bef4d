package decode

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// RecordReader yields AppMethodBeat records one at a time.
type RecordReader interface {
	// Next returns the next record, or io.EOF after the last one.
	Next() (Record, error)
	// Where describes the position of the record last returned, for messages.
	Where() string
}

// byteOrderSampleRecords is how many leading records the byte-order guess
// looks at: enough for a clear majority, small enough to peek.
const byteOrderSampleRecords = 4096

// binaryRecordReader reads 8-byte records in a fixed byte order.
type binaryRecordReader struct {
	r     *bufio.Reader
	order binary.ByteOrder
	index int64 // 1-based number of the record last returned
	buf   [8]byte
}

// NewBinaryRecordReader reads records of 8 bytes. When order is nil it is
// guessed from the first records (see GuessByteOrder) using names.
func NewBinaryRecordReader(r io.Reader, order binary.ByteOrder, names *MethodNames) (RecordReader, binary.ByteOrder, error) {
	br := bufio.NewReaderSize(r, 64*1024)
	if order == nil {
		sample, err := br.Peek(byteOrderSampleRecords * 8)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, nil, err
		}
		order, err = GuessByteOrder(sample, names)
		if err != nil {
			return nil, nil, err
		}
	}
	return &binaryRecordReader{r: br, order: order}, order, nil
}

func (b *binaryRecordReader) Next() (Record, error) {
	n, err := io.ReadFull(b.r, b.buf[:])
	if err == nil {
		b.index++
		return Record(b.order.Uint64(b.buf[:])), nil
	}
	if errors.Is(err, io.EOF) {
		return 0, io.EOF
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return 0, fmt.Errorf("record %d (byte offset %d): truncated: %d trailing bytes, records are 8 bytes", b.index+1, b.index*8, n)
	}
	return 0, fmt.Errorf("record %d (byte offset %d): %w", b.index+1, b.index*8, err)
}

func (b *binaryRecordReader) Where() string {
	return fmt.Sprintf("record %d (byte offset %d)", b.index, (b.index-1)*8)
}

// GuessByteOrder picks the byte order under which the sample (whole 8-byte
// records; a trailing partial record is ignored) looks like a real buffer:
// ids found in the map, ids in range, and times that rarely go backwards
// and advance in small steps. Ties go to an error, so a caller can ask for
// --byte-order instead of silently decoding garbage.
func GuessByteOrder(sample []byte, names *MethodNames) (binary.ByteOrder, error) {
	n := len(sample) / 8
	if n == 0 {
		return binary.BigEndian, nil // nothing to decode either way
	}
	sample = sample[:n*8]
	big := plausibility(sample, binary.BigEndian, names)
	little := plausibility(sample, binary.LittleEndian, names)
	switch {
	case big > little:
		return binary.BigEndian, nil
	case little > big:
		return binary.LittleEndian, nil
	}
	if allZero(sample) {
		return binary.BigEndian, nil
	}
	return nil, fmt.Errorf("cannot tell the byte order from the first %d records (both look equally plausible); use --byte-order big or little", n)
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// plausibility scores how much records read in order look like a buffer.
func plausibility(sample []byte, order binary.ByteOrder, names *MethodNames) int {
	score := 0
	var prev uint64
	havePrev := false
	for off := 0; off+8 <= len(sample); off += 8 {
		r := Record(order.Uint64(sample[off:]))
		if r == 0 {
			continue // empty slot: says nothing about the order
		}
		id := r.MethodID()
		if id == 0 || id >= MaxMethodID {
			score -= 2
		} else if _, known := names.Lookup(id); known {
			score += 2
		}
		t := r.TimeMs()
		if havePrev {
			// A real buffer's clock only moves forward, in small steps.
			if t >= prev && t-prev <= 60_000 {
				score++
			} else {
				score--
			}
		}
		prev, havePrev = t, true
	}
	return score
}

// textRecordReader reads one number per line: decimal (signed, as Java
// prints a long, or unsigned) or 0x-prefixed hex. Blank lines and lines
// starting with '#' are skipped.
type textRecordReader struct {
	sc     *bufio.Scanner
	source string
	line   int64
}

// NewTextRecordReader reads records written as text, one per line.
func NewTextRecordReader(r io.Reader, source string) RecordReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	return &textRecordReader{sc: sc, source: source}
}

func (t *textRecordReader) Next() (Record, error) {
	for t.sc.Scan() {
		t.line++
		text := strings.TrimSpace(t.sc.Text())
		if t.line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		v, err := parseRecordNumber(text)
		if err != nil {
			return 0, fmt.Errorf("line %d: %w", t.line, err)
		}
		return Record(v), nil
	}
	if err := t.sc.Err(); err != nil {
		return 0, fmt.Errorf("line %d: %w", t.line+1, err)
	}
	return 0, io.EOF
}

func (t *textRecordReader) Where() string { return fmt.Sprintf("line %d", t.line) }

func parseRecordNumber(text string) (uint64, error) {
	if len(text) > 2 && (text[:2] == "0x" || text[:2] == "0X") {
		v, err := strconv.ParseUint(text[2:], 16, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a 64-bit hex number", text)
		}
		return v, nil
	}
	if strings.HasPrefix(text, "-") {
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a signed 64-bit number", text)
		}
		return uint64(v), nil
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(text, "+"), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a decimal or 0x-hex 64-bit number", text)
	}
	return v, nil
}
