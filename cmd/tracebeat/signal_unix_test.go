//go:build unix

package main

import (
	"os"
	"syscall"
)

// dumpSignal is the signal that asks a recording JVM for a dump (nil
// where there is none: Windows).
var dumpSignal os.Signal = syscall.SIGUSR2
