package methodmap

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// FuzzParseMap: every methodMapping.txt a user hands us (check --map,
// --base-map) either is refused with an error or reads to a map that, if
// valid, writes back to text that reads to the same entries and writes
// back to the same bytes. Seeded from the maps in testdata.
func FuzzParseMap(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "check", "*"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("1,9,a.B main ([Ljava.lang.String;)V\n2,257,a.B nat\n1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n"))
	f.Add([]byte("\xef\xbb\xbf# tracebeat: highest-id=7\r\n3,1,a.C run ()V  \r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMap(bytes.NewReader(data), "fuzz.txt")
		if err != nil {
			return
		}
		text, err := EncodeMap(m)
		if err != nil {
			return // a map that reads but is not valid (ids twice, ...) is not written
		}
		again, err := ParseMap(bytes.NewReader(text), "again.txt")
		if err != nil {
			t.Fatalf("what EncodeMap wrote does not read: %v\n%s", err, text)
		}
		if want, got := withoutLines(m.Entries, true), withoutLines(again.Entries, false); !sameEntries(want, got) {
			t.Fatalf("entries changed through a write:\nwant %+v\ngot  %+v", want, got)
		}
		text2, err := EncodeMap(again)
		if err != nil || !bytes.Equal(text, text2) {
			t.Fatalf("a second write differs (%v):\n%s\n---\n%s", err, text, text2)
		}
	})
}

// withoutLines drops line numbers (a write renumbers) and, for the map as
// read, adds the dispatch entry a write adds when it is missing.
func withoutLines(entries []Entry, addDispatch bool) []Entry {
	out := make([]Entry, 0, len(entries)+1)
	has := false
	for _, e := range entries {
		e.Line = 0
		has = has || e.ID == DispatchID
		out = append(out, e)
	}
	if addDispatch && !has {
		out = append(out, DispatchEntry())
	}
	return out
}

// sameEntries compares as sets by id: a write sorts by id.
func sameEntries(a, b []Entry) bool {
	if len(a) != len(b) {
		return false
	}
	byID := map[int]Entry{}
	for _, e := range a {
		byID[e.ID] = e
	}
	for _, e := range b {
		if !reflect.DeepEqual(byID[e.ID], e) {
			return false
		}
	}
	return true
}

// FuzzParseIgnoreMap: every ignoreMethodMapping.txt a user hands us is
// refused with an error naming the file and line, or reads to methods
// that, written back (EncodeIgnoreMap), read to the same methods, each
// once, and write back to the same bytes.
func FuzzParseIgnoreMap(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "ignore", "*"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("ignore methods:\na.B get ()I\na.B nat\n# a note\r\na.C <init> (Ljava.lang.String;[I)V\n"))
	f.Add([]byte("\xef\xbb\xbfignore methods:\r\n\r\na.B$1 run ()V\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		keys, err := ParseIgnoreMap(bytes.NewReader(data), "ignore.txt")
		if err != nil {
			if !bytes.HasPrefix([]byte(err.Error()), []byte("ignore.txt")) {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		text := EncodeIgnoreMap(ignored(keys))
		again, err := ParseIgnoreMap(bytes.NewReader(text), "again.txt")
		if err != nil {
			t.Fatalf("what EncodeIgnoreMap wrote does not read: %v\n%s", err, text)
		}
		if want, got := distinctKeys(keys), distinctKeys(again); !reflect.DeepEqual(want, got) || len(got) != len(again) {
			t.Fatalf("methods changed through a write:\nwant %v\ngot  %v", want, again)
		}
		if text2 := EncodeIgnoreMap(ignored(again)); !bytes.Equal(text, text2) {
			t.Fatalf("a second write differs:\n%s\n---\n%s", text, text2)
		}
	})
}

// ignored makes the methods of an ignore map's keys: one without a
// descriptor is native, as the file says.
func ignored(keys []MethodKey) []IgnoredMethod {
	out := make([]IgnoredMethod, len(keys))
	for i, k := range keys {
		out[i] = IgnoredMethod{Key: k}
		if k.Desc == "" {
			out[i].Access = accNative
		}
	}
	return out
}

// distinctKeys sorts keys and drops repeats.
func distinctKeys(keys []MethodKey) []MethodKey {
	out := slices.Clone(keys)
	slices.SortFunc(out, func(a, b MethodKey) int {
		return cmp.Or(cmp.Compare(a.Class, b.Class), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Desc, b.Desc))
	})
	return slices.Compact(out)
}
