// A run's report (methodmap.ReportText) is laid out from its result. An
// edit build's report is most often the last one: a change of method
// bodies leaves the ignored methods as they were, and laying out an
// app's report again took a sixth of a delta run. A run with a cache
// keeps the report it gave (KeepMap) with the checksum of the ignored
// list it was made from; a delta run whose ignored list is that list
// gives the kept report when its head is the same.

package instrument

import (
	"bytes"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"github.com/tracebeat/tracebeat/methodmap"
)

const reportMagic = "tracebeat-report-1\n"

// ReportText is the run's report: methodmap.ReportText of its traced
// count, its ignored list (Options.Lists) and rules.
func (r *Result) ReportText(rules []methodmap.RuleCount) []byte {
	if r.lastReport != nil {
		if last := r.lastReport(methodmap.ReportHead(r.NumTraced(), r.Ignored, rules)); last != nil {
			r.report, r.reportKept = last, true
			return last
		}
	}
	r.report, r.reportKept = methodmap.ReportText(r.NumTraced(), r.Ignored, rules), false
	return r.report
}

// ignoredListSum is the checksum of an ignored list as a snapshot
// encodes it.
func ignoredListSum(list []methodmap.IgnoredMethod) jario.Checksum {
	var e pack.Encoder
	e.IgnoredList(list)
	return jario.SumOf(e.Buf)
}

// sealReport is a report as the cache keeps it: with the checksum of the
// ignored list it was made from, sealed by the checksum of all.
func sealReport(report []byte, listSum jario.Checksum) []byte {
	b := make([]byte, 0, len(reportMagic)+2*len(listSum)+len(report))
	b = append(b, reportMagic...)
	b = append(b, listSum[:]...)
	b = append(b, report...)
	sum := jario.SumOf(b)
	return append(b, sum[:]...)
}

// keptReport is the report sealed in data if it is intact, was made from
// the ignored list of checksum listSum and starts with head; else nil.
func keptReport(data []byte, listSum jario.Checksum, head []byte) []byte {
	body, ok := jario.Unseal(data, reportMagic)
	if !ok || len(body) < len(listSum) || !bytes.Equal(body[:len(listSum)], listSum[:]) {
		return nil
	}
	if report := body[len(listSum):]; bytes.HasPrefix(report, head) {
		return report
	}
	return nil
}
