package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal (binary output there is
// garbage to the user and can upset the terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
