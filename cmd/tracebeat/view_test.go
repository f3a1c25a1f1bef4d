package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startView runs `tracebeat view` on a trace until the test ends and
// returns the address it prints.
func startView(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	old := viewContext
	viewContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() { done <- runMain(append([]string{"view"}, args...), &stdout, &stderr) }()
	t.Cleanup(func() {
		cancel()
		assert.Equal(t, exitOK, <-done, stderr.String())
		viewContext = old
	})
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if out := stdout.String(); strings.HasSuffix(out, "\n") {
			return strings.TrimSpace(out)
		}
		select {
		case code := <-done:
			t.Fatalf("tracebeat view ended with %d: %s", code, stderr.String())
		default:
		}
	}
	t.Fatalf("tracebeat view printed no address: %s", stderr.String())
	return ""
}

// timedCall is a call as decode's JSON gives it, in nanoseconds.
type timedCall struct {
	name       string
	start, dur int64
}

// computeWindow decodes a recording of the threads program to JSON and
// returns how many calls it holds, and the millisecond from the first
// compute call's start with the compute calls in it.
func computeWindow(t *testing.T, methodMap, trace string) (total int, from, to int64, in []timedCall) {
	t.Helper()
	code, js, stderr := runDecodeArgs("--map", methodMap, "--format", "json", trace)
	require.Equal(t, exitOK, code, stderr)
	var doc struct {
		TraceEvents []traceEventJSON `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	var calls []timedCall
	first := int64(-1)
	for _, e := range doc.TraceEvents {
		if e.Ph != "X" {
			continue
		}
		total++
		if strings.HasSuffix(e.Name, "compute(I)J") {
			c := timedCall{e.Name, int64(e.Ts*1000 + 0.5), int64(e.Dur*1000 + 0.5)}
			calls = append(calls, c)
			if first < 0 || c.start < first {
				first = c.start
			}
		}
	}
	require.NotEmpty(t, calls)
	from, to = first, first+1_000_000
	for _, c := range calls {
		if c.start < to && c.start+c.dur > from {
			in = append(in, c)
		}
	}
	require.NotEmpty(t, in)
	return total, from, to, in
}

// assertPageHolds checks that the timeline the page shows holds each of
// the compute calls want, unmerged, with its exact start and length.
func assertPageHolds(t *testing.T, ctx context.Context, want []timedCall) {
	t.Helper()
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[][]any](`tracebeat.windowSlices().filter(function (x) { return /compute\(I\)J$/.test(x[0]) && !(x[3] & 4); })`))
	require.NoError(t, err)
	exact := map[timedCall]bool{}
	for _, s := range shown {
		exact[timedCall{s[0].(string), int64(s[1].(float64)), int64(s[2].(float64))}] = true
	}
	for _, c := range want {
		assert.True(t, exact[c], "the page holds %v exactly", c)
	}
}

// TestViewServesAWholeRun: a stream recording of four threads served by
// `tracebeat view`. It listens on 127.0.0.1 and answers its own address
// only, nothing but the page and the windows; a window of 1 ms at a
// nanosecond a pixel holds every call decode finds there, with its exact
// start and length; in Chromium the page loads, and zoomed to that
// millisecond it shows those calls.
func TestViewServesAWholeRun(t *testing.T) {
	classes := threadsProgram(t)
	trace, methodMap, _ := recordThreads(t, classes, nil, nil, []string{"-Dtracebeat.mode=stream", "-Dtracebeat.clock=precise"}, 4, 400)
	_, from, to, want := computeWindow(t, methodMap, trace)

	base := startView(t, "--map", methodMap, trace)
	u, err := url.Parse(base)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1", u.Hostname(), "it listens on the loopback address")
	get := func(path, host string) (int, string) {
		req, err := http.NewRequest("GET", base+path, nil)
		require.NoError(t, err)
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(body)
	}
	status, page := get("/", "")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, `"server":true`)
	for _, path := range []string{"/%2e%2e/%2e%2e/etc/passwd", "/../../etc/passwd", "/window/../../x", "/app.trace", "/favicon.ico"} {
		status, _ = get(path, "")
		assert.Contains(t, []int{http.StatusNotFound, http.StatusBadRequest}, status, path)
	}
	status, _ = get("/", "attacker.example:80")
	assert.Equal(t, http.StatusForbidden, status, "a request for another host name")
	status, _ = get("/window?from=5&to=1&px=1", "")
	assert.Equal(t, http.StatusBadRequest, status)

	status, body := get(fmt.Sprintf("/window?from=%d&to=%d&px=%d", from, to, to-from), "")
	require.Equal(t, http.StatusOK, status)
	// The windows as little-endian float64s: how many, then each one's
	// calls, merged calls and slices, and five numbers a slice.
	require.Zero(t, len(body)%8)
	nums := make([]int64, len(body)/8)
	for i := range nums {
		nums[i] = int64(math.Float64frombits(binary.LittleEndian.Uint64([]byte(body[8*i:]))))
	}
	type window struct {
		Slices []int64
		Merged int64
	}
	var win struct{ Windows []window }
	for p, k := 1, int64(0); k < nums[0]; k++ {
		n := int(nums[p+2])
		win.Windows = append(win.Windows, window{Merged: nums[p+1], Slices: nums[p+3 : p+3+5*n]})
		p += 3 + 5*n
	}
	var names []string
	metaStart := strings.Index(page, `<script type="application/json" id="tbmeta">`)
	require.Positive(t, metaStart)
	var meta struct {
		Names []string `json:"names"`
	}
	metaText := page[metaStart+len(`<script type="application/json" id="tbmeta">`):]
	metaText = metaText[:strings.Index(metaText, "</script>")]
	require.NoError(t, json.Unmarshal([]byte(metaText), &meta))
	names = meta.Names
	var got []timedCall
	for _, w := range win.Windows {
		assert.Zero(t, w.Merged, "at a nanosecond a pixel nothing merges")
		for i := 0; i < len(w.Slices); i += 5 {
			if n := names[w.Slices[i]]; strings.HasSuffix(n, "compute(I)J") {
				got = append(got, timedCall{n, w.Slices[i+1], w.Slices[i+2]})
			}
		}
	}
	assert.ElementsMatch(t, want, got, "the window's compute calls are decode's, to the nanosecond")

	browser := chromium(t)
	ctx := browserContext(t, browser)
	openPage(t, ctx, base)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`tracebeat.setView('timeline'), tracebeat.zoomTo(%d, %d), true`, from, to)))
	require.NoError(t, err)
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`tracebeat.state.fetches > 0 && tracebeat.state.t0 === %d`, from)))
	require.NoError(t, err)
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`(function () { var s = tracebeat.windowSlices(); return s.some(function (x) { return x[3] === 0 && /compute/.test(x[0]); }); })()`))
	require.NoError(t, err, "the page fetched the window's calls")
	assertPageHolds(t, ctx, want)
}
