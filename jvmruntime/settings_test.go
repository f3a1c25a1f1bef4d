package jvmruntime

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSettingsAreTheRecordersOwn: the keys ParseSettings takes are the
// tracebeat.* properties the Java sources read, no more and no fewer: a
// setting added there is refused by --set until it is added here.
func TestSettingsAreTheRecordersOwn(t *testing.T) {
	key := regexp.MustCompile(`"tracebeat\.([a-z.]+)"`)
	read := map[string]bool{}
	err := filepath.WalkDir("java", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".java") {
			return err
		}
		src, err := os.ReadFile(path)
		for _, m := range key.FindAllSubmatch(src, -1) {
			read[string(m[1])] = true
		}
		return err
	})
	require.NoError(t, err)
	var inJava []string
	for k := range read {
		inJava = append(inJava, k)
	}
	slices.Sort(inJava)
	require.Equal(t, inJava, settingNames())
}

// TestParseSettings: each kind of value as the recorder reads it, and the
// forms it would refuse.
func TestParseSettings(t *testing.T) {
	got, err := ParseSettings([]string{"tracebeat.slow=500ms", " budget = 64M ", "mode=STREAM", "anr=1.5s", "stall=.5s", "flush=250", "reports=0", "slow.threads=^main$"})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"tracebeat.slow": "500ms", "tracebeat.budget": "64M", "tracebeat.mode": "STREAM",
		"tracebeat.anr": "1.5s", "tracebeat.stall": ".5s", "tracebeat.flush": "250", "tracebeat.reports": "0", "tracebeat.slow.threads": "^main$"}, got)
	for _, bad := range []string{"slow=s", "slow=1..5s", "slow=1e9h", "slow=5 days", "budget=-1", "budget=9999999999g", "budget=k", "reports=-2", "looper=no", "clock=fast"} {
		_, err := ParseSettings([]string{bad})
		require.Error(t, err, bad)
	}
}
