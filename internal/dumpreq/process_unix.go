//go:build !windows

package dumpreq

import (
	"errors"
	"syscall"
)

// Alive reports whether process pid exists (signal 0 checks
// without sending; EPERM: it exists, owned by another user).
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
