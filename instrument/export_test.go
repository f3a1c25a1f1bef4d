package instrument

import (
	"errors"
	"os"
)

// ForcePortable makes this process take the path of systems without
// memory maps (reads), and returns a function that restores the
// platform's own.
func ForcePortable() (restore func()) {
	saved := mmapBytes
	mmapBytes = func(*os.File, int) ([]byte, error) { return nil, errors.ErrUnsupported }
	return func() { mmapBytes = saved }
}
