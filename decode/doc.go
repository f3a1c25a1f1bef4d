// Package decode turns what a traced app recorded back into method names.
//
// It reads five kinds of input:
//
//   - Recordings of tracebeat's JVM runtime (package jvmruntime; the
//     format is in recording/RECORDING.md): every thread's enters and
//     exits with nanosecond times. Each thread is paired on its own; the result is a
//     text summary of the slowest call trees or trace-event JSON with one
//     track per thread.
//   - Matrix stack reports: lines of "depth,methodId,count,costMs", or the
//     JSON issue (EvilMethod report) that carries them in "stack" and
//     "stackKey" fields. They become an indented, named call tree.
//   - Raw AppMethodBeat buffers: 64-bit records (bit 63 = enter, bits 43..62
//     = method id, bits 0..42 = milliseconds since start), as a binary file
//     in either byte order or as text with one number per line. Enter and
//     exit records are paired into calls; the result is a Chrome trace-event
//     JSON file, ftrace text, or a text summary of the slowest call trees.
//   - systrace/atrace text recorded with method ids as section names: the ids
//     in "tracing_mark_write: B|pid|<id>" lines are replaced by names and
//     every other byte is kept.
//   - Raw trace_marker dumps ("<seconds.fraction> [thread-tid] B|pid|name"),
//     which become ftrace text that the Perfetto UI opens.
//
// Recordings, buffers, systrace text and marker dumps are streamed: memory depends on
// the call depth and the size of the requested summary, not on the number
// of records (trace-event JSON from buffers is put in entry order by an
// external merge sort that spills to temporary files). Stack reports are
// small and read whole.
//
// The recording format's reader is package decode/recording; the trace
// formats decode writes (trace-event JSON, Perfetto, art, speedscope,
// HTML) are package decode/traceout's writers, fed through its Sink.
package decode
