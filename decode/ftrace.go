package decode

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// ftraceHeader starts ftrace text; the Perfetto UI and systrace's
// --from-file recognise the format by "# tracer:".
const ftraceHeader = "# tracer: nop\n" +
	"#\n" +
	"#           TASK-PID     CPU#  ||||    TIMESTAMP  FUNCTION\n" +
	"#              | |         |   ||||       |         |\n"

// ftraceWriter writes trace_marker events as ftrace text lines:
//
//	<thread>-<tid>  [000] ...1 <seconds>.<micros>: tracing_mark_write: B|<pid>|<name>
//
// Timestamps are written in microseconds, as ftrace prints them.
type ftraceWriter struct {
	bw  *bufio.Writer
	buf []byte
	err error
}

func newFtraceWriter(w io.Writer) *ftraceWriter {
	f := &ftraceWriter{bw: bufio.NewWriterSize(w, 256*1024)}
	_, f.err = f.bw.WriteString(ftraceHeader)
	return f
}

func (f *ftraceWriter) begin(thread string, tid, pid, tsNs int64, name string) {
	f.line(thread, tid, tsNs, "B|"+strconv.FormatInt(pid, 10)+"|"+name)
}

func (f *ftraceWriter) end(thread string, tid, pid, tsNs int64) {
	f.line(thread, tid, tsNs, "E|"+strconv.FormatInt(pid, 10))
}

func (f *ftraceWriter) line(thread string, tid, tsNs int64, payload string) {
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

func (f *ftraceWriter) flush() error {
	if f.err != nil {
		return fmt.Errorf("writing ftrace text: %w", f.err)
	}
	return f.bw.Flush()
}
