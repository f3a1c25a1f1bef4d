package decode

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
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
)

// Kinds lists the kinds --input-kind accepts.
var Kinds = []InputKind{KindStack, KindBuffer, KindBufferText, KindSystrace, KindMarker}

// DetectSample is how many leading bytes DetectKind wants.
const DetectSample = 64 * 1024

var (
	stackLinePattern  = regexp.MustCompile(`^\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*\d+$`)
	markerLinePattern = regexp.MustCompile(`^\d+(\.\d+)?:?[ \t]+(\S+-\d+[ \t]+)?[A-Z](\||$)`)
	numberPattern     = regexp.MustCompile(`^([+-]?\d+|0[xX][0-9a-fA-F]+)$`)
)

// DetectKind tells the input kind from the first bytes of an input.
func DetectKind(head []byte) (InputKind, error) {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(head)) == 0 {
		return "", fmt.Errorf("empty input")
	}
	if !looksLikeText(head) {
		return KindBuffer, nil
	}
	if bytes.Contains(head, []byte("tracing_mark_write")) || bytes.HasPrefix(head, []byte("# tracer:")) {
		return KindSystrace, nil
	}
	lower := bytes.ToLower(head[:min(len(head), 512)])
	if bytes.Contains(lower, []byte("<!doctype html")) || bytes.Contains(lower, []byte("<html")) {
		return KindSystrace, nil
	}
	lines := strings.Split(string(head), "\n")
	if len(head) == DetectSample && len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last line may be cut short
	}
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		switch {
		case line[0] == '{' || line[0] == '[':
			return KindStack, nil
		case stackLinePattern.MatchString(line):
			return KindStack, nil
		case markerLinePattern.MatchString(line):
			return KindMarker, nil
		case numberPattern.MatchString(line):
			return KindBufferText, nil
		}
		return "", fmt.Errorf("cannot tell the input kind from line %d %q; use --input-kind (one of %s)", i+1, shorten(line, 60), kindList())
	}
	return "", fmt.Errorf("cannot tell the input kind: only comments and blank lines in the first %d bytes; use --input-kind", len(head))
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
