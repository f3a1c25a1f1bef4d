package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tracebeat/tracebeat/instrument"
)

// useCachedMap sets up a run with --cache: the options get the cache
// directory and a key of everything on the command line that decides the
// outputs besides the inputs, and, unless --base-map names one, the map
// the last run wrote to the same map path becomes the base map, so the
// ids of existing methods stay. It returns where this run's map is kept.
func useCachedMap(opt *instrument.Options, fl *instrumentFlags, methodMap string) (string, error) {
	dir := fl.cache
	opt.Cache = dir
	key, err := policyKey(fl)
	if err != nil {
		return "", err
	}
	opt.CacheKey = key
	kept, err := instrument.CachedMapPath(dir, methodMap)
	if err != nil {
		return "", err
	}
	// The pipeline reads the kept map as the base map (an explicit
	// --base-map wins) when it plans every method, and patches the last
	// run's maps when it can (instrument.Options.KeptMap).
	opt.KeptMap = kept
	// The report lists every ignored method, which only a full run has.
	opt.Lists = fl.report != ""
	return kept, nil
}

// policyKey is the text of every option that decides what is traced and
// how: the tracing rules and the contents of the mapping and block list
// (the runtime and mode are keyed by the pipeline itself).
func policyKey(fl *instrumentFlags) (string, error) {
	key := fmt.Sprintf("trace-all=%v abstract=%v empty=%v getset=%v single=%v",
		fl.traceAll, fl.traceAbstract, fl.traceEmpty, fl.traceGetSet, fl.traceSingle)
	for _, f := range []struct{ what, path string }{{"mapping", fl.mapping}, {"blacklist", fl.blacklist}} {
		if f.path == "" {
			continue
		}
		data, err := os.ReadFile(f.path)
		if err != nil {
			return "", fileError(f.what, f.path, err)
		}
		key += fmt.Sprintf(" %s=%x", f.what, sha256.Sum256(data))
	}
	return key, nil
}

// keepMap keeps the run's planned map (instrument.Result.PlannedText:
// the methods left untouched keep their ids too) in the cache as the next
// run's base map.
func keepMap(res *instrument.Result, kept string) error {
	if err := os.MkdirAll(filepath.Dir(kept), 0o755); err != nil {
		return err
	}
	return writeBytes(kept, res.PlannedText)
}
