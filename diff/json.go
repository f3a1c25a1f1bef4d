package diff

import (
	"encoding/json"
	"io"
)

// jsonDoc is the --format json document; docs/diff.md describes it, and
// its fields stay as they are.
type jsonDoc struct {
	Base     SideInfo       `json:"base"`
	New      SideInfo       `json:"new"`
	Verdicts jsonVerdicts   `json:"verdicts"`
	Counts   map[string]int `json:"counts"`
	Methods  []Method       `json:"methods"`
	Notes    []string       `json:"notes,omitempty"`
}

type jsonVerdicts struct {
	By           string  `json:"by"` // "self" or "total"
	ThresholdPct float64 `json:"threshold_percent"`
	MinMs        float64 `json:"min_ms"`
	Only         string  `json:"only,omitempty"`
	Regressed    bool    `json:"regressed"`
	// Statistics: both sides had several runs, and a verdict needed the
	// change to stand out of their noise at risk_percent for all the
	// compared methods together (a moderated t-test on log times, the
	// p-values adjusted by Benjamini-Hochberg: each method's "q").
	Statistics  bool    `json:"statistics"`
	Strict      bool    `json:"strict,omitempty"`
	Compared    int     `json:"compared"`
	RiskPercent float64 `json:"risk_percent"`
}

// WriteJSON writes the comparison as one JSON document.
func (r *Result) WriteJSON(w io.Writer) error {
	doc := jsonDoc{Base: r.Base, New: r.New, Counts: r.Counts, Methods: r.Methods, Notes: r.Notes,
		Verdicts: jsonVerdicts{By: "self", ThresholdPct: r.Options.Threshold, MinMs: r.Options.MinMs, Regressed: r.Regressed(),
			Statistics: r.Statistics, Strict: r.Options.Strict, Compared: r.Compared, RiskPercent: r.Options.Risk * 100}}
	if r.Options.ByTotal {
		doc.Verdicts.By = "total"
	}
	if r.Options.Only != nil {
		doc.Verdicts.Only = r.Options.Only.String()
	}
	if doc.Methods == nil {
		doc.Methods = []Method{}
	}
	for _, s := range []string{Regressed, Improved, Same, New, Gone} {
		if _, ok := doc.Counts[s]; !ok {
			doc.Counts[s] = 0
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
