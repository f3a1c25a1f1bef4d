package decode

import (
	"io"
	"slices"
	"strconv"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

// markerJSON converts trace_marker events to trace-event JSON, streaming.
// B/E stay B/E events on their thread; the output is balanced per thread:
// an E with no open B is dropped, and B events never ended get an E at the
// last timestamp with args.unclosed, so viewers do not guess.
type markerJSON struct {
	w       traceout.Sink
	names   *MethodNames
	res     *MarkerResult
	open    map[int64][]openSection // per tid
	named   map[int64]bool          // tids whose thread_name was written
	lastNs  int64
	lastPid int64
}

type openSection struct {
	name string
	pid  int64
}

func newMarkerJSON(out io.Writer, format Format, names *MethodNames, res *MarkerResult) *markerJSON {
	return &markerJSON{w: newEventSink(format, out), names: names, res: res,
		open: map[int64][]openSection{}, named: map[int64]bool{}}
}

func (m *markerJSON) add(ev markerEvent) error {
	m.lastNs = max(m.lastNs, ev.TsNs)
	pid := ev.Pid
	if !ev.HasPid {
		pid = m.lastPid
	}
	m.lastPid = pid
	switch ev.Phase {
	case 'B':
		name, _ := translateName(ev.Name, m.names, &m.res.Unknown)
		if name != ev.Name {
			m.res.Translated++
		}
		m.nameThread(ev, pid)
		m.open[ev.Tid] = append(m.open[ev.Tid], openSection{name: name, pid: pid})
		args := []traceout.Arg(nil)
		if id, ok := parseMethodIDToken(ev.Name); ok {
			args = append(args, traceout.IntArg("id", int64(id)))
		}
		return m.w.Write(traceout.Event{Name: name, Ph: 'B', TsNs: ev.TsNs, Pid: pid, Tid: ev.Tid, Args: args})
	case 'E':
		stack := m.open[ev.Tid]
		if len(stack) == 0 {
			m.res.EndWithoutBegin++
			return nil
		}
		top := stack[len(stack)-1]
		m.open[ev.Tid] = stack[:len(stack)-1]
		return m.w.Write(traceout.Event{Name: top.name, Ph: 'E', TsNs: ev.TsNs, Pid: top.pid, Tid: ev.Tid})
	case 'C':
		v, err := strconv.ParseInt(ev.Value, 10, 64)
		if err != nil {
			m.res.Skipped++
			return nil
		}
		m.nameThread(ev, pid)
		return m.w.Write(traceout.Event{Name: ev.Name, Ph: 'C', TsNs: ev.TsNs, Pid: pid, Tid: ev.Tid,
			Args: []traceout.Arg{traceout.IntArg("value", v)}})
	}
	m.res.Skipped++
	return nil
}

func (m *markerJSON) nameThread(ev markerEvent, pid int64) {
	if ev.Thread == "" || ev.Thread == "<...>" || m.named[ev.Tid] {
		return
	}
	m.named[ev.Tid] = true
	m.w.Write(traceout.Event{Name: "thread_name", Ph: 'M', Pid: pid, Tid: ev.Tid, Args: []traceout.Arg{traceout.StrArg("name", ev.Thread)}})
}

func (m *markerJSON) finish() error {
	tids := make([]int64, 0, len(m.open))
	for tid := range m.open {
		tids = append(tids, tid)
	}
	slices.Sort(tids)
	for _, tid := range tids {
		stack := m.open[tid]
		for i := len(stack) - 1; i >= 0; i-- {
			m.res.UnclosedBegins++
			m.w.Write(traceout.Event{Name: stack[i].name, Ph: 'E', TsNs: m.lastNs, Pid: stack[i].pid, Tid: tid,
				Args: []traceout.Arg{traceout.BoolArg("unclosed")}})
		}
	}
	return m.w.Close()
}
