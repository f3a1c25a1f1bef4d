package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// evilMethodIssue has the shape of Matrix's EvilMethod report: the stack as
// newline-separated "depth,methodId,count,cost" lines, stackKey "id|".
const evilMethodIssue = `{"tag":"Trace_EvilMethod","process":"app","detail":"NORMAL","cost":803,` +
	`"scene":"app.MainActivity","stack":"0,1048574,1,803\n1,2,1,803\n2,3,1,800\n3,4,20,600\n3,99,1,150\n",` +
	`"stackKey":"4|","threadStack":"at java.lang.Thread.sleep\nat app.Main.run\n"}`

func TestReadStackReports(t *testing.T) {
	tests := []struct {
		name       string
		input      string
		wantStacks int
		wantKey    []string
		wantLines  []int
		wantReport map[string]string
		wantErr    string
	}{
		{name: "plain lines", input: "0,2,1,100\n1,3,3,60\n2,4,1,50\n", wantStacks: 1, wantKey: []string{"4|"}, wantLines: []int{3}},
		{name: "two stacks separated by a blank line, comments", input: "# first\n0,2,1,100\n\n0,3,1,7\r\n1,4,1,6\r\n", wantStacks: 2, wantKey: []string{"2|", "4|"}, wantLines: []int{1, 2}},
		{name: "issue JSON keeps its stackKey", input: evilMethodIssue, wantStacks: 1, wantKey: []string{"4|"}, wantLines: []int{5},
			wantReport: map[string]string{"tag": "Trace_EvilMethod", "cost": "803", "scene": "app.MainActivity", "detail": "NORMAL"}},
		{name: "issues nested and in arrays, JSON lines", input: `{"content":` + evilMethodIssue + "}\n[" + strings.Replace(evilMethodIssue, `"stackKey":"4|",`, "", 1) + "]\n",
			wantStacks: 2, wantKey: []string{"4|", "3|"}, wantLines: []int{5, 5}}, // 3 and 4 weigh 2,400 each: the earlier wins, as in Matrix's stable sort
		{name: "bad line", input: "0,2,1,100\n1,3,x,60\n", wantErr: `stack.txt: line 2: "1,3,x,60": count "x" is not a non-negative integer`},
		{name: "wrong field count", input: "0,2,1\n", wantErr: "stack.txt: line 1: \"0,2,1\": expected depth,methodId,count,cost"},
		{name: "bad line inside issue", input: `{"stack":"0,1,1,5\n1,-2,1,3"}`, wantErr: "stack.txt: issue 1: stack line 2:"},
		{name: "bad stackKey", input: `{"stack":"0,1,1,5","stackKey":"1|a|"}`, wantErr: `issue 1: stackKey "1|a|": "a" is not a method id`},
		{name: "JSON without stack", input: `{"tag":"x"}`, wantErr: `not a recognised trace (JSON, but no object with a Matrix "stack" string)`},
		{name: "broken JSON", input: `{"stack":`, wantErr: "stack.txt: JSON value 1:"},
		{name: "empty", input: "\n\n", wantErr: "empty input"},
		{name: "blank lines in a row part one stack", input: "0,2,1,100\n\n\n\n0,3,1,7\n\n", wantStacks: 2, wantKey: []string{"2|", "3|"}, wantLines: []int{1, 1}},
		{name: "a byte-order mark after leading blanks", input: " \ufeff0,2,1,100\n", wantStacks: 1, wantKey: []string{"2|"}, wantLines: []int{1}},
		{name: "line numbers count the blank lines first", input: "\n \r\n0,2,1\n", wantErr: "stack.txt: line 3: \"0,2,1\""},
		{name: "JSON after 10,000 blank lines", input: strings.Repeat("\n", 10_000) + evilMethodIssue, wantStacks: 1, wantKey: []string{"4|"}, wantLines: []int{5}},
		{name: "a line of 100 KB", input: "0,2,1,100" + strings.Repeat(" ", 100_000) + "\n", wantStacks: 1, wantKey: []string{"2|"}, wantLines: []int{1}},
		{name: "the largest depth, id and count", input: "1048576,2147483647,2147483647,5\n", wantStacks: 1, wantKey: []string{"2147483647|"}, wantLines: []int{1}},
		{name: "a depth past 2^20", input: "1048577,2,1,5\n", wantErr: "value out of range"},
		{name: "an id past 2^31-1", input: "0,2147483648,1,5\n", wantErr: "value out of range"},
		{name: "a count past 2^31-1", input: "0,2,2147483648,5\n", wantErr: "value out of range"},
		{name: "broken second JSON value", input: evilMethodIssue + "\n{\"stack\":]", wantErr: "stack.txt: JSON value 2: invalid character"},
		{name: "a report field of 120 bytes shown, 121 not", input: `{"stack":"0,1,1,5","long":"` + strings.Repeat("x", 121) + `","edge":"` + strings.Repeat("y", 120) + `"}`,
			wantStacks: 1, wantKey: []string{"1|"}, wantLines: []int{1}, wantReport: map[string]string{"edge": strings.Repeat("y", 120), "long": ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stacks, err := ReadStackReports(strings.NewReader(tc.input), "stack.txt")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(stacks) != tc.wantStacks {
				t.Fatalf("%d stacks, want %d", len(stacks), tc.wantStacks)
			}
			for i, s := range stacks {
				if got := s.KeyString(); got != tc.wantKey[i] {
					t.Errorf("stack %d key = %q, want %q", i, got, tc.wantKey[i])
				}
				if len(s.Lines) != tc.wantLines[i] {
					t.Errorf("stack %d has %d lines, want %d", i, len(s.Lines), tc.wantLines[i])
				}
			}
			for k, v := range tc.wantReport {
				if got := stacks[0].Report[k]; got != v {
					t.Errorf("report[%s] = %q, want %q", k, got, v)
				}
			}
			if _, ok := stacks[0].Report["threadStack"]; ok {
				t.Error("multi-line report field shown")
			}
		})
	}
}

func TestWriteStacksText(t *testing.T) {
	stacks, err := ReadStackReports(strings.NewReader(evilMethodIssue), "issue.json")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteStacksText(&out, stacks, testNames(t)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"stack 1 of 1: 803 ms, 5 lines, stackKey 4|",
		"key method: 4 app.Loader.step(I)V",
		"    cost  count  method",
		"  803 ms      1  android.os.Handler.dispatchMessage(Landroid.os.Message;)V",
		"  803 ms      1    app.Main.run()V",
		"  800 ms      1      app.Loader.load(I)V",
		"* 600 ms     20        app.Loader.step(I)V",
		"  150 ms      1        <unknown id 99>",
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	var filtered []string
	for _, l := range got {
		if !strings.HasPrefix(l, "report: ") {
			filtered = append(filtered, l)
		}
	}
	if strings.Join(filtered, "\n") != strings.Join(want, "\n") {
		t.Errorf("text:\n%s\nwant:\n%s", out.String(), strings.Join(want, "\n"))
	}
	if !strings.Contains(out.String(), "report: cost=803 detail=NORMAL process=app scene=app.MainActivity tag=Trace_EvilMethod\n") {
		t.Errorf("report line missing:\n%s", out.String())
	}
}

func TestWriteStacksJSON(t *testing.T) {
	stacks, err := ReadStackReports(strings.NewReader(evilMethodIssue), "issue.json")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteStacksJSON(&out, stacks, testNames(t)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Stacks []struct {
			Cost     int64
			StackKey string
			Report   map[string]string
			Lines    []struct {
				Depth, ID, Count int
				Name             string
				Cost             int64
				Key, Unknown     bool
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Stacks[0]
	if s.Cost != 803 || s.StackKey != "4|" || len(s.Lines) != 5 {
		t.Fatalf("stack = %+v", s)
	}
	if s.Report["scene"] != "app.MainActivity" || s.Report["tag"] != "Trace_EvilMethod" {
		t.Errorf("report = %v", s.Report)
	}
	if l := s.Lines[3]; l.ID != 4 || l.Name != "app.Loader.step(I)V" || !l.Key || l.Count != 20 || l.Depth != 3 {
		t.Errorf("line 3 = %+v", l)
	}
	if l := s.Lines[4]; l.Name != "<unknown id 99>" || !l.Unknown || l.Key {
		t.Errorf("line 4 = %+v", l)
	}
}

// TestReadStackReportsReadError: a read that fails names the line it was
// reading.
func TestReadStackReportsReadError(t *testing.T) {
	in := io.MultiReader(strings.NewReader("0,2,1,100\n1,3,1,60\n"), iotest.ErrReader(errors.New("disk gone")))
	_, err := ReadStackReports(in, "stack.txt")
	if err == nil || err.Error() != "stack.txt: line 3: disk gone" {
		t.Fatalf("error = %v", err)
	}
}

// TestWriteStacksBare: a stack of plain lines has no report line, and in
// JSON no report; an issue whose stack is empty is written as a stack of
// no lines and no key method.
func TestWriteStacksBare(t *testing.T) {
	stacks, err := ReadStackReports(strings.NewReader("0,2,1,100\n"), "s.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteStacksText(&out, stacks, testNames(t)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "report:") {
		t.Errorf("a report line for a stack of plain lines:\n%s", out.String())
	}
	out.Reset()
	if err := WriteStacksJSON(&out, stacks, testNames(t)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), `"report"`) {
		t.Errorf("a report for a stack of plain lines:\n%s", out.String())
	}

	empty, err := ReadStackReports(strings.NewReader(`{"stack":"","tag":"x"}`), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := WriteStacksText(&out, empty, testNames(t)); err != nil {
		t.Fatal(err)
	}
	if want := "stack 1 of 1: 0 ms, 0 lines, stackKey \nreport: tag=x\n"; !strings.HasPrefix(out.String(), want) || strings.Contains(out.String(), "key method") {
		t.Errorf("text:\n%q\nwant it to start %q, with no key method", out.String(), want)
	}
}
