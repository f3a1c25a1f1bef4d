package instrument

import (
	"errors"
	"os"

	"github.com/tracebeat/tracebeat/instrument/jario"
)

// ForcePortable makes this process take the path of systems without
// memory maps (reads), and returns a function that restores the
// platform's own.
func ForcePortable() (restore func()) {
	saved := jario.MmapBytes
	jario.MmapBytes = func(*os.File, int) ([]byte, error) { return nil, errors.ErrUnsupported }
	return func() { jario.MmapBytes = saved }
}
