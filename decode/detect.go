package decode

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// InputKind is what an input holds.
type InputKind string

// Input kinds.
const (
	KindAuto       InputKind = ""
	KindStack      InputKind = "stack"       // Matrix stack lines or issue JSON
	KindBuffer     InputKind = "buffer"      // binary AppMethodBeat records
	KindBufferText InputKind = "buffer-text" // AppMethodBeat records as text numbers
	KindSystrace   InputKind = "systrace"    // systrace/atrace text (or HTML)
	KindMarker     InputKind = "marker"      // raw trace_marker dump
	KindRecording  InputKind = "recording"   // tracebeat's JVM runtime's file
)

// Kinds lists the kinds --input-kind accepts.
var Kinds = []InputKind{KindRecording, KindStack, KindBuffer, KindBufferText, KindSystrace, KindMarker}

// DetectSample is how many leading bytes DetectKind wants.
const DetectSample = 64 * 1024

var (
	stackLinePattern  = regexp.MustCompile(`^\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*\d+$`)
	markerLinePattern = regexp.MustCompile(`^\d+(\.\d+)?:?[ \t]+(\S+-\d+[ \t]+)?[A-Z](\||$)`)
	numberPattern     = regexp.MustCompile(`^([+-]?\d+|0[xX][0-9a-fA-F]+)$`)
)

// DetectKind tells the input kind from the first bytes of an input.
func DetectKind(head []byte) (InputKind, error) {
	full := len(head) == DetectSample // the input goes on: its last line may be cut short
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if bytes.HasPrefix(head, []byte(recording.RecordingMagic)) {
		return KindRecording, nil
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return "", notATrace("empty")
	}
	if !looksLikeText(head) {
		if bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")) {
			return "", notATrace("a zip archive, such as a jar")
		}
		if why := bufferEvidence(head); why != "" {
			return "", notATrace("binary, but not AppMethodBeat records: %s", why)
		}
		return KindBuffer, nil
	}
	lines := strings.Split(string(head), "\n")
	if full && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	// Systrace wants trace lines, not the word: a text about systrace
	// (this project's README) names tracing_mark_write too.
	for _, l := range lines {
		if isTraceLine(l) {
			return KindSystrace, nil
		}
	}
	lower := bytes.ToLower(head[:min(len(head), 512)])
	if bytes.Contains(lower, []byte("<!doctype html")) || bytes.Contains(lower, []byte("<html")) {
		// Systrace's HTML carries its trace after the viewer's scripts,
		// beyond any sample: the reader refuses it when no trace line
		// comes (systraceGate).
		return KindSystrace, nil
	}
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var kind InputKind
		var pattern *regexp.Regexp
		switch {
		case line[0] == '{' || line[0] == '[':
			return KindStack, nil
		case stackLinePattern.MatchString(line):
			kind, pattern = KindStack, stackLinePattern
		case markerLinePattern.MatchString(line):
			kind, pattern = KindMarker, markerLinePattern
		case numberPattern.MatchString(line):
			kind, pattern = KindBufferText, numberPattern
		default:
			return "", notATraceHint(fmt.Sprintf("use --input-kind (one of %s) if it is one", kindList()), "line %d %q is none of the formats", i+1, shorten(line, 60))
		}
		// One line that looks right is not enough: most lines of the
		// sample must. (A few bad ones are reported by the reader, with
		// their line numbers.)
		good, all := 0, 0
		for _, raw := range lines[i:] {
			if l := strings.TrimSpace(raw); l != "" && !strings.HasPrefix(l, "#") {
				all++
				if pattern.MatchString(l) {
					good++
				}
			}
		}
		if good*2 < all {
			return "", notATraceHint("use --input-kind if it is one", "only %d of %d lines read as %s lines", good, all, kind)
		}
		return kind, nil
	}
	return "", notATrace("only comments and blank lines in the first %d bytes", len(head))
}

// notATrace is the error of an input in none of the formats.
func notATrace(format string, args ...any) error {
	return &NotATraceError{Why: fmt.Sprintf(format, args...)}
}

func notATraceHint(hint, format string, args ...any) error {
	return &NotATraceError{Why: fmt.Sprintf(format, args...), Hint: hint}
}

// NotATraceError says that an input is in none of the formats: why, and
// what decode's --input-kind could do about it (a command without that
// flag leaves the hint out).
type NotATraceError struct {
	Why  string
	Hint string
}

func (e *NotATraceError) Error() string {
	if e.Hint != "" {
		return fmt.Sprintf("not a recognised trace (%s; %s)", e.Why, e.Hint)
	}
	return fmt.Sprintf("not a recognised trace (%s)", e.Why)
}

// bufferEvidence tells why head is not a buffer of records, or "" when
// it reads as one in either byte order: times that do not go back (but
// once, where a ring buffer wrapped) and stay far below the field's 2^43
// ms, ids below the runtime's limit. Random bytes have their times out of
// order half the time.
func bufferEvidence(head []byte) string {
	n := len(head) / 8
	if n < 4 {
		return "" // too short to judge; the reader says what is wrong
	}
	best := 0.0
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		back, plausible := 0, 0
		var prev uint64
		for i := 0; i < n; i++ {
			r := Record(order.Uint64(head[i*8:]))
			if r.MethodID() < MaxMethodID && r.TimeMs() < 1<<40 {
				plausible++
			}
			if i > 0 && r.TimeMs() < prev {
				back++
			}
			prev = r.TimeMs()
		}
		score := min(float64(plausible)/float64(n), 1-float64(max(back-1, 0))/float64(n-1))
		best = max(best, score)
	}
	if best < 0.9 {
		return fmt.Sprintf("in the first %d records, under 90%% have plausible ids and times in order", n)
	}
	return ""
}

func kindList() string {
	parts := make([]string, len(Kinds))
	for i, k := range Kinds {
		parts[i] = string(k)
	}
	return strings.Join(parts, ", ")
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// looksLikeText: binary buffers hold zero bytes almost always (the time
// field's high bytes); text never does.
func looksLikeText(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	control := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			control++
		}
	}
	if control > len(b)/100 {
		return false
	}
	// A cut-off multi-byte rune at the end of the sample is fine.
	valid := b
	for i := 0; i < 3 && len(valid) > 0 && !utf8.Valid(valid); i++ {
		valid = valid[:len(valid)-1]
	}
	return utf8.Valid(valid)
}
