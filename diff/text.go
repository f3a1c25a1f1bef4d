package diff

import (
	"bufio"
	"fmt"
	"io"
	"strings"
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
		fmt.Fprintf(bw, "%s: %s, %d run(s), %d calls (median)", s.what, s.in.Label, len(s.in.Runs), s.in.Calls)
		if len(s.in.Builds) > 0 {
			fmt.Fprintf(bw, ", build %s", strings.Join(s.in.Builds, " "))
		}
		bw.WriteString("\n")
	}
	fmt.Fprintf(bw, "verdicts by %s time: regressed or improved when it changed by more than %g%% and more than %g ms", by, r.Options.Threshold, r.Options.MinMs)
	if len(r.Base.Runs) > 1 && len(r.New.Runs) > 1 {
		bw.WriteString(", the runs' ranges apart and the change larger than either")
	}
	if r.Options.Only != nil {
		fmt.Fprintf(bw, "; methods matching %s only", r.Options.Only)
	}
	bw.WriteString("\n")
	fmt.Fprintf(bw, "%d regressed, %d improved, %d new, %d gone, %d the same\n\n",
		r.Counts[Regressed], r.Counts[Improved], r.Counts[New], r.Counts[Gone], r.Counts[Same])
	rows := [][]string{{"status", "self ms base", "self ms new", "delta", "total ms base", "total ms new", "calls base", "calls new", "method"}}
	same := 0
	for _, m := range r.Methods {
		if m.Status == Same {
			if same == sameShown {
				continue
			}
			same++
		}
		rows = append(rows, []string{m.Status,
			withRange(m.SelfMsBase, m.SelfMsBaseRange, len(r.Base.Runs)), withRange(m.SelfMsNew, m.SelfMsNewRange, len(r.New.Runs)),
			delta(m, r.Options), fmt.Sprintf("%.3f", m.TotalMsBase), fmt.Sprintf("%.3f", m.TotalMsNew),
			fmt.Sprint(m.CallsBase), fmt.Sprint(m.CallsNew), m.Name})
	}
	writeTable(bw, rows)
	if n := r.Counts[Same] - same; n > 0 {
		fmt.Fprintf(bw, "(and %d more the same)\n", n)
	}
	return bw.Flush()
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
