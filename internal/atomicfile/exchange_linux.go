package atomicfile

import "golang.org/x/sys/unix"

// exchange swaps the names tmp and path atomically. Replacing an existing
// file by rename makes ext4 (whose default auto_da_alloc guards programs
// that never sync) start writing the new file back inside the rename, 40
// ms per 100 MB here, on every output a run replaces. An exchange is as
// atomic for readers of path and leaves the writeback to the kernel's
// flusher, as for any new file.
func exchange(tmp, path string) error {
	return unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_EXCHANGE)
}
