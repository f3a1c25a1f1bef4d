package instrument

import (
	"context"
	"crypto/sha256"
	"fmt"
)

// A cached run knows a jar by two hashes of its bytes. Its check (XXH3,
// as the cache's other checksums) tells whether it is the jar the last
// run of the same command read, at memory speed: most runs change one
// jar of many. Its content sum (SHA-256) names the jar's pack wherever
// the jar lives, which other commands and paths share, so it is computed
// only for the jars a run must file: all of them in a full run, the
// changed ones in a delta run (while it does the rest).

// checkInputs maps every jar (inputs and classpath) and computes its check
// on the workers; a directory gets the zero check.
func (p *pipeline) checkInputs(ctx context.Context) error {
	all := append(append([]*input(nil), p.inputs...), p.classpath...)
	p.checks = make([]checksum, len(all))
	p.inputSums = make([][32]byte, len(p.inputs))
	return p.parallel(ctx, len(all), func(i, _ int) error {
		in := all[i]
		if in.isDir {
			return nil
		}
		in.jar.mapContents()
		h := newCheckHasher()
		if err := in.jar.writeTo(h); err != nil {
			return fmt.Errorf("%s: %w", in.path, err)
		}
		p.checks[i] = h.sum()
		return nil
	})
}

// sumInputs computes the content sums of the jar inputs that have none
// yet, of those marked in which when it is not nil.
func (p *pipeline) sumInputs(ctx context.Context, which []bool) error {
	return p.parallel(ctx, len(p.inputs), func(i, _ int) error {
		in := p.inputs[i]
		if in.isDir || p.inputSums[i] != ([32]byte{}) || (which != nil && !which[i]) {
			return nil
		}
		h := sha256.New()
		if err := in.jar.writeTo(h); err != nil {
			return fmt.Errorf("%s: %w", in.path, err)
		}
		h.Sum(p.inputSums[i][:0])
		return nil
	})
}
