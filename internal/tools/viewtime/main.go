// Command viewtime opens the page `tracebeat view` serves in headless
// Chromium and times it as a person uses it: the first drawing (from the
// navigation to window.tracebeat.ready), the timeline's first window
// fetched and drawn, then 30 zoom steps in (W) to a window of about a
// millisecond and 20 pans (D), each timed to its frame (drawn at once
// with the calls the page holds) and to its window drawn again with the
// calls it needs. It prints the times in milliseconds: the first two, the
// largest frame, and the median and the largest time to full detail of
// the zooms and of the pans. bench/view.sh runs it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/chromedp/chromedp"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: viewtime URL")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "viewtime:", err)
		os.Exit(1)
	}
}

func run(url string) error {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		return fmt.Errorf("no chromium on PATH (Debian: apt-get install chromium)")
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.Headless, chromedp.WindowSize(1280, 720))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		return err
	}
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return err
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.tracebeat && window.tracebeat.ready`)); err != nil {
		return err
	}
	first := time.Since(start)
	start = time.Now()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`tracebeat.setView('timeline'), true`)); err != nil {
		return err
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`tracebeat.state.fetches > 0`)); err != nil {
		return err
	}
	timeline := time.Since(start)
	span, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`tracebeat.state.t1 - tracebeat.state.t0`))
	if err != nil {
		return err
	}
	// step gives a step's frame time and its time to full detail.
	var frames []float64
	step := func(key string) (float64, error) {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`tracebeat.timed(%q)`, key), chromedp.EvalAwaitPromise))
		if err != nil {
			return 0, err
		}
		frames = append(frames, v[0])
		return v[1], nil
	}
	var zooms, pans []float64
	for i := 0; i < 60 && (span > 1e6 || i == 0); i++ {
		ms, err := step("w")
		if err != nil {
			return err
		}
		zooms = append(zooms, ms)
		span *= 0.8
		if os.Getenv("VIEWTIME_STEPS") != "" {
			info, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({fetchMs: tracebeat.state.fetchMs, drawMs: tracebeat.state.drawMs, fetches: tracebeat.state.fetches})`))
			fmt.Fprintf(os.Stderr, "viewtime: zoom %d: %.0f ms %s\n", i+1, ms, info)
		}
	}
	for range 20 {
		ms, err := step("d")
		if err != nil {
			return err
		}
		pans = append(pans, ms)
	}
	calls, err := chromedp.Run(ctx, chromedp.Evaluate[int](`tracebeat.calls`))
	if err != nil {
		return err
	}
	fmt.Printf("viewtime: calls=%d first_draw_ms=%d timeline_ms=%d steps=%d frame_max_ms=%.1f zoom_median_ms=%.0f zoom_max_ms=%.0f pan_median_ms=%.0f pan_max_ms=%.0f window_ns=%.0f\n",
		calls, first.Milliseconds(), timeline.Milliseconds(), len(zooms)+len(pans), slices.Max(frames), median(zooms), slices.Max(zooms), median(pans), slices.Max(pans), span)
	return nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
