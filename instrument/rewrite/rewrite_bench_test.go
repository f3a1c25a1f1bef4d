package rewrite

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// loadCorpusClasses reads every .class entry of the jars in
// $TRACEBEAT_CORPUS into memory, skipping the benchmark when it is unset.
func loadCorpusClasses(b *testing.B) [][]byte {
	dir := os.Getenv("TRACEBEAT_CORPUS")
	if dir == "" {
		b.Skip("TRACEBEAT_CORPUS is not set")
	}
	jars, _ := filepath.Glob(filepath.Join(dir, "*.jar"))
	if len(jars) == 0 {
		b.Skip("no jars in " + dir)
	}
	var classes [][]byte
	for _, j := range jars {
		zr, err := zip.OpenReader(j)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range zr.File {
			if !strings.HasSuffix(f.Name, ".class") || f.FileInfo().IsDir() {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				b.Fatalf("%s: %s: %v", j, f.Name, err)
			}
			data, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				b.Fatalf("%s: %s: %v", j, f.Name, err)
			}
			classes = append(classes, data)
		}
		zr.Close()
	}
	return classes
}

// BenchmarkRewriteCorpus parses every class of the corpus, plans Trace
// for every method with code (ids numbered across the corpus, as the
// pipeline does), rewrites and encodes it: the per-class path of
// pipeline.rewrite without the archive and the bookkeeping.
// Run with -cpu 1.
func BenchmarkRewriteCorpus(b *testing.B) {
	for _, mode := range []Mode{ModeBeat, ModeSystrace} {
		b.Run(mode.String(), func(b *testing.B) { benchRewrite(b, mode) })
	}
}

var benchCorpus [][]byte

func benchRewrite(b *testing.B, mode Mode) {
	if benchCorpus == nil {
		benchCorpus = loadCorpusClasses(b)
	}
	classes := benchCorpus
	var size int64
	for _, data := range classes {
		size += int64(len(data))
	}
	rt := DefaultRuntime()
	rt.Mode = mode
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	var plans []MethodPlan
	for i := 0; i < b.N; i++ {
		id, parsed, rewritten := 0, 0, 0
		for _, data := range classes {
			c, err := cf.Parse(data)
			if err != nil {
				continue // the pipeline copies such classes untouched
			}
			parsed++
			plans = plans[:0]
			for k := range c.Methods {
				if _, ok := c.FindAttribute(c.Methods[k].Attributes, "Code"); ok {
					id++
					plans = append(plans, MethodPlan{Index: k, ID: id, Trace: true})
				}
			}
			_, changed, err := RewriteClass(c, &rt, plans)
			if err != nil {
				b.Fatal(err)
			}
			if !changed {
				continue
			}
			if _, err := c.Encode(); err != nil {
				b.Fatal(err)
			}
			rewritten++
		}
		b.ReportMetric(float64(parsed), "classes")
		b.ReportMetric(float64(rewritten), "rewritten")
	}
}
