package methodmap

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	ignored := []IgnoredMethod{
		{Key: key("a/B", "getX", "()I"), Access: 1, Reason: ReasonGetterSetter},
		{Key: key("a/B", "<init>", "()V"), Access: 1, Reason: ReasonGetterSetter},
		{Key: key("a/N", "n", "(I)V"), Access: 0x100, Reason: ReasonEmpty},
		{Key: key("a/Big", "huge", "()V"), Access: 1, Reason: ReasonCodeTooLarge},
	}
	want := `{
  "traced": 7,
  "ignored": 4,
  "counts": {
    "code-too-large": 1,
    "empty": 1,
    "getter-setter": 2
  },
  "methods": [
    {
      "class": "a.B",
      "method": "<init>",
      "desc": "()V",
      "access": 1,
      "reason": "getter-setter"
    },
    {
      "class": "a.B",
      "method": "getX",
      "desc": "()I",
      "access": 1,
      "reason": "getter-setter"
    },
    {
      "class": "a.Big",
      "method": "huge",
      "desc": "()V",
      "access": 1,
      "reason": "code-too-large"
    },
    {
      "class": "a.N",
      "method": "n",
      "desc": "(I)V",
      "access": 256,
      "reason": "empty"
    }
  ]
}
`
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 10 {
		in := slices.Clone(ignored)
		rng.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
		got := EncodeReport(BuildReport(7, in))
		if string(got) != want {
			t.Fatalf("shuffle %d: got\n%s\nwant\n%s", i, got, want)
		}
	}

	data := EncodeReport(BuildReport(7, ignored))
	var r Report
	if err := json.Unmarshal(data, &r); err != nil || r.Ignored != 4 || r.Counts[ReasonGetterSetter] != 2 {
		t.Errorf("report file: %v %+v", err, r)
	}
}

func TestReportEmpty(t *testing.T) {
	got := EncodeReport(BuildReport(0, nil))
	want := "{\n  \"traced\": 0,\n  \"ignored\": 0,\n  \"counts\": {},\n  \"methods\": []\n}\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestReportTextIsEncodeReport: the report written straight from the list
// is EncodeReport(BuildReport(...)) with the rules, byte for byte, for
// lists in any order, names that JSON escapes, and no list at all.
func TestReportTextIsEncodeReport(t *testing.T) {
	classes := []string{"a/B", "a/B$1", "a/b/C", "a/\"Q\"", "a/Ünï", "a/tab\there", "a.B"}
	names := []string{"<init>", "run", "get\\X", "n"}
	descs := []string{"()V", "(La/B;)I", "(I)V", "(La/\"Q\";)V", ""}
	reasons := []Reason{ReasonGetterSetter, ReasonEmpty, ReasonBlocked}
	rules := []RuleCount{{Rule: "-keepclass a/B", Origin: "rules.txt:3", Classes: 1, Methods: 2}}
	rng := rand.New(rand.NewPCG(8, 9))
	for round := range 200 {
		var in []IgnoredMethod
		for range rng.IntN(30) {
			in = append(in, IgnoredMethod{
				Key:    key(classes[rng.IntN(len(classes))], names[rng.IntN(len(names))], descs[rng.IntN(len(descs))]),
				Access: uint16(rng.IntN(3)) * 0x100,
				Reason: reasons[rng.IntN(len(reasons))],
			})
		}
		if round%2 == 0 {
			slices.SortFunc(in, reportOrder) // the sorted path
		}
		r := BuildReport(5, in)
		if round%3 != 0 {
			r.Rules = rules
		}
		want := EncodeReport(r)
		if got := ReportText(5, in, r.Rules); string(got) != string(want) {
			t.Fatalf("round %d:\ngot\n%s\nwant\n%s", round, got, want)
		}
		head := string(ReportHead(5, in, r.Rules))
		if !strings.HasPrefix(string(want), head) || !strings.HasSuffix(head, `"methods": `) {
			t.Fatalf("round %d: head\n%s\nis not the start of\n%s", round, head, want)
		}
	}
}

// TestReportTextIsSizedOnce: the text of a sorted list of plain names is
// allocated once, at its full size, whatever the list's length (a large
// app's report is MBs, and growing it copied it twice).
func TestReportTextIsSizedOnce(t *testing.T) {
	list := func(n int) []IgnoredMethod {
		var in []IgnoredMethod
		for i := range n {
			in = append(in, IgnoredMethod{Key: key(fmt.Sprintf("org/example/pkg/Class%06d", i), "getSomething", "(Ljava/lang/String;I)Ljava/util/List;"), Access: 0xffff, Reason: ReasonGetterSetter})
		}
		return in
	}
	small, large := list(10), list(20_000)
	rules := []RuleCount{{Rule: "-keepclass a/B", Origin: "rules.txt:3", Classes: 1, Methods: 2}}
	a := testing.AllocsPerRun(5, func() { ReportText(1, small, rules) })
	b := testing.AllocsPerRun(5, func() { ReportText(1, large, rules) })
	if b != a {
		t.Errorf("ReportText allocates %v times for 10 methods and %v for 20,000: the text grew", a, b)
	}
	if text := ReportText(1, large, rules); cap(text) < len(text) || cap(text)-len(text) > 4096 {
		t.Errorf("text of %d bytes in a buffer of %d", len(text), cap(text))
	}
}

// TestPlainJSON: plainJSON agrees with a byte-wise test for every byte at
// every position of words of one to seventeen bytes.
func TestPlainJSON(t *testing.T) {
	slow := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
				return false
			}
		}
		return true
	}
	for n := 1; n <= 17; n++ {
		for at := 0; at < n; at++ {
			for c := 0; c < 256; c++ {
				b := []byte(strings.Repeat("a", n))
				b[at] = byte(c)
				if got, want := plainJSON(string(b)), slow(string(b)); got != want {
					t.Fatalf("plainJSON(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}
