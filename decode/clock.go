package decode

import "fmt"

// RecordingClock is how the runtime stamped a recording's records
// (RECORDING.md, "Clock"). The zero value is the precise clock, which is
// what version 1 files used.
type RecordingClock struct {
	// Shared: a thread read System.nanoTime() only when the clock thread had
	// ticked since its last read, or after ReadEvery records; the records in
	// between carry the time of that read.
	Shared bool
	// Tick is the clock thread's period in nanoseconds.
	Tick uint64
	// ReadEvery is the number of records after which a thread reads the
	// clock although it has not ticked.
	ReadEvery int64
	// LongestGap is the longest time between two ticks the runtime saw, in
	// nanoseconds, the time from the last tick to the write included.
	LongestGap uint64
}

// Resolution is how late any record's time may be, in nanoseconds: 0 for
// the precise clock (every time was read when its record was made).
func (c RecordingClock) Resolution() uint64 {
	if !c.Shared {
		return 0
	}
	return c.LongestGap
}

// String says in one line how times were taken and what they are worth:
// the line the text summary, the JSON metadata and the Perfetto trace carry.
func (c RecordingClock) String() string {
	if !c.Shared {
		return "clock: precise, System.nanoTime() read for every record"
	}
	return fmt.Sprintf("clock: shared, read after each %s tick and every %d records; a time may be up to %s late (the longest gap between ticks), never out of order",
		formatDuration(c.Tick), c.ReadEvery, formatDuration(c.LongestGap))
}

// formatDuration shows nanoseconds in the unit that suits them.
func formatDuration(ns uint64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.3g ms", float64(ns)/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", float64(ns)/1e3)
	}
	return fmt.Sprintf("%d ns", ns)
}
