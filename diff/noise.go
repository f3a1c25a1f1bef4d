package diff

import (
	"math"
	"slices"
)

// The guard against what a loaded machine does to single methods. The
// moderated t-test assumes a method's runs vary about one level; a JVM's
// do not always: a method may run at one of two levels from one run to the
// next (what the JIT made of it), or take a pause of the collector or the
// scheduler that is not its own. With a few runs a side, three of one
// build can sit at the other level by chance, and the test, seeing them
// agree, calls it a change. What such methods do shows in the runs of
// every build, though: so a move counts only when it is larger than what
// most methods of the same size do between runs of one build.

// noiseQuantile: the move must exceed the spread of nine methods in ten.
const noiseQuantile = 0.9

// noiseWidth is how many of a method's standard deviations (of its runs'
// log times, the larger side's) make its spread. A deviation and not the
// runs' range: a range grows with the runs, and more runs would then hide
// more.
const noiseWidth = 2

// sizeWindow: methods within this factor of a method's time are of its
// size (a method of microseconds varies more, relatively, than one of
// seconds).
const sizeWindow = 2

// minOfASize is how many methods of its size a method needs for their
// spreads to say something. A small program has fewer: then the move
// must exceed, in milliseconds, the spread of nine in ten of its other
// methods (a program of eight methods, recorded on a loaded machine,
// had its main's self time at 8 ms in half the runs and 22 ms in the
// others, and no method of its size to show it).
const minOfASize = 10

// noise is the least move a method's median must exceed: on the log
// scale (log) when enough methods of its size show theirs, else in
// milliseconds (ms).
type noise struct {
	log, ms float64
	inMs    bool
}

// hides reports whether a move from base to next ms is within the noise.
func (n noise) hides(base, next float64) bool {
	if n.inMs {
		return abs(next-base) <= n.ms
	}
	return abs(logRatio(next, base)) <= n.log
}

// logRatio is how far b is from a on the log scale, each at least the
// floor.
func logRatio(b, a float64) float64 {
	return math.Log(max(b, logFloorMs) / max(a, logFloorMs))
}

// sizeNoise is, for each method, the noiseQuantile quantile of the
// spreads of the methods whose smaller median is within sizeWindow of its
// own: how far apart runs of one build of a method of its size may be
// (with fewer than minOfASize such methods, of the other methods'
// spreads in ms). samples are the methods' log times, before normalizeRuns; runMs
// their times in ms, a method's BASE runs then NEW's.
func sizeNoise(ms []Method, samples []sample, runMs [][2][]float64, opt Options) []noise {
	size := make([]float64, len(ms))
	spreads := make([]float64, len(ms))
	msSpreads := make([]float64, len(ms))
	for i, m := range ms {
		baseT, newT := deciders(m, opt)
		size[i] = max(min(baseT, newT), logFloorMs)
		spreads[i] = noiseWidth * math.Sqrt(max(variance(samples[i].base), variance(samples[i].next)))
		msSpreads[i] = noiseWidth * math.Sqrt(max(variance(runMs[i][0]), variance(runMs[i][1])))
	}
	othersMs := othersQuantile(msSpreads, noiseQuantile)
	out := make([]noise, len(ms))
	near := make([]float64, 0, len(ms))
	for i := range ms {
		near = near[:0]
		for j := range ms {
			if size[j] >= size[i]/sizeWindow && size[j] <= size[i]*sizeWindow {
				near = append(near, spreads[j])
			}
		}
		if len(near) < minOfASize {
			out[i] = noise{ms: othersMs(msSpreads[i]), inMs: true}
			continue
		}
		out[i] = noise{log: quantile(near, noiseQuantile)}
	}
	return out
}

// othersQuantile gives, for a method's own spread, the q quantile of the
// other methods' spreads. Its own stays out: the t-test has weighed it
// already, and in a program of a few methods it would be the guard
// itself, where a regressed method that also varies more (a 3 ms wait
// became 9 ms, and the scheduler's pauses grew with it) hides its own
// change: the rule this replaced failed that way.
func othersQuantile(spreads []float64, q float64) func(own float64) float64 {
	sorted := slices.Clone(spreads)
	slices.Sort(sorted)
	if len(sorted) < 2 {
		return func(float64) float64 { return 0 }
	}
	k := min(len(sorted)-2, int(q*float64(len(sorted)-1)))
	return func(own float64) float64 {
		if own <= sorted[k] {
			return sorted[k+1] // without own, what stood at k+1 moves to k
		}
		return sorted[k]
	}
}

func variance(xs []float64) float64 {
	_, v := meanVar(xs)
	return v
}

// quantile is the q quantile of xs (sorted in place), the value at rank
// q·n.
func quantile(xs []float64, q float64) float64 {
	slices.Sort(xs)
	return xs[min(len(xs)-1, int(q*float64(len(xs))))]
}
