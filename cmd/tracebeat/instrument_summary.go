package main

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tracebeat/tracebeat/instrument"
)

// summaryLine is the one-line result the checks and users read.
func summaryLine(res *instrument.Result, took time.Duration, mapPath string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tracebeat: inputs=%d classes=%d rewritten=%d methods traced=%d ignored=%d skipped=%d",
		res.Inputs, res.Classes, res.Rewritten, res.NumTraced(), res.IgnoredCount, sum(res.Skipped))
	if len(res.Skipped) > 0 {
		reasons := make([]string, 0, len(res.Skipped))
		for r, n := range res.Skipped {
			reasons = append(reasons, fmt.Sprintf("%s=%d", r, n))
		}
		sort.Strings(reasons)
		fmt.Fprintf(&b, " (%s)", strings.Join(reasons, " "))
	}
	fmt.Fprintf(&b, " focus=%d seconds=%.3f build=%s map=%s", len(res.Focus), took.Seconds(), res.BuildID, mapPath)
	return b.String()
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// maxListedOutputs caps the output lines of the summary: a mirror of
// thousands of inputs should not flood the build log.
const maxListedOutputs = 10

// summaryDetails are the indented lines after the summary line: counts
// spelled out, ignored methods by reason (most frequent first), and every
// file written.
func summaryDetails(res *instrument.Result, kinds inputKinds, took time.Duration, p outputPaths) []string {
	var out []string
	add := func(key, format string, args ...any) {
		out = append(out, fmt.Sprintf("  %-11s %s", key+":", fmt.Sprintf(format, args...)))
	}
	add("inputs", "%d (%s, %s)", res.Inputs, plural(kinds.jars, "jar", "jars"), plural(kinds.dirs, "directory", "directories"))
	add("classes", "%d read, %d rewritten", res.Classes, res.Rewritten)
	add("methods", "%d traced, %d ignored", res.NumTraced(), res.IgnoredCount)
	if reasons := countByReason(res.IgnoredByReason); len(reasons) > 0 {
		add("ignored", "%s", strings.Join(reasons, " "))
	}
	if n := sum(res.Skipped); n > 0 {
		add("untouched", "%d planned methods could not be rewritten validly (listed as ignored)", n)
	}
	if len(res.Focus) > 0 {
		add("focus", "%s", plural(len(res.Focus), "Activity class", "Activity classes"))
	}
	if len(res.Duplicates) > 0 {
		add("duplicates", "%s in more than one input", plural(len(res.Duplicates), "class", "classes"))
	}
	if len(res.Warnings) > 0 {
		add("warnings", "%d (see stderr)", len(res.Warnings))
	}
	if res.CachedScans > 0 || res.CachedRewrites > 0 {
		add("cache", "%s reused whole, %d class scans and %d rewrites reused",
			plural(res.CachedInputs, "input", "inputs"), res.CachedScans, res.CachedRewrites)
	}
	add("time", "%.2f s", took.Seconds())
	for i, o := range res.Outputs {
		if i == maxListedOutputs {
			add("output", "... and %d more", len(res.Outputs)-i)
			break
		}
		add("output", "%s", o)
	}
	add("method map", "%s", p.methodMap)
	add("ignore map", "%s", p.ignoreMap)
	if p.report != "" {
		add("report", "%s", p.report)
	}
	return out
}

// CountByReason returns "reason=n" for the ignored methods, the most
// frequent reason first (ties by name, so the order is stable).
func countByReason(counts map[string]int) []string {
	reasons := make([]string, 0, len(counts))
	for r := range counts {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		a, b := reasons[i], reasons[j]
		if counts[a] != counts[b] {
			return counts[a] > counts[b]
		}
		return a < b
	})
	for i, r := range reasons {
		reasons[i] = fmt.Sprintf("%s=%d", r, counts[r])
	}
	return reasons
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
