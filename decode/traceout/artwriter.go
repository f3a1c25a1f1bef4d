package traceout

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strings"
)

// artWriter writes Android's method-trace format (version 3, wall clock),
// what Debug.startMethodTracing writes and Android Studio's CPU profiler,
// Perfetto and dmtracedump read: a text part (the threads and methods)
// and then the binary records. Records are spilled to a temporary file as
// the events come, and copied after the text part at close, when every
// thread and method is known.
type artWriter struct {
	out     io.Writer
	tmp     *os.File
	records *bufio.Writer
	threads map[threadKey]*artThread
	order   []*artThread
	methods map[string]uint32 // name -> method value (index << 2)
	names   []string
	pid     int64
	end     int64 // the latest time written on any thread, µs
	calls   int64
	notes   []string
	err     error
}

type artThread struct {
	id   uint16
	name string
	open nesting[artOpen]
	last int64 // the latest time written on this thread, µs
}

type artOpen struct {
	method   uint32
	unclosed bool
}

// ART's record actions (the low two bits of a record's method value).
const (
	artEnter  = 0
	artExit   = 1
	artUnwind = 2 // an exit by an exception: a call whose exit was not recorded
)

func NewArtWriter(w io.Writer) *artWriter {
	a := &artWriter{out: w, threads: map[threadKey]*artThread{}, methods: map[string]uint32{}}
	a.tmp, a.err = os.CreateTemp("", "tracebeat-art-*")
	if a.err == nil {
		a.records = bufio.NewWriterSize(a.tmp, 1<<16)
	}
	return a
}

var pidInName = regexp.MustCompile(`\(pid (\d+)\)`)

func (a *artWriter) Write(e Event) error {
	if a.err != nil {
		return a.err
	}
	switch e.Ph {
	case 'M':
		name := ArgString(e.Args, "name")
		switch e.Name {
		case "process_name":
			if m := pidInName.FindStringSubmatch(name); m != nil && a.pid == 0 {
				fmt.Sscan(m[1], &a.pid)
			}
		case "thread_name":
			a.thread(e.Pid, e.Tid).name = name
		}
		return a.err
	case 'X':
		t := a.thread(e.Pid, e.Tid)
		a.closeUntil(t, e.TsNs)
		m := a.method(e.Name)
		t.open.push(e.TsNs, e.DurNs, artOpen{method: m, unclosed: HasFlag(e.Args, "unclosed")})
		a.record(t, m|artEnter, e.TsNs)
	case 'B':
		t := a.thread(e.Pid, e.Tid)
		a.closeUntil(t, e.TsNs)
		m := a.method(e.Name)
		t.open.pushOpen(artOpen{method: m})
		a.record(t, m|artEnter, e.TsNs)
	case 'E':
		t := a.thread(e.Pid, e.Tid)
		a.closeUntil(t, e.TsNs)
		if o, ok := t.open.pop(); ok {
			a.record(t, o.method|artExit, e.TsNs)
		}
	}
	return a.err
}

// closeUntil writes the exits of t's calls that ended by ts. A begin
// never ended (its end unknown) ends with the trace.
func (a *artWriter) closeUntil(t *artThread, ts int64) {
	t.open.closeUntil(ts, func(end int64, o artOpen) {
		action := uint32(artExit)
		if o.unclosed {
			action = artUnwind
		}
		if end == math.MaxInt64 {
			end = a.end * 1000
		}
		a.record(t, o.method|action, end)
	})
}

func (a *artWriter) thread(pid, tid int64) *artThread {
	k := threadKey{pid, tid}
	if t := a.threads[k]; t != nil {
		return t
	}
	if len(a.order) == math.MaxUint16 {
		a.err = fmt.Errorf("an Android method trace holds at most %d threads", math.MaxUint16)
	}
	t := &artThread{id: uint16(len(a.order) + 1), name: fmt.Sprintf("tid %d", tid)}
	a.threads[k] = t
	a.order = append(a.order, t)
	return t
}

func (a *artWriter) method(name string) uint32 {
	if v, ok := a.methods[name]; ok {
		return v
	}
	if len(a.names) >= 1<<29 {
		a.err = fmt.Errorf("an Android method trace holds at most %d methods", 1<<29)
	}
	v := uint32(len(a.names)+1) << 2
	a.methods[name] = v
	a.names = append(a.names, name)
	return v
}

// record writes one record: thread, method and action, µs since the start.
// Decode writes one thread's events after another's, so a thread's times
// count up from its own last, not from the other threads'.
func (a *artWriter) record(t *artThread, value uint32, ns int64) {
	us := max(ns/1000, t.last) // a thread's times count up in ART; ours may not, after a damaged buffer
	if us > math.MaxUint32 {
		a.err = fmt.Errorf("an Android method trace counts 32 bits of microseconds (71 minutes); this trace runs longer")
		return
	}
	t.last = us
	a.end = max(a.end, us)
	if value&3 == artEnter {
		a.calls++
	}
	var b [10]byte
	binary.LittleEndian.PutUint16(b[0:], t.id)
	binary.LittleEndian.PutUint32(b[2:], value)
	binary.LittleEndian.PutUint32(b[6:], uint32(us))
	a.records.Write(b[:])
}

// Note keeps one of decode's notes for the key part, a "tracebeat-note"
// line each (readers skip keys they do not know).
func (a *artWriter) Note(n string) { a.notes = append(a.notes, n) }

func (a *artWriter) Close() error {
	for _, t := range a.order {
		a.closeUntil(t, math.MaxInt64)
	}
	if a.tmp != nil {
		defer os.Remove(a.tmp.Name())
		defer a.tmp.Close()
	}
	if a.err != nil {
		return a.err
	}
	if err := a.records.Flush(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(a.out, 1<<16)
	fmt.Fprintf(bw, "*version\n3\ndata-file-overflow=false\nclock=wall\nelapsed-time-usec=%d\nnum-method-calls=%d\nclock-call-overhead-nsec=0\nvm=art\npid=%d\n",
		a.end, a.calls, a.pid)
	for _, n := range a.notes {
		fmt.Fprintf(bw, "tracebeat-note=%s\n", oneLine(n))
	}
	bw.WriteString("*threads\n")
	for _, t := range a.order {
		fmt.Fprintf(bw, "%d\t%s\n", t.id, oneLine(t.name))
	}
	bw.WriteString("*methods\n")
	for i, name := range a.names {
		class, method, desc := splitMethodName(name)
		fmt.Fprintf(bw, "0x%08x\t%s\t%s\t%s\t\n", uint32(i+1)<<2, oneLine(class), oneLine(method), oneLine(desc))
	}
	bw.WriteString("*end\n")
	var head [32]byte
	binary.LittleEndian.PutUint32(head[0:], 0x574f4c53) // "SLOW"
	binary.LittleEndian.PutUint16(head[4:], 3)
	binary.LittleEndian.PutUint16(head[6:], 32)
	binary.LittleEndian.PutUint64(head[8:], 0) // the start, µs since the epoch: times are since the trace's start
	binary.LittleEndian.PutUint16(head[16:], 10)
	bw.Write(head[:])
	if _, err := a.tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(bw, a.tmp); err != nil {
		return err
	}
	return bw.Flush()
}

// splitMethodName splits decode's name of a method, "pkg.Class.method(desc)",
// into its class, method and descriptor; a name of another shape (a
// section's, an unknown id's, one with nothing before its dot) is the
// class alone.
func splitMethodName(name string) (class, method, desc string) {
	paren := strings.IndexByte(name, '(')
	if paren < 0 {
		return name, "-", "()V"
	}
	dot := strings.LastIndexByte(name[:paren], '.')
	if dot <= 0 {
		return name, "-", "()V"
	}
	return name[:dot], name[dot+1 : paren], name[paren:]
}

// oneLine keeps a field of the text part on its line and in its column.
func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
}
