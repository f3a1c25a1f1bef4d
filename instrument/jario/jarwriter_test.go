package jario

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawEntry is an entry as a jar's writer gets it: a header and the data
// as stored (compressed or not).
type rawEntry struct {
	fh   zip.FileHeader
	data []byte
}

// sampleEntries are entries of the kinds a jar holds: stored and deflated,
// with a data descriptor or sizes in the local header, directories (one
// flagged with a descriptor, which archive/zip does not write for it),
// extra fields, comments, other flags, attributes and a name outside ASCII.
func sampleEntries(n int) []rawEntry {
	var out []rawEntry
	for i := range n {
		fh := zip.FileHeader{Name: fmt.Sprintf("p%d/C%d.class", i%7, i), CreatorVersion: 20, ReaderVersion: 20,
			ModifiedTime: uint16(i), ModifiedDate: uint16(i * 3), ExternalAttrs: uint32(i) << 16}
		data := bytes.Repeat([]byte{byte(i)}, i%50)
		fh.CRC32, fh.CompressedSize64, fh.UncompressedSize64 = uint32(i*7919), uint64(len(data)), uint64(len(data)+i%3)
		switch i % 6 {
		case 1:
			fh.Method, fh.Flags = zip.Deflate, 0x8
		case 2:
			fh.Name = fmt.Sprintf("dir%d/", i)
			fh.Flags, data = 0x8, nil
			fh.CompressedSize64, fh.UncompressedSize64 = 0, 0
		case 3:
			fh.Extra = []byte{0xfe, 0xca, 0, 0}
			fh.Comment = "a comment"
			fh.Flags = 0x1 // bit 0 (encrypted), which has nothing to do with the descriptor's
		case 4:
			fh.Name = fmt.Sprintf("res/é%d.txt", i)
			fh.Flags = 0x800
		}
		out = append(out, rawEntry{fh, data})
	}
	return out
}

// archiveZipBytes writes entries with archive/zip, as the sink did.
func archiveZipBytes(t *testing.T, entries []rawEntry, comment string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	require.NoError(t, zw.SetComment(comment))
	for _, e := range entries {
		fh := e.fh
		w, err := zw.CreateRaw(&fh)
		require.NoError(t, err)
		_, err = w.Write(e.data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// jarWriterFile writes entries with a jarWriter to a file in dir; spans
// splits them into spans, each ended with its outSpan.
func jarWriterFile(t *testing.T, path string, entries []rawEntry, comment string, spanEnds ...int) ([]byte, []Span) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	w := newJarWriter(f, f)
	require.NoError(t, w.SetComment(comment))
	var spans []Span
	var inSpan []Entry // the entries of the span begun last
	w.BeginSpan()
	for i, e := range entries {
		inSpan = append(inSpan, Entry{Name: e.fh.Name})
		fh := e.fh
		if (i/6)%2 == 0 { // each kind of entry both ways
			require.NoError(t, w.entryBytes(&fh, e.data))
		} else {
			require.NoError(t, w.entry(&fh, bytes.NewReader(e.data), make([]byte, 7)))
		}
		if len(spanEnds) > 0 && spanEnds[0] == i+1 {
			spans = append(spans, w.EndSpan(inSpan))
			spanEnds, inSpan = spanEnds[1:], nil
			w.BeginSpan()
		}
	}
	w.EndSpan(inSpan)
	require.NoError(t, w.close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data, spans
}

// TestJarWriterMatchesArchiveZip: the jar writer writes what archive/zip
// writes with CreateRaw and Close, byte for byte, whatever the entries,
// also at and past 65,535 entries (a zip64 end record).
func TestJarWriterMatchesArchiveZip(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries int
		comment string
	}{
		{"empty", 0, ""},
		{"one", 1, ""},
		{"kinds", 60, "an archive comment"},
		{"just under a zip64 end", uint16max - 1, ""},
		{"a zip64 end at 65,535 entries", uint16max, ""},
		{"zip64 end", 70000, ""},
		{"zip64 sizes", -12, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entries := sampleEntries(tc.entries)
			if tc.entries < 0 {
				entries = zip64Entries(-tc.entries)
			}
			want := archiveZipBytes(t, entries, tc.comment)
			got, _ := jarWriterFile(t, filepath.Join(t.TempDir(), "out.jar"), entries, tc.comment)
			require.Equal(t, len(want), len(got))
			assert.True(t, bytes.Equal(want, got), "bytes differ")
		})
	}
}

// zip64Entries are entries whose headers claim sizes at and past 4 GiB
// (the data written is short: neither writer reads it), of each kind
// sampleEntries makes.
func zip64Entries(n int) []rawEntry {
	entries := sampleEntries(n)
	for i := range entries {
		fh := &entries[i].fh
		if IsDirName(fh.Name) {
			continue
		}
		switch i % 4 {
		case 0:
			fh.CompressedSize64 = MaxUint32
		case 1:
			fh.UncompressedSize64 = MaxUint32 + uint64(i/4%2) // at the mark, and past it
		case 2:
			fh.CompressedSize64, fh.UncompressedSize64 = MaxUint32-1, MaxUint32-1
		case 3:
			fh.CompressedSize64, fh.UncompressedSize64 = 5<<30, 6<<30
		}
	}
	return entries
}

// TestJarWriterRefusesWhatArchiveZipRefuses: a name or extra field past
// 65,535 bytes, data for a directory, a comment too long.
func TestJarWriterRefusesWhatArchiveZipRefuses(t *testing.T) {
	w := newJarWriter(nil, io.Discard)
	long := string(make([]byte, 1<<16))
	assert.Error(t, w.entryBytes(&zip.FileHeader{Name: long}, nil))
	assert.Error(t, w.entryBytes(&zip.FileHeader{Name: "a", Extra: []byte(long)}, nil))
	assert.Error(t, w.entryBytes(&zip.FileHeader{Name: "d/"}, []byte("x")))
	assert.Error(t, w.entry(&zip.FileHeader{Name: "d/"}, bytes.NewReader([]byte("x")), make([]byte, 8)))
	assert.Error(t, w.SetComment(long))
	// And takes what it takes.
	most := long[1:]
	assert.NoError(t, w.entryBytes(&zip.FileHeader{Name: most}, nil))
	assert.NoError(t, w.entryBytes(&zip.FileHeader{Name: "a", Extra: []byte(most)}, nil))
	assert.NoError(t, w.SetComment(most))
	assert.NoError(t, w.entryBytes(&zip.FileHeader{Name: "d/"}, nil))
	assert.NoError(t, w.entry(&zip.FileHeader{Name: "d/"}, bytes.NewReader(nil), make([]byte, 8)))
}

// TestSpliceIsAFreshWrite: a jar whose spans are copied from the last one
// (openLastOutput, intact, records, SpliceSpan) is the jar written entry
// by entry, when the span before them changed size, and the moved spans
// keep their sums; a span whose bytes were altered is refused.
func TestSpliceIsAFreshWrite(t *testing.T) {
	dir := t.TempDir()
	entries := sampleEntries(90)
	lastPath := filepath.Join(dir, "last.jar")
	_, spans := jarWriterFile(t, lastPath, entries, "", 30, 60, 90)
	require.Len(t, spans, 3)

	// The first 30 entries change: other data, and fewer of them.
	changed := append([]rawEntry{}, entries[:25]...)
	for i := range changed {
		if IsDirName(changed[i].fh.Name) {
			continue
		}
		changed[i].data = append(bytes.Clone(changed[i].data), 'x', 'y', 'z')
		changed[i].fh.CompressedSize64 += 3
	}
	want, wantSpans := jarWriterFile(t, filepath.Join(dir, "fresh.jar"), append(changed, entries[30:]...), "", 25, 55, 85)

	last := OpenLastJar(lastPath)
	require.NotNil(t, last)
	defer last.Close()
	f, err := os.Create(filepath.Join(dir, "spliced.jar"))
	require.NoError(t, err)
	defer f.Close()
	w := newJarWriter(f, f)
	for _, e := range changed {
		fh := e.fh
		require.NoError(t, w.entryBytes(&fh, e.data))
	}
	for k, span := range spans[1:] {
		require.True(t, last.Intact(span))
		records := last.Records(span)
		require.NotNil(t, records)
		moved, err := w.SpliceSpan(last.File, span, records)
		require.NoError(t, err)
		assert.Equal(t, wantSpans[k+1], moved, "span %d where a fresh write puts it, with its sums", k+1)
	}
	require.NoError(t, w.close())
	got, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, got), "a spliced jar differs from the fresh one")

	// One byte of the last jar altered in the second span: refused.
	data, err := os.ReadFile(lastPath)
	require.NoError(t, err)
	data[spans[1].Start+40] ^= 1
	require.NoError(t, os.WriteFile(lastPath, data, 0o644))
	altered := OpenLastJar(lastPath)
	require.NotNil(t, altered)
	defer altered.Close()
	assert.False(t, altered.Intact(spans[1]))
	assert.True(t, altered.Intact(spans[2]))
}
