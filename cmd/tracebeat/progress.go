package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progressInterval bounds how often the bar is redrawn (about 10 times a
// second): more is invisible and costs terminal time on big builds.
const progressInterval = 100 * time.Millisecond

// progressBar draws "classes done/total, rate, ETA" on one terminal line,
// redrawn in place with \r. It draws nothing when its writer is not a
// terminal, so logs and CI output never hold control characters.
//
// Log lines go through Writer, which clears the bar before writing, so a
// warning never ends up glued to a half-drawn bar.
type progressBar struct {
	mu      sync.Mutex
	w       io.Writer
	enabled bool
	now     func() time.Time

	start    time.Time // first update: the rate excludes the time spent scanning
	lastDraw time.Time
	drawn    int // width of the line on screen, 0 when none
	done     int
	total    int
}

// newProgressBar returns a bar on w, active only when enabled.
func newProgressBar(w io.Writer, enabled bool, now func() time.Time) *progressBar {
	if now == nil {
		now = time.Now
	}
	return &progressBar{w: w, enabled: enabled, now: now}
}

// Update records progress; it is safe for concurrent use and cheap when
// the bar is off or a redraw is not due.
func (p *progressBar) Update(done, total int) {
	if !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.start.IsZero() {
		p.start = now
	}
	p.done, p.total = done, total
	if p.drawn > 0 && now.Sub(p.lastDraw) < progressInterval && done < total {
		return
	}
	p.lastDraw = now
	p.draw(now)
}

// draw writes the bar; the caller holds mu.
func (p *progressBar) draw(now time.Time) {
	line := progressLine(p.done, p.total, now.Sub(p.start))
	pad := ""
	if n := p.drawn - len(line); n > 0 {
		pad = strings.Repeat(" ", n) // cover the end of a longer previous line
	}
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
	p.drawn = len(line)
}

// clear removes the bar from the screen; the caller holds mu.
func (p *progressBar) clear() {
	if p.drawn == 0 {
		return
	}
	fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.drawn))
	p.drawn = 0
}

// Finish clears the line so the summary starts on a clean screen.
func (p *progressBar) Finish() {
	if !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}

// Writer returns a writer for log output that shares the line with the
// bar: the bar is cleared first and redrawn by the next Update.
func (p *progressBar) Writer() io.Writer {
	if !p.enabled {
		return p.w
	}
	return progressLogWriter{p}
}

type progressLogWriter struct{ p *progressBar }

func (lw progressLogWriter) Write(b []byte) (int, error) {
	lw.p.mu.Lock()
	defer lw.p.mu.Unlock()
	lw.p.clear()
	return lw.p.w.Write(b)
}

// progressLine renders one state of the bar, for example
//
//	[#######.............]  1234/4000 classes  30%  812/s  ETA 0:03
func progressLine(done, total int, elapsed time.Duration) string {
	const width = 20
	frac := 1.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	frac = min(max(frac, 0), 1)
	filled := int(frac * width)
	var b strings.Builder
	b.WriteString("[")
	b.WriteString(strings.Repeat("#", filled))
	b.WriteString(strings.Repeat(".", width-filled))
	fmt.Fprintf(&b, "] %*d/%d classes %3d%%", len(fmt.Sprint(total)), done, total, int(frac*100))
	secs := elapsed.Seconds()
	if done > 0 && secs > 0 {
		rate := float64(done) / secs
		fmt.Fprintf(&b, "  %.0f/s", rate)
		if done < total {
			eta := time.Duration(float64(total-done) / rate * float64(time.Second))
			fmt.Fprintf(&b, "  ETA %s", clockDuration(eta))
		}
	}
	return b.String()
}

// clockDuration formats d as m:ss, or h:mm:ss past an hour.
func clockDuration(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
