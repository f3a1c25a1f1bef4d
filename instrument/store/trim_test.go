package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func age(t *testing.T, path string, d time.Duration) {
	t.Helper()
	when := time.Now().Add(-d)
	require.NoError(t, os.Chtimes(path, when, when))
}

// TestTrimRemovesWhatNoRunUsed: packs and run snapshots older than the
// age go, a pack's parts and a run's files together; what a run marked as
// used stays, however old its files were; a second trim within the hour
// looks at nothing.
func TestTrimRemovesWhatNoRunUsed(t *testing.T) {
	s, err := Open(t.TempDir(), [32]byte{1})
	require.NoError(t, err)
	write := func(key string, part Part) {
		require.NoError(t, os.WriteFile(s.Path(key, part), []byte("x"), 0o644))
	}
	for _, key := range []string{"old", "used", "new"} {
		write(key, Index)
		write(key, Bodies)
		write(key, Jar)
	}
	for _, id := range []string{"oldrun", "usedrun", "newrun"} {
		require.NoError(t, s.PutRun(id, []byte("r"), []byte("i")))
		require.NoError(t, s.PutReport(id, []byte("{}")))
	}
	week := DefaultMaxAge + time.Hour
	for _, key := range []string{"old", "used"} {
		for _, part := range []Part{Index, Bodies, Jar} {
			age(t, s.Path(key, part), week)
		}
	}
	age(t, s.Path("new", Jar), week) // one old part of a pack in use: the pack stays
	for _, id := range []string{"oldrun", "usedrun"} {
		for _, suffix := range []string{"", ".ignore", ".report"} {
			age(t, filepath.Join(s.dir, "runs", id+suffix), week)
		}
	}
	s.Used([]string{"used"}, "usedrun")
	require.Equal(t, 6, s.Trim(DefaultMaxAge, time.Now()))
	for _, key := range []string{"used", "new"} {
		for _, part := range []Part{Index, Bodies, Jar} {
			require.FileExists(t, s.Path(key, part))
		}
	}
	require.NoFileExists(t, s.Path("old", Index))
	_, _, ok := s.Run("oldrun")
	require.False(t, ok)
	_, _, ok = s.Run("usedrun")
	require.True(t, ok)
	require.NotNil(t, s.Report("newrun"))

	// Within the hour a trim lists nothing.
	age(t, s.Path("new", Index), week)
	age(t, s.Path("new", Bodies), week)
	require.Zero(t, s.Trim(DefaultMaxAge, time.Now()))
	require.Equal(t, 3, s.Trim(DefaultMaxAge, time.Now().Add(2*time.Hour)))
}
