package profile

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tree is a profile of main calling a (twice on one path) and b, with a
// method whose name holds a ';' and a newline, one too short for a
// microsecond of self time, one of exactly one and one of twelve.
func tree() *Profile {
	root := &Node{}
	main := root.Child("main", true)
	main.Stat = Stat{Calls: 1, Self: 2_000, Total: 10_000}
	a := main.Child("a", true)
	a.Stat = Stat{Calls: 2, Self: 4_499, Total: 6_000}
	odd := a.Child("x;y\nz", true)
	odd.Stat = Stat{Calls: 1, Self: 1_500, Total: 1_500}
	quick := main.Child("b", true)
	quick.Stat = Stat{Calls: 3, Self: 499, Total: 499}
	one := main.Child("c", true)
	one.Stat = Stat{Calls: 1, Self: 1_000, Total: 13_000}
	long := one.Child("d", true)
	long.Stat = Stat{Calls: 1, Self: 12_000, Total: 12_000}
	root.Stat = Stat{Calls: 1, Total: 23_000}
	return &Profile{Tree: root, Calls: 7}
}

// TestWriteCollapsed: a line per path in name order, root first, the self
// time in microseconds rounded (0: left out), a ';' or a newline in a name
// replaced; what the trace lost is a first frame on every line.
func TestWriteCollapsed(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, tree().WriteCollapsed(&b))
	assert.Equal(t, "main 2\nmain;a 4\nmain;a;x:y z 2\nmain;c 1\nmain;c;d 12\n", b.String())

	p := tree()
	p.Missing = []string{"3 records lost; a note", "a cut"}
	b.Reset()
	require.NoError(t, p.WriteCollapsed(&b))
	first := "[tracebeat: 3 records lost: a note (and 1 more notes)]"
	assert.Equal(t, first+";main 2\n"+first+";main;a 4\n"+first+";main;a;x:y z 2\n"+first+";main;c 1\n"+first+";main;c;d 12\n", b.String())
	p.Missing = p.Missing[:1]
	b.Reset()
	require.NoError(t, p.WriteCollapsed(&b))
	assert.True(t, strings.HasPrefix(b.String(), "[tracebeat: 3 records lost: a note];main 2\n"), b.String())
}

// TestWritePprof: pprof's own tool reads the profile back: a sample per
// path with its calls and self time, the default sample the time, the
// duration the whole tree's, and the notes as comments.
func TestWritePprof(t *testing.T) {
	p := tree()
	p.Missing = []string{"3 records lost"}
	p.Notes = []string{"times may be late"}
	path := filepath.Join(t.TempDir(), "p.pb.gz")
	var b bytes.Buffer
	require.NoError(t, p.WritePprof(&b))
	require.NoError(t, writeAll(path, b.Bytes()))
	out, err := exec.Command("go", "tool", "pprof", "-raw", path).CombinedOutput()
	require.NoError(t, err, "%s", out)
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	want := []string{
		"Comment: tracebeat: 3 records lost",
		"Comment: tracebeat: times may be late",
		"PeriodType: time nanoseconds",
		"Period: 1",
		"Duration: 23µs",
		"Samples:",
		"calls/count time/nanoseconds[dflt]",
		"1 2000: 1", // main, leaf first
		"2 4499: 2 1",
		"1 1500: 3 2 1",
		"3 499: 4 1",
		"1 1000: 5 1",
		"1 12000: 6 5 1",
		"Locations",
		"1: 0x0 M=1 main :0:0 s=0",
		"2: 0x0 M=1 a :0:0 s=0",
		"3: 0x0 M=1 x;y", // pprof prints the name as it is
		"z :0:0 s=0",
		"4: 0x0 M=1 b :0:0 s=0",
		"5: 0x0 M=1 c :0:0 s=0",
		"6: 0x0 M=1 d :0:0 s=0",
	}
	start := 0
	for start < len(lines) && !strings.HasPrefix(lines[start], "Comment:") {
		start++
	}
	require.Less(t, start+len(want), len(lines)+1, "%s", out)
	assert.Equal(t, want, lines[start:start+len(want)])
}

func writeAll(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
