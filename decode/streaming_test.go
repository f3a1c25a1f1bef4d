package decode

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// writeBigBuffer writes n records of a deep, repetitive call pattern (like
// frames of an app: a dispatch, nested calls of varying depth, loops), in
// big-endian, and returns the number of frames it makes.
func writeBigBuffer(t testing.TB, path string, n int) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var b [8]byte
	put := func(r Record) {
		binary.BigEndian.PutUint64(b[:], uint64(r))
		w.Write(b[:])
	}
	written, frames := 0, int64(0)
	ms := uint64(0)
	var stack []int
	for i := 0; written < n; i++ {
		depth := 1 + i%9
		if len(stack) < depth && written+2*(len(stack)+1) < n {
			id := 1 + (i*7919)%900
			put(I(id, ms))
			stack = append(stack, id)
			written++
		} else if len(stack) > 0 {
			put(O(stack[len(stack)-1], ms))
			stack = stack[:len(stack)-1]
			written++
			frames++
		} else {
			put(I(1, ms))
			put(O(1, ms))
			written += 2
			frames++
		}
		if i%3 == 0 {
			ms++
		}
	}
	for len(stack) > 0 {
		t.Fatalf("generator left %d calls open", len(stack))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return frames
}

// peakHeap runs fn while sampling the live heap, and returns the peak.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(stop)
	wg.Wait()
	return peak.Load()
}

// countingWriter counts X events in the JSON stream without keeping it.
type countingWriter struct {
	n     int64
	xs    int64
	carry []byte
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	data := append(c.carry, p...)
	c.xs += int64(bytes.Count(data, []byte(`"ph":"X"`)))
	keep := min(len(data), 7)
	// Keep a tail so a match split across writes is counted once.
	tail := data[len(data)-keep:]
	c.xs -= int64(bytes.Count(tail, []byte(`"ph":"X"`)))
	c.carry = append(c.carry[:0], tail...)
	return len(p), nil
}

// streamDecode decodes n generated records to JSON and to the text summary
// with the heap sampled. sortChunk 0 keeps the default run size.
func streamDecode(t *testing.T, n int, heapLimit uint64, sortChunk int) {
	path := filepath.Join(t.TempDir(), "beat.bin")
	frames := writeBigBuffer(t, path, n)
	names := testNames(t)
	for _, format := range []Format{FormatJSON, FormatText} {
		var res *Result
		var err error
		counter := &countingWriter{}
		start := time.Now()
		peak := peakHeap(func() {
			f, ferr := os.Open(path)
			if ferr != nil {
				t.Fatal(ferr)
			}
			defer f.Close()
			var out io.Writer = counter
			rr, order, rerr := NewBinaryRecordReader(f, nil, names)
			if rerr != nil {
				t.Fatal(rerr)
			}
			var br *BufferResult
			br, err = DecodeBuffer(rr, out, BufferOptions{Names: names, Format: format, TempDir: t.TempDir(), SortChunk: sortChunk})
			res = &Result{Kind: KindBuffer, ByteOrder: order}
			if br != nil {
				res.Unknown = br.Unknown
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d records, %s: %v, peak heap %.1f MB, output %.1f MB", n, format, time.Since(start).Round(time.Millisecond), float64(peak)/1e6, float64(counter.n)/1e6)
		if res.Kind != KindBuffer || res.ByteOrder != binary.BigEndian {
			t.Errorf("kind %q order %v", res.Kind, res.ByteOrder)
		}
		if format == FormatJSON && counter.xs != frames {
			t.Errorf("%d X events, want %d", counter.xs, frames)
		}
		if peak > heapLimit {
			t.Errorf("%s: peak heap %.1f MB exceeds %.1f MB", format, float64(peak)/1e6, float64(heapLimit)/1e6)
		}
	}
}

// TestStreamingMillionRecords decodes a million records (8 MB, ~500k
// calls: 28 MB as Frames) with small sort runs and checks the heap stays
// well below what holding the calls would take.
func TestStreamingMillionRecords(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(50)) // steadier peaks on a busy machine
	streamDecode(t, 1_000_000, 16<<20, 1<<14)
}

// TestStreamingTenMillionRecords is the full-size check with default
// settings (80 MB of records, ~5M calls: 280 MB as Frames); set
// TRACEBEAT_LONG_TESTS=1 to run it (about 10 s).
func TestStreamingTenMillionRecords(t *testing.T) {
	if os.Getenv("TRACEBEAT_LONG_TESTS") == "" || testing.Short() {
		t.Skip("set TRACEBEAT_LONG_TESTS=1 to decode 10M records")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	streamDecode(t, 10_000_000, 48<<20, 0)
}
