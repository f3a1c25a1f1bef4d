package instrument_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/methodmap"
)

// BenchmarkPipeline instruments every jar of $TRACEBEAT_CORPUS with
// Matrix's default rules, as `tracebeat instrument` does, on
// $TRACEBEAT_BENCH_WORKERS workers (default 2).
func BenchmarkPipeline(b *testing.B) {
	dir := os.Getenv("TRACEBEAT_CORPUS")
	if dir == "" {
		b.Skip("TRACEBEAT_CORPUS is not set")
	}
	jars, _ := filepath.Glob(filepath.Join(dir, "*.jar"))
	if len(jars) == 0 {
		b.Skip("no jars in " + dir)
	}
	workers := 2
	if w := os.Getenv("TRACEBEAT_BENCH_WORKERS"); w != "" {
		workers = int(w[0] - '0')
	}
	var size int64
	for _, j := range jars {
		st, err := os.Stat(j)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	b.SetBytes(size)
	pol := scan.Policy{Decide: func(f *scan.MethodFacts) (bool, string, string) {
		r := methodmap.Classify(methodmap.MethodInfo{ClassAccess: f.ClassAccess, Access: f.Access,
			Name: f.Key.Name, Desc: f.Key.Desc, Opcodes: f.Opcodes}, methodmap.Options{})
		return r == methodmap.Traced, string(r), ""
	}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := b.TempDir()
		res, err := instrument.Run(context.Background(), instrument.Options{
			Inputs: jars, Output: out, Workers: workers, Runtime: rewrite.DefaultRuntime(), Policy: pol,
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Classes), "classes")
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Sys)/1e6, "sys-MB")
}
