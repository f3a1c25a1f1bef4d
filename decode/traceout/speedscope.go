package traceout

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// speedscopeWriter writes speedscope's file format: an evented profile per
// thread, whose open and close events keep the exact order of the calls,
// and the frames they name once in shared.frames (written last: JSON keeps
// no order of keys). A thread's events are held as varints (a byte or
// three each) until its profile is written: when another thread starts and
// every call of it has a known end (a recording's threads come one after
// another), or at the end (systrace's threads come interleaved, and a
// profile's events must be together).
type speedscopeWriter struct {
	bw       *bufio.Writer
	threads  map[threadKey]*ssThread
	order    []*ssThread
	frames   map[string]int
	names    []string
	profiles int
	cur      *ssThread // the thread whose profile is being written
	scratch  []byte
	notes    []string
	err      error
}

type ssThread struct {
	s          *speedscopeWriter
	name       string
	streaming  bool   // its events go straight to the output
	streamed   int    // events written in its profile so far
	events     []byte // varints: frame<<1 | close, then the time since the last event
	last       int64
	start, end int64
	any        bool
	open       nesting[int] // the frames of its open calls
	written    int          // profiles of it written so far
}

func NewSpeedscopeWriter(w io.Writer) *speedscopeWriter {
	s := &speedscopeWriter{bw: bufio.NewWriterSize(w, 1<<16), threads: map[threadKey]*ssThread{}, frames: map[string]int{}}
	s.bw.WriteString(`{"$schema":"https://www.speedscope.app/file-format-schema.json","exporter":"tracebeat","activeProfileIndex":0,"profiles":[`)
	return s
}

func (s *speedscopeWriter) Write(e Event) error {
	switch e.Ph {
	case 'M':
		name := ArgString(e.Args, "name")
		switch e.Name {
		case "thread_name":
			s.thread(e.Pid, e.Tid).name = name
		}
	case 'X':
		t := s.thread(e.Pid, e.Tid)
		s.closeUntil(t, e.TsNs)
		f := s.frame(e.Name)
		t.open.push(e.TsNs, e.DurNs, f)
		t.event(f, false, e.TsNs)
	case 'B':
		t := s.thread(e.Pid, e.Tid)
		s.closeUntil(t, e.TsNs)
		f := s.frame(e.Name)
		t.open.pushOpen(f)
		t.event(f, false, e.TsNs)
	case 'E':
		t := s.thread(e.Pid, e.Tid)
		s.closeUntil(t, e.TsNs)
		if f, ok := t.open.pop(); ok {
			t.event(f, true, e.TsNs)
		}
	}
	return s.err
}

func (s *speedscopeWriter) closeUntil(t *ssThread, ts int64) {
	t.open.closeUntil(ts, func(end int64, f int) { t.event(f, true, end) })
}

func (s *speedscopeWriter) thread(pid, tid int64) *ssThread {
	k := threadKey{pid, tid}
	if t := s.threads[k]; t != nil {
		return t
	}
	// Another thread starts: the thread before it, when every call of it
	// has its end (a recording's threads come one after another), is done.
	if c := s.cur; c != nil && c.open.allKnown() {
		s.closeUntil(c, math.MaxInt64)
		s.endStream(c)
	}
	t := &ssThread{s: s, name: fmt.Sprintf("tid %d", tid)}
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
		if t.s.cur == nil {
			t.s.startStream(t)
		}
	}
	ns = max(ns, t.last)
	if t.streaming {
		t.s.streamEvent(frame, close, ns, t.streamed > 0)
		t.streamed++
		t.last, t.end = ns, ns
		return
	}
	v := uint64(frame) << 1
	if close {
		v |= 1
	}
	t.events = binary.AppendUvarint(t.events, v)
	t.events = binary.AppendUvarint(t.events, uint64(ns-t.last))
	t.last, t.end = ns, ns
}

// startStream begins t's profile in the output: its events follow as
// they come.
func (s *speedscopeWriter) startStream(t *ssThread) {
	s.cur, t.streaming, t.streamed = t, true, 0
	s.profileHead(t)
}

// streamEvent writes one event of the streaming thread.
func (s *speedscopeWriter) streamEvent(frame int, close bool, at int64, comma bool) {
	b := s.scratch[:0]
	if comma {
		b = append(b, ',')
	}
	b = append(b, `{"type":"`...)
	if close {
		b = append(b, 'C')
	} else {
		b = append(b, 'O')
	}
	b = append(b, `","frame":`...)
	b = strconv.AppendInt(b, int64(frame), 10)
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, at, 10)
	b = append(b, '}')
	s.bw.Write(b)
	s.scratch = b
}

// endStream ends the streaming thread's profile: its start and end come
// after its events.
func (s *speedscopeWriter) endStream(t *ssThread) {
	fmt.Fprintf(s.bw, `],"startValue":%d,"endValue":%d}`, t.start, t.end)
	s.cur, t.streaming, t.any = nil, false, false
}

// profileHead opens a profile of t, up to its events.
func (s *speedscopeWriter) profileHead(t *ssThread) {
	if s.profiles > 0 {
		s.bw.WriteByte(',')
	}
	s.profiles++
	name := t.name
	if t.written > 0 {
		name += fmt.Sprintf(" (%d)", t.written+1)
	}
	t.written++
	s.bw.WriteString(`{"type":"evented","name":`)
	s.bw.Write(appendJSONString(nil, name))
	s.bw.WriteString(`,"unit":"nanoseconds","events":[`)
}

// profile writes t's events so far as a profile, and forgets them.
func (s *speedscopeWriter) profile(t *ssThread) {
	s.profileHead(t)
	at := t.start
	for i, ev := 0, t.events; len(ev) > 0; i++ {
		v, n := binary.Uvarint(ev)
		d, m := binary.Uvarint(ev[n:])
		ev = ev[n+m:]
		at += int64(d)
		s.streamEvent(int(v>>1), v&1 == 1, at, i > 0)
	}
	fmt.Fprintf(s.bw, `],"startValue":%d,"endValue":%d}`, t.start, t.end)
	t.events, t.any = nil, false
}

// Note keeps one of decode's notes for the file's name.
func (s *speedscopeWriter) Note(n string) { s.notes = append(s.notes, n) }

func (s *speedscopeWriter) Close() error {
	if c := s.cur; c != nil {
		s.closeUntil(c, math.MaxInt64)
		s.endStream(c)
	}
	for _, t := range s.order {
		s.closeUntil(t, math.MaxInt64)
		if t.any {
			s.profile(t)
		}
	}
	if s.err != nil {
		return s.err
	}
	bw := s.bw
	bw.WriteString(`],"shared":{"frames":[`)
	var b []byte
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
	name := "tracebeat"
	if len(s.notes) > 0 {
		// The file's name is what speedscope shows at the top: the notes go there.
		name += " (note: " + strings.Join(s.notes, "; note: ") + ")"
	}
	bw.WriteString("]},\"name\":")
	bw.Write(appendJSONString(nil, name))
	bw.WriteString("}\n")
	return bw.Flush()
}
