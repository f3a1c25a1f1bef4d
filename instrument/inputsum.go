package instrument

import (
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/tracebeat/tracebeat/instrument/jario"
)

// A cached run knows a jar by two hashes of its bytes. Its check (XXH3,
// as the cache's other checksums) tells whether it is the jar the last
// run of the same command read, at memory speed: most runs change one
// jar of many. Its content sum (SHA-256) names the jar's pack wherever
// the jar lives, which other commands and paths share, so it is computed
// only for the jars a run must file: all of them in a full run, the
// changed ones in a delta run (while it does the rest).

// inputSums are what a cached run knows of its inputs' bytes: the checks
// of the inputs then the classpath, and the content sums of the inputs.
type inputSums struct {
	checks []jario.Checksum
	sums   [][32]byte
}

// check maps every jar (inputs and classpath) and computes its check on
// workers goroutines. An input directory's check and content sum come
// from its files (DirCheck); a classpath directory gets the zero check,
// which keeps its runs off the delta path.
func (c *inputSums) check(ctx context.Context, inputs, classpath []*jario.Input, workers int) error {
	all := append(append([]*jario.Input(nil), inputs...), classpath...)
	c.checks = make([]jario.Checksum, len(all))
	c.sums = make([][32]byte, len(inputs))
	return parallel(ctx, workers, len(all), func(i, _ int) error {
		in := all[i]
		if in.IsDir {
			if i >= len(inputs) {
				return nil
			}
			check, err := in.DirCheck()
			if err != nil {
				return err
			}
			c.checks[i], c.sums[i] = check, dirSum(check)
			return nil
		}
		in.Jar.MapContents()
		h := jario.NewCheckHasher()
		if err := in.Jar.CopyTo(h); err != nil {
			return fmt.Errorf("%s: %w", in.Path, err)
		}
		c.checks[i] = h.Sum()
		return nil
	})
}

// sum computes the content sums of the jar inputs that have none yet, of
// those marked in which when it is not nil.
func (c *inputSums) sum(ctx context.Context, inputs []*jario.Input, workers int, which []bool) error {
	return parallel(ctx, workers, len(inputs), func(i, _ int) error {
		in := inputs[i]
		if in.IsDir || c.sums[i] != ([32]byte{}) || (which != nil && !which[i]) {
			return nil
		}
		h := sha256.New()
		if err := in.Jar.CopyTo(h); err != nil {
			return fmt.Errorf("%s: %w", in.Path, err)
		}
		h.Sum(c.sums[i][:0])
		return nil
	})
}

// dirSum is the content sum of a class directory whose check is check:
// what its pack (keyed by the directory's path, not by its contents)
// records as the contents it was made from.
func dirSum(check jario.Checksum) [32]byte {
	return sha256.Sum256(append([]byte("dir\x00"), check[:]...))
}
