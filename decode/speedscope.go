package decode

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
)

// speedscopeWriter writes speedscope's file format: an evented profile per
// thread, whose open and close events keep the exact order of the calls,
// and the frames they name once in shared.frames. A thread's events are
// held as varints (a byte or three each) until the end, when the profiles
// are written: threads may come interleaved (systrace), and a profile's
// events must be together.
type speedscopeWriter struct {
	out     io.Writer
	threads map[threadKey]*ssThread
	order   []*ssThread
	frames  map[string]int
	names   []string
	name    string
	err     error
}

type ssThread struct {
	name       string
	events     []byte // varints: frame<<1 | close, then the time since the last event
	last       int64
	start, end int64
	any        bool
	open       []ssOpen
}

type ssOpen struct {
	frame int
	end   int64
}

func newSpeedscopeWriter(w io.Writer) *speedscopeWriter {
	return &speedscopeWriter{out: w, threads: map[threadKey]*ssThread{}, frames: map[string]int{}}
}

func (s *speedscopeWriter) write(e traceEvent) error {
	switch e.Ph {
	case 'M':
		name := argString(e.Args, "name")
		switch e.Name {
		case "process_name":
			if s.name == "" {
				s.name = name
			}
		case "thread_name":
			s.thread(e.Pid, e.Tid).name = name
		}
	case 'X':
		t := s.thread(e.Pid, e.Tid)
		s.closeUntil(t, e.TsNs)
		f := s.frame(e.Name)
		end := e.TsNs + max(e.DurNs, 0)
		if end < e.TsNs {
			end = math.MaxInt64
		}
		if n := len(t.open); n > 0 {
			end = min(end, t.open[n-1].end)
		}
		t.open = append(t.open, ssOpen{frame: f, end: end})
		t.event(f, false, e.TsNs)
	case 'B':
		t := s.thread(e.Pid, e.Tid)
		s.closeUntil(t, e.TsNs)
		f := s.frame(e.Name)
		t.open = append(t.open, ssOpen{frame: f, end: math.MaxInt64})
		t.event(f, false, e.TsNs)
	case 'E':
		t := s.thread(e.Pid, e.Tid)
		s.closeUntil(t, e.TsNs)
		if n := len(t.open); n > 0 {
			o := t.open[n-1]
			t.open = t.open[:n-1]
			t.event(o.frame, true, e.TsNs)
		}
	}
	return s.err
}

func (s *speedscopeWriter) closeUntil(t *ssThread, ts int64) {
	for n := len(t.open); n > 0 && t.open[n-1].end <= ts; n = len(t.open) {
		o := t.open[n-1]
		t.open = t.open[:n-1]
		t.event(o.frame, true, o.end)
	}
}

func (s *speedscopeWriter) thread(pid, tid int64) *ssThread {
	k := threadKey{pid, tid}
	if t := s.threads[k]; t != nil {
		return t
	}
	t := &ssThread{name: fmt.Sprintf("tid %d", tid)}
	s.threads[k] = t
	s.order = append(s.order, t)
	return t
}

func (s *speedscopeWriter) frame(name string) int {
	if i, ok := s.frames[name]; ok {
		return i
	}
	s.frames[name] = len(s.names)
	s.names = append(s.names, name)
	return len(s.names) - 1
}

// event notes an open or close of frame at ns; times never go back (a
// damaged buffer's may: speedscope wants them in order).
func (t *ssThread) event(frame int, close bool, ns int64) {
	if !t.any {
		t.start, t.last, t.any = ns, ns, true
	}
	ns = max(ns, t.last)
	v := uint64(frame) << 1
	if close {
		v |= 1
	}
	t.events = binary.AppendUvarint(t.events, v)
	t.events = binary.AppendUvarint(t.events, uint64(ns-t.last))
	t.last, t.end = ns, ns
}

func (s *speedscopeWriter) close() error {
	for _, t := range s.order {
		s.closeUntil(t, math.MaxInt64)
	}
	if s.err != nil {
		return s.err
	}
	bw := bufio.NewWriterSize(s.out, 1<<16)
	bw.WriteString(`{"$schema":"https://www.speedscope.app/file-format-schema.json","exporter":"tracebeat","name":`)
	bw.Write(appendJSONString(nil, cmp.Or(s.name, "tracebeat")))
	bw.WriteString(`,"activeProfileIndex":0,"profiles":[`)
	var b []byte
	first := true
	for _, t := range s.order {
		if !t.any {
			continue
		}
		if !first {
			bw.WriteByte(',')
		}
		first = false
		bw.WriteString(`{"type":"evented","name":`)
		bw.Write(appendJSONString(nil, t.name))
		fmt.Fprintf(bw, `,"unit":"nanoseconds","startValue":%d,"endValue":%d,"events":[`, t.start, t.end)
		at := t.start
		for i, ev := 0, t.events; len(ev) > 0; i++ {
			v, n := binary.Uvarint(ev)
			d, m := binary.Uvarint(ev[n:])
			ev = ev[n+m:]
			at += int64(d)
			b = b[:0]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":"`...)
			if v&1 == 1 {
				b = append(b, 'C')
			} else {
				b = append(b, 'O')
			}
			b = append(b, `","frame":`...)
			b = strconv.AppendUint(b, v>>1, 10)
			b = append(b, `,"at":`...)
			b = strconv.AppendInt(b, at, 10)
			b = append(b, '}')
			bw.Write(b)
		}
		bw.WriteString("]}")
		t.events = nil
	}
	bw.WriteString(`],"shared":{"frames":[`)
	for i, name := range s.names {
		b = b[:0]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = appendJSONString(b, name)
		b = append(b, '}')
		bw.Write(b)
	}
	bw.WriteString("]}}\n")
	return bw.Flush()
}
