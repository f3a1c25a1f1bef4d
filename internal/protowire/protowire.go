// Package protowire appends the few forms of Protocol Buffers' wire format
// the traces and profiles tracebeat writes need (Perfetto's trace, pprof's
// profile): varint and length-delimited fields, and packed elements.
package protowire

import "encoding/binary"

// Wire types.
const (
	Varint = 0
	Bytes  = 2
)

// AppendTag appends a field's key.
func AppendTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

// AppendVarintField appends a varint field.
func AppendVarintField(b []byte, field int, v uint64) []byte {
	return binary.AppendUvarint(AppendTag(b, field, Varint), v)
}

// AppendBytesField appends a length-delimited field: a message, packed
// elements, bytes.
func AppendBytesField(b []byte, field int, v []byte) []byte {
	b = binary.AppendUvarint(AppendTag(b, field, Bytes), uint64(len(v)))
	return append(b, v...)
}

// AppendStringField appends a string field.
func AppendStringField(b []byte, field int, v string) []byte {
	b = binary.AppendUvarint(AppendTag(b, field, Bytes), uint64(len(v)))
	return append(b, v...)
}

// AppendPacked appends one element of a packed repeated varint field (the
// field itself is then written with AppendBytesField).
func AppendPacked(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }
