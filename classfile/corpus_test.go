package classfile

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestCorpusRoundTrip round-trips every class of every jar in
// $TRACEBEAT_CORPUS: the class level, and Code decode+encode of every
// method. It stops at the first difference and names it.
func TestCorpusRoundTrip(t *testing.T) {
	dir := os.Getenv("TRACEBEAT_CORPUS")
	if dir == "" {
		t.Skip("TRACEBEAT_CORPUS is not set")
	}
	jars, err := filepath.Glob(filepath.Join(dir, "*.jar"))
	if err != nil || len(jars) == 0 {
		t.Fatalf("no jars in %s (%v)", dir, err)
	}
	sort.Strings(jars)
	total := roundTripStats{}
	for _, jar := range jars {
		st, err := roundTripJar(jar)
		if err != nil {
			t.Fatalf("%s: %v", jar, err)
		}
		t.Logf("%s: classes=%d methods=%d", filepath.Base(jar), st.classes, st.methods)
		total.classes += st.classes
		total.methods += st.methods
	}
	t.Logf("corpus: jars=%d classes=%d methods=%d differences=0", len(jars), total.classes, total.methods)
}

type roundTripStats struct{ classes, methods int }

func roundTripJar(path string) (roundTripStats, error) {
	var st roundTripStats
	zr, err := zip.OpenReader(path)
	if err != nil {
		return st, err
	}
	defer zr.Close()
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".class") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return st, fmt.Errorf("%s: %v", f.Name, err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return st, fmt.Errorf("%s: %v", f.Name, err)
		}
		n, err := roundTripClass(data)
		if err != nil {
			return st, fmt.Errorf("%s: %v", f.Name, err)
		}
		st.classes++
		st.methods += n
	}
	return st, nil
}

// roundTripClass checks one class and returns the number of Code
// attributes it round-tripped.
func roundTripClass(data []byte) (int, error) {
	c, err := Parse(data)
	if err != nil {
		return 0, fmt.Errorf("parse: %w", err)
	}
	out, err := c.Encode()
	if err != nil {
		return 0, fmt.Errorf("encode: %w", err)
	}
	if i := firstDiff(data, out); i >= 0 {
		return 0, fmt.Errorf("class bytes differ at offset %d (len %d vs %d)", i, len(data), len(out))
	}
	n := 0
	for mi := range c.Methods {
		m := &c.Methods[mi]
		a, ok := c.FindAttribute(m.Attributes, "Code")
		if !ok {
			continue
		}
		name, desc, _ := c.MemberName(m)
		code, err := DecodeCode(c.Pool, a.Data)
		if err != nil {
			return n, fmt.Errorf("method %s%s: decode: %w", name, desc, err)
		}
		enc, err := code.Encode()
		if err != nil {
			return n, fmt.Errorf("method %s%s: encode: %w", name, desc, err)
		}
		if i := firstDiff(a.Data, enc); i >= 0 {
			return n, fmt.Errorf("method %s%s: Code bytes differ at offset %d (len %d vs %d)", name, desc, i, len(a.Data), len(enc))
		}
		n++
	}
	return n, nil
}

func firstDiff(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
