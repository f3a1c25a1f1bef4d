// Command pagetime opens a page of `decode --format html` in headless
// Chromium and prints how long it took to be drawn: from the navigation
// to the page's first drawing done (window.tracebeat.ready), and the
// page's own time for unpacking and drawing (tracebeat.renderMs), in
// milliseconds, with the calls it holds. bench/viewer-rates.sh runs it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pagetime PAGE.html")
		os.Exit(2)
	}
	page, err := filepath.Abs(os.Args[1])
	if err == nil {
		err = run(page)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pagetime:", err)
		os.Exit(1)
	}
}

func run(page string) error {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		return fmt.Errorf("no chromium on PATH (Debian: apt-get install chromium)")
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.Headless, chromedp.WindowSize(1280, 720))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil { // the browser started
		return err
	}
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
		return err
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.tracebeat && window.tracebeat.ready`)); err != nil {
		return err
	}
	wall := time.Since(start)
	own, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`tracebeat.renderMs`))
	if err != nil {
		return err
	}
	calls, err := chromedp.Run(ctx, chromedp.Evaluate[int](`tracebeat.calls`))
	if err != nil {
		return err
	}
	fmt.Printf("pagetime: ready_ms=%d own_ms=%.0f calls=%d\n", wall.Milliseconds(), own, calls)
	return nil
}
