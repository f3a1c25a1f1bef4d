//go:build !linux

package atomicfile

import "errors"

// exchange is Linux's; elsewhere Replace renames.
func exchange(string, string) error { return errors.ErrUnsupported }
