//go:build !unix

package buildstamp

import "os"

// soleName cannot tell the links of a file here: every file may have
// another name (the cache links where it can), so the stamp is written
// into a copy.
func soleName(os.FileInfo) bool { return false }
