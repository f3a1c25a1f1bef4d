package mapping

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLenientObject reads R8's metadata as R8 writes it and as people
// edit it: spaces of each kind around everything, every escape, single
// quotes, bare words, trailing commas; and names where each malformed
// input goes wrong.
func TestLenientObject(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]any
	}{
		{` {"id":"sourceFile","fileName":"A.java"} `, map[string]any{"id": "sourceFile", "fileName": "A.java"}},
		{"\t\r\n{ id :\tcom.android.tools.r8.rewriteFrame ,\r\n conditions : [ 'throws(La;)' , ] , }\n",
			map[string]any{"id": "com.android.tools.r8.rewriteFrame", "conditions": []any{"throws(La;)"}}},
		{`{"e":"\"\'\\\/\b\f\n\r\t\u00e9\u20AC|é"}`, map[string]any{"e": "\"'\\/\b\f\n\r\t\u00e9€|é"}},
		{`{'k':'v',"n":-1.5e2,"t":true,"f":false,"z":null,"a":[],"o":{},"w":x}`,
			map[string]any{"k": "v", "n": -150.0, "t": true, "f": false, "z": nil, "a": []any{}, "o": map[string]any{}, "w": "x"}},
		{`{"a":[1,[2,[3]],{"b":[]}]}`, map[string]any{"a": []any{1.0, []any{2.0, []any{3.0}}, map[string]any{"b": []any{}}}}},
	} {
		got, err := parseLenientObject(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	deep := strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1)
	_, err := parseLenientObject(`{"a":` + deep + `}`)
	assert.NoError(t, err, "64 levels")
	for _, tc := range []struct{ in, err string }{
		{``, "metadata does not start with '{'"},
		{`[1]`, "metadata does not start with '{'"},
		{`{}x`, `unexpected "x" after the metadata object`},
		{`{} {}`, `unexpected "{}" after the metadata object`},
		{`{"a"`, `at offset 4: expected ':' after key "a"`},
		{`{"a":}`, `at offset 5: unexpected '}'`},
		{`{"a":`, `at offset 5: unexpected end of metadata`},
		{`{"a":1 "b":2}`, `at offset 7: expected ',' or '}'`},
		{`{"a":[1 2]}`, `at offset 8: expected ',' or ']'`},
		{`{"a":[1,}`, `at offset 8: unexpected '}'`},
		{`{"a":[`, `unexpected end of metadata`},
		{`{:1}`, `at offset 1: expected a key`},
		{`{"a`, `at offset 3: unterminated string`},
		{`{"a":"b\`, `at offset 7: unterminated escape`},
		{`{"a":"\x"}`, `at offset 8: unknown escape \x`},
		{`{"a":"\u12"`, `at offset 8: short \u escape`},
		{`{"a":"\u12"}`, `at offset 8: bad \u escape "12\"}"`},
		{`{"a":"\u12G4"}`, `at offset 8: bad \u escape "12G4"`},
		{`{"a":` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + `}`, "metadata nested deeper than 64 levels"},
		{strings.Repeat(`{"a":`, maxDepth+1), "metadata nested deeper than 64 levels"},
		{`{"a":{"b"}}`, `expected ':' after key "b"`},
		{`{"a":{"b":}}`, `unexpected '}'`},
		{`{"a":[{"b"}]}`, `expected ':' after key "b"`},
		{`{"a":b"c"}`, `expected ',' or '}'`},
		{`{"a":b'c'}`, `expected ',' or '}'`},
		{`{"a":x y}`, `expected ',' or '}'`},
		{"{\"a\":x\ty}", `expected ',' or '}'`},
		{"{\"a\":x\ry}", `expected ',' or '}'`},
		{"{\"a\":x\ny}", `expected ',' or '}'`},
	} {
		_, err := parseLenientObject(tc.in)
		assert.ErrorContains(t, err, tc.err, tc.in)
	}
}

// TestEscapeAtTheEnd: a string cut right after an escape is unterminated,
// not a bad escape.
func TestEscapeAtTheEnd(t *testing.T) {
	_, err := parseLenientObject(`{"a":"\n`)
	assert.ErrorContains(t, err, "unterminated string")
}
