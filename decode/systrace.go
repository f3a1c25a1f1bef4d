package decode

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

// MarkerResult tells what decoding systrace text or a marker dump found.
type MarkerResult struct {
	Lines      int64 // input lines
	Events     int64 // trace_marker events seen
	Translated int64 // B events whose id became a name
	Unknown    UnknownIDs
	// Only for --format json:
	EndWithoutBegin int64 // E events with no open B on their thread: dropped
	UnclosedBegins  int64 // B events never ended: closed at the last timestamp
	Skipped         int64 // marker events that JSON does not carry (async S/F, ...)
	Unparsed        int64 // systrace lines with tracing_mark_write but no ftrace header
}

var markBegin = []byte("tracing_mark_write: B|")

// RewriteSystrace copies systrace/atrace text (plain or the HTML wrapper)
// and replaces the method id in every "tracing_mark_write: B|<pid>|<id>"
// line by the method's name. Every other byte, line endings included, is
// kept; B payloads that are not a known integer id stay as they are.
func RewriteSystrace(in io.Reader, out io.Writer, names *MethodNames) (*MarkerResult, error) {
	res := &MarkerResult{}
	br := bufio.NewReaderSize(in, 256*1024)
	gate := &systraceGate{out: bufio.NewWriterSize(out, 256*1024)}
	bw := gate
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line (HTML scripts) cannot hold a marker we rewrite
			// only if it is longer than the buffer; copy it in pieces but
			// still look for markers within the whole line.
			full := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				full = append(full, line...)
			}
			line = full
		}
		if len(line) > 0 {
			res.Lines++
			if !gate.open && isTraceLine(string(line)) {
				gate.open = true
			}
			line = rewriteMarkerLine(line, names, res)
			if _, werr := bw.Write(line); werr != nil {
				return nil, werr
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", res.Lines+1, err)
		}
	}
	if !gate.open {
		return nil, noTraceLines(res.Lines)
	}
	return res, gate.out.Flush()
}

// systraceGate holds what the rewriter writes until the first trace
// line has come, so that an input that only looked like systrace (an
// HTML page, a text about it) writes nothing and is refused.
type systraceGate struct {
	out     *bufio.Writer
	open    bool
	pending []byte
}

func (g *systraceGate) Write(p []byte) (int, error) {
	if !g.open {
		g.pending = append(g.pending, p...)
		return len(p), nil
	}
	if g.pending != nil {
		if _, err := g.out.Write(g.pending); err != nil {
			return 0, err
		}
		g.pending = nil
	}
	return g.out.Write(p)
}

// noTraceLines is the error of a systrace input without a trace line.
func noTraceLines(lines int64) error {
	return notATrace("no ftrace line (the \"# tracer:\" header or a tracing_mark_write event) in %d lines", lines)
}

func rewriteMarkerLine(line []byte, names *MethodNames, res *MarkerResult) []byte {
	i := bytes.Index(line, markBegin)
	if i < 0 {
		if bytes.Contains(line, []byte("tracing_mark_write:")) {
			res.Events++
		}
		return line
	}
	res.Events++
	p := i + len(markBegin)
	j := p
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	if j == p || j >= len(line) || line[j] != '|' {
		return line
	}
	start := j + 1
	end := start
	for end < len(line) && line[end] != '\n' && line[end] != '\r' {
		end++
	}
	id, ok := parseMethodIDToken(string(line[start:end]))
	if !ok {
		return line
	}
	m, known := names.Lookup(id)
	if !known {
		res.Unknown.Note(names, id)
		return line
	}
	res.Translated++
	out := make([]byte, 0, len(line)+64)
	out = append(out, line[:start]...)
	out = append(out, m.DisplayName()...)
	return append(out, line[end:]...)
}

// isTraceLine tells whether a line of text is one of ftrace's: the
// tracer header ("# tracer: nop") or an event line of tracing_mark_write.
func isTraceLine(line string) bool {
	line = strings.TrimRight(line, "\r\n")
	if strings.HasPrefix(line, "# tracer:") {
		return true
	}
	return strings.Contains(line, "tracing_mark_write:") && ftraceLine.MatchString(line)
}

// ftraceLine matches "<task>-<tid> [(<tgid>)] [<cpu>] [<flags>] <secs>.<frac>: tracing_mark_write: <payload>".
// The task is the kernel's comm, at most 15 bytes (16 allows "<...>" and a
// byte to spare): longer text before "-<digits>" is prose that quotes a line.
var ftraceLine = regexp.MustCompile(`^\s*(.{1,16}?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[\d+\]\s+(?:\S{4,5}\s+)?(\d+(?:\.\d+)?):\s+tracing_mark_write:\s?(.*)$`)

// systraceEvents parses the tracing_mark_write lines of systrace text and
// calls fn for each.
func systraceEvents(in io.Reader, res *MarkerResult, fn func(markerEvent) error) error {
	br := bufio.NewReaderSize(in, 256*1024)
	traced := false
	for {
		line, err := br.ReadString('\n')
		if len(line) > 0 {
			res.Lines++
			traced = traced || strings.HasPrefix(line, "# tracer:")
			if strings.Contains(line, "tracing_mark_write:") {
				m := ftraceLine.FindStringSubmatch(strings.TrimRight(line, "\r\n"))
				if m == nil {
					res.Unparsed++
				} else {
					ev, perr := parseMarkerPayload(m[4])
					if perr != nil {
						res.Unparsed++
					} else {
						ts, terr := parseSeconds(m[3])
						if terr != nil {
							return fmt.Errorf("line %d: %w", res.Lines, terr)
						}
						ev.TsNs, ev.Thread = ts, m[1]
						fmt.Sscan(m[2], &ev.Tid)
						res.Events++
						traced = true
						if err := fn(ev); err != nil {
							return err
						}
					}
				}
			}
		}
		if errors.Is(err, io.EOF) {
			if !traced {
				return noTraceLines(res.Lines)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", res.Lines+1, err)
		}
	}
}

// markerDumpEvents parses a raw trace_marker dump (see parseMarkerDumpLine);
// blank lines and lines starting with '#' are skipped.
func markerDumpEvents(in io.Reader, res *MarkerResult, fn func(markerEvent) error) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		res.Lines++
		text := strings.TrimRight(sc.Text(), "\r")
		if res.Lines == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		ev, err := parseMarkerDumpLine(trimmed)
		if err != nil {
			return fmt.Errorf("line %d: %w", res.Lines, err)
		}
		res.Events++
		if err := fn(ev); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("line %d: %w", res.Lines+1, err)
	}
	return nil
}

// DecodeMarkerDump turns a raw trace_marker dump into ftrace text (formats
// text and systrace) or trace-event JSON, with method ids as names.
func DecodeMarkerDump(in io.Reader, out io.Writer, format Format, names *MethodNames) (*MarkerResult, error) {
	res := &MarkerResult{}
	switch format {
	case FormatJSON, FormatPerfetto, FormatArt, FormatSpeedscope, FormatHTML:
		mj := newMarkerJSON(out, format, names, res)
		if err := markerDumpEvents(in, res, mj.add); err != nil {
			return nil, err
		}
		return res, mj.finish()
	case FormatText, FormatSystrace, "":
		fw := traceout.NewFtraceWriter(out)
		err := markerDumpEvents(in, res, func(ev markerEvent) error {
			tid := ev.Tid
			payload := ev.Payload
			if ev.Phase == 'B' {
				name, _ := translateName(ev.Name, names, &res.Unknown)
				if name != ev.Name {
					res.Translated++
					payload = fmt.Sprintf("B|%d|%s", ev.Pid, name)
				}
			}
			fw.Line(ev.Thread, tid, ev.TsNs, payload)
			return fw.Err()
		})
		if err != nil {
			return nil, err
		}
		return res, fw.Flush()
	}
	return nil, fmt.Errorf("format %q is not supported for trace_marker dumps", format)
}

// DecodeSystrace rewrites systrace text with names (formats text and
// systrace) or converts its trace_marker events to trace-event JSON.
func DecodeSystrace(in io.Reader, out io.Writer, format Format, names *MethodNames) (*MarkerResult, error) {
	switch format {
	case FormatJSON, FormatPerfetto, FormatArt, FormatSpeedscope, FormatHTML:
		res := &MarkerResult{}
		mj := newMarkerJSON(out, format, names, res)
		if err := systraceEvents(in, res, mj.add); err != nil {
			return nil, err
		}
		return res, mj.finish()
	case FormatText, FormatSystrace, "":
		return RewriteSystrace(in, out, names)
	}
	return nil, fmt.Errorf("format %q is not supported for systrace input", format)
}
