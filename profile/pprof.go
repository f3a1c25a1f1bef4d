package profile

import (
	"compress/gzip"
	"io"
	"slices"

	"github.com/tracebeat/tracebeat/internal/protowire"
)

// Field numbers of pprof's profile.proto (github.com/google/pprof,
// proto/profile.proto).
const (
	ppSampleType   = 1  // Profile.sample_type
	ppSample       = 2  // Profile.sample
	ppLocation     = 4  // Profile.location
	ppFunction     = 5  // Profile.function
	ppStringTable  = 6  // Profile.string_table
	ppDuration     = 10 // Profile.duration_nanos
	ppPeriodType   = 11 // Profile.period_type
	ppPeriod       = 12 // Profile.period
	ppComment      = 13 // Profile.comment (string table indexes)
	ppDefaultType  = 14 // Profile.default_sample_type
	ppValueType    = 1  // ValueType.type
	ppValueUnit    = 2  // ValueType.unit
	ppSampleLocIDs = 1  // Sample.location_id
	ppSampleValues = 2  // Sample.value
	ppLocationID   = 1  // Location.id
	ppLocationLine = 4  // Location.line
	ppLineFunction = 1  // Line.function_id
	ppFunctionID   = 1  // Function.id
	ppFunctionName = 2  // Function.name
	ppFunctionSys  = 3  // Function.system_name
)

// WritePprof writes the profile as pprof's gzipped profile.proto: a sample
// per call path, its locations leaf first, with two values: the calls of
// the path (calls/count) and its self time (time/nanoseconds, the
// default). pprof's flat time of a method is then its self time, its cum
// time its total. A method is one function and one location.
func (p *Profile) WritePprof(w io.Writer) error {
	var b pbuf
	strs := map[string]int{"": 0}
	table := []string{""}
	str := func(s string) uint64 {
		if i, ok := strs[s]; ok {
			return uint64(i)
		}
		strs[s] = len(table)
		table = append(table, s)
		return uint64(len(table) - 1)
	}
	valueType := func(field int, typ, unit string) {
		var v pbuf
		v.varint(ppValueType, str(typ))
		v.varint(ppValueUnit, str(unit))
		b.bytes(field, v)
	}
	valueType(ppSampleType, "calls", "count")
	valueType(ppSampleType, "time", "nanoseconds")
	funcs := map[string]uint64{} // name -> function and location id
	var order []string
	var stack []uint64
	var walk func(n *Node)
	walk = func(n *Node) {
		for _, name := range childNames(n) {
			c := n.Children[name]
			id, ok := funcs[name]
			if !ok {
				id = uint64(len(funcs) + 1)
				funcs[name] = id
				order = append(order, name)
			}
			stack = append(stack, id)
			var s, locs, vals pbuf
			for i := len(stack) - 1; i >= 0; i-- { // leaf first
				locs.raw(stack[i])
			}
			s.bytes(ppSampleLocIDs, locs)
			vals.raw(uint64(c.Stat.Calls))
			vals.raw(uint64(c.Stat.Self))
			s.bytes(ppSampleValues, vals)
			b.bytes(ppSample, s)
			walk(c)
			stack = stack[:len(stack)-1]
		}
	}
	walk(p.Tree)
	for i, name := range order {
		id := uint64(i + 1)
		var line, loc, fn pbuf
		line.varint(ppLineFunction, id)
		loc.varint(ppLocationID, id)
		loc.bytes(ppLocationLine, line)
		b.bytes(ppLocation, loc)
		fn.varint(ppFunctionID, id)
		fn.varint(ppFunctionName, str(name))
		fn.varint(ppFunctionSys, str(name))
		b.bytes(ppFunction, fn)
	}
	b.varint(ppDuration, uint64(p.Tree.Stat.Total))
	valueType(ppPeriodType, "time", "nanoseconds")
	b.varint(ppPeriod, 1)
	b.varint(ppDefaultType, str("time"))
	// What the trace lost and what is rough: pprof shows comments
	// (-comments, and in the web view's legend).
	for _, c := range append(slices.Clone(p.Missing), p.Notes...) {
		b.varint(ppComment, str("tracebeat: "+c))
	}
	for _, s := range table {
		b.str(ppStringTable, s)
	}
	zw := gzip.NewWriter(w)
	if _, err := zw.Write(b); err != nil {
		return err
	}
	return zw.Close()
}

// pbuf is a protobuf message being written (internal/protowire).
type pbuf []byte

// raw appends an element of a packed field.
func (b *pbuf) raw(v uint64) { *b = protowire.AppendPacked(*b, v) }

func (b *pbuf) varint(field int, v uint64) { *b = protowire.AppendVarintField(*b, field, v) }

func (b *pbuf) bytes(field int, v pbuf) { *b = protowire.AppendBytesField(*b, field, v) }

func (b *pbuf) str(field int, s string) { *b = protowire.AppendStringField(*b, field, s) }
