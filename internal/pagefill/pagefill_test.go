package pagefill

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The file holds exactly what was written, whatever the size given was.
func TestFileHoldsWhatWasWritten(t *testing.T) {
	for _, tc := range []struct {
		name          string
		hint, written int64
	}{
		{"size as written", 8 << 20, 8 << 20},
		{"size larger", 12 << 20, 5<<20 + 17},
		{"size smaller", 5 << 20, 9<<20 + 3},
		{"too small to fill", 1 << 20, 3 << 20},
		{"nothing written", 8 << 20, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := os.Create(filepath.Join(t.TempDir(), "out"))
			require.NoError(t, err)
			defer f.Close()
			data := make([]byte, tc.written)
			rng := rand.New(rand.NewPCG(1, uint64(tc.written)))
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			fl := Start(f, tc.hint)
			if canReadAhead && tc.hint >= 4*chunk {
				require.NotNil(t, fl)
				st, err := f.Stat()
				require.NoError(t, err)
				require.Equal(t, tc.hint, st.Size(), "the file is made as long as the size given")
			}
			w := fl.Writer(f)
			for rest := data; len(rest) > 0; { // uneven pieces, as a buffered writer's
				n := min(len(rest), 1+rng.IntN(3<<20))
				_, err := w.Write(rest[:n])
				require.NoError(t, err)
				rest = rest[n:]
			}
			require.NoError(t, fl.Finish())
			_, err = f.Seek(0, io.SeekStart)
			require.NoError(t, err)
			got, err := io.ReadAll(f)
			require.NoError(t, err)
			require.True(t, bytes.Equal(data, got), "file differs: %d bytes, want %d", len(got), len(data))
		})
	}
}

// A file that is not empty is left alone.
func TestNotEmptyFileIsLeftAlone(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer f.Close()
	_, err = f.Write([]byte("already"))
	require.NoError(t, err)
	require.Nil(t, Start(f, 16<<20))
	st, err := f.Stat()
	require.NoError(t, err)
	require.EqualValues(t, 7, st.Size())
}
