package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPageOfLevelsOfDetail: a recording past --page-calls becomes a page
// of levels of detail. In Chromium it says so; its flame graph and
// methods hold every call (decode's count); the whole run's timeline
// merges calls narrower than a pixel; zoomed to a millisecond, it shows
// every compute call decode finds there, with its exact start and length;
// a pinned track stays in view as the page scrolls.
func TestPageOfLevelsOfDetail(t *testing.T) {
	classes := threadsProgram(t)
	trace, methodMap, _ := recordThreads(t, classes, nil, nil, []string{"-Dtracebeat.clock=precise"}, 4, 400)
	total, from, to, want := computeWindow(t, methodMap, trace)
	require.Greater(t, total, 2000)

	page := filepath.Join(t.TempDir(), "levels.html")
	code, _, stderr := runDecodeArgs("--map", methodMap, "--format", "html", "--page-calls", "1000", "-o", page, trace)
	require.Equal(t, exitOK, code, stderr)
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(html), `"lod":{`)

	ctx := browserContext(t, chromium(t))
	openPage(t, ctx, "file://"+page)
	note, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('lod').textContent`))
	require.NoError(t, err)
	assert.Contains(t, note, fmt.Sprintf("%d calls, more than the 1000 a page holds one by one", total))
	shownCalls, err := chromedp.Run(ctx, chromedp.Evaluate[int](`tracebeat.calls`))
	require.NoError(t, err)
	assert.Equal(t, total, shownCalls)
	treeCalls, err := chromedp.Run(ctx, chromedp.Evaluate[int](`tracebeat.setView('table'), Array.from(document.querySelectorAll('#methods tbody tr')).reduce(function (n, tr) { return n + Number(tr.children[1].textContent); }, 0)`))
	require.NoError(t, err)
	assert.Equal(t, total, treeCalls, "the methods table counts every call")

	merged, err := chromedp.Run(ctx, chromedp.Evaluate[int](`tracebeat.setView('timeline'), tracebeat.windowSlices().filter(function (x) { return x[3] & 4; }).length`))
	require.NoError(t, err)
	assert.Positive(t, merged, "the whole run merges calls narrower than a pixel")

	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`tracebeat.zoomTo(%d, %d), true`, from, to)))
	require.NoError(t, err)
	assertPageHolds(t, ctx, want)

	// A pinned thread comes first, and in a window too short for the
	// tracks, scrolled to the bottom, it stays in view with the ruler,
	// under the toolbar, drawn over the others; a click there unpins it.
	heads := func() []trackHead { return trackHeads(t, ctx) }
	hs := heads()
	last := hs[len(hs)-1]
	require.Equal(t, "pin", last.Act)
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(last.X, last.Y)))
	require.Equal(t, last.Label, heads()[0].Label, "a pinned thread comes first")
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 300)))
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`scrollTo(0, document.documentElement.scrollHeight), true`))
	require.NoError(t, err)
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`tracebeat.state.stuck === 1`, chromedp.WithPollingTimeout(10*time.Second)))
	require.NoError(t, err, "scrolled, the pinned track is drawn at the top of the view")
	barBottom, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.getElementById('bar').getBoundingClientRect().bottom`))
	require.NoError(t, err)
	var stuck *trackHead
	for _, h := range heads() {
		if h.Label == last.Label && h.Act == "pin" && h.Y > barBottom+20 && h.Y < barBottom+20+16 {
			stuck = &h
		}
	}
	require.NotNil(t, stuck, "the pinned thread's header just under the ruler, under the toolbar (%v)", heads())
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(stuck.X, stuck.Y)))
	pinned, err := chromedp.Run(ctx, chromedp.Evaluate[int](`tracebeat.state.pinned.length`))
	require.NoError(t, err)
	assert.Zero(t, pinned, "a click on the header in view unpins it")
}
