package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/chromedp/chromedp"
)

// served reports the page tracebeat view serves, step by step.
func served(ctx context.Context, first time.Duration) error {
	start := time.Now()
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
		if os.Getenv("PAGETIME_STEPS") != "" {
			info, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({fetchMs: tracebeat.state.fetchMs, drawMs: tracebeat.state.drawMs, fetches: tracebeat.state.fetches})`))
			fmt.Fprintf(os.Stderr, "pagetime: zoom %d: %.0f ms %s\n", i+1, ms, info)
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
	fmt.Printf("pagetime: calls=%d first_draw_ms=%d timeline_ms=%d steps=%d frame_max_ms=%.1f zoom_median_ms=%.0f zoom_max_ms=%.0f pan_median_ms=%.0f pan_max_ms=%.0f window_ns=%.0f\n",
		calls, first.Milliseconds(), timeline.Milliseconds(), len(zooms)+len(pans), slices.Max(frames), median(zooms), slices.Max(zooms), median(pans), slices.Max(pans), span)
	return nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
