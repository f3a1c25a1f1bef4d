// Package atomicfile writes files so that a reader finds the old content
// or the new, never part of either: through a temporary file in the same
// directory moved into place when complete.
//
// Nothing is synced to disk: what this writes (outputs of a build, cache
// files that are checked when read) is made again after a crash.
package atomicfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Write writes path with the content write produces, mode perm. On error
// path is as it was and the temporary file is gone.
func Write(path string, perm os.FileMode, write func(io.Writer) error) (err error) {
	f, err := CreateTemp(path)
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("%s: %w", path, err)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return Replace(tmp, path)
}

// WriteBytes writes data to path (Write).
func WriteBytes(path string, perm os.FileMode, data []byte) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// exchangeFiles is exchange; tests replace it to run the portable path
// (a plain rename) on Linux too.
var exchangeFiles = exchange

// Replace moves the finished file tmp to path, replacing what is there.
// tmp is gone afterwards, also when it was another name of the file at
// path (which rename leaves in place).
func Replace(tmp, path string) error {
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() && exchangeFiles(tmp, path) == nil {
		// tmp now names the old file.
		return os.Remove(tmp)
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	os.Remove(tmp) // see above; nothing to do after a real rename
	return nil
}

// Holds reports whether the regular file at path holds exactly data. A
// caller that is about to write data there can leave the file as it is
// (and its time stamp, which tools that compare times then trust).
func Holds(path string, data []byte) bool {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() != int64(len(data)) {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	// A small buffer: a large one is fresh memory, a page fault per 4 KB.
	buf := make([]byte, min(len(data), 64<<10))
	for off := 0; off < len(data); {
		n, err := f.ReadAt(buf[:min(len(buf), len(data)-off)], int64(off))
		if n == 0 || !bytes.Equal(buf[:n], data[off:off+n]) {
			return false
		}
		off += n
		if err != nil && off < len(data) {
			return false
		}
	}
	return true
}
