package decode

import (
	"fmt"
	"strconv"
	"strings"
)

// markerEvent is one trace_marker write with where and when it happened.
type markerEvent struct {
	TsNs    int64
	Thread  string // "" when unknown
	Tid     int64
	Pid     int64
	HasPid  bool
	Phase   byte   // 'B', 'E', 'C', or another letter (passed through)
	Name    string // B and C: the section or counter name
	Value   string // C: the counter value
	Payload string // the payload as written ("B|pid|name")
}

// parseMarkerPayload parses "B|pid|name", "E", "E|pid[|...]",
// "C|pid|name|value"; other letters ("S|...", "F|...") are kept whole.
func parseMarkerPayload(payload string) (markerEvent, error) {
	ev := markerEvent{Payload: payload}
	if payload == "" {
		return ev, fmt.Errorf("empty trace_marker payload")
	}
	ev.Phase = payload[0]
	if len(payload) > 1 && payload[1] != '|' {
		return ev, fmt.Errorf("trace_marker payload %q: expected a letter and '|' (B|pid|name, E|pid, C|pid|name|value)", payload)
	}
	fields := strings.SplitN(payload, "|", 4)
	if len(fields) >= 2 && fields[1] != "" {
		pid, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil {
			return ev, fmt.Errorf("trace_marker payload %q: pid %q is not an integer", payload, fields[1])
		}
		ev.Pid, ev.HasPid = pid, true
	}
	switch ev.Phase {
	case 'B':
		if len(fields) < 3 || !ev.HasPid {
			return ev, fmt.Errorf("trace_marker payload %q: expected B|pid|name", payload)
		}
		_, name, _ := strings.Cut(payload[2:], "|")
		ev.Name = name
	case 'C':
		if len(fields) < 4 || !ev.HasPid {
			return ev, fmt.Errorf("trace_marker payload %q: expected C|pid|name|value", payload)
		}
		ev.Name, ev.Value = fields[2], fields[3]
	}
	return ev, nil
}

// parseSeconds parses "<seconds>[.<fraction>]" (up to 9 fraction digits)
// into nanoseconds.
func parseSeconds(text string) (int64, error) {
	secText, fracText, hasFrac := strings.Cut(text, ".")
	if secText == "" || (hasFrac && (fracText == "" || len(fracText) > 9)) {
		return 0, fmt.Errorf("timestamp %q: expected <seconds>.<fraction> (1 to 9 fraction digits)", text)
	}
	sec, err := strconv.ParseInt(secText, 10, 64)
	if err != nil || sec < 0 || sec > 9_000_000_000 {
		return 0, fmt.Errorf("timestamp %q: seconds are not a non-negative integer", text)
	}
	var ns int64
	if hasFrac {
		frac, err := strconv.ParseInt(fracText, 10, 64)
		if err != nil || frac < 0 {
			return 0, fmt.Errorf("timestamp %q: fraction is not a number", text)
		}
		for n := len(fracText); n < 9; n++ {
			frac *= 10
		}
		ns = frac
	}
	return sec*1e9 + ns, nil
}

// parseThreadToken splits "<thread>-<tid>" at the last '-'.
func parseThreadToken(tok string) (string, int64, bool) {
	i := strings.LastIndexByte(tok, '-')
	if i < 0 || i == len(tok)-1 {
		return "", 0, false
	}
	tid, err := strconv.ParseInt(tok[i+1:], 10, 64)
	if err != nil || tid < 0 {
		return "", 0, false
	}
	return tok[:i], tid, true
}

func isPayloadStart(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if c < 'A' || c > 'Z' {
		return false
	}
	return len(s) == 1 || s[1] == '|'
}

// parseMarkerDumpLine parses one line of a raw trace_marker dump:
//
//	<seconds>.<fraction>[:] [<thread>-<tid>] <payload>
//
// e.g. "12.345678 main-1 B|4242|1234" or "12.345678: E|4242". The thread
// name may not contain white space; without the thread token the pid is
// used as the thread id.
func parseMarkerDumpLine(line string) (markerEvent, error) {
	tsText, rest := cutField(line)
	tsText = strings.TrimSuffix(tsText, ":")
	ts, err := parseSeconds(tsText)
	if err != nil {
		return markerEvent{}, err
	}
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" {
		return markerEvent{}, fmt.Errorf("empty trace_marker payload after the timestamp")
	}
	thread, tid, hasThread := "", int64(0), false
	if !isPayloadStart(rest) {
		tok, after := cutField(rest)
		thread, tid, hasThread = parseThreadToken(tok)
		if !hasThread {
			return markerEvent{}, fmt.Errorf("%q: expected <thread>-<tid> or a payload such as B|pid|name", tok)
		}
		rest = strings.TrimLeft(after, " \t")
	}
	ev, err := parseMarkerPayload(rest)
	if err != nil {
		return markerEvent{}, err
	}
	ev.TsNs, ev.Thread, ev.Tid = ts, thread, tid
	if !hasThread {
		ev.Tid = ev.Pid
	}
	return ev, nil
}

// cutField splits s at its first space or tab.
func cutField(s string) (field, rest string) {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// translateName replaces a section name that is a method id by the method's
// name; it reports whether the name was an id the map lacks.
func translateName(name string, names *MethodNames, unknown *UnknownIDs) (string, bool) {
	id, ok := parseMethodIDToken(name)
	if !ok {
		return name, false
	}
	if m, ok := names.Lookup(id); ok {
		return m.DisplayName(), false
	}
	unknown.Note(names, id)
	return name, true
}

// parseMethodIDToken accepts plain decimal digits only (no sign, no
// spaces), as the instrumenter writes ids.
func parseMethodIDToken(s string) (int, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	id, err := strconv.Atoi(s)
	if err != nil || id > 1<<31-1 {
		return 0, false
	}
	return id, true
}
