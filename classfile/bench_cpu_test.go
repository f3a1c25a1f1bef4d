//go:build unix

package classfile

import (
	"syscall"
	"testing"
	"time"
)

// processCPU returns the CPU time (user + system) the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCorpusCPU is the work of BenchmarkRoundTrip reported in
// process CPU time too (GC workers included): on a shared machine wall
// time varies with the load, CPU time much less. (Its name does not match
// -bench RoundTrip, so the usual measurement runs only the original.)
func BenchmarkCorpusCPU(b *testing.B) {
	classes, total := loadCorpusClasses(b)
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	start := processCPU(b)
	for i := 0; i < b.N; i++ {
		for _, data := range classes {
			benchRoundTripClass(b, data)
		}
	}
	cpu := processCPU(b) - start
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(classes)*b.N)/cpu.Seconds(), "classes/cpu-s")
}
