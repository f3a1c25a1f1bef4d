//go:build !unix

package main

import "os"

// dumpSignal: Windows has no SIGUSR2; a dump is asked for by the command
// or the trigger file there.
var dumpSignal os.Signal
