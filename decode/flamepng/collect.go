package flamepng

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// A Collector takes slices as a decode makes them and draws them once all
// have come. Slices go to a temporary file as fixed-size records (the
// picture's time scale is only known at the end), so memory holds the
// names, the threads and, when drawing, one pixel grid per thread: not the
// slices. It implements decode.SliceSink.
type Collector struct {
	tmp    *os.File
	bw     *bufio.Writer
	err    error
	names  map[string]uint32
	list   []string
	tracks map[trackKey]*trackInfo
	order  []trackKey // first seen first
	minNs  int64
	maxNs  int64
	count  int64
}

type trackInfo struct {
	index  uint32
	name   string
	slices int64
	lifts  int64 // Lift calls so far
	// maxDepth is the deepest slice's depth less the lifts before it; the
	// track's deepest is maxDepth + lifts once all have come.
	maxDepth int64
}

// depth is the deepest slice's depth, all lifts counted.
func (t *trackInfo) depth() int { return int(t.maxDepth + t.lifts) }

// sliceRecordSize is a slice in the temporary file: track, depth, name
// (u32 each), the track's lifts before it (u32), flags (u8), start and
// end (i64).
const sliceRecordSize = 33

// NewCollector starts a collection with its temporary file in dir ("" is
// the system's).
func NewCollector(dir string) (*Collector, error) {
	f, err := os.CreateTemp(dir, "tracebeat-png-*.slices")
	if err != nil {
		return nil, fmt.Errorf("png: %w", err)
	}
	return &Collector{tmp: f, bw: bufio.NewWriterSize(f, 256<<10), names: map[string]uint32{},
		tracks: map[trackKey]*trackInfo{}, minNs: math.MaxInt64, maxNs: math.MinInt64}, nil
}

// Close removes the temporary file.
func (c *Collector) Close() error {
	name := c.tmp.Name()
	c.tmp.Close()
	return os.Remove(name)
}

// Write refuses bytes: a Collector is given to decode as its output only
// to receive slices.
func (c *Collector) Write([]byte) (int, error) {
	return 0, errors.New("png: the collector takes slices, not bytes")
}

func (c *Collector) track(pid, tid int64) *trackInfo {
	k := trackKey{pid, tid}
	t := c.tracks[k]
	if t == nil {
		t = &trackInfo{index: uint32(len(c.order))}
		c.tracks[k] = t
		c.order = append(c.order, k)
	}
	return t
}

// Thread names a thread.
func (c *Collector) Thread(pid, tid int64, name string) {
	c.track(pid, tid).name = name
}

// Lift adds one to the depth of the thread's slices so far (see
// decode.SliceSink).
func (c *Collector) Lift(pid, tid int64) {
	c.track(pid, tid).lifts++
}

// Slice adds one slice (times in nanoseconds).
func (c *Collector) Slice(pid, tid int64, name string, startNs, endNs int64, depth int, unclosed bool) error {
	if c.err != nil {
		return c.err
	}
	t := c.track(pid, tid)
	t.slices++
	if t.slices == 1 {
		t.maxDepth = int64(depth) - t.lifts
	}
	t.maxDepth = max(t.maxDepth, int64(depth)-t.lifts)
	n, ok := c.names[name]
	if !ok {
		n = uint32(len(c.list))
		c.names[name] = n
		c.list = append(c.list, name)
	}
	endNs = max(endNs, startNs)
	c.minNs, c.maxNs = min(c.minNs, startNs), max(c.maxNs, endNs)
	c.count++
	var rec [sliceRecordSize]byte
	binary.LittleEndian.PutUint32(rec[0:], t.index)
	binary.LittleEndian.PutUint32(rec[4:], uint32(depth))
	binary.LittleEndian.PutUint32(rec[8:], n)
	binary.LittleEndian.PutUint32(rec[12:], uint32(t.lifts))
	if unclosed {
		rec[16] = 1
	}
	binary.LittleEndian.PutUint64(rec[17:], uint64(startNs))
	binary.LittleEndian.PutUint64(rec[25:], uint64(endNs))
	if _, err := c.bw.Write(rec[:]); err != nil {
		c.err = fmt.Errorf("png: %w", err)
	}
	return c.err
}

// each reads the slices back in the order they came, each with its depth
// counting the lifts after it (see byIndex).
func (c *Collector) each(byIndex []*trackInfo, fn func(track uint32, depth int, name uint32, unclosed bool, startNs, endNs int64)) error {
	if c.err != nil {
		return c.err
	}
	if err := c.bw.Flush(); err != nil {
		return fmt.Errorf("png: %w", err)
	}
	if _, err := c.tmp.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("png: %w", err)
	}
	br := bufio.NewReaderSize(c.tmp, 256<<10)
	var rec [sliceRecordSize]byte
	for i := int64(0); i < c.count; i++ {
		if _, err := io.ReadFull(br, rec[:]); err != nil {
			return fmt.Errorf("png: reading slices back: %w", err)
		}
		track := binary.LittleEndian.Uint32(rec[0:])
		depth := int(int32(binary.LittleEndian.Uint32(rec[4:]))) + int(byIndex[track].lifts-int64(binary.LittleEndian.Uint32(rec[12:])))
		fn(track, depth, binary.LittleEndian.Uint32(rec[8:]),
			rec[16] != 0, int64(binary.LittleEndian.Uint64(rec[17:])), int64(binary.LittleEndian.Uint64(rec[25:])))
	}
	if _, err := c.tmp.Seek(0, io.SeekEnd); err != nil {
		return fmt.Errorf("png: %w", err)
	}
	return nil
}
