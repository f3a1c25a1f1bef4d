package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// FuzzConfig: a --config file means what the same options on the command
// line mean. Every file is refused with an error naming it (and the line,
// when a line is wrong), or sets the flags and inputs that "--key=value"
// for each line, and the inputs after "--", set.
func FuzzConfig(f *testing.F) {
	f.Add([]byte("# written by the Gradle task\nmapping = /abs/mapping.txt\nmerge = true\ninput = /abs/a.jar\ninput = /abs/b\nclasspath = /x.jar\nclasspath = /y.jar\n"))
	f.Add([]byte("\xef\xbb\xbfoutput=/o\r\nworkers = 2\r\nmode = systrace\r\nbeat-class = a.b.C\r\n"))
	f.Add([]byte("strict = false\nblacklist = \nlog-level=debug\nquiet = 1\n"))
	path := filepath.Join(f.TempDir(), "tracebeat.cfg")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, fromFile, _ := newInstrumentFlagSet()
		inputs, err := applyConfig(fromFile, path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		entries, err := readConfig(path)
		if err != nil {
			t.Fatalf("applied, then does not read: %v", err)
		}
		var args, want []string
		for _, e := range entries {
			if e.key == "input" {
				want = append(want, e.value)
				continue
			}
			args = append(args, "--"+e.key+"="+e.value)
		}
		args = append(append(args, "--"), want...)
		_, fromLine, _ := newInstrumentFlagSet()
		if err := fromLine.Parse(args); err != nil {
			t.Fatalf("the file applies, the same options on the command line do not: %v\n%q", err, args)
		}
		if !reflect.DeepEqual(inputs, want) && len(inputs)+len(want) > 0 {
			t.Fatalf("inputs %q, the file lists %q", inputs, want)
		}
		if got, line := flagValues(fromFile), flagValues(fromLine); !reflect.DeepEqual(got, line) {
			t.Fatalf("the file sets %v, the command line %v", got, line)
		}
	})
}

// flagValues lists every flag's value and whether it was set.
func flagValues(fs *pflag.FlagSet) map[string]string {
	out := map[string]string{}
	fs.VisitAll(func(fl *pflag.Flag) {
		out[fl.Name] = fl.Value.String()
		if fl.Changed {
			out[fl.Name] += " (set)"
		}
	})
	return out
}

// FuzzArgfile: an @argfile gives one argument per line, as the help says:
// each line trimmed, blank lines and lines starting with # skipped, a
// byte-order mark at the start dropped; the arguments written back one per
// line read the same. Checked against that rule written out here, not
// against readLines.
func FuzzArgfile(f *testing.F) {
	f.Add([]byte("--merge\n-o\n/out/app.jar\n# inputs\n  /in/a.jar  \n\n/in/b\n"))
	f.Add([]byte("\xef\xbb\xbf--mode\r\nsystrace\r\n@@literal\r\n"))
	dir := f.TempDir()
	path, again := filepath.Join(dir, "args.txt"), filepath.Join(dir, "again.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := expandArgfiles([]string{"@" + path})
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		var want []string
		text := strings.TrimPrefix(string(data), "\uFEFF")
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(line)
			if line != "" && !strings.HasPrefix(line, "#") {
				want = append(want, line)
			}
		}
		if !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("arguments %q, the rule gives %q", got, want)
		}
		// After a blank line: an argument that starts with U+FEFF would
		// read as a byte-order mark at the start of the file (found by
		// this target).
		if err := os.WriteFile(again, []byte("\n"+strings.Join(got, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		back, err := expandArgfiles([]string{"@" + again})
		if err != nil || (!reflect.DeepEqual(back, got) && len(back)+len(got) > 0) {
			t.Fatalf("written back, the arguments read %q (%v), not %q", back, err, got)
		}
	})
}
