// Command tracebeat instruments JVM/Android bytecode for method tracing,
// checks method maps, and decodes recorded traces back into names.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// Exit codes, documented in the README and in every command's help.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// command is one subcommand. Each lives in its own file and registers
// itself from an init function, so files can be added independently.
type command struct {
	name    string
	summary string
	// run gets the arguments after the command name and returns an exit code.
	run func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("tracebeat: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr))
}

func runMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help":
		usage(stdout)
		return exitOK
	case "help":
		if len(args) == 1 {
			usage(stdout)
			return exitOK
		}
		// "tracebeat help COMMAND" is "tracebeat COMMAND --help".
		args = []string{args[1], "--help"}
	case "--version":
		args = []string{"version"}
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "tracebeat: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tracebeat COMMAND [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'tracebeat COMMAND --help' (or 'tracebeat help COMMAND') for the flags")
	fmt.Fprintln(w, "and examples of a command.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status: 0 ok, 1 failure, 2 usage (unknown command or flag, missing")
	fmt.Fprintln(w, "argument).")
}
