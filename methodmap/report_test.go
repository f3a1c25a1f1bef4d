package methodmap

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
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
