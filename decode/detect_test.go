package decode

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
)

// traceLine is the start of an ftrace line of tracing_mark_write.
const traceLine = "a-1 [000] ...1 1.0: tracing_mark_write: B|1|"

// proseThenCutLine is a sample as DetectKind gets it, DetectSample bytes
// cut from a longer input: prose lines, then a trace line the cut
// shortened.
func proseThenCutLine(prefix string) []byte {
	head := prefix
	for len(head)+len("prose\n") < DetectSample-len(traceLine) {
		head += "prose\n"
	}
	head += traceLine
	return []byte(head + strings.Repeat("x", DetectSample-len(head)))
}

func TestDetectKind(t *testing.T) {
	tests := []struct {
		name    string
		head    []byte
		want    InputKind
		wantErr string
	}{
		{"binary big-endian", encodeBinary(appLikeRecords(8), binary.BigEndian), KindBuffer, ""},
		{"binary little-endian", encodeBinary(appLikeRecords(8), binary.LittleEndian), KindBuffer, ""},
		{"text numbers", []byte("# beat\n-9223354444668731391\n17592186044419\n"), KindBufferText, ""},
		{"hex numbers", []byte("0x8000100000000001\n"), KindBufferText, ""},
		{"stack lines", []byte("0,1048574,1,803\n1,2,1,803\n"), KindStack, ""},
		{"issue JSON", []byte(evilMethodIssue), KindStack, ""},
		{"JSON array", []byte("  [\n{\"stack\":\"0,1,1,1\"}]"), KindStack, ""},
		{"atrace", []byte("# tracer: nop\n#\n"), KindSystrace, ""},
		{"ftrace lines without header", []byte("  a-1 [000] ...1 1.0: tracing_mark_write: B|1|2\n"), KindSystrace, ""},
		{"systrace HTML", []byte("<!DOCTYPE html>\n<html><head>"), KindSystrace, ""},
		{"marker dump", []byte("# dump\n12.000100 main-1 B|4242|2\n"), KindMarker, ""},
		{"marker dump with colon, no thread", []byte("12.000100: E|4242\n"), KindMarker, ""},
		{"BOM then stack lines", []byte("\xef\xbb\xbf0,1,1,5\n"), KindStack, ""},
		{"unknown text", []byte("hello world\n"), "", `not a recognised trace (line 1 "hello world" is none of the formats; use --input-kind`},
		{"empty", []byte("\n \n"), "", "not a recognised trace (empty)"},
		{"a jar", []byte("PK\x03\x04\x14\x00\x08\x00\x08\x00"), "", "not a recognised trace (a zip archive"},
		{"one number among prose", []byte("42\nthe quick brown fox\njumps over\nthe lazy dog\n"), "", "only 1 of 4 lines read as buffer-text lines"},
		{"only comments", []byte("# a\n# b\n"), "", "only comments"},
		{"a trace line last, not cut", []byte("words\na-1 [000] ...1 1.0: tracing_mark_write: B|1|2"), KindSystrace, ""},
		{"a full sample's last line may be cut: not read", proseThenCutLine(""), "", "is none of the formats"},
		{"the same after a byte-order mark", proseThenCutLine("\xef\xbb\xbf"), "", "is none of the formats"},
		{"a full sample of one line is read", []byte(traceLine + strings.Repeat("x", DetectSample-len(traceLine))), KindSystrace, ""},
	}
	for _, tc := range tests {
		got, err := DetectKind(tc.head)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error = %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: DetectKind = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestDecodeDispatch(t *testing.T) {
	names := testNames(t)
	recs := []Record{I(2, 0), I(3, 1), O(3, 5), O(2, 9)}
	tests := []struct {
		name   string
		input  []byte
		opts   Options
		kind   InputKind
		expect string
	}{
		{"binary buffer, guessed little-endian", encodeBinary(recs, binary.LittleEndian), Options{}, KindBuffer, "app.Loader.load(I)V"},
		{"binary buffer, forced big-endian", encodeBinary(recs, binary.BigEndian), Options{ByteOrder: binary.BigEndian, Format: FormatJSON}, KindBuffer, `"ts":1000,"dur":4000`},
		{"text buffer", []byte("-9223354444668731392\n-9223345648575709183\n26388279066629\n17592186044425\n"), Options{}, KindBufferText, "9 ms      1  app.Main.run()V"},
		{"stack lines", []byte("0,2,1,9\n1,3,1,4\n"), Options{}, KindStack, "4 ms      1    app.Loader.load(I)V"},
		{"forced kind", []byte("0,2,1,9\n"), Options{Kind: KindStack, Format: FormatJSON}, KindStack, `"name": "app.Main.run()V"`},
		{"marker", []byte("1.0 main-1 B|1|2\n1.5 main-1 E|1\n"), Options{}, KindMarker, "tracing_mark_write: B|1|app.Main.run()V"},
		{"systrace", []byte("# tracer: nop\n a-1 [000] ...1 1.0: tracing_mark_write: B|1|3\n"), Options{}, KindSystrace, "B|1|app.Loader.load(I)V"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Names = names
			var out bytes.Buffer
			res, err := Decode(bytes.NewReader(tc.input), &out, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Kind != tc.kind {
				t.Errorf("kind = %q, want %q", res.Kind, tc.kind)
			}
			if !strings.Contains(out.String(), tc.expect) {
				t.Errorf("output lacks %q:\n%s", tc.expect, out.String())
			}
		})
	}
}

func TestDecodeErrorsNamePosition(t *testing.T) {
	tests := []struct {
		name, input string
		opts        Options
		wantErr     string
	}{
		{"text buffer", "17592186044419\n\n0xZZ\n", Options{Source: "beat.txt"}, `beat.txt: line 3: "0xZZ"`},
		{"stack format", "0,2,1,9\n", Options{Source: "s.txt", Format: FormatSystrace}, `s.txt: format "systrace" is not supported for stack reports`},
		{"unknown kind", "x", Options{Kind: "nope"}, `unknown input kind "nope"`},
		{"binary truncated", "\x80\x00\x10\x00\x00\x00\x00\x01\x00\x00", Options{Source: "b.bin", ByteOrder: binary.BigEndian}, "b.bin: record 2 (byte offset 8): truncated: 2 trailing bytes"},
	}
	for _, tc := range tests {
		_, err := Decode(strings.NewReader(tc.input), &bytes.Buffer{}, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: error = %v, want %q", tc.name, err, tc.wantErr)
		}
	}
}

// TestRandomBytesAreNoTrace: random bytes of any length are refused as
// no trace, in both byte orders, while real buffers of the same length
// are read (the times of random records go back half the time).
func TestRandomBytesAreNoTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for try := 0; try < 40; try++ {
		buf := make([]byte, 80<<10)
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		if bytes.IndexByte(buf[:DetectSample], 0) < 0 {
			buf[0] = 0 // as good as every random sample has a zero byte; make sure
		}
		_, err := DetectKind(buf[:DetectSample])
		if err == nil || !strings.Contains(err.Error(), "not a recognised trace (binary, but not AppMethodBeat records") {
			t.Fatalf("try %d: random bytes: %v", try, err)
		}
	}
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		if k, err := DetectKind(encodeBinary(appLikeRecords(DetectSample/8), order)); err != nil || k != KindBuffer {
			t.Errorf("%v: a real buffer: %q, %v", order, k, err)
		}
	}
}
