package classfile

import (
	"unicode/utf16"
	"unicode/utf8"
)

// decodeModifiedUTF8 converts the JVM's modified UTF-8 (NUL as C0 80,
// supplementary characters as surrogate pairs of 3-byte sequences) to a Go
// string. Plain ASCII, the common case, is converted without inspection.
func decodeModifiedUTF8(b []byte) string {
	plain := true
	for _, c := range b {
		if c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return string(b)
	}
	var units []uint16
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c < 0x80:
			units = append(units, uint16(c))
			i++
		case c&0xE0 == 0xC0 && i+1 < len(b):
			units = append(units, uint16(c&0x1F)<<6|uint16(b[i+1]&0x3F))
			i += 2
		case c&0xF0 == 0xE0 && i+2 < len(b):
			units = append(units, uint16(c&0x0F)<<12|uint16(b[i+1]&0x3F)<<6|uint16(b[i+2]&0x3F))
			i += 3
		default: // malformed: keep the byte as a replacement so names stay distinct
			units = append(units, utf8.RuneError)
			i++
		}
	}
	return string(utf16.Decode(units))
}

// encodeModifiedUTF8 is the inverse of decodeModifiedUTF8.
func encodeModifiedUTF8(s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		if s[i] == 0 || s[i] >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return []byte(s)
	}
	out := make([]byte, 0, len(s)+8)
	for _, u := range utf16.Encode([]rune(s)) {
		switch {
		case u != 0 && u < 0x80:
			out = append(out, byte(u))
		case u < 0x800:
			out = append(out, 0xC0|byte(u>>6), 0x80|byte(u&0x3F))
		default:
			out = append(out, 0xE0|byte(u>>12), 0x80|byte(u>>6&0x3F), 0x80|byte(u&0x3F))
		}
	}
	return out
}
