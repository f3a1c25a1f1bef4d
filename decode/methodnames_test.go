package decode

import (
	"strings"
	"testing"
)

func TestReadMethodNames(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		id      int
		want    string // display name of id
		wantLen int
		wantErr string
	}{
		{name: "matrix examples", input: "1,1,sample.tencent.matrix.trace.TestFpsActivity$1 doFrameAsync (Ljava.lang.String;JI)V\n1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n",
			id: 1, want: "sample.tencent.matrix.trace.TestFpsActivity$1.doFrameAsync(Ljava.lang.String;JI)V", wantLen: 2},
		{name: "native without descriptor", input: "7,265,a.B nativeCall\n", id: 7, want: "a.B.nativeCall", wantLen: 1},
		{name: "comments blank lines CRLF BOM", input: "\ufeff# base map\r\n\r\n  # indented comment\r\n3,1,a.C <init> ()V\r\n", id: 3, want: "a.C.<init>()V", wantLen: 1},
		{name: "missing id is unknown", input: "3,1,a.C run ()V\n", id: 4, want: "<unknown id 4>", wantLen: 1},
		{name: "duplicate id", input: "3,1,a.C run ()V\n3,1,a.D run ()V\n", wantErr: "map.txt: line 2: method id 3 already defined at line 1"},
		{name: "bad id", input: "x,1,a.C run ()V\n", wantErr: `map.txt: line 1: id "x" is not a decimal number`},
		{name: "negative id", input: "-1,1,a.C run ()V\n", wantErr: `line 1: id "-1" is not a decimal number`},
		{name: "bad access", input: "1,public,a.C run ()V\n", wantErr: `access flags "public"`},
		{name: "no commas", input: "1 a.C run ()V\n", wantErr: "line 1: want <id>,<access>,<class> <method> <descriptor>"},
		{name: "one field only", input: "1,1,a.C\n", wantErr: `line 1: want <class> <method> <descriptor>, got "a.C"`},
		{name: "descriptor without paren", input: "1,1,a.C run V\n", wantErr: `line 1: missing descriptor in "a.C run V"`},
		{name: "too many fields", input: "1,1,a.C run ()V extra\n", wantErr: `line 1: missing descriptor in "a.C run ()V extra"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			names, err := ReadMethodNames(strings.NewReader(tc.input), "map.txt")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := names.Name(tc.id); got != tc.want {
				t.Errorf("Name(%d) = %q, want %q", tc.id, got, tc.want)
			}
			if names.Len() != tc.wantLen {
				t.Errorf("Len = %d, want %d", names.Len(), tc.wantLen)
			}
		})
	}
}

func TestMethodParts(t *testing.T) {
	names := testNames(t)
	m, ok := names.Lookup(3)
	if !ok {
		t.Fatal("id 3 missing")
	}
	if m.Class != "app.Loader" || m.Name != "load" || m.Desc != "(I)V" || m.Access != 2 || m.ID != 3 {
		t.Errorf("parts = %+v", m)
	}
	var none *MethodNames
	if got := none.Name(3); got != "<unknown id 3>" {
		t.Errorf("nil map Name = %q", got)
	}
	if none.Len() != 0 {
		t.Error("nil map has methods")
	}
}
