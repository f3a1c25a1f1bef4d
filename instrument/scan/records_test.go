package scan

import (
	"testing"
	"unsafe"
)

// A build keeps a Class per class and a Method per method for the
// whole run: their sizes are most of the run's memory (many-jars bench).
// The bounds are the allocator's size class a Class must stay within
// and the packed size of a method record.
func TestScanRecordsStaySmall(t *testing.T) {
	for _, c := range []struct {
		name      string
		size, max uintptr
	}{
		{"Class", unsafe.Sizeof(Class{}), 96},
		{"Method", unsafe.Sizeof(Method{}), 24},
	} {
		if c.size > c.max {
			t.Errorf("%s takes %d bytes, over %d", c.name, c.size, c.max)
		}
	}
}

func TestClassStem(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"a/B.class", "a/B"},
		{"META-INF/versions/11/a/B.class", "a/B"},
		{"B.class", "B"},
		{"META-INF/versions/x", "META-INF/versions/x"},
	} {
		if got := classStem(c.file); got != c.want {
			t.Errorf("classStem(%q) = %q, want %q", c.file, got, c.want)
		}
	}
}
