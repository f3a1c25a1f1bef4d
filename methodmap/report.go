package methodmap

import (
	"bytes"
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
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

// reportOrder is the order of the report's methods: by key, then reason
// and access.
func reportOrder(a, b IgnoredMethod) int {
	return cmp.Or(compareKeys(a.Key, b.Key), strings.Compare(string(a.Reason), string(b.Reason)), int(a.Access)-int(b.Access))
}

// BuildReport sorts the ignored methods by key, then reason and access, so
// the report does not depend on the order the caller found them in.
func BuildReport(traced int, ignored []IgnoredMethod) Report {
	ms := slices.Clone(ignored)
	if !slices.IsSortedFunc(ms, reportOrder) {
		slices.SortFunc(ms, reportOrder)
	}
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

// EncodeReport returns the report as indented JSON ending in a newline:
// what encoding/json's Encoder writes with two-space indents and HTML
// escaping off (reportjson_test.go holds it to that), laid out by hand
// because a large app's report lists hundreds of thousands of methods
// and reflection took most of an edit build's time to write them.
func EncodeReport(r Report) []byte {
	b := appendReportHead(make([]byte, 0, 64+len(r.Methods)*160), r)
	switch {
	case r.Methods == nil:
		b = append(b, "null"...)
	case len(r.Methods) == 0:
		b = append(b, "[]"...)
	default:
		b = append(b, '[')
		for i, m := range r.Methods {
			b = appendReportMethod(b, i == 0, m.Class, m.Method, m.Desc, false, m.Access, m.Reason)
		}
		b = append(b, "\n  ]"...)
	}
	return append(b, "\n}\n"...)
}

// ReportText is EncodeReport(BuildReport(traced, ignored)) with rules as
// its Rules, written straight from the list: a ReportMethod per method
// costs two dotted copies of its names, and an edit build writes the
// report of the whole app.
func ReportText(traced int, ignored []IgnoredMethod, rules []RuleCount) []byte {
	ms := ignored
	if !slices.IsSortedFunc(ms, reportOrder) {
		ms = slices.Clone(ignored)
		slices.SortFunc(ms, reportOrder)
	}
	size := 256 + 256*len(rules)
	for i := range ms {
		m := &ms[i]
		size += reportMethodSize + len(m.Key.Class) + len(m.Key.Name) + len(m.Key.Desc) + len(m.Reason)
	}
	b := appendReportHead(make([]byte, 0, size), reportHead(traced, ms, rules))
	if len(ms) == 0 {
		b = append(b, "[]"...)
	} else {
		b = append(b, '[')
		for i, m := range ms {
			b = appendReportMethod(b, i == 0, m.Key.Class, m.Key.Name, m.Key.Desc, true, m.Access, m.Reason)
		}
		b = append(b, "\n  ]"...)
	}
	return append(b, "\n}\n"...)
}

// ReportHead is the start of ReportText(traced, ignored, rules): its
// fields before its methods, up to `"methods": `. Two reports of the same
// methods are the same when their heads are.
func ReportHead(traced int, ignored []IgnoredMethod, rules []RuleCount) []byte {
	return appendReportHead(nil, reportHead(traced, ignored, rules))
}

func reportHead(traced int, ignored []IgnoredMethod, rules []RuleCount) Report {
	counts := map[Reason]int{}
	for i := range ignored {
		counts[ignored[i].Reason]++
	}
	return Report{Traced: traced, Ignored: len(ignored), Counts: counts, Rules: rules}
}

// appendReportHead appends the report's fields before its methods, up to
// `"methods": `.
func appendReportHead(b []byte, r Report) []byte {
	b = append(b, "{\n  \"traced\": "...)
	b = strconv.AppendInt(b, int64(r.Traced), 10)
	b = append(b, ",\n  \"ignored\": "...)
	b = strconv.AppendInt(b, int64(r.Ignored), 10)
	b = append(b, ",\n  \"counts\": {"...)
	if r.Counts != nil {
		for i, k := range slices.Sorted(maps.Keys(r.Counts)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n    "...)
			b = appendJSONString(b, string(k))
			b = append(b, ": "...)
			b = strconv.AppendInt(b, int64(r.Counts[k]), 10)
		}
		if len(r.Counts) > 0 {
			b = append(b, "\n  "...)
		}
		b = append(b, '}')
	} else {
		b = b[:len(b)-1]
		b = append(b, "null"...)
	}
	if len(r.Rules) > 0 {
		b = append(b, ",\n  \"rules\": ["...)
		for i, rc := range r.Rules {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n    {\n      \"rule\": "...)
			b = appendJSONString(b, rc.Rule)
			b = append(b, ",\n      \"origin\": "...)
			b = appendJSONString(b, rc.Origin)
			b = append(b, ",\n      \"classes\": "...)
			b = strconv.AppendInt(b, int64(rc.Classes), 10)
			b = append(b, ",\n      \"methods\": "...)
			b = strconv.AppendInt(b, int64(rc.Methods), 10)
			b = append(b, "\n    }"...)
		}
		b = append(b, "\n  ]"...)
	}
	return append(b, ",\n  \"methods\": "...)
}

// reportMethodSize is what appendReportMethod writes for a method besides
// its names and reason (plain ones): the text is sized once, not grown.
const reportMethodSize = len(",\n    {\n      \"class\": \"\",\n      \"method\": \"\",\n      \"desc\": \"\",\n      \"access\": 65535,\n      \"reason\": \"\"\n    }")

// appendReportMethod appends one method of the report; with dotted, the
// class and descriptor are in internal form and written with dots. Names
// that need no escaping (nearly all) are copied as they are and dotted in
// place: an edit build writes the report of the whole app.
func appendReportMethod(b []byte, first bool, class, method, desc string, dotted bool, access uint16, reason Reason) []byte {
	if !plainJSON(class) || !plainJSON(method) || !plainJSON(desc) || !plainJSON(string(reason)) {
		return appendReportMethodEscaped(b, first, class, method, desc, dotted, access, reason)
	}
	if !first {
		b = append(b, ',')
	}
	b = append(b, "\n    {\n      \"class\": \""...)
	b = appendMaybeDotted(b, class, dotted)
	b = append(b, "\",\n      \"method\": \""...)
	b = append(b, method...)
	b = append(b, "\",\n      \"desc\": \""...)
	b = appendMaybeDotted(b, desc, dotted)
	b = append(b, "\",\n      \"access\": "...)
	b = strconv.AppendUint(b, uint64(access), 10)
	b = append(b, ",\n      \"reason\": \""...)
	b = append(b, reason...)
	return append(b, "\"\n    }"...)
}

// plainJSON reports whether s is written in JSON as it is, between quotes:
// no control byte, DEL, non-ASCII byte, quote or backslash. It tests eight
// bytes at a time (a byte-wise loop was a quarter of the report's time).
func plainJSON(s string) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	// hasByte reports whether a byte of w is c; hasLess whether one is
	// under c (for c <= 0x80, with no byte of w over 0x7f).
	hasByte := func(w, c uint64) bool { x := w ^ (c * ones); return (x-ones)&^x&highs != 0 }
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if w&highs != 0 || (w-0x20*ones)&^w&highs != 0 || hasByte(w, 0x7f) || hasByte(w, '"') || hasByte(w, '\\') {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// appendMaybeDotted appends s, its slashes as dots when dotted.
func appendMaybeDotted(b []byte, s string, dotted bool) []byte {
	n := len(b)
	b = append(b, s...)
	if dotted {
		for i := n; i < len(b); i++ {
			if b[i] == '/' {
				b[i] = '.'
			}
		}
	}
	return b
}

// appendReportMethodEscaped is appendReportMethod for names JSON escapes.
func appendReportMethodEscaped(b []byte, first bool, class, method, desc string, dotted bool, access uint16, reason Reason) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, "\n    {\n      \"class\": "...)
	b = appendJSONName(b, class, dotted)
	b = append(b, ",\n      \"method\": "...)
	b = appendJSONString(b, method)
	b = append(b, ",\n      \"desc\": "...)
	b = appendJSONName(b, desc, dotted)
	b = append(b, ",\n      \"access\": "...)
	b = strconv.AppendUint(b, uint64(access), 10)
	b = append(b, ",\n      \"reason\": "...)
	b = appendJSONString(b, string(reason))
	return append(b, "\n    }"...)
}

// appendJSONName appends s as a JSON string, its slashes as dots when
// dotted (a slash never needs escaping, so plain names take no copy).
func appendJSONName(b []byte, s string, dotted bool) []byte {
	if !dotted {
		return appendJSONString(b, s)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return appendJSONString(b, strings.ReplaceAll(s, "/", "."))
		}
	}
	b = append(b, '"')
	b = appendDotted(b, s)
	return append(b, '"')
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it with HTML escaping off. Names in class files are nearly
// always plain ASCII; anything else goes through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
