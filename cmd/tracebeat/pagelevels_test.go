package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPageOfLevelsOfDetail: a recording past --page-calls becomes a page
// of levels of detail. In Chromium it says so; its flame graph and
// methods hold every call (decode's count); the whole run's timeline
// merges calls narrower than a pixel; zoomed to a millisecond, it shows
// every compute call decode finds there, with its exact start and length.
func TestPageOfLevelsOfDetail(t *testing.T) {
	classes := threadsProgram(t)
	trace, methodMap, _ := recordThreads(t, classes, nil, nil, []string{"-Dtracebeat.clock=precise"}, 4, 400)
	code, js, stderr := runDecodeArgs("--map", methodMap, "--format", "json", trace)
	require.Equal(t, exitOK, code, stderr)
	var doc struct {
		TraceEvents []traceEventJSON `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	type call struct {
		name       string
		start, dur int64
	}
	var calls []call
	total, first := 0, int64(-1)
	for _, e := range doc.TraceEvents {
		if e.Ph != "X" {
			continue
		}
		total++
		if strings.HasSuffix(e.Name, "compute(I)J") {
			c := call{e.Name, int64(e.Ts*1000 + 0.5), int64(e.Dur*1000 + 0.5)}
			calls = append(calls, c)
			if first < 0 || c.start < first {
				first = c.start
			}
		}
	}
	require.Greater(t, total, 2000)
	from, to := first, first+1_000_000
	var want []call
	for _, c := range calls {
		if c.start < to && c.start+c.dur > from {
			want = append(want, c)
		}
	}
	require.NotEmpty(t, want)

	page := filepath.Join(t.TempDir(), "levels.html")
	code, _, stderr = runDecodeArgs("--map", methodMap, "--format", "html", "--page-calls", "1000", "-o", page, trace)
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
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[][]any](`tracebeat.windowSlices().filter(function (x) { return /compute\(I\)J$/.test(x[0]) && !(x[3] & 4); })`))
	require.NoError(t, err)
	exact := map[call]bool{}
	for _, s := range shown {
		exact[call{s[0].(string), int64(s[1].(float64)), int64(s[2].(float64))}] = true
	}
	for _, c := range want {
		assert.True(t, exact[c], "the page holds %v exactly", c)
	}
}
