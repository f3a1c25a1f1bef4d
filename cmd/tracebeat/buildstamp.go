package main

import (
	"fmt"
	"os"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/internal/buildstamp"
	"github.com/tracebeat/tracebeat/internal/outset"
)

// stampBuild writes the build identity (methodmap.BuildID of the map this
// run wrote) into one of the staged outputs, where the recording runtime
// finds it on the class path: the merged jar; in a mirror, the first class
// folder, else the smallest jar (the stamp is appended in place, but a jar
// the cache links is copied first). One output only, so that no output the
// cache hands to a later run carries another build's identity.
func stampBuild(res *instrument.Result, set *outset.Set, id string) error {
	var jar, jarFinal string
	var jarSize int64 = -1
	for _, final := range res.Outputs {
		temp, ok := set.Staged(final)
		if !ok {
			continue
		}
		st, err := os.Stat(temp)
		if err != nil {
			return err
		}
		if st.IsDir() {
			if err := buildstamp.Dir(temp, id); err != nil {
				return fmt.Errorf("%s: writing the build identity: %w", final, unwrapPathError(err))
			}
			return nil
		}
		if jarSize < 0 || st.Size() < jarSize {
			jar, jarFinal, jarSize = temp, final, st.Size()
		}
	}
	if jar == "" {
		return nil
	}
	if err := buildstamp.Jar(jar, id); err != nil {
		return fmt.Errorf("%s: writing the build identity: %w", jarFinal, unwrapPathError(err))
	}
	return nil
}
