package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// Exit codes of a run stopped by a signal: 128 + the signal's number, as
// shells report them.
const (
	exitSIGINT  = 130
	exitSIGTERM = 143
)

// interruptible returns a context cancelled by SIGINT or SIGTERM, a
// function that tells which signal came (nil: none), and one that stops
// listening. The run then stops its workers and removes what it staged.
func interruptible() (context.Context, func() os.Signal, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var mu sync.Mutex
	var got os.Signal
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			mu.Lock()
			got = s
			mu.Unlock()
			cancel()
		case <-done:
		}
	}()
	signaled := func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
	stop := func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
	return ctx, signaled, stop
}

// interrupted reports a run stopped by sig and returns its exit code.
// published: the signal came while the outputs were being published,
// which was finished first.
func interrupted(stderr io.Writer, sig os.Signal, published bool) int {
	code := exitSIGINT
	if sig == syscall.SIGTERM {
		code = exitSIGTERM
	}
	if published {
		fmt.Fprintf(stderr, "tracebeat instrument: interrupted (%v) after the new outputs were published: they are complete\n", sig)
	} else {
		fmt.Fprintf(stderr, "tracebeat instrument: interrupted (%v): nothing was written; the previous outputs are as they were\n", sig)
	}
	return code
}
