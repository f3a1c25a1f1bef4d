package recording_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// TestClockBounds: how late a time may be, at worst and on average, by
// the kind of clock and what the recording said.
func TestClockBounds(t *testing.T) {
	for _, tc := range []struct {
		name                string
		clock               recording.RecordingClock
		resolution, typical uint64
		coarse              bool
	}{
		{"precise", recording.RecordingClock{LongestGap: 5_000, Typical: 300, TypicalKnown: true}, 0, 0, false},
		{"shared, the mean known", recording.RecordingClock{Shared: true, LongestGap: 5_000, Typical: 300, TypicalKnown: true}, 5_000, 300, false},
		{"shared, a mean past the worst", recording.RecordingClock{Shared: true, LongestGap: 5_000, Typical: 9_000, TypicalKnown: true}, 5_000, 5_000, false},
		{"shared, no mean", recording.RecordingClock{Shared: true, LongestGap: 5_000, Typical: 300}, 5_000, 5_000, false},
		{"shared, a millisecond late", recording.RecordingClock{Shared: true, LongestGap: 1_000_000}, 1_000_000, 1_000_000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.resolution, tc.clock.Resolution())
			assert.Equal(t, tc.typical, tc.clock.TypicalResolution())
			assert.Equal(t, tc.coarse, tc.clock.Coarse())
			if tc.coarse {
				assert.Equal(t, "-Dtracebeat.clock=precise records exact times", tc.clock.Advice())
			} else {
				assert.Empty(t, tc.clock.Advice())
			}
		})
	}
}

// TestClockLine: the line every output carries, for each kind of clock.
func TestClockLine(t *testing.T) {
	for _, tc := range []struct {
		clock recording.RecordingClock
		want  string
	}{
		{recording.RecordingClock{}, "clock: precise, System.nanoTime() read for every record"},
		{recording.RecordingClock{Shared: true, Adaptive: true, Tick: 1_000_000, ReadEvery: 64, LongestGap: 40_000, Typical: 300, TypicalKnown: true},
			"clock: shared, read after each 1 ms tick, every 64 records, and for every record while the clock thread is late; a time may be up to 40 µs late, never out of order (300 ns on average over the records)"},
		{recording.RecordingClock{Shared: true, Adaptive: true, Tick: 1_000_000, ReadEvery: 64, LongestGap: 40_000, Typical: 40_000, TypicalKnown: true},
			"clock: shared, read after each 1 ms tick, every 64 records, and for every record while the clock thread is late; a time may be up to 40 µs late, never out of order"},
		{recording.RecordingClock{Shared: true, Adaptive: true, Tick: 1_000_000, ReadEvery: 64, LongestGap: 40_000, Typical: 300},
			"clock: shared, read after each 1 ms tick, every 64 records, and for every record while the clock thread is late; a time may be up to 40 µs late, never out of order"},
		{recording.RecordingClock{Shared: true, Tick: 1_000_000, ReadEvery: 64, LongestGap: 2_500_000},
			"clock: shared, read after each 1 ms tick and every 64 records; a time may be up to 2.5 ms late (the longest gap between ticks), never out of order; -Dtracebeat.clock=precise records exact times"},
	} {
		assert.Equal(t, tc.want, tc.clock.String())
	}
}
