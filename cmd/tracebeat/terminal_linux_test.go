package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its terminal side.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var unlock int32
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, master.Fd(), unix.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock)))
	require.Zero(t, errno, "unlockpt")
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	require.NoError(t, err, "ptsname")
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { tty.Close() })
	return tty
}

// TestPerfettoIsNotWrittenToATerminal: the binary trace goes to a file
// (-o) or a redirect, not onto a user's terminal; a pipe, a file and
// /dev/null take it as before.
func TestPerfettoIsNotWrittenToATerminal(t *testing.T) {
	tty := openPTY(t)
	trace := filepath.Join("..", "..", "decode", "testdata", "sample", "beat.txt") // an AppMethodBeat buffer as text
	var stderr bytes.Buffer
	code := runMain([]string{"decode", "--format", "perfetto", trace}, tty, &stderr)
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr.String(), "--format perfetto writes a binary file: name it with -o (e.g. -o app.pftrace), or redirect standard output")
	stderr.Reset()
	require.Equal(t, exitUsage, runMain([]string{"decode", "--format", "art", trace}, tty, &stderr))
	require.Contains(t, stderr.String(), "--format art writes a binary file: name it with -o (e.g. -o app.trace)")

	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer null.Close()
	stderr.Reset()
	require.Equal(t, exitOK, runMain([]string{"decode", "--format", "perfetto", trace}, null, &stderr), stderr.String())
	var out bytes.Buffer
	require.Equal(t, exitOK, runMain([]string{"decode", "--format", "perfetto", trace}, &out, &stderr), stderr.String())
	require.NotZero(t, out.Len())
}
