//go:build unix

// Package proc answers whether a process still runs, on Unix and on
// Windows: a stale temporary file's writer (atomicfile), a program asked
// for a dump (dumpreq).
package proc

import (
	"errors"
	"syscall"
)

// Alive asks the kernel with the null signal: no such process is
// ESRCH; EPERM means it runs under another user.
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
