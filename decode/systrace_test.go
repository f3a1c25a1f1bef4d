package decode

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRewriteSystraceKeepsEveryOtherByte(t *testing.T) {
	names := testNames(t)
	tests := []struct {
		name            string
		in, want        string
		translated      int64
		unknownDistinct int
	}{
		{
			name: "ids become names, CRLF and missing final newline kept",
			in: "# tracer: nop\r\n" +
				"           <...>-1234  ( 1234) [001] ...1 100.000100: tracing_mark_write: B|1234|2\r\n" +
				"           <...>-1234  ( 1234) [001] ...1 100.000200: tracing_mark_write: E|1234\r\n" +
				"  main-1234  [001] d..1 100.000300: tracing_mark_write: B|1234|3",
			want: "# tracer: nop\r\n" +
				"           <...>-1234  ( 1234) [001] ...1 100.000100: tracing_mark_write: B|1234|app.Main.run()V\r\n" +
				"           <...>-1234  ( 1234) [001] ...1 100.000200: tracing_mark_write: E|1234\r\n" +
				"  main-1234  [001] d..1 100.000300: tracing_mark_write: B|1234|app.Loader.load(I)V",
			translated: 2,
		},
		{
			name: "names, unknown ids, signs and spaces stay",
			in: "a-1 [000] ...1 1.000001: tracing_mark_write: B|1|Choreographer#doFrame\n" +
				"a-1 [000] ...1 1.000002: tracing_mark_write: B|1|4242\n" +
				"a-1 [000] ...1 1.000003: tracing_mark_write: B|1|-2\n" +
				"a-1 [000] ...1 1.000004: tracing_mark_write: B|1| 2\n" +
				"a-1 [000] ...1 1.000005: tracing_mark_write: B|1|2 \n" +
				"a-1 [000] ...1 1.000006: tracing_mark_write: C|1|2|5\n" +
				"a-1 [000] ...1 1.000007: tracing_mark_write: B|x|2\n" +
				"a-1 [000] ...1 1.000008: tracing_mark_write: B|1|4242\n",
			translated:      0,
			unknownDistinct: 1,
		},
		{
			name: "systrace HTML wrapper",
			in: "<!DOCTYPE html>\n<html><script class=\"trace-data\" type=\"application/text\">\n" +
				"   RenderThread-5  [002] ...1 9.5: tracing_mark_write: B|4|1048574\n</script></html>\n",
			want: "<!DOCTYPE html>\n<html><script class=\"trace-data\" type=\"application/text\">\n" +
				"   RenderThread-5  [002] ...1 9.5: tracing_mark_write: B|4|android.os.Handler.dispatchMessage(Landroid.os.Message;)V\n</script></html>\n",
			translated: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == "" {
				tc.want = tc.in
			}
			var out bytes.Buffer
			res, err := RewriteSystrace(strings.NewReader(tc.in), &out, names)
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("output:\n%q\nwant:\n%q", out.String(), tc.want)
			}
			if res.Translated != tc.translated || res.Unknown.Distinct != tc.unknownDistinct {
				t.Errorf("translated %d unknown %d, want %d and %d", res.Translated, res.Unknown.Distinct, tc.translated, tc.unknownDistinct)
			}
		})
	}
}

func TestRewriteSystraceLongLines(t *testing.T) {
	// Lines longer than the read buffer (minified scripts in systrace HTML)
	// pass through whole, and a marker after them is still rewritten.
	long := strings.Repeat("x", 700*1024)
	in := long + "\nt-1 [000] ...1 1.0: tracing_mark_write: B|1|5\n" + long
	var out bytes.Buffer
	if _, err := RewriteSystrace(strings.NewReader(in), &out, testNames(t)); err != nil {
		t.Fatal(err)
	}
	want := long + "\nt-1 [000] ...1 1.0: tracing_mark_write: B|1|app.Work.spin(I)V\n" + long
	if out.String() != want {
		t.Errorf("long lines changed (got %d bytes, want %d)", out.Len(), len(want))
	}
}

func TestSystraceJSON(t *testing.T) {
	in := "# tracer: nop\n" +
		"           <...>-1234  ( 1234) [001] ...1 100.000100: tracing_mark_write: B|1234|2\n" +
		"    RenderThread-1250  ( 1234) [002] ...1 100.000250: tracing_mark_write: B|1234|DrawFrame\n" +
		"           <...>-1234  ( 1234) [001] ...1 100.000300: tracing_mark_write: B|1234|77\n" +
		"    RenderThread-1250  ( 1234) [002] ...1 100.000350: tracing_mark_write: E|1234\n" +
		"           <...>-1234  ( 1234) [001] ...1 100.000400: tracing_mark_write: E|1234\n" +
		"    RenderThread-1250  ( 1234) [002] ...1 100.000450: tracing_mark_write: E|1234\n" +
		"  pool-1-thread-1-1300 [003] .... 100.000460: tracing_mark_write: C|1234|queue|5\n" +
		"  pool-1-thread-1-1300 [003] .... 100.000470: tracing_mark_write: S|1234|async|7\n" +
		"           <...>-1234  ( 1234) [001] ...1 100.000500: tracing_mark_write: B|1234|3\n"
	var out bytes.Buffer
	res, err := DecodeSystrace(strings.NewReader(in), &out, FormatJSON, testNames(t))
	if err != nil {
		t.Fatal(err)
	}
	events := validateTraceJSON(t, out.Bytes())
	var got []string
	for _, ev := range events {
		got = append(got, ev["ph"].(string)+" "+ev["name"].(string)+" "+ev["ts"].(interface{ String() string }).String()+" "+ev["tid"].(interface{ String() string }).String())
	}
	want := []string{
		"B app.Main.run()V 100000100 1234",
		"M thread_name 0 1250",
		"B DrawFrame 100000250 1250",
		"B 77 100000300 1234",
		"E DrawFrame 100000350 1250",
		"E 77 100000400 1234",
		"M thread_name 0 1300",
		"C queue 100000460 1300",
		"B app.Loader.load(I)V 100000500 1234",
		"E app.Loader.load(I)V 100000500 1234",
		"E app.Main.run()V 100000500 1234",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if res.EndWithoutBegin != 1 || res.UnclosedBegins != 2 || res.Skipped != 1 || res.Unknown.Distinct != 1 {
		t.Errorf("result = %+v", res)
	}
}

// TestSystraceCounts: lines and events counted, ids rewritten wherever
// the marker stands and whatever digits the pid has, a marker cut short
// at the end of the input kept as it is, and a read error naming its line.
func TestSystraceCounts(t *testing.T) {
	names := testNames(t)
	in := "# tracer: nop\n" +
		"tracing_mark_write: B|1|2\n" +
		"a-1 [000] ...1 1.000001: tracing_mark_write: B|1090|2\n" +
		"a-1 [000] ...1 1.000002: tracing_mark_write: E|1090\n" +
		"a-1 [000] ...1 1.000003: tracing_mark_write: C|1090|n|5\n" +
		"no marker here\n"
	want := strings.NewReplacer("B|1|2", "B|1|app.Main.run()V", "B|1090|2", "B|1090|app.Main.run()V").Replace(in)
	var out bytes.Buffer
	res, err := RewriteSystrace(strings.NewReader(in), &out, names)
	require.NoError(t, err)
	assert.Equal(t, want, out.String())
	assert.Equal(t, MarkerResult{Lines: 6, Events: 4, Translated: 2}, *res)

	for _, cut := range []string{"B|1090", "B|12", "B|"} {
		in := "# tracer: nop\na-1 [000] ...1 1.000001: tracing_mark_write: " + cut
		out.Reset()
		res, err := RewriteSystrace(strings.NewReader(in), &out, names)
		require.NoError(t, err, cut)
		assert.Equal(t, in, out.String(), cut)
		assert.Equal(t, MarkerResult{Lines: 2, Events: 1}, *res, cut)
	}

	broken := func() io.Reader {
		return io.MultiReader(strings.NewReader("# tracer: nop\nx\n"), iotest.ErrReader(errors.New("disk gone")))
	}
	_, err = RewriteSystrace(broken(), &bytes.Buffer{}, names)
	assert.EqualError(t, err, "line 3: disk gone")
	_, err = DecodeSystrace(broken(), &bytes.Buffer{}, FormatJSON, names)
	assert.EqualError(t, err, "line 3: disk gone")
}

// TestSystraceJSONCounts: the JSON path counts lines, events, and the
// marker lines it could not read: not ftrace's form, or a payload that is
// not one.
func TestSystraceJSONCounts(t *testing.T) {
	in := "# tracer: nop\n" +
		"a-1 [000] ...1 1.000001: tracing_mark_write: B|1|2\n" +
		"quoted in prose: tracing_mark_write: B|1|2\n" +
		"a-1 [000] ...1 1.000002: tracing_mark_write: Bx\n" +
		"a-1 [000] ...1 1.000003: tracing_mark_write: E|1\n"
	res, err := DecodeSystrace(strings.NewReader(in), &bytes.Buffer{}, FormatJSON, testNames(t))
	require.NoError(t, err)
	assert.Equal(t, int64(5), res.Lines)
	assert.Equal(t, int64(2), res.Events)
	assert.Equal(t, int64(2), res.Unparsed)
}

// TestMarkerDumpCounts: a byte-order mark before the first line, a line
// of 100 KB, events counted, and a read error naming its line.
func TestMarkerDumpCounts(t *testing.T) {
	in := "\ufeff12.000001 main-1 B|1|2\n" +
		"# comment\n\n" +
		"12.000002 main-1 B|1|" + strings.Repeat("x", 100_000) + "\n" +
		"12.000003 main-1 E|1\n" +
		"12.000004 main-1 E|1\n"
	var out bytes.Buffer
	res, err := DecodeMarkerDump(strings.NewReader(in), &out, FormatText, testNames(t))
	require.NoError(t, err)
	assert.Equal(t, int64(6), res.Lines)
	assert.Equal(t, int64(4), res.Events)
	assert.Equal(t, int64(1), res.Translated)
	assert.Contains(t, out.String(), "B|1|app.Main.run()V")

	res, err = DecodeMarkerDump(strings.NewReader(in+"12.000005 main-1 C|1|queue|x\n12.000006 main-1 C|1|queue|3\n12.000007 main-1 B|1|custom\n"), &bytes.Buffer{}, FormatJSON, testNames(t))
	require.NoError(t, err)
	assert.Equal(t, int64(1), res.Translated, "JSON: one id became a name, two names stayed")
	assert.Equal(t, int64(1), res.Skipped, "JSON: a counter whose value is not a number")

	_, err = DecodeMarkerDump(strings.NewReader("12.000001 main-1 B|1|2\n\ufeff12.000002 main-1 E|1\n"), &out, FormatText, testNames(t))
	assert.ErrorContains(t, err, "line 2:", "a byte-order mark only counts before the first line")

	broken := io.MultiReader(strings.NewReader("12.000001 main-1 B|1|2\n"), iotest.ErrReader(errors.New("disk gone")))
	_, err = DecodeMarkerDump(broken, &out, FormatText, testNames(t))
	assert.EqualError(t, err, "line 2: disk gone")
}
