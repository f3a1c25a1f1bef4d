package methodmap

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBuildIDIgnoresFormOnly: the identity of a map is its lines; how the
// text is cut into writes, comments, blank lines, CRLF, trailing blanks and
// a BOM leave it as it is, and any change to a line changes it.
func TestBuildIDIgnoresFormOnly(t *testing.T) {
	const base = "1,9,a.App main ([Ljava.lang.String;)V\n2,1,a.App run ()V\n1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n"
	want := BuildIDOf([]byte(base))
	require.Len(t, want, 16)
	for name, text := range map[string]string{
		"CRLF":            strings.ReplaceAll(base, "\n", "\r\n"),
		"BOM":             "\uFEFF" + base,
		"comments":        "# tracebeat: highest-id=9\n" + base + "  # trailing note\n",
		"blank lines":     "\n" + strings.ReplaceAll(base, "\n", "\n\n"),
		"trailing blanks": strings.ReplaceAll(base, "\n", " \t\n"),
		"no last newline": strings.TrimSuffix(base, "\n"),
	} {
		require.Equal(t, want, BuildIDOf([]byte(text)), name)
	}
	// Written in pieces of every size.
	for size := 1; size < len(base); size++ {
		b := NewBuildID()
		for i := 0; i < len(base); i += size {
			_, err := b.Write([]byte(base[i:min(i+size, len(base))]))
			require.NoError(t, err)
		}
		require.Equal(t, want, b.String(), "pieces of %d bytes", size)
	}
	for name, text := range map[string]string{
		"an id":        strings.Replace(base, "2,1,", "3,1,", 1),
		"a name":       strings.Replace(base, "a.App run", "a.App walk", 1),
		"a line fewer": base[strings.IndexByte(base, '\n')+1:],
		"lines swapped": "2,1,a.App run ()V\n1,9,a.App main ([Ljava.lang.String;)V\n" +
			"1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n",
	} {
		require.NotEqual(t, want, BuildIDOf([]byte(text)), name)
	}
}

// TestBuildIDAtItsEdges: a comment of a lone '#', one after a blank, and a
// last line of one character without its line end are what they are in
// longer forms; lines are kept apart ("ab" is not "a" then "b"); a map
// that is not there is fs.ErrNotExist.
func TestBuildIDAtItsEdges(t *testing.T) {
	const base = "1,9,a.App main ([Ljava.lang.String;)V\n"
	want := BuildIDOf([]byte(base))
	require.Equal(t, want, BuildIDOf([]byte("#\n"+base+" #\n")))
	require.Equal(t, BuildIDOf([]byte(base+"9\n")), BuildIDOf([]byte(base+"9")))
	require.NotEqual(t, BuildIDOf([]byte(base+"ab\n")), BuildIDOf([]byte(base+"a\nb\n")))
	_, err := ReadBuildID(filepath.Join(t.TempDir(), "missing.txt"))
	require.ErrorIs(t, err, fs.ErrNotExist)
}
