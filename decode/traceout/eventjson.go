package traceout

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"
)

// traceEvent is one Chrome trace-event ("Trace Event Format") event.
type Event struct {
	Name  string
	Cat   string
	Ph    byte // 'X', 'B', 'E', 'C', 'M', 'i'
	TsNs  int64
	DurNs int64 // written for 'X' only
	Pid   int64
	Tid   int64
	Args  []Arg
}

type Arg struct {
	Key  string
	Str  string
	Int  int64
	Kind byte // 's', 'i' or 'b' (Int != 0 is true)
}

func StrArg(k, v string) Arg       { return Arg{Key: k, Str: v, Kind: 's'} }
func IntArg(k string, v int64) Arg { return Arg{Key: k, Int: v, Kind: 'i'} }
func BoolArg(k string) Arg         { return Arg{Key: k, Int: 1, Kind: 'b'} }

// eventSink takes the events of a decode in the order a viewer shows
// them: trace-event JSON (traceEventWriter) or a Perfetto trace
// (perfettoWriter).
type Sink interface {
	Write(Event) error
	Close() error
}

// NoteSink is an eventSink that shows decode's notes with the trace.
type NoteSink interface{ Note(string) }

// SpanSink is an eventSink told how long the recording is (ns from its
// start) and whether it lost records (a ring that wrapped, a stream's
// bound, a cut), so that it can say which part of the run the calls it
// holds cover.
type SpanSink interface {
	Span(lengthNs int64, lost bool)
}

// traceEventWriter streams {"traceEvents":[...],"displayTimeUnit":"ms"},
// on one line (a newline per event would be a byte of the 160 a slice
// may take), holding nothing but a write buffer and the quoted names.
type traceEventWriter struct {
	bw    *bufio.Writer
	count int64
	buf   []byte
	// names holds names already quoted: a trace repeats few names many
	// times, and quoting was a third of the writer's time.
	names     map[string][]byte
	namesSize int
	notes     []string
	pid       int64 // the first process described: where notes go
	described bool
}

// maxQuotedNames bounds the bytes the quoted-name cache holds.
const maxQuotedNames = 16 << 20

func NewJSONWriter(w io.Writer) *traceEventWriter {
	t := &traceEventWriter{bw: bufio.NewWriterSize(w, 256*1024)}
	t.bw.WriteString(`{"traceEvents":[`)
	return t
}

func (t *traceEventWriter) Write(e Event) error {
	if e.Ph == 'M' && !t.described {
		t.pid, t.described = e.Pid, true
	}
	b := t.buf[:0]
	if t.count > 0 {
		b = append(b, ',')
	}
	b = append(b, "{\"name\":"...) // no newline: a byte of 160 per slice
	b = t.appendName(b, e.Name)
	if e.Cat != "" {
		b = append(b, `,"cat":`...)
		b = appendJSONString(b, e.Cat)
	}
	b = append(b, `,"ph":"`...)
	b = append(b, e.Ph)
	b = append(b, `","ts":`...)
	b = appendMicros(b, e.TsNs)
	if e.Ph == 'X' {
		b = append(b, `,"dur":`...)
		b = appendMicros(b, e.DurNs)
	}
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, e.Pid, 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, e.Tid, 10)
	if len(e.Args) > 0 {
		b = append(b, `,"args":{`...)
		for i, a := range e.Args {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, a.Key)
			b = append(b, ':')
			switch a.Kind {
			case 's':
				b = appendJSONString(b, a.Str)
			case 'b':
				b = strconv.AppendBool(b, a.Int != 0)
			default:
				b = strconv.AppendInt(b, a.Int, 10)
			}
		}
		b = append(b, '}')
	}
	b = append(b, '}')
	t.buf = b
	t.count++
	_, err := t.bw.Write(b)
	return err
}

// appendName appends name quoted, from the cache when it is there.
func (t *traceEventWriter) appendName(b []byte, name string) []byte {
	if q, ok := t.names[name]; ok {
		return append(b, q...)
	}
	start := len(b)
	b = appendJSONString(b, name)
	if t.namesSize < maxQuotedNames {
		if t.names == nil {
			t.names = map[string][]byte{}
		}
		t.names[name] = slices.Clone(b[start:])
		t.namesSize += 2*len(name) + 64
	}
	return b
}

// Note writes one of decode's notes (what is missing, what is rough) as
// an instant at the start, on the process's track 0 where a viewer shows
// it, and keeps it for the document's otherData.
func (t *traceEventWriter) Note(s string) {
	t.notes = append(t.notes, s)
	t.Write(Event{Name: "note: " + s, Cat: "tracebeat", Ph: 'i', Pid: t.pid, Tid: 0})
}

func (t *traceEventWriter) Close() error {
	t.bw.WriteString("],\"displayTimeUnit\":\"ms\"")
	if len(t.notes) > 0 {
		// The format's place for metadata: Chrome's tracing shows it.
		b := []byte(`,"otherData":{"tracebeat_notes":[`)
		for i, n := range t.notes {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, n)
		}
		b = append(b, "]}"...)
		t.bw.Write(b)
	}
	t.bw.WriteString("}\n")
	return t.bw.Flush()
}

// appendMicros writes nanoseconds as microseconds, with a fraction only
// when needed, so millisecond and microsecond inputs stay integers.
func appendMicros(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	if frac := ns % 1000; frac != 0 {
		b = append(b, '.')
		digits := []byte{byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
		for digits[len(digits)-1] == '0' {
			digits = digits[:len(digits)-1]
		}
		b = append(b, digits...)
	}
	return b
}

// appendJSONString quotes s for JSON; invalid UTF-8 becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// ValidUTF8 is s with each byte that is not part of UTF-8 replaced by
// U+FFFD, as appendJSONString writes it: the JSON and Perfetto traces
// spell a damaged name the same.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, r) // utf8.RuneError for an invalid byte
		i += size
	}
	return string(b)
}
