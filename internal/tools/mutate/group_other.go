//go:build !unix

package main

import "os/exec"

// ownGroup does nothing here: the test binary's own -timeout stops it.
func ownGroup(cmd *exec.Cmd) {}
