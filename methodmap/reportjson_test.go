package methodmap

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// referenceReport is what EncodeReport must write: encoding/json's
// Encoder with two-space indents and HTML escaping off.
func referenceReport(t *testing.T, r Report) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(r))
	return b.Bytes()
}

// TestEncodeReportIsEncodingJSON compares the hand-laid report with
// encoding/json's on reports of every shape: nil and empty counts and
// lists, rules or none, and names that need escaping (quotes, backslashes,
// control characters, <>&, U+2028, non-ASCII, invalid UTF-8).
func TestEncodeReportIsEncodingJSON(t *testing.T) {
	odd := []string{"plain", "a\"b", `back\slash`, "tab\there", "nl\n", "\x01\x1f", "<init>&", "\u2028\u2029",
		"ünïcode", "日本", "bad\xffutf8", "\x7f", ""}
	rng := rand.New(rand.NewPCG(7, 8))
	pick := func() string { return odd[rng.IntN(len(odd))] }
	shapes := []Report{
		{},
		{Counts: map[Reason]int{}, Methods: []ReportMethod{}},
		{Traced: 3, Ignored: 1, Counts: map[Reason]int{ReasonEmpty: 1}, Methods: []ReportMethod{{Class: "a.B", Method: "<init>", Desc: "()V", Access: 1, Reason: ReasonEmpty}}},
	}
	for range 50 {
		r := Report{Traced: rng.IntN(1000), Ignored: rng.IntN(1000), Counts: map[Reason]int{}}
		for range rng.IntN(4) {
			r.Counts[Reason(pick())] = rng.IntN(50)
		}
		for range rng.IntN(3) {
			r.Rules = append(r.Rules, RuleCount{Rule: pick(), Origin: pick(), Classes: rng.IntN(9), Methods: rng.IntN(9)})
		}
		for range rng.IntN(5) {
			r.Methods = append(r.Methods, ReportMethod{Class: pick(), Method: pick(), Desc: pick(), Access: uint16(rng.Uint32()), Reason: Reason(pick())})
		}
		shapes = append(shapes, r)
	}
	for i, r := range shapes {
		got := EncodeReport(r)
		require.Equal(t, string(referenceReport(t, r)), string(got), "report %d", i)
	}
}
