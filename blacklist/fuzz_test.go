package blacklist

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzAdd: every block list a user hands us (--blacklist: Matrix's
// -keepclass/-keeppackage, btrace's directives and method blocks) reads,
// line by line, into rules that written back (Rule.Directive, one line
// each) read again, strictly, to the same rules in the same order; and the
// strict reading refuses exactly the lists the lenient one skips lines of.
// Seeded from the block lists in testdata.
func FuzzAdd(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("[keep]\r\n-keepclass com.example.Foo\n-keeppackage com/example/\n# note\n"))
	f.Add([]byte("-blockpackage com.example.a\n-allowpackage com.example\n-traceclass com.example.B\n" +
		"-tracemethodannotation com.example.Traced\n-blockclassmethods com.example.C {\n  run(int, java.lang.String[]);\n  <init>();\n}\n" +
		"-traceclassmethods com.example.D { go(); }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lenient := mustNew(t)
		if err := lenient.Add(bytes.NewReader(data), "list.txt"); err != nil {
			if !strings.HasPrefix(err.Error(), "list.txt:") {
				t.Fatalf("the error does not name the file and line: %v", err)
			}
			return // a line longer than the scanner takes
		}
		strict := mustNew(t)
		strict.Strict = true
		strictErr := strict.Add(bytes.NewReader(data), "list.txt")
		if (strictErr == nil) != (len(lenient.Skipped) == 0) {
			t.Fatalf("strict reading: %v; lenient reading skipped %d lines", strictErr, len(lenient.Skipped))
		}
		read := fileRules(lenient)
		var text strings.Builder
		for _, r := range read {
			text.WriteString(r.Directive() + "\n")
		}
		again := mustNew(t)
		again.Strict = true
		if err := again.Add(strings.NewReader(text.String()), "again.txt"); err != nil {
			t.Fatalf("what the rules write does not read: %v\n%s", err, text.String())
		}
		if got := fileRules(again); !reflect.DeepEqual(read, got) {
			t.Fatalf("rules changed through a write:\nread  %+v\nagain %+v\ntext:\n%s", read, got, text.String())
		}
	})
}

func mustNew(t *testing.T) *List {
	l, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// fileRules is what a list read from its files, without the origins.
func fileRules(l *List) []Rule {
	var out []Rule
	for _, r := range l.Rules() {
		if !r.BuiltIn() {
			r.Origin = ""
			out = append(out, r)
		}
	}
	return out
}
