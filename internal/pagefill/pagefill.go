// Package pagefill fills the page cache of a file about to be written, on
// another goroutine, ahead of the writer.
//
// Why: on the machines tracebeat is measured on (VMs whose host takes
// freed guest memory back), a new file's page cache is slow to grow by
// writing into it. 100 MB written into a new file took 0.25 s; made 100
// MB long first and its pages read in (a hole reads as zeros: memory work,
// no disk), 0.06 s, the reading included. Where memory is not slow that
// way, filling costs about 0.01 s more per 100 MB. The filler reads from
// the file's end back, so that it and the writer meet, not race.
//
// The writer must write the file sequentially from offset 0 through the
// filler's Writer, so that the filler knows where it is.
package pagefill

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// chunk is how much is read in at a time.
const chunk = 1 << 20

// A Filler fills one file. The nil Filler does nothing.
type Filler struct {
	f       *os.File
	written atomic.Int64 // bytes the writer wrote
	stop    atomic.Bool
	wg      sync.WaitGroup
}

// Start makes the empty file f size bytes long and reads its pages in,
// from the end backwards, until it meets the writer. It returns nil, and
// leaves f as it is, when there is nothing to gain: size is small, f is
// not empty, or the platform cannot read ahead.
func Start(f *os.File, size int64) *Filler {
	if !canReadAhead || size < 4*chunk {
		return nil
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() != 0 {
		return nil
	}
	if f.Truncate(size) != nil {
		return nil
	}
	fl := &Filler{f: f}
	fd := f.Fd()
	fl.wg.Go(func() {
		for off := (size - 1) / chunk * chunk; off >= 0 && !fl.stop.Load(); off -= chunk {
			if fl.written.Load() >= off {
				return // the writer is there
			}
			if readAhead(fd, off, min(chunk, size-off)) != nil {
				return // only a hint: the writer does not need it
			}
		}
	})
	return fl
}

// Writer returns w, which writes to the filler's file, counting what it
// writes.
func (fl *Filler) Writer(w io.Writer) io.Writer {
	if fl == nil {
		return w
	}
	return &progress{w: w, fl: fl}
}

type progress struct {
	w  io.Writer
	fl *Filler
}

func (p *progress) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.fl.written.Add(int64(n))
	return n, err
}

// Finish stops filling and cuts the file where the writer stopped, so it
// holds exactly what was written.
func (fl *Filler) Finish() error {
	if fl == nil {
		return nil
	}
	fl.stop.Store(true)
	fl.wg.Wait()
	return fl.f.Truncate(fl.written.Load())
}

// Stop stops filling (the file is being given up).
func (fl *Filler) Stop() {
	if fl != nil {
		fl.stop.Store(true)
		fl.wg.Wait()
	}
}
