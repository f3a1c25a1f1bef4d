package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

func init() {
	// The scan keeps one record per method of the whole build, so the live
	// heap is large while garbage is produced at a high rate. The heap is
	// held by a soft memory limit alone (GOGC off): the limit also makes
	// the runtime hand freed pages back, which is most of the difference
	// between heap and peak RSS, and no collection runs while the heap is
	// under it. With GOGC's default the collector ran from the first 4 MB
	// on: 14 ms of an edit build's 0.11 s (bench/gradle-edit.sh --android's
	// delta run, medians of 30). The price: a run whose heap would stay well
	// under the limit fills it with garbage first (README). The limit follows the live heap up (see
	// adaptMemoryLimit), so a build larger than the limit is slowed by at
	// most a few collections, never stalled. GOGC or GOMEMLIMIT in the
	// environment turn all of this off.
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(baseMemoryLimit)
		debug.SetGCPercent(-1)
		go adaptMemoryLimit()
	}
}

// baseMemoryLimit holds the lab corpus (50,000 classes, 500,000 methods,
// a live heap of 75-130 MB) at 170-190 MB of RSS: lower, the collector
// runs so often that the limit is raised anyway (150 MiB measured no
// smaller and slower).
const baseMemoryLimit = 160 << 20

// adaptMemoryLimit raises the limit to 1.5x the live heap whenever the
// heap after a collection grows past 75% of it, so the collector always
// has room to work in.
func adaptMemoryLimit() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	limit := int64(baseMemoryLimit)
	for range time.Tick(20 * time.Millisecond) {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		live := int64(sample[0].Value.Uint64())
		if live*100 > limit*80 {
			limit = live * 125 / 100
			debug.SetMemoryLimit(limit)
		}
	}
}

// startProfiles starts a CPU profile and arranges a heap profile; the
// returned function ends both. Empty paths mean no profile.
func startProfiles(cpuPath, memPath string) (func() error, error) {
	var cpu *os.File
	if cpuPath != "" {
		f, err := os.Create(cpuPath)
		if err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		cpu = f
	}
	return func() error {
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				return fmt.Errorf("--cpuprofile: %w", err)
			}
		}
		if memPath != "" {
			f, err := os.Create(memPath)
			if err != nil {
				return fmt.Errorf("--memprofile: %w", err)
			}
			defer f.Close()
			runtime.GC()
			if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
				return fmt.Errorf("--memprofile: %w", err)
			}
		}
		return nil
	}, nil
}
