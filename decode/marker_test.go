package decode

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

func TestParseMarkerDumpLine(t *testing.T) {
	tests := []struct {
		line    string
		want    markerEvent
		wantErr string
	}{
		{line: "12.000100 main-1 B|4242|2", want: markerEvent{TsNs: 12_000_100_000, Thread: "main", Tid: 1, Pid: 4242, HasPid: true, Phase: 'B', Name: "2", Payload: "B|4242|2"}},
		{line: "12.5: pool-1-thread-1-17 E|4242", want: markerEvent{TsNs: 12_500_000_000, Thread: "pool-1-thread-1", Tid: 17, Pid: 4242, HasPid: true, Phase: 'E', Payload: "E|4242"}},
		{line: "3.000000001\tB|9|with spaces | and bars", want: markerEvent{TsNs: 3_000_000_001, Tid: 9, Pid: 9, HasPid: true, Phase: 'B', Name: "with spaces | and bars", Payload: "B|9|with spaces | and bars"}},
		{line: "7 E", want: markerEvent{TsNs: 7_000_000_000, Phase: 'E', Payload: "E"}},
		{line: "1.5 main-1 C|3|queue|12", want: markerEvent{TsNs: 1_500_000_000, Thread: "main", Tid: 1, Pid: 3, HasPid: true, Phase: 'C', Name: "queue", Value: "12", Payload: "C|3|queue|12"}},
		{line: "x.5 B|1|a", wantErr: `timestamp "x.5"`},
		{line: "1.1234567890 B|1|a", wantErr: "1 to 9 fraction digits"},
		{line: "1.5 main B|1|a", wantErr: `"main": expected <thread>-<tid>`},
		{line: "1.5 B|x|a", wantErr: `pid "x" is not an integer`},
		{line: "1.5 B|1", wantErr: "expected B|pid|name"},
		{line: "1.5 C|1|q", wantErr: "expected C|pid|name|value"},
		{line: "1.5", wantErr: "empty trace_marker payload"},
		{line: "1.5 A|4", want: markerEvent{TsNs: 1_500_000_000, Tid: 4, Pid: 4, HasPid: true, Phase: 'A', Payload: "A|4"}},
		{line: "1.5 Z|4", want: markerEvent{TsNs: 1_500_000_000, Tid: 4, Pid: 4, HasPid: true, Phase: 'Z', Payload: "Z|4"}},
		{line: "1.5 a|4", wantErr: `"a|4": expected <thread>-<tid>`},
		{line: "1.5 [|4", wantErr: `"[|4": expected <thread>-<tid>`},
	}
	for _, tc := range tests {
		got, err := parseMarkerDumpLine(tc.line)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: error = %v, want %q", tc.line, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.line, got, tc.want)
		}
	}
}

const markerDump = `# trace_marker dump
12.000100 main-1 B|4242|2
12.000200: main-1 B|4242|3
12.000300 main-1 B|4242|custom section
12.000400 main-1 E|4242
12.000450 main-1 B|4242|31337
12.000460 main-1 E|4242
12.000500 main-1 E|4242
12.100000 worker-7 B|4242|5

12.200000 main-1 E|4242
`

func TestMarkerDumpToFtrace(t *testing.T) {
	var out bytes.Buffer
	res, err := DecodeMarkerDump(strings.NewReader(markerDump), &out, FormatText, testNames(t))
	if err != nil {
		t.Fatal(err)
	}
	want := traceout.FtraceHeader +
		"                main-1 [000] ...1 12.000100: tracing_mark_write: B|4242|app.Main.run()V\n" +
		"                main-1 [000] ...1 12.000200: tracing_mark_write: B|4242|app.Loader.load(I)V\n" +
		"                main-1 [000] ...1 12.000300: tracing_mark_write: B|4242|custom section\n" +
		"                main-1 [000] ...1 12.000400: tracing_mark_write: E|4242\n" +
		"                main-1 [000] ...1 12.000450: tracing_mark_write: B|4242|31337\n" +
		"                main-1 [000] ...1 12.000460: tracing_mark_write: E|4242\n" +
		"                main-1 [000] ...1 12.000500: tracing_mark_write: E|4242\n" +
		"              worker-7 [000] ...1 12.100000: tracing_mark_write: B|4242|app.Work.spin(I)V\n" +
		"                main-1 [000] ...1 12.200000: tracing_mark_write: E|4242\n"
	if out.String() != want {
		t.Errorf("ftrace:\n%s\nwant:\n%s", out.String(), want)
	}
	if res.Translated != 3 || res.Unknown.Distinct != 1 || res.Unknown.Examples[0] != 31337 {
		t.Errorf("result = %+v", res)
	}
	// The ftrace text parses back, through the systrace path, to the same
	// events with names.
	var js bytes.Buffer
	if _, err := DecodeSystrace(strings.NewReader(out.String()), &js, FormatJSON, testNames(t)); err != nil {
		t.Fatal(err)
	}
	events := validateTraceJSON(t, js.Bytes())
	if begins := len(namesOfPhase(events, "B")); begins != 5 {
		t.Errorf("%d B events after the round trip, want 5", begins)
	}
}

func TestMarkerDumpJSON(t *testing.T) {
	var out bytes.Buffer
	res, err := DecodeMarkerDump(strings.NewReader(markerDump), &out, FormatJSON, testNames(t))
	if err != nil {
		t.Fatal(err)
	}
	events := validateTraceJSON(t, out.Bytes())
	if res.UnclosedBegins != 1 { // worker-7's section never ends
		t.Errorf("UnclosedBegins = %d", res.UnclosedBegins)
	}
	last := events[len(events)-1]
	if last["name"] != "app.Work.spin(I)V" || last["ph"] != "E" {
		t.Errorf("last event = %v", last)
	}
}

func TestMarkerDumpErrorsNameTheLine(t *testing.T) {
	in := "1.0 main-1 B|1|2\n\n# note\n1.1 main-1 Q\n1.2 main B|1|3\n"
	_, err := DecodeMarkerDump(strings.NewReader(in), &bytes.Buffer{}, FormatText, nil)
	if err == nil || !strings.Contains(err.Error(), `line 5: "main": expected <thread>-<tid>`) {
		t.Fatalf("error = %v", err)
	}
}

// TestParseMethodIDToken: ids as the instrumenter writes them, up to
// 2^31-1.
func TestParseMethodIDToken(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "9": 9, "1234567890": 1234567890, "2147483647": 2147483647} {
		got, ok := parseMethodIDToken(s)
		if !ok || got != want {
			t.Errorf("parseMethodIDToken(%q) = %d, %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "2147483648", "99999999999", "01234567890", "-1", "+1", "1a", "/", ":"} {
		if got, ok := parseMethodIDToken(s); ok {
			t.Errorf("parseMethodIDToken(%q) = %d, accepted", s, got)
		}
	}
}
