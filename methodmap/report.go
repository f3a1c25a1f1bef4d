package methodmap

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/tracebeat/tracebeat/internal/atomicfile"
)

// Report is the JSON report of a run: why each ignored method was ignored
// and how many methods each reason covers.
type Report struct {
	Traced  int            `json:"traced"`
	Ignored int            `json:"ignored"`
	Counts  map[Reason]int `json:"counts"` // encoding/json writes map keys sorted
	// Rules are the block-list rules of the run with what each blocked.
	Rules   []RuleCount    `json:"rules,omitempty"`
	Methods []ReportMethod `json:"methods"`
}

// RuleCount is what one block-list rule blocked.
type RuleCount struct {
	Rule    string `json:"rule"`   // "-keeppackage a/b/"
	Origin  string `json:"origin"` // "file:line" or "built-in"
	Classes int    `json:"classes"`
	Methods int    `json:"methods"`
}

// ReportMethod is one ignored method in the report (dotted names, the
// descriptor always present, native or not).
type ReportMethod struct {
	Class  string `json:"class"`
	Method string `json:"method"`
	Desc   string `json:"desc"`
	Access uint16 `json:"access"`
	Reason Reason `json:"reason"`
}

// BuildReport sorts the ignored methods by key, then reason and access, so
// the report does not depend on the order the caller found them in.
func BuildReport(traced int, ignored []IgnoredMethod) Report {
	ms := slices.Clone(ignored)
	slices.SortFunc(ms, func(a, b IgnoredMethod) int {
		return cmp.Or(compareKeys(a.Key, b.Key), strings.Compare(string(a.Reason), string(b.Reason)), int(a.Access)-int(b.Access))
	})
	r := Report{Traced: traced, Ignored: len(ms), Counts: map[Reason]int{}, Methods: make([]ReportMethod, 0, len(ms))}
	for _, m := range ms {
		r.Counts[m.Reason]++
		r.Methods = append(r.Methods, ReportMethod{
			Class: dotted(m.Key.Class), Method: m.Key.Name, Desc: dotted(m.Key.Desc),
			Access: m.Access, Reason: m.Reason,
		})
	}
	return r
}

// EncodeReport returns the report as indented JSON ending in a newline.
func EncodeReport(r Report) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep '<init>' readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteReportFile writes the report of traced/ignored methods to path
// through a temporary file and a rename.
func WriteReportFile(path string, traced int, ignored []IgnoredMethod, rules []RuleCount) error {
	r := BuildReport(traced, ignored)
	r.Rules = rules
	data, err := EncodeReport(r)
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, 0o644, data)
}
