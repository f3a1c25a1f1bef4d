//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// processAlive asks the kernel with the null signal: no such process is
// ESRCH; EPERM means it runs under another user.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
