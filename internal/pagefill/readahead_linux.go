package pagefill

import "golang.org/x/sys/unix"

const canReadAhead = true

// readAhead asks the kernel to read [off, off+n) of file fd into the page cache
// now (it returns once the pages are there or underway).
func readAhead(fd uintptr, off, n int64) error {
	return unix.Fadvise(int(fd), off, n, unix.FADV_WILLNEED)
}
