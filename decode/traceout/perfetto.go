package traceout

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math"

	"github.com/tracebeat/tracebeat/internal/protowire"
)

// perfettoWriter streams the decode's events as a Perfetto trace: the
// protobuf (perfetto.protos.Trace) that ui.perfetto.dev and
// trace_processor read natively, several times smaller than trace-event
// JSON. Each thread is a packet sequence of its own with its own track as
// the default and a sequence-scoped incremental clock, so an event packet
// carries a timestamp delta, a type and an interned name id: about 15
// bytes for a begin and 13 for an end.
//
// Events must come in time order per thread, as every decode path writes
// them; a complete event ('X') becomes a begin and an end, the ends held
// on a stack until a later event or the thread's end passes them.
type perfettoWriter struct {
	bw      *bufio.Writer
	threads map[threadKey]*perfettoThread
	order   []*perfettoThread // in the order they started: closing is deterministic
	procs   map[int64]bool
	counter map[counterKey]uint64 // counter tracks by process and name
	nextSeq uint32
	pkt     []byte // the packet being laid out
	body    []byte // a nested message being laid out
	// firstPid is the first process described: decode's notes go to its track 0.
	firstPid  int64
	described bool
	err       error
	// A trace merged with a system trace (NewPerfettoMergeWriter): the
	// machine clock the recording's times count from, and its value at
	// their 0 (Origin); the recording's events carry pid pidFrom, which
	// is the process pidTo of the system trace.
	merge          bool
	clockID        uint64
	clockNs        uint64
	pidFrom, pidTo int64
}

type threadKey struct{ pid, tid int64 }

type counterKey struct {
	pid  int64
	name string
}

// perfettoThread is one thread's sequence.
type perfettoThread struct {
	seq    uint32
	uuid   uint64
	lastTs int64
	names  map[string]uint64 // interned event names
	ends   nesting[struct{}] // complete events still open
}

// Field numbers of perfetto.protos (trace/trace_packet.proto and the
// messages it holds), as Perfetto's own descriptors give them.
const (
	pbTracePacket = 1 // Trace.packet

	pbTimestamp          = 8  // TracePacket.timestamp
	pbSequenceID         = 10 // TracePacket.trusted_packet_sequence_id
	pbTrackEvent         = 11 // TracePacket.track_event
	pbInternedData       = 12 // TracePacket.interned_data
	pbSequenceFlags      = 13 // TracePacket.sequence_flags
	pbClockSnapshot      = 6  // TracePacket.clock_snapshot
	pbTimestampClockID   = 58 // TracePacket.timestamp_clock_id
	pbTracePacketDefault = 59 // TracePacket.trace_packet_defaults
	pbTrackDescriptor    = 60 // TracePacket.track_descriptor

	pbTrackUUID       = 1  // TrackDescriptor.uuid
	pbTrackName       = 2  // TrackDescriptor.name
	pbTrackProcess    = 3  // TrackDescriptor.process
	pbTrackThread     = 4  // TrackDescriptor.thread
	pbTrackParentUUID = 5  // TrackDescriptor.parent_uuid
	pbTrackCounter    = 8  // TrackDescriptor.counter
	pbProcessPid      = 1  // ProcessDescriptor.pid
	pbProcessName     = 6  // ProcessDescriptor.process_name
	pbThreadPid       = 1  // ThreadDescriptor.pid
	pbThreadTid       = 2  // ThreadDescriptor.tid
	pbThreadName      = 5  // ThreadDescriptor.thread_name
	pbEventType       = 9  // TrackEvent.type
	pbEventNameIID    = 10 // TrackEvent.name_iid
	pbEventTrackUUID  = 11 // TrackEvent.track_uuid
	pbEventName       = 23 // TrackEvent.name
	pbEventCounterVal = 30 // TrackEvent.counter_value
	pbEventAnnotation = 4  // TrackEvent.debug_annotations
	pbAnnotationName  = 10 // DebugAnnotation.name
	pbAnnotationBool  = 2  // DebugAnnotation.bool_value
	pbAnnotationInt   = 4  // DebugAnnotation.int_value
	pbAnnotationStr   = 6  // DebugAnnotation.string_value
	pbDefaultsClockID = 58 // TracePacketDefaults.timestamp_clock_id
	pbDefaultsEvent   = 11 // TracePacketDefaults.track_event_defaults
	pbEventDefTrack   = 11 // TrackEventDefaults.track_uuid
	pbInternedNames   = 2  // InternedData.event_names
	pbNameIID         = 1  // EventName.iid
	pbNameName        = 2  // EventName.name
	pbSnapshotClocks  = 1  // ClockSnapshot.clocks
	pbClockID         = 1  // ClockSnapshot.Clock.clock_id
	pbClockTimestamp  = 2  // ClockSnapshot.Clock.timestamp
	pbClockIncrement  = 3  // ClockSnapshot.Clock.is_incremental

	SliceBegin = 1 // TrackEvent.Type
	SliceEnd   = 2
	Instant    = 3
	Counter    = 4

	SeqIncrementalCleared = 1 // TracePacket.SequenceFlags
	SeqNeedsIncremental   = 2

	clockMonotonic = 3  // BuiltinClock.BUILTIN_CLOCK_MONOTONIC
	clockBoottime  = 6  // BuiltinClock.BUILTIN_CLOCK_BOOTTIME
	ClockDeltas    = 64 // the first sequence-scoped clock id
)

func NewPerfettoWriter(w io.Writer) *perfettoWriter {
	return &perfettoWriter{bw: bufio.NewWriterSize(w, 256*1024), threads: map[threadKey]*perfettoThread{},
		procs: map[int64]bool{}, counter: map[counterKey]uint64{}, nextSeq: 1, clockID: clockBoottime}
}

// mergeSequenceBase: a merged trace's sequences are numbered from here, far
// from the system trace's own (a sequence's interned names and clock are
// its own, and two writers must not share one).
const mergeSequenceBase = 1 << 30

// NewPerfettoMergeWriter writes the packets of a trace to be appended to
// a system trace's: its sequences numbered apart from the system's, its
// times placed on the machine's clock by Origin.
func NewPerfettoMergeWriter(w io.Writer) *perfettoWriter {
	p := NewPerfettoWriter(w)
	p.merge, p.nextSeq = true, mergeSequenceBase
	return p
}

// OriginSink is an eventSink told where a recording's times start on the
// machine's clocks (source: 0 System.nanoTime, CLOCK_MONOTONIC on Linux
// and Android; 1 CLOCK_BOOTTIME) and which process recorded, whose events
// carry eventPid: what a trace merged with a system trace needs.
type OriginSink interface {
	Origin(source int, ns uint64, pid, eventPid int64)
}

// Origin places the times on the machine's clock and the events in the
// recorded process (a merge writer; the plain writer keeps the boot
// clock's 0 at the recording's start and pid as the events give it).
func (p *perfettoWriter) Origin(source int, ns uint64, pid, eventPid int64) {
	if !p.merge {
		return
	}
	p.clockID, p.clockNs = clockMonotonic, ns
	if source == 1 {
		p.clockID = clockBoottime
	}
	p.pidFrom, p.pidTo = eventPid, pid
}

func (p *perfettoWriter) Write(e Event) error {
	if p.err != nil {
		return p.err
	}
	if p.pidFrom != 0 && e.Pid == p.pidFrom {
		e.Pid = p.pidTo
	}
	if e.Ph == 'M' {
		name := ArgString(e.Args, "name")
		switch e.Name {
		case "process_name":
			p.process(e.Pid, name)
		case "thread_name":
			p.describeThread(p.thread(e.Pid, e.Tid), e.Pid, e.Tid, name)
		}
		return p.err
	}
	// Every other event first ends the complete events it comes after.
	t := p.thread(e.Pid, e.Tid)
	p.closeUntil(t, e.TsNs)
	switch e.Ph {
	case 'X':
		p.event(t, e.TsNs, SliceBegin, e.Name, e.Args)
		t.ends.push(e.TsNs, e.DurNs, struct{}{})
	case 'B':
		p.event(t, e.TsNs, SliceBegin, e.Name, e.Args)
	case 'E':
		p.event(t, e.TsNs, SliceEnd, "", e.Args)
	case 'i':
		p.event(t, e.TsNs, Instant, e.Name, e.Args)
	case 'C':
		p.count(t, e)
	}
	return p.err
}

// closeUntil ends the complete events of t that end by ts.
func (p *perfettoWriter) closeUntil(t *perfettoThread, ts int64) {
	t.ends.closeUntil(ts, func(end int64, _ struct{}) { p.event(t, end, SliceEnd, "", nil) })
}

// Note writes one of decode's notes as an instant at the start of the
// first process's track 0 (decode's "tracebeat" track).
func (p *perfettoWriter) Note(s string) {
	t := p.thread(p.firstPid, 0)
	p.event(t, 0, Instant, "note: "+s, nil)
}

func (p *perfettoWriter) Close() error {
	for _, t := range p.order {
		p.closeUntil(t, math.MaxInt64)
	}
	if p.err != nil {
		return p.err
	}
	return p.bw.Flush()
}

// process describes a process once (and again when it gets its name).
func (p *perfettoWriter) process(pid int64, name string) {
	if !p.described {
		p.firstPid, p.described = pid, true
	}
	if p.procs[pid] && name == "" {
		return
	}
	p.procs[pid] = true
	p.body = p.body[:0]
	p.body = appendVarintField(p.body, pbTrackUUID, processUUID(pid))
	var proc []byte
	proc = appendVarintField(proc, pbProcessPid, uint64(pid))
	if name != "" {
		proc = appendStringField(proc, pbProcessName, name)
	}
	p.body = appendBytesField(p.body, pbTrackProcess, proc)
	p.pkt = appendBytesField(p.pkt[:0], pbTrackDescriptor, p.body)
	p.flush()
}

// thread returns the sequence of a thread, starting it (a packet that
// clears its incremental state, sets its defaults and its clock, then its
// track) the first time.
func (p *perfettoWriter) thread(pid, tid int64) *perfettoThread {
	k := threadKey{pid, tid}
	if t := p.threads[k]; t != nil {
		return t
	}
	if !p.procs[pid] {
		p.process(pid, "")
	}
	t := &perfettoThread{seq: p.nextSeq, uuid: threadUUID(pid, tid), names: map[string]uint64{}}
	p.nextSeq++
	p.threads[k] = t
	p.order = append(p.order, t)

	pkt := p.pkt[:0]
	pkt = appendVarintField(pkt, pbSequenceID, uint64(t.seq))
	pkt = appendVarintField(pkt, pbSequenceFlags, SeqIncrementalCleared)
	var defaults, eventDefaults []byte
	eventDefaults = appendVarintField(eventDefaults, pbEventDefTrack, t.uuid)
	defaults = appendVarintField(defaults, pbDefaultsClockID, ClockDeltas)
	defaults = appendBytesField(defaults, pbDefaultsEvent, eventDefaults)
	pkt = appendBytesField(pkt, pbTracePacketDefault, defaults)
	// The sequence's clock counts in deltas from 0 on the boot clock:
	// timestamps are the decode's own (from the recording's start).
	var snapshot, clock []byte
	clock = appendVarintField(clock[:0], pbClockID, ClockDeltas)
	clock = appendVarintField(clock, pbClockTimestamp, 0)
	clock = appendVarintField(clock, pbClockIncrement, 1)
	snapshot = appendBytesField(snapshot, pbSnapshotClocks, clock)
	clock = appendVarintField(clock[:0], pbClockID, p.clockID)
	clock = appendVarintField(clock, pbClockTimestamp, p.clockNs)
	snapshot = appendBytesField(snapshot, pbSnapshotClocks, clock)
	pkt = appendBytesField(pkt, pbClockSnapshot, snapshot)
	p.pkt = pkt
	p.flush()
	p.describeThread(t, pid, tid, "")
	return t
}

// describeThread writes the thread's track descriptor; a later one with
// the name replaces the first.
func (p *perfettoWriter) describeThread(t *perfettoThread, pid, tid int64, name string) {
	var thread []byte
	thread = appendVarintField(thread, pbThreadPid, uint64(pid))
	thread = appendVarintField(thread, pbThreadTid, uint64(tid))
	if name != "" {
		thread = appendStringField(thread, pbThreadName, name)
	}
	p.body = p.body[:0]
	p.body = appendVarintField(p.body, pbTrackUUID, t.uuid)
	p.body = appendVarintField(p.body, pbTrackParentUUID, processUUID(pid))
	p.body = appendBytesField(p.body, pbTrackThread, thread)
	pkt := appendVarintField(p.pkt[:0], pbSequenceID, uint64(t.seq))
	p.pkt = appendBytesField(pkt, pbTrackDescriptor, p.body)
	p.flush()
}

// event writes one track event on t's sequence at ts.
func (p *perfettoWriter) event(t *perfettoThread, ts int64, typ uint64, name string, args []Arg) {
	pkt := p.eventHeader(t, ts)
	ev := p.body[:0]
	ev = appendVarintField(ev, pbEventType, typ)
	if typ != SliceEnd {
		iid, fresh := t.intern(name)
		if fresh {
			var entry, interned []byte
			entry = appendVarintField(entry, pbNameIID, iid)
			entry = appendStringField(entry, pbNameName, ValidUTF8(name))
			interned = appendBytesField(interned, pbInternedNames, entry)
			pkt = appendBytesField(pkt, pbInternedData, interned)
		}
		ev = appendVarintField(ev, pbEventNameIID, iid)
	}
	ev = appendAnnotations(ev, args)
	p.body = ev
	p.pkt = appendBytesField(pkt, pbTrackEvent, ev)
	p.flush()
}

// eventHeader starts the packet of an event on t's sequence at ts: the
// time since the sequence's last event (an event that a damaged input
// places earlier is drawn at that one's time: the deltas cannot be
// negative), the sequence and its flag.
func (p *perfettoWriter) eventHeader(t *perfettoThread, ts int64) []byte {
	delta := max(ts-t.lastTs, 0)
	t.lastTs += delta
	pkt := appendVarintField(p.pkt[:0], pbTimestamp, uint64(delta))
	pkt = appendVarintField(pkt, pbSequenceID, uint64(t.seq))
	return appendVarintField(pkt, pbSequenceFlags, SeqNeedsIncremental)
}

// count writes a counter value on the process's counter track of that
// name, described the first time.
func (p *perfettoWriter) count(t *perfettoThread, e Event) {
	var value int64
	for _, a := range e.Args {
		if a.Kind == 'i' {
			value = a.Int
			break
		}
	}
	k := counterKey{e.Pid, e.Name}
	uuid, ok := p.counter[k]
	if !ok {
		h := fnv.New64a()
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(e.Pid))
		h.Write([]byte("counter"))
		h.Write(b[:])
		h.Write([]byte(e.Name))
		uuid = h.Sum64()
		p.counter[k] = uuid
		body := appendVarintField(p.body[:0], pbTrackUUID, uuid)
		body = appendVarintField(body, pbTrackParentUUID, processUUID(e.Pid))
		body = appendStringField(body, pbTrackName, e.Name)
		body = appendBytesField(body, pbTrackCounter, nil)
		p.body = body
		pkt := appendVarintField(p.pkt[:0], pbSequenceID, uint64(t.seq))
		p.pkt = appendBytesField(pkt, pbTrackDescriptor, body)
		p.flush()
	}
	pkt := p.eventHeader(t, e.TsNs)
	ev := appendVarintField(p.body[:0], pbEventType, Counter)
	ev = appendVarintField(ev, pbEventTrackUUID, uuid)
	ev = appendVarintField(ev, pbEventCounterVal, uint64(value))
	p.body = ev
	p.pkt = appendBytesField(pkt, pbTrackEvent, ev)
	p.flush()
}

// intern returns the id of an event name on this sequence, and whether
// it is new (to be sent with the packet that uses it first).
func (t *perfettoThread) intern(name string) (uint64, bool) {
	if iid, ok := t.names[name]; ok {
		return iid, false
	}
	iid := uint64(len(t.names) + 1)
	t.names[name] = iid
	return iid, true
}

// flush writes the packet laid out in p.pkt as one Trace.packet.
func (p *perfettoWriter) flush() {
	if p.err != nil {
		return
	}
	var head [1 + binary.MaxVarintLen64]byte
	h := protowire.AppendTag(head[:0], pbTracePacket, protowire.Bytes)
	h = binary.AppendUvarint(h, uint64(len(p.pkt)))
	if _, err := p.bw.Write(h); err != nil {
		p.err = err
		return
	}
	if _, err := p.bw.Write(p.pkt); err != nil {
		p.err = err
	}
}

// appendAnnotations adds the event's arguments as debug annotations; the
// method id of a slice is left out, as in the JSON: it is the name's.
func appendAnnotations(ev []byte, args []Arg) []byte {
	for _, a := range args {
		if a.Key == "id" {
			continue
		}
		var ann []byte
		ann = appendStringField(ann, pbAnnotationName, a.Key)
		switch a.Kind {
		case 's':
			ann = appendStringField(ann, pbAnnotationStr, a.Str)
		case 'b':
			ann = appendVarintField(ann, pbAnnotationBool, 1)
		default:
			ann = appendVarintField(ann, pbAnnotationInt, uint64(a.Int))
		}
		ev = appendBytesField(ev, pbEventAnnotation, ann)
	}
	return ev
}

func ArgString(args []Arg, key string) string {
	for _, a := range args {
		if a.Key == key {
			return a.Str
		}
	}
	return ""
}

func processUUID(pid int64) uint64 { return uuidOf("process", pid, 0) }

func threadUUID(pid, tid int64) uint64 { return uuidOf("thread", pid, tid) }

// uuidOf gives a track a stable id from what it is.
func uuidOf(kind string, a, b int64) uint64 {
	h := fnv.New64a()
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], uint64(a))
	binary.LittleEndian.PutUint64(buf[8:], uint64(b))
	h.Write([]byte(kind))
	h.Write(buf[:])
	return h.Sum64() >> 1 // within int64: some readers take uuids as signed
}

// Protobuf wire encoding (internal/protowire); strings are made valid UTF-8.

func appendVarintField(b []byte, field int, v uint64) []byte {
	return protowire.AppendVarintField(b, field, v)
}

func appendBytesField(b []byte, field int, v []byte) []byte {
	return protowire.AppendBytesField(b, field, v)
}

// appendStringField writes a string field; Perfetto's strings are UTF-8,
// so what is not (a damaged name) is written as U+FFFD, as in the JSON.
func appendStringField(b []byte, field int, v string) []byte {
	return protowire.AppendStringField(b, field, ValidUTF8(v))
}

// CheckPackets checks that data is a Perfetto trace at its outer
// level: fields 1 (TracePacket), length-delimited, to its end.
func CheckPackets(data []byte) error {
	if len(data) == 0 {
		return fmt.Errorf("it is empty")
	}
	for off := 0; off < len(data); {
		tag, n := binary.Uvarint(data[off:])
		if n <= 0 || tag != 1<<3|2 {
			return fmt.Errorf("byte %d: field tag %#x where a TracePacket (field 1, length-delimited) belongs", off, tag)
		}
		size, m := binary.Uvarint(data[off+n:])
		if m <= 0 || size > uint64(len(data)-off-n-m) {
			return fmt.Errorf("byte %d: a packet of %d bytes where %d are left", off, size, len(data)-off-n-max(m, 0))
		}
		off += n + m + int(size)
	}
	return nil
}
