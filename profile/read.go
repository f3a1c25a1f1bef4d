package profile

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/tracebeat/tracebeat/decode/recording"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tracebeat/tracebeat/decode"
)

// Read adds up the trace in the file at path: a recording of tracebeat's
// runtime, or an AppMethodBeat buffer (binary in either byte order, or as
// text), named with names (nil: every id unknown). m is the map names came
// from, checked against a recording's builds (decode.CheckBuild).
func Read(path string, names *decode.MethodNames, m decode.MapBuild) (*Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, decode.DetectSample)
	head, err := br.Peek(decode.DetectSample)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	kind, err := decode.DetectKind(head)
	if err != nil {
		var nt *decode.NotATraceError
		if errors.As(err, &nt) { // no --input-kind here: a trace is a recording or a buffer
			return nil, fmt.Errorf("%s: not a recognised trace (%s): a recording of tracebeat's runtime or an AppMethodBeat buffer is", path, nt.Why)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch kind {
	case decode.KindRecording:
		var size int64
		if st, err := f.Stat(); err == nil {
			size = st.Size()
		}
		return readRecording(br, f, size, path, names, m)
	case decode.KindBuffer, decode.KindBufferText:
		var rr decode.RecordReader
		if kind == decode.KindBuffer {
			if rr, _, err = decode.NewBinaryRecordReader(br, nil, names); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		} else {
			rr = decode.NewTextRecordReader(br, path)
		}
		p, err := readBuffer(rr, path, names)
		if err != nil {
			return nil, err
		}
		if n := decode.UncheckedBuildNote(path, m); n != "" {
			p.Notes = append(p.Notes, n)
		}
		return p, nil
	}
	return nil, fmt.Errorf("%s: a %s has no calls with times to add up (a recording or an AppMethodBeat buffer has)", path, kind)
}

func readRecording(r *bufio.Reader, ra io.ReaderAt, size int64, path string, names *decode.MethodNames, m decode.MapBuild) (*Profile, error) {
	rec, err := recording.ReadAt(r, ra, size, path)
	if err != nil {
		return nil, err
	}
	defer rec.Close()
	note, err := decode.CheckBuild(path, rec, m)
	if err != nil {
		return nil, err
	}
	a := newAdder()
	var lost int64
	var lossy []string
	for {
		th, err := rec.NextThread()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		t := a.thread(rec.Where)
		rec.OnOpen = t.closeAbove
		if err := rec.Records(t.call); err != nil {
			return nil, err
		}
		if err := t.end(rec.End); err != nil {
			return nil, err
		}
		if th.Lost > 0 {
			lost += th.Lost
			if len(lossy) < 3 {
				lossy = append(lossy, th.Label())
			} else if len(lossy) == 3 {
				lossy = append(lossy, "...")
			}
		}
	}
	p := a.profile(path, func(id int) string {
		if i, ok := recording.SectionIndex(id); ok {
			if s, ok := rec.Sections[i]; ok {
				return s
			}
			return fmt.Sprintf("<section %d>", i)
		}
		return names.Name(id)
	})
	p.Builds = rec.Builds
	p.Start = rec.Start
	p.End = rec.Start.Add(time.Duration(rec.End))
	p.Resolution = int64(rec.Clock.Resolution())
	p.TypicalResolution = int64(rec.Clock.TypicalResolution())
	p.LateResolution = a.lateResolution(p.TypicalResolution)
	if note != "" {
		p.Notes = append(p.Notes, note)
	}
	if lost > 0 {
		p.Missing = append(p.Missing, fmt.Sprintf("%d records lost (%s): the rings were full, the oldest went; -Dtracebeat.budget raises it, -Dtracebeat.mode=stream keeps the whole run",
			lost, strings.Join(lossy, ", ")))
	}
	p.Missing = append(p.Missing, rec.Notes...)
	if rec.Clock.Coarse() {
		p.Notes = append(p.Notes, fmt.Sprintf("times may be up to %s late: %s", recording.FormatDuration(rec.Clock.Resolution()), rec.Clock.Advice()))
	}
	return p, nil
}

func readBuffer(rr decode.RecordReader, path string, names *decode.MethodNames) (*Profile, error) {
	a := newAdder()
	a.allLate = true
	t := a.thread(rr.Where)
	var last uint64
	for {
		r, err := rr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if r == 0 {
			continue // an empty slot of the ring
		}
		// Matrix's times are milliseconds; profiles add up nanoseconds.
		at := r.TimeMs() * 1e6
		last = max(last, at)
		if err := t.call(r.Enter(), r.MethodID(), at); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := t.end(last); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p := a.profile(path, names.Name)
	p.Resolution = 1e6
	p.TypicalResolution = 1e6
	p.LateResolution = 1e6
	return p, nil
}
