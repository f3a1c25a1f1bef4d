package recording

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
	// LongestGap is how late a record's time may be, in nanoseconds: up to
	// version 2 the longest time between two ticks the runtime saw (the time
	// from the last tick to the write included); from version 3 on, the
	// largest lateness the threads measured when they read the clock.
	LongestGap uint64
	// Adaptive (version 3 on): while the clock thread was late, threads
	// read the clock for every record.
	Adaptive bool
	// Typical (version 4) is how late a record's time may have been on
	// average over the records, where LongestGap is the worst: most
	// records' bound is far below the worst, which one late tick of a busy
	// machine sets for the whole recording (TypicalKnown: the recording
	// said it).
	Typical      uint64
	TypicalKnown bool
}

// TypicalResolution is the mean of the records' bounds when the recording
// says it, else Resolution: what an error added up over many records is
// weighed against.
func (c RecordingClock) TypicalResolution() uint64 {
	if !c.Shared {
		return 0
	}
	if c.TypicalKnown {
		return min(c.Typical, c.LongestGap)
	}
	return c.Resolution()
}

// coarseNs is the resolution from which decode calls a recording's times
// coarse and names the flag that makes them exact.
const coarseNs = 1_000_000

// Coarse reports whether times may be late by a millisecond or more.
func (c RecordingClock) Coarse() bool { return c.Resolution() >= coarseNs }

// Advice is what a user of a coarse recording can do: "" when its times
// are fine.
func (c RecordingClock) Advice() string {
	if !c.Coarse() {
		return ""
	}
	return "-Dtracebeat.clock=precise records exact times"
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
	var line string
	if c.Adaptive {
		line = fmt.Sprintf("clock: shared, read after each %s tick, every %d records, and for every record while the clock thread is late; a time may be up to %s late, never out of order",
			FormatDuration(c.Tick), c.ReadEvery, FormatDuration(c.LongestGap))
		if c.TypicalKnown && c.Typical < c.LongestGap {
			line += fmt.Sprintf(" (%s on average over the records)", FormatDuration(c.Typical))
		}
	} else {
		line = fmt.Sprintf("clock: shared, read after each %s tick and every %d records; a time may be up to %s late (the longest gap between ticks), never out of order",
			FormatDuration(c.Tick), c.ReadEvery, FormatDuration(c.LongestGap))
	}
	if a := c.Advice(); a != "" {
		line += "; " + a
	}
	return line
}

// FormatDuration shows nanoseconds in the unit that suits them, to three
// figures. A value that rounds to 1000 of a unit is shown in the next
// (999,999 ns is "1 ms", not "1e+03 µs").
func FormatDuration(ns uint64) string {
	switch {
	case ns >= 999_500_000_000:
		return fmt.Sprintf("%.0f s", float64(ns)/1e9)
	case ns >= 999_500_000:
		return fmt.Sprintf("%.3g s", float64(ns)/1e9)
	case ns >= 999_500:
		return fmt.Sprintf("%.3g ms", float64(ns)/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", float64(ns)/1e3)
	}
	return fmt.Sprintf("%d ns", ns)
}
