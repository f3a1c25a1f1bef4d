package classfile

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadCorpusClasses reads every class of $TRACEBEAT_CORPUS (or of the jars
// named by $TRACEBEAT_BENCH_JARS, colon-separated) into memory.
func loadCorpusClasses(b *testing.B) ([][]byte, int) {
	b.Helper()
	var jars []string
	if list := os.Getenv("TRACEBEAT_BENCH_JARS"); list != "" {
		jars = strings.Split(list, ":")
	} else if dir := os.Getenv("TRACEBEAT_CORPUS"); dir != "" {
		jars, _ = filepath.Glob(filepath.Join(dir, "*.jar"))
	}
	if len(jars) == 0 {
		b.Skip("set TRACEBEAT_CORPUS (a directory of jars) or TRACEBEAT_BENCH_JARS")
	}
	var classes [][]byte
	total := 0
	for _, j := range jars {
		zr, err := zip.OpenReader(j)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range zr.File {
			if !strings.HasSuffix(f.Name, ".class") {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				b.Fatal(err)
			}
			data, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				b.Fatal(err)
			}
			classes = append(classes, data)
			total += len(data)
		}
		zr.Close()
	}
	return classes, total
}

// BenchmarkRoundTrip is the class-file layer's full round trip on one
// core, in memory: parse, decode every Code attribute, encode it again and
// encode the class. It is the same work as ASM's ClassReader ->
// ClassWriter(0) round trip the lab measures (JIT warm-up excluded there).
func BenchmarkRoundTrip(b *testing.B) {
	classes, total := loadCorpusClasses(b)
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, data := range classes {
			benchRoundTripClass(b, data)
		}
	}
	b.ReportMetric(float64(len(classes)*b.N)/b.Elapsed().Seconds(), "classes/s")
}

// benchRoundTripClass parses data, decodes and re-encodes every Code attribute
// and encodes the class, as BenchmarkRoundTrip does.
func benchRoundTripClass(b *testing.B, data []byte) {
	c, err := Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	for mi := range c.Methods {
		m := &c.Methods[mi]
		a, ok := c.FindAttribute(m.Attributes, "Code")
		if !ok {
			continue
		}
		code, err := DecodeCode(c.Pool, a.Data)
		if err != nil {
			b.Fatal(err)
		}
		if a.Data, err = code.Encode(); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := c.Encode(); err != nil {
		b.Fatal(err)
	}
}
