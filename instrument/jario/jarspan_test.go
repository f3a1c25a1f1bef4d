package jario

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEndSpan: a span names its entries' place and counts their
// classes; entries not written are its skipped names; no records, or
// records that are not the entries', or of the zip64 form, are no span.
func TestEndSpan(t *testing.T) {
	w := newJarWriter(nil, io.Discard)
	require.NoError(t, w.entryBytes(&zip.FileHeader{Name: "before.txt"}, []byte("b")))
	start := w.Off
	w.BeginSpan()
	for _, name := range []string{"a/A.class", "res/r.txt", "a/C.class"} {
		require.NoError(t, w.entryBytes(&zip.FileHeader{Name: name, CompressedSize64: 1, UncompressedSize64: 1}, []byte("x")))
	}
	entries := []Entry{{Name: "a/A.class"}, {Name: "dup.class"}, {Name: "res/r.txt"}, {Name: "a/C.class"}, {Name: "META-INF/X.SF"}}
	span := w.EndSpan(entries)
	assert.Equal(t, start, span.Start)
	assert.Equal(t, w.Off, span.End)
	assert.Equal(t, 1, span.First)
	assert.Equal(t, 3, span.Count)
	assert.Equal(t, 3, span.Classes)
	assert.Equal(t, []string{"dup.class", "META-INF/X.SF"}, span.Skipped)
	assert.NotEqual(t, Checksum{}, span.LocalSum)
	assert.NotEqual(t, Checksum{}, span.RecordSum)
	assert.Equal(t, []string{"a/A.class", "res/r.txt", "a/C.class"}, RecordNames(w.dir[recordsAt(t, w.dir, span.First):]))

	w.BeginSpan()
	assert.Equal(t, Span{}, w.EndSpan([]Entry{{Name: "x.class"}}), "nothing written")
	w.BeginSpan()
	require.NoError(t, w.entryBytes(&zip.FileHeader{Name: "y.class"}, nil))
	assert.Equal(t, Span{}, w.EndSpan([]Entry{{Name: "x.class"}}), "records of other entries")
	assert.Equal(t, Span{}, w.EndSpan(nil), "no span begun")
	w.BeginSpan()
	require.NoError(t, w.entryBytes(&zip.FileHeader{Name: "big.class", UncompressedSize64: MaxUint32}, nil))
	assert.Equal(t, Span{}, w.EndSpan([]Entry{{Name: "big.class"}}), "a zip64 record")
	w.BeginSpan()
	require.NoError(t, w.entryBytes(&zip.FileHeader{Name: "big.class", CompressedSize64: MaxUint32}, nil))
	assert.Equal(t, Span{}, w.EndSpan([]Entry{{Name: "big.class"}}), "a zip64 record")
	w.BeginSpan()
	require.NoError(t, w.entryBytes(&zip.FileHeader{Name: "fits.class", CompressedSize64: MaxUint32 - 1, UncompressedSize64: MaxUint32 - 1}, nil))
	assert.Equal(t, 1, w.EndSpan([]Entry{{Name: "fits.class"}}).Count, "under 4 GiB: the plain form")
}

// recordsAt is where record k of dir begins.
func recordsAt(t *testing.T, dir []byte, k int) int {
	t.Helper()
	pos, n := 0, 0
	require.NoError(t, eachRecord(dir, func(rec []byte) error {
		if n < k {
			pos += len(rec)
		}
		n++
		return nil
	}))
	return pos
}

// TestSpanFits: a span is written as it was when no input before it
// takes one of its names now, and each name it skipped is taken (or is
// its own, earlier).
func TestSpanFits(t *testing.T) {
	span := Span{Skipped: []string{"dup.class", "again.txt"}}
	records := []string{"a.class", "again.txt", "b.class"}
	for _, tc := range []struct {
		names map[string]bool
		fits  bool
	}{
		{map[string]bool{"dup.class": true}, true},
		{map[string]bool{"dup.class": true, "a.class": true}, false},
		{map[string]bool{"dup.class": true, "b.class": true}, false},
		{map[string]bool{}, false},
		{map[string]bool{"dup.class": true, "other": true}, true},
	} {
		assert.Equal(t, tc.fits, span.Fits(records, tc.names), "%v", tc.names)
	}
	assert.True(t, (&Span{}).Fits(nil, nil))
}

// TestLastJar: the last merged jar is read only in the plain form the
// writer gives it; records are handed out only for the span kept, and
// local bytes only while intact.
func TestLastJar(t *testing.T) {
	dir := t.TempDir()
	entries := sampleEntries(30)
	path := filepath.Join(dir, "last.jar")
	data, spans := jarWriterFile(t, path, entries, "", 10, 20, 30)
	require.Len(t, spans, 3)
	last := OpenLastJar(path)
	require.NotNil(t, last)
	defer last.Close()
	for _, s := range spans {
		assert.True(t, last.Intact(s))
		assert.NotNil(t, last.Records(s))
	}
	assert.Equal(t, len(entries)+1, len(last.recPos))
	for name, span := range map[string]Span{
		"no records":           {},
		"past the last record": {First: 25, Count: 6, Start: spans[2].Start, End: spans[2].End, RecordSum: spans[2].RecordSum},
		"one record past":      {First: 21, Count: 10, Start: spans[2].Start, End: spans[2].End, RecordSum: spans[2].RecordSum},
		"another sum":          {First: spans[1].First, Count: spans[1].Count, Start: spans[1].Start, End: spans[1].End, RecordSum: spans[0].RecordSum},
		"offsets before":       {First: spans[1].First, Count: spans[1].Count, Start: spans[1].Start + 1, End: spans[1].End, RecordSum: spans[1].RecordSum},
		"offsets after":        {First: spans[1].First, Count: spans[1].Count, Start: spans[1].Start, End: spans[1].Start + 1, RecordSum: spans[1].RecordSum},
		"not its first":        {First: spans[1].First + 1, Count: spans[1].Count - 1, Start: spans[1].Start, End: spans[1].End, RecordSum: spans[1].RecordSum},
	} {
		assert.Nil(t, last.Records(span), name)
	}
	whole := Span{First: 0, Count: 30, Start: 0, End: spans[2].End}
	records := last.Records(whole)
	assert.Nil(t, records, "the sum of these records was never kept")
	sum, ok := recordSum(last.dir)
	require.True(t, ok)
	whole.RecordSum = sum
	assert.Equal(t, last.dir, last.Records(whole), "every record, the last included")
	altered := spans[1]
	altered.LocalSum[0]++
	assert.False(t, last.Intact(altered))
	beyond := spans[2]
	beyond.End += 10
	assert.False(t, last.Intact(beyond))

	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	endAt := len(data) - dirEndLen
	le := binary.LittleEndian
	withEnd := func(change func(end []byte)) []byte {
		b := bytes.Clone(data)
		change(b[endAt:])
		return b
	}
	for name, b := range map[string][]byte{
		"shorter than an end record":     data[:dirEndLen-1],
		"no end record":                  withEnd(func(e []byte) { e[0] = 'X' }),
		"a comment":                      append(withEnd(func(e []byte) { le.PutUint16(e[20:], 2) }), 'h', 'i'),
		"a comment's length, no comment": withEnd(func(e []byte) { le.PutUint16(e[20:], 2) }),
		"a zip64 count":                  withEnd(func(e []byte) { le.PutUint16(e[10:], uint16max) }),
		"a directory elsewhere":          withEnd(func(e []byte) { le.PutUint32(e[16:], le.Uint32(e[16:])-1) }),
		"a directory's size":             withEnd(func(e []byte) { le.PutUint32(e[12:], le.Uint32(e[12:])+1) }),
		"one record more":                withEnd(func(e []byte) { le.PutUint16(e[10:], 31) }),
		"one record fewer":               withEnd(func(e []byte) { le.PutUint16(e[10:], 29) }),
		"a record damaged": func() []byte {
			b := bytes.Clone(data)
			b[int(le.Uint32(data[endAt+16:]))] = 'X'
			return b
		}(),
	} {
		assert.Nil(t, OpenLastJar(write("bad.jar", b)), name)
	}
	assert.NotNil(t, OpenLastJar(write("same.jar", data)))
	assert.Nil(t, OpenLastJar(filepath.Join(dir, "missing.jar")))
	var none *LastJar
	none.Close()
}

// TestEachRecord: records cut short or of another kind are errors; an
// error of fn ends the walk.
func TestEachRecord(t *testing.T) {
	w := newJarWriter(nil, io.Discard)
	require.NoError(t, w.entryBytes(&zip.FileHeader{Name: "a", Comment: "c", Extra: []byte{1, 0, 0, 0}}, nil))
	require.NoError(t, w.entryBytes(&zip.FileHeader{Name: "bb"}, nil))
	dir := w.dir
	assert.Equal(t, []string{"a", "bb"}, RecordNames(dir))
	assert.ErrorContains(t, eachRecord(dir[:len(dir)-1], func([]byte) error { return nil }), "cut short")
	assert.ErrorContains(t, eachRecord(dir[:dirRecordLen-1], func([]byte) error { return nil }), "not a directory record")
	bad := bytes.Clone(dir)
	bad[0] = 'X'
	assert.ErrorContains(t, eachRecord(bad, func([]byte) error { return nil }), "not a directory record")
	n := 0
	assert.ErrorIs(t, eachRecord(dir, func([]byte) error { n++; return io.EOF }), io.EOF)
	assert.Equal(t, 1, n)
	assert.NoError(t, eachRecord(nil, func([]byte) error { return io.EOF }))
	assert.ErrorContains(t, eachRecord(dir[:1], func([]byte) error { return nil }), "not a directory record", "one byte")
	w = newJarWriter(nil, io.Discard)
	require.NoError(t, w.entryBytes(&zip.FileHeader{}, nil))
	require.Len(t, w.dir, dirRecordLen, "no name, extra field or comment")
	n = 0
	assert.NoError(t, eachRecord(w.dir, func([]byte) error { n++; return nil }))
	assert.Equal(t, 1, n, "a record of its fixed part alone")
}

// TestSpliceRefuses: a splice into a writer that hashes instead of
// writing a file, or one that would pass 4 GiB, is refused; a source
// shorter than the span is an error naming it.
func TestSpliceRefuses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "last.jar")
	_, spans := jarWriterFile(t, path, sampleEntries(12), "", 6, 12)
	last := OpenLastJar(path)
	require.NotNil(t, last)
	defer last.Close()
	records := last.Records(spans[1])
	require.NotNil(t, records)

	hashed := newJarWriter(nil, io.Discard)
	_, err := hashed.SpliceSpan(last.File, spans[1], records)
	assert.ErrorContains(t, err, "a splice into a hashed jar or past 4 GB")

	f, err := os.Create(filepath.Join(dir, "out.jar"))
	require.NoError(t, err)
	defer f.Close()
	w := newJarWriter(f, f)
	w.Off = MaxUint32 - (spans[1].End - spans[1].Start)
	_, err = w.SpliceSpan(last.File, spans[1], records)
	assert.ErrorContains(t, err, "past 4 GB")
	w.Off = MaxUint32 - (spans[1].End - spans[1].Start) - 1
	_, err = w.SpliceSpan(last.File, spans[1], records)
	assert.NoError(t, err, "just under 4 GiB")

	w = newJarWriter(f, f)
	cut := spans[1]
	st, err := last.File.Stat()
	require.NoError(t, err)
	cut.End = st.Size() + 5
	_, err = w.SpliceSpan(last.File, cut, records)
	assert.ErrorContains(t, err, fmt.Sprintf("%d bytes copied of %d", st.Size()-cut.Start, cut.End-cut.Start))
	assert.ErrorContains(t, err, path)
}
