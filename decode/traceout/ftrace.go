package traceout

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// FtraceHeader starts ftrace text; the Perfetto UI and systrace's
// --from-file recognise the format by "# tracer:".
const FtraceHeader = "# tracer: nop\n" +
	"#\n" +
	"#           TASK-PID     CPU#  ||||    TIMESTAMP  FUNCTION\n" +
	"#              | |         |   ||||       |         |\n"

// FtraceWriter writes trace_marker events as ftrace text lines:
//
//	<thread>-<tid>  [000] ...1 <seconds>.<micros>: tracing_mark_write: B|<pid>|<name>
//
// Timestamps are written in microseconds, as ftrace prints them.
type FtraceWriter struct {
	bw  *bufio.Writer
	buf []byte
	err error
}

// NewFtraceWriter writes to w, the header first.
func NewFtraceWriter(w io.Writer) *FtraceWriter {
	f := &FtraceWriter{bw: bufio.NewWriterSize(w, 256*1024)}
	_, f.err = f.bw.WriteString(FtraceHeader)
	return f
}

// Begin writes a section's start (B).
func (f *FtraceWriter) Begin(thread string, tid, pid, tsNs int64, name string) {
	f.Line(thread, tid, tsNs, "B|"+strconv.FormatInt(pid, 10)+"|"+name)
}

// End writes the end of the innermost open section (E).
func (f *FtraceWriter) End(thread string, tid, pid, tsNs int64) {
	f.Line(thread, tid, tsNs, "E|"+strconv.FormatInt(pid, 10))
}

// Err is the first write error, or nil.
func (f *FtraceWriter) Err() error { return f.err }

// Line writes one trace_marker line with payload as it is (B|pid|name,
// E|pid, C|..., what a marker dump holds).
func (f *FtraceWriter) Line(thread string, tid, tsNs int64, payload string) {
	if f.err != nil {
		return
	}
	if thread == "" {
		thread = "<...>"
	}
	b := f.buf[:0]
	task := thread + "-" + strconv.FormatInt(tid, 10)
	for n := len(task); n < 22; n++ {
		b = append(b, ' ')
	}
	b = append(b, task...)
	b = append(b, " [000] ...1 "...)
	if tsNs < 0 {
		b = append(b, '-')
		tsNs = -tsNs
	}
	b = strconv.AppendInt(b, tsNs/1e9, 10)
	b = append(b, '.')
	micros := strconv.FormatInt(tsNs%1e9/1e3, 10)
	for n := len(micros); n < 6; n++ {
		b = append(b, '0')
	}
	b = append(b, micros...)
	b = append(b, ": tracing_mark_write: "...)
	b = append(b, payload...)
	b = append(b, '\n')
	f.buf = b
	_, f.err = f.bw.Write(b)
}

// Flush writes what is buffered, or says what failed first.
func (f *FtraceWriter) Flush() error {
	if f.err != nil {
		return fmt.Errorf("writing ftrace text: %w", f.err)
	}
	return f.bw.Flush()
}
