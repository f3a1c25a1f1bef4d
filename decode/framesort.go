package decode

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// frameSorter puts frames, which a Pairer emits when they close (callees
// first), back into entry order (Seq ascending: callers first), as trace
// viewers need for calls that start in the same millisecond. It is an
// external merge sort: sorted runs of a bounded size spill to temporary
// files and are merged at the end, so memory does not grow with the input.
type frameSorter struct {
	tempDir  string
	chunkCap int
	chunk    []Frame
	spare    []Frame // the radix sort's other buffer
	runs     []*os.File
	spillBuf *bufio.Writer // reused: one buffer for all spills
}

// defaultSortChunk frames (4 MB, and as much for the radix sort) are
// sorted in memory before spilling.
const defaultSortChunk = 1 << 16

func newFrameSorter(tempDir string, chunkCap int) *frameSorter {
	if chunkCap <= 0 {
		chunkCap = defaultSortChunk
	}
	return &frameSorter{tempDir: tempDir, chunkCap: chunkCap}
}

func compareSeq(a, b Frame) int {
	switch {
	case a.Seq < b.Seq:
		return -1
	case a.Seq > b.Seq:
		return 1
	}
	return 0
}

func (s *frameSorter) add(f Frame) error {
	s.chunk = append(s.chunk, f)
	if len(s.chunk) >= s.chunkCap {
		return s.spill()
	}
	return nil
}

const frameRecordSize = 41

func putFrame(b []byte, f Frame) {
	binary.LittleEndian.PutUint64(b[0:], uint64(f.Seq))
	binary.LittleEndian.PutUint32(b[8:], uint32(f.MethodID))
	binary.LittleEndian.PutUint32(b[12:], uint32(f.Depth))
	binary.LittleEndian.PutUint64(b[16:], f.Start)
	binary.LittleEndian.PutUint64(b[24:], f.End)
	binary.LittleEndian.PutUint64(b[32:], uint64(f.OrphansBefore))
	var flags byte
	if f.Unclosed {
		flags |= 1
	}
	if f.NoEnter {
		flags |= 2
	}
	b[40] = flags
}

func getFrame(b []byte) Frame {
	return Frame{
		Seq:           int64(binary.LittleEndian.Uint64(b[0:])),
		MethodID:      int(binary.LittleEndian.Uint32(b[8:])),
		Depth:         int(binary.LittleEndian.Uint32(b[12:])),
		Start:         binary.LittleEndian.Uint64(b[16:]),
		End:           binary.LittleEndian.Uint64(b[24:]),
		OrphansBefore: int64(binary.LittleEndian.Uint64(b[32:])),
		Unclosed:      b[40]&1 != 0,
		NoEnter:       b[40]&2 != 0,
	}
}

// sortBySeq sorts frames by Seq: a radix sort on Seq's offset from the
// smallest, 16 bits a pass (two passes for runs shorter than 4 billion
// records), which took a fifth of the time a comparison sort took.
func (s *frameSorter) sortBySeq() {
	frames := s.chunk
	if len(frames) < 256 {
		slices.SortFunc(frames, compareSeq)
		return
	}
	lo, hi := frames[0].Seq, frames[0].Seq
	for _, f := range frames {
		lo, hi = min(lo, f.Seq), max(hi, f.Seq)
	}
	span := uint64(hi - lo)
	if cap(s.spare) < len(frames) {
		s.spare = make([]Frame, len(frames))
	}
	src, dst := frames, s.spare[:len(frames)]
	var counts [1 << 16]int
	for shift := uint(0); shift == 0 || span>>shift != 0; shift += 16 {
		clear(counts[:])
		for _, f := range src {
			counts[(uint64(f.Seq-lo)>>shift)&0xFFFF]++
		}
		at := 0
		for i, n := range counts {
			counts[i] = at
			at += n
		}
		for _, f := range src {
			d := (uint64(f.Seq-lo) >> shift) & 0xFFFF
			dst[counts[d]] = f
			counts[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &frames[0] {
		copy(frames, src)
	}
}

func (s *frameSorter) spill() error {
	s.sortBySeq()
	f, err := os.CreateTemp(s.tempDir, "tracebeat-frames-*.bin")
	if err != nil {
		return fmt.Errorf("spilling frames: %w", err)
	}
	s.runs = append(s.runs, f)
	if s.spillBuf == nil {
		s.spillBuf = bufio.NewWriterSize(f, 256*1024)
	}
	bw := s.spillBuf
	bw.Reset(f)
	var rec [frameRecordSize]byte
	for _, fr := range s.chunk {
		putFrame(rec[:], fr)
		if _, err := bw.Write(rec[:]); err != nil {
			return fmt.Errorf("spilling frames: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("spilling frames: %w", err)
	}
	s.chunk = s.chunk[:0]
	return nil
}

// cleanup removes the temporary runs.
func (s *frameSorter) cleanup() {
	for _, f := range s.runs {
		name := f.Name()
		f.Close()
		os.Remove(name)
	}
	s.runs = nil
}

type runReader struct {
	r   *bufio.Reader
	cur Frame
	rec [frameRecordSize]byte
}

func (rr *runReader) next() (bool, error) {
	if _, err := io.ReadFull(rr.r, rr.rec[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, fmt.Errorf("reading spilled frames: %w", err)
	}
	rr.cur = getFrame(rr.rec[:])
	return true, nil
}

type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return h[i].cur.Seq < h[j].cur.Seq }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// each calls fn for every frame in Seq order, then removes the runs.
func (s *frameSorter) each(fn func(Frame) error) error {
	defer s.cleanup()
	if len(s.runs) == 0 {
		s.sortBySeq()
		for _, f := range s.chunk {
			if err := fn(f); err != nil {
				return err
			}
		}
		return nil
	}
	if len(s.chunk) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	s.chunk = nil
	h := make(runHeap, 0, len(s.runs))
	for _, f := range s.runs {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("reading spilled frames: %w", err)
		}
		rr := &runReader{r: bufio.NewReaderSize(f, 16*1024)}
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			h = append(h, rr)
		}
	}
	heap.Init(&h)
	for h.Len() > 0 {
		rr := h[0]
		if err := fn(rr.cur); err != nil {
			return err
		}
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return nil
}
