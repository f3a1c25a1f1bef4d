//go:build unix

package buildstamp

import (
	"os"
	"syscall"
)

// soleName reports whether the file has no other hard link.
func soleName(st os.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && s.Nlink == 1
}
