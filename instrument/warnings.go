// The run's warnings: kept in the result, and by input for a run
// snapshot, which replays them when a later run reuses the input.

package instrument

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"go.uber.org/zap"
)

// runWarnings collects a run's warnings into its result and logs them;
// the workers warn at once, so it takes a lock.
type runWarnings struct {
	log *zap.Logger
	res *Result // Warnings
	mu  sync.Mutex
	// byInput are the warnings about each input (at), for the snapshot;
	// byOutput those about writing its entries (atOutput), which a run
	// that writes them again says again rather than replays.
	byInput  [][]string
	byOutput [][]string
	inputs   int
	// mergeSkips counts by entry name what --merge skipped.
	mergeSkips map[string]int
}

func newRunWarnings(log *zap.Logger, res *Result, inputs int) *runWarnings {
	return &runWarnings{log: log, res: res, inputs: inputs}
}

func (w *runWarnings) warn(format string, args ...any) { w.at(-1, format, args...) }

// at warns about input i; a run snapshot keeps what each input reported,
// for a later run that reuses the input to report again.
func (w *runWarnings) at(i int, format string, args ...any) {
	w.add(i, &w.byInput, fmt.Sprintf(format, args...))
}

// atOutput warns about writing an entry of input i.
func (w *runWarnings) atOutput(i int, format string, args ...any) {
	w.add(i, &w.byOutput, fmt.Sprintf(format, args...))
}

func (w *runWarnings) add(i int, by *[][]string, msg string) {
	w.mu.Lock()
	w.res.Warnings = append(w.res.Warnings, msg)
	if i >= 0 {
		if *by == nil {
			*by = make([][]string, w.inputs)
		}
		(*by)[i] = append((*by)[i], msg)
	}
	merged := strings.HasSuffix(msg, mergeSkipSuffix)
	if merged {
		if w.mergeSkips == nil {
			w.mergeSkips = map[string]int{}
		}
		_, entry, _ := strings.Cut(strings.TrimSuffix(msg, mergeSkipSuffix), ": ")
		w.mergeSkips[entry]++
	}
	w.mu.Unlock()
	if merged {
		// Every jar has a manifest: one line at the end counts them.
		w.log.Debug(msg)
		return
	}
	w.log.Warn(msg)
}

// forInput returns what was said about input i (at).
func (w *runWarnings) forInput(i int) []string { return w.said(w.byInput, i) }

// forOutput returns what was said about writing input i (atOutput).
func (w *runWarnings) forOutput(i int) []string { return w.said(w.byOutput, i) }

func (w *runWarnings) said(by [][]string, i int) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if by == nil {
		return nil
	}
	return by[i]
}

// mergeSkipSuffix ends the warning of an entry that --merge skipped
// because an earlier input wrote one of the same name (a snapshot keeps
// the warnings as text, so the suffix is how a replayed one is known).
const mergeSkipSuffix = ": already written from an earlier input, skipped"

// sumUpMergeSkips sums up the entries --merge skipped in one line.
func (w *runWarnings) sumUpMergeSkips() {
	if len(w.mergeSkips) == 0 {
		return
	}
	names := make([]string, 0, len(w.mergeSkips))
	total := 0
	for name, n := range w.mergeSkips {
		names = append(names, name)
		total += n
	}
	sort.Slice(names, func(a, b int) bool {
		if w.mergeSkips[names[a]] != w.mergeSkips[names[b]] {
			return w.mergeSkips[names[a]] > w.mergeSkips[names[b]]
		}
		return names[a] < names[b]
	})
	var shown []string
	for _, name := range names[:min(3, len(names))] {
		shown = append(shown, fmt.Sprintf("%s (%d)", name, w.mergeSkips[name]))
	}
	more := ""
	if len(names) > 3 {
		more = fmt.Sprintf(" and %d more names", len(names)-3)
	}
	w.log.Warn(fmt.Sprintf("--merge kept the first of entries that several inputs hold and skipped %d later ones: %s%s (each at --log-level debug)",
		total, strings.Join(shown, ", "), more))
}
