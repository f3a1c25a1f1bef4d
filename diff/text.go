package diff

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tracebeat/tracebeat/internal/english"
)

// sameShown is how many unchanged methods the text lists after the
// changes, the largest first.
const sameShown = 20

// WriteText writes the comparison as a table: the verdicts, the largest
// change first, every change and the largest unchanged methods.
func (r *Result) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	by := "self"
	if r.Options.ByTotal {
		by = "total"
	}
	for _, s := range []struct {
		what string
		in   SideInfo
	}{{"BASE", r.Base}, {"NEW ", r.New}} {
		fmt.Fprintf(bw, "%s: %s, %s", s.what, s.in.Label, english.Count(len(s.in.Runs), "run"))
		if len(s.in.TotalMs) > 1 {
			fmt.Fprintf(bw, " %.3f to %.3f ms in traced code (spread %.1f%%)", slices.Min(s.in.TotalMs), slices.Max(s.in.TotalMs), s.in.Spread)
		}
		fmt.Fprintf(bw, ", %s (median)", english.Count(s.in.Calls, "call"))
		if len(s.in.Builds) > 0 {
			fmt.Fprintf(bw, ", build %s", strings.Join(s.in.Builds, " "))
		}
		if s.in.ResolutionMs >= 0.001 {
			fmt.Fprintf(bw, ", times within %s", msText(s.in.ResolutionMs))
			if s.in.TypicalMs > 0 && s.in.TypicalMs < s.in.ResolutionMs {
				fmt.Fprintf(bw, " (%s on average)", msText(s.in.TypicalMs))
			}
		}
		bw.WriteString("\n")
	}
	fmt.Fprintf(bw, "verdicts by %s time: regressed or improved when its median moved by more than %g%% and %g ms, more than the clock may account for",
		by, r.Options.Threshold, r.Options.MinMs)
	if r.Statistics {
		fmt.Fprintf(bw, ", and more than the runs' noise makes: %s compared, at a %g%% risk of any false verdict among them", english.Count(r.Compared, "method"), r.Options.Risk*100)
	} else if r.Options.Strict {
		bw.WriteString(" (--strict: a single run on a side, no statistics)")
	} else {
		bw.WriteString(" (too few runs on a side: no verdict, see the notes)")
	}
	if r.Options.Only != nil {
		fmt.Fprintf(bw, "; methods matching %s only", r.Options.Only)
	}
	bw.WriteString("\n")
	fmt.Fprintf(bw, "%d regressed, %d improved, %d new, %d gone, %d the same\n",
		r.Counts[Regressed], r.Counts[Improved], r.Counts[New], r.Counts[Gone], r.Counts[Same])
	if n := r.sameFor(WithinClock); n > 0 {
		fmt.Fprintf(bw, "%s moved by more than the thresholds but no more than the clock's resolution may account for (same (clock)): -Dtracebeat.clock=precise records exact times\n",
			english.Count(n, "method"))
	}
	bw.WriteString("\n")
	rows := [][]string{{"status", "self ms base", "self ms new", "delta", "clock ms", "total ms base", "total ms new", "calls base", "calls new", "method"}}
	same := 0
	for _, m := range r.Methods {
		if m.Status == Same {
			if same == sameShown {
				continue
			}
			same++
		}
		status := m.Status
		if m.Reason != "" && m.Reason != WithinThreshold {
			status += " (" + m.Reason + ")"
		}
		name := m.Name
		if m.BaseName != "" {
			name = m.BaseName + " -> " + m.Name
		}
		rows = append(rows, []string{status,
			withRange(m.SelfMsBase, m.SelfMsBaseRange, len(r.Base.Runs)), withRange(m.SelfMsNew, m.SelfMsNewRange, len(r.New.Runs)),
			delta(m, r.Options), fmt.Sprintf("%.3f", m.ClockMs), fmt.Sprintf("%.3f", m.TotalMsBase), fmt.Sprintf("%.3f", m.TotalMsNew),
			fmt.Sprint(m.CallsBase), fmt.Sprint(m.CallsNew), name})
	}
	writeTable(bw, rows)
	if n := r.Counts[Same] - same; n > 0 {
		fmt.Fprintf(bw, "(and %d more the same)\n", n)
	}
	r.writeCallers(bw)
	return bw.Flush()
}

// writeCallers says, for the changed methods whose calls changed, where
// the calls came from: the callers whose code to look at.
func (r *Result) writeCallers(bw *bufio.Writer) {
	head := false
	for _, m := range r.Methods {
		if len(m.Callers) == 0 {
			continue
		}
		if !head {
			bw.WriteString("\nmethods called more or less often, and the callers whose calls into them changed most:\n")
			head = true
		}
		fmt.Fprintf(bw, "  %s %s: %d -> %d calls\n", m.Status, m.Name, m.CallsBase, m.CallsNew)
		for _, c := range m.Callers {
			fmt.Fprintf(bw, "    from %s: %d -> %d\n", c.Name, c.CallsBase, c.CallsNew)
		}
	}
}

// sameFor counts the methods the same for reason.
func (r *Result) sameFor(reason string) int {
	n := 0
	for _, m := range r.Methods {
		if m.Status == Same && m.Reason == reason {
			n++
		}
	}
	return n
}

// msText shows milliseconds, as microseconds below one.
func msText(ms float64) string {
	if ms < 0.01 {
		return fmt.Sprintf("%.2f µs", ms*1000)
	}
	if ms < 1 {
		return fmt.Sprintf("%.0f µs", ms*1000)
	}
	return fmt.Sprintf("%.2f ms", ms)
}

// withRange shows a median, with the least and most of several runs.
func withRange(v float64, r [2]float64, runs int) string {
	if runs < 2 {
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%.3f (%.3f-%.3f)", v, r[0], r[1])
}

// delta shows the deciding change: ms and percent.
func delta(m Method, opt Options) string {
	d := deciding(m, opt)
	switch m.Status {
	case New, Gone:
		return fmt.Sprintf("%+.3f", d)
	}
	return fmt.Sprintf("%+.3f (%+.1f%%)", d, m.DeltaPercent)
}

// writeTable aligns columns, the last one left as it is.
func writeTable(w *bufio.Writer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row[:len(row)-1] {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, row := range rows {
		for i, c := range row {
			if i == len(row)-1 {
				w.WriteString(c)
				continue
			}
			pad := widths[i] - len([]rune(c))
			if i == 0 {
				w.WriteString(c + strings.Repeat(" ", pad))
			} else {
				w.WriteString(strings.Repeat(" ", pad) + c)
			}
			w.WriteString("  ")
		}
		w.WriteString("\n")
	}
}
