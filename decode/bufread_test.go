package decode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// appLikeRecords is a plausible buffer: ids from the test map, a clock that
// moves forward in small steps.
func appLikeRecords(n int) []Record {
	var recs []Record
	ms := uint64(1000)
	ids := []int{2, 3, 4, 5}
	for len(recs) < n {
		for _, id := range ids {
			recs = append(recs, I(id, ms))
			ms++
		}
		for i := len(ids) - 1; i >= 0; i-- {
			recs = append(recs, O(ids[i], ms))
			ms += 2
		}
	}
	return recs[:n]
}

func readAll(t *testing.T, rr RecordReader) ([]Record, error) {
	t.Helper()
	var out []Record
	for {
		r, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
}

func TestBinaryRecordsBothByteOrders(t *testing.T) {
	names := testNames(t)
	recs := appLikeRecords(64)
	for _, tc := range []struct {
		name  string
		order binary.ByteOrder
		force binary.ByteOrder
	}{
		{"big-endian guessed", binary.BigEndian, nil},
		{"little-endian guessed", binary.LittleEndian, nil},
		{"big-endian forced", binary.BigEndian, binary.BigEndian},
		{"little-endian forced", binary.LittleEndian, binary.LittleEndian},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rr, order, err := NewBinaryRecordReader(bytes.NewReader(encodeBinary(recs, tc.order)), tc.force, names)
			if err != nil {
				t.Fatal(err)
			}
			if order != tc.order {
				t.Fatalf("order = %v, want %v", order, tc.order)
			}
			got, err := readAll(t, rr)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(recs) {
				t.Fatalf("%d records, want %d", len(got), len(recs))
			}
			for i := range recs {
				if got[i] != recs[i] {
					t.Fatalf("record %d = %#x, want %#x", i, uint64(got[i]), uint64(recs[i]))
				}
			}
		})
	}
}

func TestGuessByteOrderWithoutMap(t *testing.T) {
	// Without a map only the clock and the id range tell the orders apart.
	recs := appLikeRecords(200)
	for _, order := range []binary.ByteOrder{binary.BigEndian, binary.LittleEndian} {
		got, err := GuessByteOrder(encodeBinary(recs, order), nil)
		if err != nil || got != order {
			t.Errorf("GuessByteOrder(%v data) = %v, %v", order, got, err)
		}
	}
}

func TestGuessByteOrderTie(t *testing.T) {
	// A record whose bytes read the same both ways cannot tell the order.
	palindrome := []byte{0x80, 0x00, 0x08, 0x01, 0x01, 0x08, 0x00, 0x80}
	_, err := GuessByteOrder(palindrome, nil)
	if err == nil || !strings.Contains(err.Error(), "--byte-order") {
		t.Fatalf("error = %v", err)
	}
}

func TestBinaryRecordsTruncated(t *testing.T) {
	data := encodeBinary(appLikeRecords(3), binary.BigEndian)
	data = append(data, 1, 2, 3)
	rr, _, err := NewBinaryRecordReader(bytes.NewReader(data), binary.BigEndian, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = readAll(t, rr)
	if err == nil || !strings.Contains(err.Error(), "record 4 (byte offset 24): truncated: 3 trailing bytes") {
		t.Fatalf("error = %v", err)
	}
}

func TestTextRecords(t *testing.T) {
	enter := I(2, 1)
	exit := O(2, 3)
	tests := []struct {
		name    string
		input   string
		want    []Record
		wantErr string
	}{
		{name: "signed decimal as Java prints longs", input: "-9223354444668731391\n17592186044419\n", want: []Record{enter, exit}},
		{name: "unsigned decimal", input: "9223389629040820225\n17592186044419\n", want: []Record{enter, exit}},
		{name: "hex, comments, blank lines, CRLF", input: "# dump\r\n0x8000100000000001\r\n\r\n  0X100000000003  \r\n", want: []Record{enter, exit}},
		{name: "plus sign", input: "+17592186044419\n", want: []Record{exit}},
		{name: "garbage", input: "17592186044419\nabc\n", wantErr: `line 2: "abc" is not a decimal or 0x-hex 64-bit number`},
		{name: "bad hex", input: "0xZZ\n", wantErr: `line 1: "0xZZ" is not a 64-bit hex number`},
		{name: "too large", input: "\n99999999999999999999\n", wantErr: "line 2:"},
		{name: "signed too small", input: "-99999999999999999999\n", wantErr: "line 1: \"-99999999999999999999\" is not a signed 64-bit number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(t, NewTextRecordReader(strings.NewReader(tc.input), "beat.txt"))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d records, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("record %d = %#x, want %#x", i, uint64(got[i]), uint64(tc.want[i]))
				}
			}
		})
	}
}

// TestByteOrderFromTheWholeSample: a little-endian buffer whose first 100
// slots are empty (zero) is told from the 4,096 records sampled, not from
// the first few.
func TestByteOrderFromTheWholeSample(t *testing.T) {
	recs := append(make([]Record, 100), appLikeRecords(400)...)
	data := encodeBinary(recs, binary.LittleEndian)
	_, order, err := NewBinaryRecordReader(bytes.NewReader(data), nil, testNames(t))
	if err != nil {
		t.Fatal(err)
	}
	if order != binary.LittleEndian {
		t.Errorf("order = %v, want little-endian", order)
	}
}

// TestRecordReadersReadErrors: a read that fails names the record or
// line being read.
func TestRecordReadersReadErrors(t *testing.T) {
	broken := func(data []byte) io.Reader {
		return io.MultiReader(bytes.NewReader(data), iotest.ErrReader(errors.New("disk gone")))
	}
	r, _, err := NewBinaryRecordReader(broken(encodeBinary(appLikeRecords(2), binary.BigEndian)), binary.BigEndian, nil)
	if err != nil {
		t.Fatal(err)
	}
	var last error
	for range 3 {
		if _, last = r.Next(); last != nil {
			break
		}
	}
	if last == nil || last.Error() != "record 3 (byte offset 16): disk gone" {
		t.Errorf("binary: error = %v", last)
	}

	tr := NewTextRecordReader(broken([]byte("1\n2\n")), "beat.txt")
	for range 3 {
		if _, last = tr.Next(); last != nil {
			break
		}
	}
	if last == nil || last.Error() != "line 3: disk gone" {
		t.Errorf("text: error = %v", last)
	}
}
