// Command pagetime opens a tracebeat page in headless Chromium and times
// it. bench/viewer-rates.sh and bench/view.sh run it.
//
//	pagetime PAGE.html
//
// times a page of `decode --format html`: from the navigation to the page's
// first drawing done (window.tracebeat.ready), and the page's own time for
// unpacking and drawing (tracebeat.renderMs), in milliseconds, with the
// calls it holds; a page of levels of detail then as a served page (below).
//
//	pagetime http://127.0.0.1:PORT/
//
// times the page `tracebeat view` serves as a person uses it: the first
// drawing, the timeline's first window fetched and drawn, then zoom steps
// in (W) to a window of about a millisecond and 20 pans (D), each timed to
// its frame (drawn at once with the calls the page holds) and to its
// window drawn again with the calls it needs: the largest frame, and the
// median and the largest time to full detail of the zooms and of the pans.
// PAGETIME_STEPS=1 prints each zoom step on stderr.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pagetime PAGE.html | pagetime http://127.0.0.1:PORT/")
		os.Exit(2)
	}
	var err error
	if url := os.Args[1]; strings.HasPrefix(url, "http://") {
		err = open(url, 5*time.Minute, served)
	} else if page, aerr := filepath.Abs(url); aerr != nil {
		err = aerr
	} else {
		err = open("file://"+page, 2*time.Minute, file)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pagetime:", err)
		os.Exit(1)
	}
}

// open starts Chromium, loads url and hands measure the context and the
// time from the navigation to the first drawing.
func open(url string, limit time.Duration, measure func(ctx context.Context, first time.Duration) error) error {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		return fmt.Errorf("no chromium on PATH (Debian: apt-get install chromium)")
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.Headless, chromedp.WindowSize(1280, 720))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, limit)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil { // the browser started
		return err
	}
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return err
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.tracebeat && window.tracebeat.ready`)); err != nil {
		return err
	}
	return measure(ctx, time.Since(start))
}

// file reports a page of decode --format html.
func file(ctx context.Context, wall time.Duration) error {
	own, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`tracebeat.renderMs`))
	if err != nil {
		return err
	}
	calls, err := chromedp.Run(ctx, chromedp.Evaluate[int](`tracebeat.calls`))
	if err != nil {
		return err
	}
	fmt.Printf("pagetime: ready_ms=%d own_ms=%.0f calls=%d\n", wall.Milliseconds(), own, calls)
	levels, err := chromedp.Run(ctx, chromedp.Evaluate[int](`tracebeat.levels`))
	if err != nil || levels == 0 {
		return err
	}
	return served(ctx, wall) // levels of detail: zoomed and panned as a served page
}
