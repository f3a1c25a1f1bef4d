package instrument

import (
	"errors"
	"os"
)

// ForcePortable makes this process take the paths of systems without
// memory maps and without link counts (Windows), and returns a function
// that restores the platform's own.
func ForcePortable() (restore func()) {
	savedMap, savedLinks := mmapBytes, linkCountOf
	mmapBytes = func(*os.File, int) ([]byte, error) { return nil, errors.ErrUnsupported }
	linkCountOf = func(os.FileInfo) uint64 { return 0 }
	return func() { mmapBytes, linkCountOf = savedMap, savedLinks }
}
