package decode

// Record is one AppMethodBeat buffer entry: bit 63 is set for an enter (i)
// record, bits 43..62 hold the method id, bits 0..42 the milliseconds since
// the runtime started.
type Record uint64

const (
	recordEnterBit  = uint64(1) << 63
	recordIDShift   = 43
	recordIDMask    = uint64(0xFFFFF) // 20 bits
	recordTimeMask  = uint64(1)<<recordIDShift - 1
	maxRecordTimeMs = recordTimeMask
)

// MaxMethodID is the largest id a record can hold; Matrix's runtime ignores
// ids >= 0xFFFFF (METHOD_ID_MAX), so real buffers stay below it.
const MaxMethodID = int(recordIDMask)

// MakeRecord packs a record. Ids and times out of range are masked, as the
// runtime does.
func MakeRecord(enter bool, methodID int, timeMs uint64) Record {
	v := (uint64(methodID)&recordIDMask)<<recordIDShift | timeMs&recordTimeMask
	if enter {
		v |= recordEnterBit
	}
	return Record(v)
}

// Enter reports whether r is a method entry (i) record.
func (r Record) Enter() bool { return uint64(r)&recordEnterBit != 0 }

// MethodID is the method id in r.
func (r Record) MethodID() int { return int(uint64(r) >> recordIDShift & recordIDMask) }

// TimeMs is the milliseconds-since-start field of r.
func (r Record) TimeMs() uint64 { return uint64(r) & recordTimeMask }
