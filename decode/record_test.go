package decode

import "testing"

func TestRecordLayout(t *testing.T) {
	tests := []struct {
		enter bool
		id    int
		ms    uint64
		raw   uint64 // bit 63 enter, bits 43..62 id, bits 0..42 ms
	}{
		{true, 1, 5, 1<<63 | 1<<43 | 5},
		{false, 1, 5, 1<<43 | 5},
		{true, 0xFFFFE, 0, 1<<63 | 0xFFFFE<<43},
		{false, 1048573, 1<<43 - 1, 1048573<<43 | (1<<43 - 1)},
		{true, 42, 123456789, 1<<63 | 42<<43 | 123456789},
	}
	for _, tc := range tests {
		r := MakeRecord(tc.enter, tc.id, tc.ms)
		if uint64(r) != tc.raw {
			t.Errorf("MakeRecord(%v,%d,%d) = %#x, want %#x", tc.enter, tc.id, tc.ms, uint64(r), tc.raw)
		}
		if r.Enter() != tc.enter || r.MethodID() != tc.id || r.TimeMs() != tc.ms {
			t.Errorf("%#x decodes to enter=%v id=%d ms=%d", tc.raw, r.Enter(), r.MethodID(), r.TimeMs())
		}
	}
	// Java prints an enter record as a negative long.
	javaLong := int64(-9223354444668731391) // (1<<63 | 2<<43 | 1) as a signed long
	if r := Record(uint64(javaLong)); !r.Enter() || r.MethodID() != 2 || r.TimeMs() != 1 {
		t.Errorf("negative long decodes to enter=%v id=%d ms=%d", r.Enter(), r.MethodID(), r.TimeMs())
	}
}
