// Package recordingtest writes recordings of tracebeat's runtime for
// tests, in the slot versions (1 to 3) the runtime's TraceFile writes at
// exit, so that a reader's tests need no JVM.
package recordingtest

import (
	"bytes"
	"encoding/binary"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// SlotsVersion is the newest version that stores a thread's records as
// ring slots (version 4 stores chunks of tokens).
const SlotsVersion = 3

// Thread is one thread of a recording Write builds.
type Thread struct {
	Tid     int64
	Name    string
	Virtual bool
	Lost    int64
	Records [][2]uint64 // time, word (a method id, with recording.ExitFlag for an exit)
}

// Write builds a recording of version (1 to SlotsVersion) as TraceFile
// writes it: the clock from version 2 on, builds from version 3 on, and a
// thread's records as slots with a time mark wherever the time changes.
func Write(version int, clock recording.RecordingClock, builds []string, end uint64, sections map[int]string, threads ...Thread) []byte {
	var b bytes.Buffer
	be := binary.BigEndian
	put := func(v any) { binary.Write(&b, be, v) }
	str := func(s string) { put(uint16(len(s))); b.WriteString(s) }
	b.WriteString(recording.RecordingMagic)
	put(uint16(version))
	put(uint64(1_700_000_000_000))
	put(end)
	put(uint64(4242))
	put(uint64(64 << 20))
	if version >= 2 {
		mode := uint8(0)
		if clock.Shared {
			mode = 1
		}
		put(mode)
		put(clock.Tick)
		put(uint32(clock.ReadEvery))
		put(clock.LongestGap)
	}
	if version >= 3 {
		put(uint16(len(builds)))
		for _, id := range builds {
			str(id)
		}
	}
	put(uint32(len(sections)))
	for i := 0; i < len(sections); i++ {
		put(uint32(i))
		str(sections[i])
	}
	put(uint32(len(threads)))
	for _, t := range threads {
		put(uint64(t.Tid))
		str(t.Name)
		if version >= 3 {
			flags := uint8(0)
			if t.Virtual {
				flags = recording.VirtualFlag
			}
			put(flags)
		}
		put(uint64(t.Lost))
		put(uint32(len(t.Records)))
		if version == 1 {
			for _, r := range t.Records {
				put(r[0])
				put(uint32(r[1]))
			}
			continue
		}
		var slots []uint32
		for i, r := range t.Records {
			if i == 0 || r[0] != t.Records[i-1][0] {
				slots = append(slots, recording.MarkHigh|uint32(r[0]>>28), recording.MarkLow|uint32(r[0]&recording.MarkValue))
			}
			slots = append(slots, uint32(r[1]))
		}
		put(uint32(len(slots)))
		put(slots)
	}
	return b.Bytes()
}
