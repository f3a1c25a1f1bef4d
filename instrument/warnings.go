// The run's warnings: kept in the result, and by input for a run
// snapshot, which replays them when a later run reuses the input.

package instrument

import (
	"fmt"
	"sort"
	"strings"
)

func (p *pipeline) warn(format string, args ...any) { p.warnAt(-1, format, args...) }

// warnAt warns about input i; a run snapshot keeps what each input
// reported, for a later run that reuses the input to report again.
func (p *pipeline) warnAt(i int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	p.mu.Lock()
	p.res.Warnings = append(p.res.Warnings, msg)
	if i >= 0 {
		if p.inputWarnings == nil {
			p.inputWarnings = make([][]string, len(p.inputs))
		}
		p.inputWarnings[i] = append(p.inputWarnings[i], msg)
	}
	merged := strings.HasSuffix(msg, mergeSkipSuffix)
	if merged {
		if p.mergeSkips == nil {
			p.mergeSkips = map[string]int{}
		}
		_, entry, _ := strings.Cut(strings.TrimSuffix(msg, mergeSkipSuffix), ": ")
		p.mergeSkips[entry]++
	}
	p.mu.Unlock()
	if merged {
		// Every jar has a manifest: one line at the end counts them.
		p.opt.Log.Debug(msg)
		return
	}
	p.opt.Log.Warn(msg)
}

// mergeSkipSuffix ends the warning of an entry that --merge skipped
// because an earlier input wrote one of the same name (a snapshot keeps
// the warnings as text, so the suffix is how a replayed one is known).
const mergeSkipSuffix = ": already written from an earlier input, skipped"

// warnMergeSkips sums up the entries --merge skipped in one line.
func (p *pipeline) warnMergeSkips() {
	if len(p.mergeSkips) == 0 {
		return
	}
	names := make([]string, 0, len(p.mergeSkips))
	total := 0
	for name, n := range p.mergeSkips {
		names = append(names, name)
		total += n
	}
	sort.Slice(names, func(a, b int) bool {
		if p.mergeSkips[names[a]] != p.mergeSkips[names[b]] {
			return p.mergeSkips[names[a]] > p.mergeSkips[names[b]]
		}
		return names[a] < names[b]
	})
	var shown []string
	for _, name := range names[:min(3, len(names))] {
		shown = append(shown, fmt.Sprintf("%s (%d)", name, p.mergeSkips[name]))
	}
	more := ""
	if len(names) > 3 {
		more = fmt.Sprintf(" and %d more names", len(names)-3)
	}
	p.opt.Log.Warn(fmt.Sprintf("--merge kept the first of entries that several inputs hold and skipped %d later ones: %s%s (each at --log-level debug)",
		total, strings.Join(shown, ", "), more))
}
