package classfile_test

import (
	"testing"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// seedClasses adds the javac-compiled fixture classes to a corpus (the
// target is skipped without Java, failed on CI).
func seedClasses(f *testing.F, add func(data []byte)) {
	f.Helper()
	for _, dir := range []string{javatest.ClassfileFixtures(f), javatest.InstrumentFixtures(f)} {
		for _, data := range javatest.ClassFiles(f, dir) {
			add(data)
		}
	}
}

// FuzzParse: parsing arbitrary bytes never panics, and whatever parses
// encodes back to the same bytes.
func FuzzParse(f *testing.F) {
	f.Add([]byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 1})
	seedClasses(f, func(data []byte) { f.Add(data) })
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := cf.Parse(data)
		if err != nil {
			return
		}
		out, err := c.Encode()
		if err != nil {
			t.Fatalf("parsed but does not encode: %v", err)
		}
		if string(out) != string(data) {
			t.Fatalf("parsed class does not encode to its bytes")
		}
	})
}

// FuzzDecodeCode: decoding an arbitrary Code attribute never panics, and a
// decoded one encodes back to the same bytes.
func FuzzDecodeCode(f *testing.F) {
	var pool *cf.ConstantPool
	seedClasses(f, func(data []byte) {
		c, err := cf.Parse(data)
		if err != nil {
			return
		}
		if pool == nil {
			pool = c.Pool
		}
		for i := range c.Methods {
			if a, ok := c.FindAttribute(c.Methods[i].Attributes, "Code"); ok && c.Pool == pool {
				f.Add(a.Data)
			}
		}
	})
	if pool == nil {
		c, err := cf.Parse(minimalClass())
		if err != nil {
			f.Fatal(err)
		}
		pool = c.Pool
	}
	f.Add([]byte{0, 1, 0, 1, 0, 0, 0, 1, 0xb1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		code, err := cf.DecodeCode(pool, data)
		if err != nil {
			return
		}
		out, err := code.Encode()
		if err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
		if string(out) != string(data) {
			t.Fatalf("decoded Code does not encode to its bytes")
		}
	})
}

// minimalClass is a hand-made class with a tiny pool (for seeds without Java).
func minimalClass() []byte {
	return []byte{
		0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52,
		0, 5, // pool count
		1, 0, 1, 'A', // 1: Utf8 "A"
		7, 0, 1, // 2: Class A
		1, 0, 4, 'C', 'o', 'd', 'e', // 3: Utf8 "Code"
		1, 0, 13, 'S', 't', 'a', 'c', 'k', 'M', 'a', 'p', 'T', 'a', 'b', 'l', 'e', // 4
		0, 0x21, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	}
}
