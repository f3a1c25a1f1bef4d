package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode"
	"github.com/tracebeat/tracebeat/internal/ci"
	"github.com/tracebeat/tracebeat/profile"
)

// chromium finds a Chromium to drive. Without one the test is skipped
// with a message, and fails on CI (CI=true), where scripts/test.sh
// installs Debian's chromium.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if ci.On() {
		t.Fatalf("no Chromium on PATH, and CI=true requires one (scripts/test.sh installs Debian's chromium)")
	}
	t.Skipf("no Chromium on PATH (Debian: apt-get install chromium): the page is not opened")
	return ""
}

// browserContext starts a headless Chromium at 1280x720 for the test
// (closed when it ends), a minute at most.
func browserContext(t *testing.T, browser string) context.Context {
	t.Helper()
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.Headless, chromedp.WindowSize(1280, 720))...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// trackHead is where the timeline draws a thread's header: its collapse
// or its pin.
type trackHead struct {
	Track      int
	Act, Label string
	X, Y       float64
}

// trackHeads asks the page where its track headers are.
func trackHeads(t *testing.T, ctx context.Context) []trackHead {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[[]trackHead](`tracebeat.trackHeads()`))
	require.NoError(t, err)
	return v
}

// openPage loads url and waits for the page's first drawing.
func openPage(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url)), "loading %s", url)
	ready, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.tracebeat && window.tracebeat.ready`))
	require.NoError(t, err)
	require.True(t, ready)
}

// pageCheck opens an HTML page of decode or diff in headless Chromium and
// checks what a person does with it: it loads without an error on the
// console, a search for name highlights frames and says what share it
// matched, a click on that frame zooms the view, and a screenshot shows a
// picture (not a blank page). It returns the screenshot of the page as it
// opened.
func pageCheck(t *testing.T, browser, page, name string) []byte {
	t.Helper()
	ctx := browserContext(t, browser)
	// Everything the page writes to its console, read while it runs.
	var mu sync.Mutex
	var problems []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == "error" || m.Type == "warning" {
				mu.Lock()
				problems = append(problems, m.String())
				mu.Unlock()
			}
		}
	}()
	openPage(t, ctx, "file://"+page)
	first, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	matched, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(`tracebeat.search(%q)`, regexp.QuoteMeta(name))))
	require.NoError(t, err)
	require.Positive(t, matched, "the search highlights frames of %s", name)
	matchedText, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('matched').textContent`))
	require.NoError(t, err)
	require.Regexp(t, `^Matched: \d+\.\d\d%$`, matchedText)
	center, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](fmt.Sprintf(`tracebeat.frameCenter(%q)`, name)))
	require.NoError(t, err)
	require.NotNil(t, center, "a frame of %s is drawn", name)
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(center["x"], center["y"])))
	zoomed, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`tracebeat.state.zoomed`))
	require.NoError(t, err)
	require.True(t, zoomed, "a click on a frame zooms to it")
	matchedText, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('matched').textContent`))
	require.NoError(t, err)
	require.Equal(t, "Matched: 100.00%", matchedText, "zoomed to a frame the search matches: all of it matches")
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond) // the console's last messages
	mu.Lock()
	require.Empty(t, problems, "the console of %s", page)
	mu.Unlock()
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err)
	colors := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	require.Greater(t, len(colors), 8, "the screenshot shows a picture, not a blank page")
	return first
}

// TestHTMLViewerInABrowser opens decode's page of a recording and of a
// Matrix stack report, and diff's page, in a real browser.
func TestHTMLViewerInABrowser(t *testing.T) {
	browser := chromium(t)
	dir := t.TempDir()

	classes := threadsProgram(t)
	trace, methodMap, _ := recordThreads(t, classes, nil, nil, nil, 4, 50)
	recordingPage := filepath.Join(dir, "recording.html")
	code, _, stderr := runDecodeArgs("--map", methodMap, "--format", "html", "-o", recordingPage, trace)
	require.Equal(t, exitOK, code, stderr)
	html, err := os.ReadFile(recordingPage)
	require.NoError(t, err)
	require.Regexp(t, `"length_ns":\d+`, string(html), "the page knows the recording's length")
	require.NotContains(t, string(html), `"lost":true`, "a recording that kept every call is not said to have lost any")
	shot := pageCheck(t, browser, recordingPage, "fixture.Threads$Worker.compute(I)J")
	if os.Getenv("TRACEBEAT_UPDATE_SCREENSHOT") == "1" {
		require.NoError(t, os.WriteFile(filepath.Join("..", "..", "docs", "viewer.png"), shot, 0o644))
	}

	stackMap := filepath.Join(dir, "map.txt")
	require.NoError(t, os.WriteFile(stackMap, []byte("1,9,app.Main main ([Ljava.lang.String;)V\n2,1,app.Work run ()V\n3,1,app.Work slow ()V\n4,1,app.Work fast ()V\n"), 0o644))
	stack := filepath.Join(dir, "stack.txt")
	require.NoError(t, os.WriteFile(stack, []byte("0,1,1,900\n1,2,1,880\n2,3,2,700\n2,4,5,120\n"), 0o644))
	stackPage := filepath.Join(dir, "stack.html")
	code, _, stderr = runDecodeArgs("--map", stackMap, "--format", "html", "-o", stackPage, stack)
	require.Equal(t, exitOK, code, stderr)
	pageCheck(t, browser, stackPage, "app.Work.slow()V")

	builds := diffBuilds(t)
	runsA, mapA := recordRuns(t, builds[0], 1, "1")
	runsB, mapB := recordRuns(t, builds[1], 1, "1")
	diffPage := filepath.Join(dir, "diff.html")
	code, _, stderr = runCLI("diff", "--base-map", mapA, "--map", mapB, "--format", "html", "-o", diffPage, runsA, runsB)
	require.Contains(t, []int{exitOK, exitFailure}, code, stderr)
	pageCheck(t, browser, diffPage, "app.Work.slowed(I)J")
}

// TestPageNamesLostRecords: the page of a recording whose rings lost
// records shows the note that says how many, as it opens.
func TestPageNamesLostRecords(t *testing.T) {
	browser := chromium(t)
	classes := threadsProgram(t)
	trace, methodMap, _ := recordThreads(t, classes, nil, nil, []string{"-Dtracebeat.budget=1k"}, 4, 50)
	page := filepath.Join(t.TempDir(), "lost.html")
	code, _, stderr := runDecodeArgs("--map", methodMap, "--format", "html", "-o", page, trace)
	require.Equal(t, exitOK, code, stderr)
	ctx := browserContext(t, browser)
	openPage(t, ctx, "file://"+page)
	notes, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('notes').innerText`))
	require.NoError(t, err)
	require.Regexp(t, `records each lost: its buffer was full, the oldest went \(budget 1 KiB`, notes)
	visible, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('notes').getBoundingClientRect().height > 0`))
	require.NoError(t, err)
	require.True(t, visible, "the notes are shown, not hidden")
}

// TestViewerReading: what a person reading decode's page of a recording
// that lost records meets. The header says which part of the recording
// the page holds; the flame graph opens with its root at the bottom of the
// window, labels lead with the class's simple name, the total says it sums
// the threads, and a zoom to a frame with a long name leaves the canvas
// where it was. On the timeline the ruler follows the keys (W zooms in, D
// moves on), and a drag that ends over a slice pans and never zooms.
func TestViewerReading(t *testing.T) {
	browser := chromium(t)
	classes := threadsProgram(t)
	trace, methodMap, _ := recordThreads(t, classes, nil, nil, []string{"-Dtracebeat.budget=8k"}, 4, 400)
	page := filepath.Join(t.TempDir(), "lost.html")
	code, _, stderr := runDecodeArgs("--map", methodMap, "--format", "html", "-o", page, trace)
	require.Equal(t, exitOK, code, stderr)
	ctx := browserContext(t, browser)
	openPage(t, ctx, "file://"+page)
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		require.NoError(t, err, js)
		return v
	}
	num := func(js string) float64 {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[float64](js))
		require.NoError(t, err, js)
		return v
	}

	assert.Regexp(t, `^the calls from [\d.]+ (ms|µs) to [\d.]+ ms after the start of a [\d.]+ ms recording: the recording lost records, the page holds part of the run`, eval(`document.getElementById('covers').textContent`))
	assert.Equal(t, "part", eval(`document.getElementById('covers').className`))
	assert.Equal(t, "Threads$Worker.compute", eval(`tracebeat.labels[JSON.parse(document.getElementById('tbmeta').textContent).names.indexOf('fixture.Threads$Worker.compute(I)J')]`))
	assert.Regexp(t, `^total [\d.]+ ms \([2-5] threads summed\)$`, eval(`document.getElementById('info').textContent`))

	// The root: the bottom rows of the window are one frame across.
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err)
	b := img.Bounds()
	painted := 0
	for x := b.Min.X; x < b.Max.X; x++ {
		r, g, bl, _ := img.At(x, b.Max.Y-8).RGBA()
		if r>>8 != 0xfa || g>>8 != 0xfa || bl>>8 != 0xf7 {
			painted++
		}
	}
	assert.Greater(t, painted, b.Dx()*9/10, "the root frame spans the bottom of the window as the page opens")

	canvasTop := `document.getElementById('canvas').getBoundingClientRect().top + scrollY`
	before := num(canvasTop)
	center, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`tracebeat.frameCenter('fixture.Threads.main([Ljava.lang.String;)V')`))
	require.NoError(t, err)
	require.NotNil(t, center)
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(center["x"], center["y"])))
	assert.Contains(t, eval(`document.getElementById('info').textContent`), "zoomed: Threads.main, total")
	assert.Equal(t, before, num(canvasTop), "the toolbar does not move the canvas")

	eval(`tracebeat.setView('timeline'), ''`)
	ticks := eval(`tracebeat.state.ticks.join(' ')`)
	assert.Regexp(t, `^(\d+ ms ){5,}`, ticks, "the ruler: ms from the recording's start, ticks about 100 px apart")
	span := num(`tracebeat.state.t1 - tracebeat.state.t0`)
	for range 5 {
		require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("w")))
	}
	assert.InDelta(t, span*0.8*0.8*0.8*0.8*0.8, num(`tracebeat.state.t1 - tracebeat.state.t0`), span*1e-6, "W zooms in")
	assert.NotEqual(t, ticks, eval(`tracebeat.state.ticks.join(' ')`), "the ruler follows the zoom")
	t0 := num(`tracebeat.state.t0`)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("d")))
	assert.Greater(t, num(`tracebeat.state.t0`), t0, "D moves on")

	// Tracks: a click on a header collapses its thread, on "pin" puts it
	// first.
	heads := func() []trackHead { return trackHeads(t, ctx) }
	hs := heads()
	require.GreaterOrEqual(t, len(hs), 4, "a collapse and a pin head a thread")
	last := hs[len(hs)-1]
	require.Equal(t, "pin", last.Act)
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(last.X, last.Y)))
	assert.Equal(t, last.Label, heads()[0].Label, "a pinned thread comes first")
	heads0 := heads()
	require.Equal(t, "collapse", heads0[0].Act)
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(heads0[0].X, heads0[0].Y)))
	assert.InDelta(t, heads0[0].Y+16+4, heads()[2].Y, 0.5, "a collapsed thread keeps its header only: the next header follows it (a row and the gap)")
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(heads0[0].X, heads0[0].Y)))
	assert.Equal(t, heads0[2].Y, heads()[2].Y, "and opens again")

	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("0")))
	span = num(`tracebeat.state.t1 - tracebeat.state.t0`)
	slice, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`tracebeat.frameCenter('fixture.Threads.main([Ljava.lang.String;)V')`))
	require.NoError(t, err)
	require.NotNil(t, slice, "main's slice is drawn on the timeline")
	x, y := slice["x"], slice["y"]
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MousePressed, x+80, y, chromedp.ButtonLeft, chromedp.ClickCount(1))))
	for _, dx := range []float64{60, 40, 20, 0} {
		require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, x+dx, y, chromedp.ButtonLeft)))
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1))))
	assert.InDelta(t, span, num(`tracebeat.state.t1 - tracebeat.state.t0`), span*1e-9, "a drag that ends over a slice pans, it does not zoom")
}

// TestViewerTables: the page's methods table and sandwich against
// profile's own figures, and the timeline's selection, on testdata/diff/v2
// (25 rounds of steady, busy 400 µs, slowed, 3 ms, and tail, 200 µs;
// the precise clock). The table, by self time, has slowed first and every
// row's calls, self and total as profile adds them up; a header sorts;
// main's callees and slowed's callers are what the call tree says; a
// shift-drag over the whole timeline puts slowed first, a selection inside
// one steady call puts steady first.
func TestViewerTables(t *testing.T) {
	browser := chromium(t)
	classes := diffBuilds(t)[1]
	trace, methodMap, _ := recordProgram(t, classes, "app.Work", nil, nil, []string{"-Dtracebeat.clock=precise"}, "25", "1")
	page := filepath.Join(t.TempDir(), "work.html")
	code, _, stderr := runDecodeArgs("--map", methodMap, "--format", "html", "-o", page, trace)
	require.Equal(t, exitOK, code, stderr)
	names, err := decode.LoadMethodNames(methodMap)
	require.NoError(t, err)
	prof, err := profile.Read(trace, names, decode.MapBuild{})
	require.NoError(t, err)

	ctx := browserContext(t, browser)
	openPage(t, ctx, "file://"+page)
	type row struct {
		Name               string
		Calls, Self, Total float64
	}
	rowsOf := func(js string) []row {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]row](js))
		require.NoError(t, err, js)
		return v
	}
	const slowed, steady, main = "app.Work.slowed(I)J", "app.Work.steady(I)J", "app.Work.main([Ljava.lang.String;)V"

	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`tracebeat.setView('table'), true`))
	require.NoError(t, err)
	rows := rowsOf(`tracebeat.state.tableRows`)
	require.Len(t, rows, len(prof.Methods))
	assert.Equal(t, slowed, rows[0].Name, "the most self time first")
	for i, r := range rows {
		st := prof.Methods[r.Name]
		assert.Equal(t, float64(st.Calls), r.Calls, r.Name)
		assert.InDelta(t, float64(st.Self), r.Self, 1, r.Name)
		assert.InDelta(t, float64(st.Total), r.Total, 1, r.Name)
		if i > 0 {
			assert.GreaterOrEqual(t, rows[i-1].Self, r.Self, "sorted by self time")
		}
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#methods th[data-key=calls]`))))
	rows = rowsOf(`tracebeat.state.tableRows`)
	for i := 1; i < len(rows); i++ {
		assert.GreaterOrEqual(t, rows[i-1].Calls, rows[i].Calls, "sorted by calls")
	}

	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`tracebeat.pick(%q), true`, main)))
	require.NoError(t, err)
	callees := rowsOf(`tracebeat.state.sandwich.callees`)
	mainNode := prof.Tree.Child(main, false)
	require.NotNil(t, mainNode)
	require.Len(t, callees, len(mainNode.Children))
	for _, c := range callees {
		n := mainNode.Children[c.Name]
		require.NotNil(t, n, c.Name)
		assert.Equal(t, float64(n.Stat.Calls), c.Calls, c.Name)
		assert.InDelta(t, float64(n.Stat.Total), c.Total, 1, c.Name)
	}
	assert.Equal(t, []row{{Name: "(top level)", Calls: 1, Total: float64(mainNode.Stat.Total)}}, rowsOf(`tracebeat.state.sandwich.callers`))
	// A click on a row of the table picks its method.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#methods td[title=%q]`, slowed)))))
	callers := rowsOf(`tracebeat.state.sandwich.callers`)
	require.Len(t, callers, 1)
	assert.Equal(t, main, callers[0].Name)
	assert.Equal(t, float64(25), callers[0].Calls)
	search, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('search').value`))
	require.NoError(t, err)
	assert.Equal(t, `^app\.Work\.slowed\(I\)J$`, search, "the flame graph and the timeline highlight the method picked")

	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`tracebeat.setView('timeline'), true`))
	require.NoError(t, err)
	box, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`(function () { var r = document.getElementById('canvas').getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top }; })()`))
	require.NoError(t, err)
	y := box["top"] + 60
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MousePressed, box["left"]+1, y, chromedp.ButtonLeft, chromedp.ClickCount(1), chromedp.ButtonModifiers(chromedp.ModifierShift))))
	for x := box["left"] + 100; x < box["right"]; x += 200 {
		require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, x, y, chromedp.ButtonLeft, chromedp.ButtonModifiers(chromedp.ModifierShift))))
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseReleased, box["right"]-1, y, chromedp.ButtonLeft, chromedp.ClickCount(1), chromedp.ButtonModifiers(chromedp.ModifierShift))))
	sel := rowsOf(`tracebeat.state.selRows`)
	require.NotEmpty(t, sel, "a shift-drag selects")
	assert.Equal(t, slowed, sel[0].Name, "over the whole run, slowed has the most self time")
	steadyCalls, err := chromedp.Run(ctx, chromedp.Evaluate[[][2]float64](fmt.Sprintf(`tracebeat.slicesOf(%q)`, steady)))
	require.NoError(t, err)
	require.Len(t, steadyCalls, 25)
	c := steadyCalls[10]
	sel = rowsOf(fmt.Sprintf(`tracebeat.select(%f, %f)`, c[0]+c[1]*0.1, c[0]+c[1]*0.9))
	require.NotEmpty(t, sel)
	assert.Equal(t, steady, sel[0].Name, "inside a steady call, steady has the most self time")
	assert.InDelta(t, c[1]*0.8, sel[0].Self, c[1]*0.01, "and its self time there is the span's")
}
