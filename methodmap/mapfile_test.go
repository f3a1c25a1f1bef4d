package methodmap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEncodeMapExactLines(t *testing.T) {
	m := &Map{Entries: []Entry{
		{ID: 2, Access: 0x0101, Key: key("com/ex/Jni", "nativeInit", "(J)V")}, // public native
		{ID: 1, Access: 1, Key: key("sample/tencent/matrix/trace/TestFpsActivity$1", "doFrameAsync", "(Ljava/lang/String;JI)V")},
		{ID: 3, Access: 0x000a, Key: key("com/ex/A$B", "<init>", "([Lcom/ex/A;[[I)V")},
	}}
	got, err := EncodeMap(m)
	if err != nil {
		t.Fatal(err)
	}
	want := "1,1,sample.tencent.matrix.trace.TestFpsActivity$1 doFrameAsync (Ljava.lang.String;JI)V\n" +
		"2,257,com.ex.Jni nativeInit\n" +
		"3,10,com.ex.A$B <init> ([Lcom.ex.A;[[I)V\n" +
		"1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n"
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestEncodeMapHighWaterComment(t *testing.T) {
	a := Entry{ID: 1, Access: 1, Key: key("p/A", "a", "()V")}
	tests := []struct {
		highWater int
		want      string
	}{
		{0, "1,1,p.A a ()V\n"},
		{1, "1,1,p.A a ()V\n"},
		{5, "# tracebeat: highest-id=5\n1,1,p.A a ()V\n"},
	}
	for _, tc := range tests {
		got, err := EncodeMap(&Map{Entries: []Entry{a}, HighWater: tc.highWater})
		if err != nil {
			t.Fatal(err)
		}
		want := tc.want + dispatchLine() + "\n"
		if string(got) != want {
			t.Errorf("HighWater %d: got %q, want %q", tc.highWater, got, want)
		}
	}
}

func TestEncodeMapRefusesInvalid(t *testing.T) {
	a, b := key("p/A", "a", "()V"), key("p/B", "b", "()V")
	tests := []struct {
		name    string
		entries []Entry
		want    string
	}{
		{"duplicate id", []Entry{{ID: 1, Key: a}, {ID: 1, Key: b}}, "duplicate id 1"},
		{"duplicate method", []Entry{{ID: 1, Key: a}, {ID: 2, Key: a}}, "duplicate method p.A a ()V"},
		{"id 0", []Entry{{ID: 0, Key: a}}, "out of range"},
		{"wrong dispatch", []Entry{{ID: DispatchID, Access: 1, Key: a}}, "reserved"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := EncodeMap(&Map{Entries: tc.entries})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestMapFileRoundTrip(t *testing.T) {
	m, err := Assign([]Method{
		{Key: key("a/B", "run", "()V"), Access: 1},
		{Key: key("a/B$1", "call", "(Ljava/util/List;[J)Ljava/lang/Object;"), Access: 0x1011},
		{Key: key("a/N", "n", "(I)V"), Access: 0x0109},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.HighWater = 10
	path := filepath.Join(t.TempDir(), "methodMapping.txt")
	if err := WriteMapFile(path, m); err != nil {
		t.Fatal(err)
	}
	back, err := ReadMapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.HighWater != 10 || len(back.Entries) != len(m.Entries) {
		t.Fatalf("read back %+v", back)
	}
	for i, e := range back.Entries {
		want := m.Entries[i]
		want.Key = lineKey(want.Key, want.Access) // the file drops native descriptors
		want.Line = i + 2                         // line 1 is the high-water comment
		if e != want {
			t.Errorf("entry %d = %+v, want %+v", i, e, want)
		}
	}
	// Writing what was read gives the same bytes.
	first, _ := os.ReadFile(path)
	again, err := EncodeMap(back)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(first) {
		t.Errorf("rewrite differs:\n%s\nvs\n%s", again, first)
	}
	// No temporary files are left next to the map.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory has %d entries, want only the map", len(entries))
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, want 0644", st.Mode().Perm())
	}
}

func TestParseMapTolerates(t *testing.T) {
	in := "\uFEFF# base map from last release\r\n" +
		"1,1,a.B run ()V\r\n" +
		"\n" +
		"   \n" +
		"# another comment\n" +
		"2,257,a.N n\n" +
		"3,1,a.S weird name (I)V\n" + // a name with a space (legal in class files)
		"1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V" // no final newline
	m, err := ParseMap(strings.NewReader(in), "base.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{ID: 1, Access: 1, Key: key("a/B", "run", "()V"), Line: 2},
		{ID: 2, Access: 257, Key: key("a/N", "n", ""), Line: 6},
		{ID: 3, Access: 1, Key: key("a/S", "weird name", "(I)V"), Line: 7},
		{ID: DispatchID, Access: 1, Key: DispatchKey, Line: 8},
	}
	if len(m.Entries) != len(want) {
		t.Fatalf("got %d entries: %+v", len(m.Entries), m.Entries)
	}
	for i := range want {
		if m.Entries[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, m.Entries[i], want[i])
		}
	}
}

func TestParseMapSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"no commas", "1,1,a.B run ()V\nhello\n", "m.txt: line 2: want <id>,<access>,<class> <method> <descriptor>"},
		{"id not a number", "x1,1,a.B run ()V\n", `m.txt: line 1: id "x1" is not a decimal number`},
		{"negative id", "-1,1,a.B run ()V\n", `m.txt: line 1: id "-1" is not a decimal number`},
		{"huge id", "99999999999999999999,1,a.B run ()V\n", "m.txt: line 1: id 99999999999999999999 is too large"},
		{"access too large", "1,65536,a.B run ()V\n", "m.txt: line 1: access flags 65536 is too large"},
		{"missing method", "1,1,a.B\n", "m.txt: line 1: want <class> <method> <descriptor>"},
		{"missing descriptor on non-native", "1,1,a.B run\n", `m.txt: line 1: missing descriptor in "a.B run"`},
		{"bad descriptor", "1,1,a.B run (I\n", `m.txt: line 1: bad descriptor "(I"`},
		{"bad high-water", "# tracebeat: highest-id=abc\n", `m.txt: line 1: highest-id "abc" is not a decimal number`},
		{"leading blank", " 1,1,a.B run ()V\n", `m.txt: line 1: id " 1" is not a decimal number`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseMap(strings.NewReader(tc.in), "m.txt")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestReadMapFileMissing(t *testing.T) {
	_, err := ReadMapFile(filepath.Join(t.TempDir(), "nope.txt"))
	if err == nil || !strings.Contains(err.Error(), "nope.txt") {
		t.Errorf("err = %v, want it to name the file", err)
	}
}

func TestIgnoreMap(t *testing.T) {
	ignored := []IgnoredMethod{
		{Key: key("a/B", "getX", "()I"), Access: 1, Reason: ReasonGetterSetter},
		{Key: key("a/A$1", "<init>", "()V"), Access: 0, Reason: ReasonGetterSetter},
		{Key: key("a/N", "n", "(I)V"), Access: 0x100, Reason: ReasonEmpty},
		{Key: key("a/N", "n", "(J)V"), Access: 0x100, Reason: ReasonEmpty}, // same line as above
		{Key: key("a/A", "run", "()V"), Access: 1, Reason: ReasonSingle},
	}
	want := "ignore methods:\n" +
		"a.A run ()V\n" +
		"a.A$1 <init> ()V\n" +
		"a.B getX ()I\n" +
		"a.N n\n"
	if got := string(EncodeIgnoreMap(ignored)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Already in line order (no sort), with a repeated line.
	sorted := []IgnoredMethod{ignored[4], ignored[1], ignored[0], ignored[0], ignored[2], ignored[3]}
	if got := string(EncodeIgnoreMap(sorted)); got != want {
		t.Errorf("sorted input: got:\n%s\nwant:\n%s", got, want)
	}
	if got := string(EncodeIgnoreMap(nil)); got != "ignore methods:\n" {
		t.Errorf("empty ignore map = %q", got)
	}

	path := filepath.Join(t.TempDir(), "ignoreMethodMapping.txt")
	if err := WriteIgnoreMapFile(path, ignored); err != nil {
		t.Fatal(err)
	}
	keys, err := ReadIgnoreMapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wantKeys := []MethodKey{key("a/A", "run", "()V"), key("a/A$1", "<init>", "()V"), key("a/B", "getX", "()I"), key("a/N", "n", "")}
	if len(keys) != len(wantKeys) {
		t.Fatalf("keys = %v", keys)
	}
	for i := range keys {
		if keys[i] != wantKeys[i] {
			t.Errorf("key %d = %v, want %v", i, keys[i], wantKeys[i])
		}
	}

	for _, bad := range []struct{ in, want string }{
		{"a.B x ()V\n", `ig.txt: line 1: want "ignore methods:" as the first line`},
		{"", `ig.txt: missing the "ignore methods:" line`},
		{"ignore methods:\nlonely\n", "ig.txt: line 2: want <class> <method> <descriptor>"},
	} {
		if _, err := ParseIgnoreMap(strings.NewReader(bad.in), "ig.txt"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseIgnoreMap(%q) err = %v, want %q", bad.in, err, bad.want)
		}
	}
}

// TestWriteMapFileRefusesInvalidMaps: a map with two entries on one id is
// not written, and nothing is left at the path.
func TestWriteMapFileRefusesInvalidMaps(t *testing.T) {
	m := &Map{Entries: []Entry{
		{ID: 1, Access: 1, Key: key("a/A", "x", "()V")},
		{ID: 1, Access: 1, Key: key("a/A", "y", "()V")},
		DispatchEntry(),
	}}
	path := filepath.Join(t.TempDir(), "methodMapping.txt")
	err := WriteMapFile(path, m)
	if err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestMapOfBinary: a file that is no text (a trace given as the map) is
// said to be no text, not quoted byte for byte.
func TestMapOfBinary(t *testing.T) {
	_, err := ParseMap(strings.NewReader("TBREC\x00\x00\x04\x01\xa2!nN*\n"), "app.trace")
	want := "app.trace: line 1: not text (a trace, a jar? a methodMapping.txt holds <id>,<access>,<class> <method> <descriptor> lines)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	_, err = ParseMap(strings.NewReader(strings.Repeat("x", 200)+"\n"), "m.txt")
	if err == nil || !strings.Contains(err.Error(), `got "`+strings.Repeat("x", 77)+`..."`) {
		t.Errorf("a long line is cut in the message: %v", err)
	}
}
