package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/tracebeat/tracebeat/instrument"
)

// useCache sets up a run with --cache: the options get the cache
// directory and a key of everything on the command line that decides the
// outputs besides the inputs, and the map path, under which the cache
// keeps each run's planned map: unless --base-map names one, the map the
// last run kept for the same map path is the base map, so the ids of
// existing methods stay (instrument.Options.MapPath).
func useCache(opt *instrument.Options, fl *instrumentFlags, methodMap string) error {
	opt.Cache = fl.cache
	key, err := policyKey(fl)
	if err != nil {
		return err
	}
	opt.CacheKey = key
	opt.MapPath = methodMap
	return nil
}

// policyKey is the text of every option that decides what is traced and
// how: the tracing rules, the contents of the mapping and block list, and
// the block list's path, which names its rules (the runtime and mode are
// keyed by the pipeline itself).
func policyKey(fl *instrumentFlags) (string, error) {
	key := fmt.Sprintf("trace-all=%v abstract=%v empty=%v getset=%v single=%v",
		fl.traceAll, fl.traceAbstract, fl.traceEmpty, fl.traceGetSet, fl.traceSingle)
	for _, f := range []struct{ what, path string }{{"mapping", fl.mapping}, {"blacklist", fl.blacklist}} {
		if f.path == "" {
			continue
		}
		data, err := os.ReadFile(f.path)
		switch {
		case errors.Is(err, fs.ErrNotExist) && f.what == "blacklist" && !fl.strict:
			// As buildOptions reads it: a block list not written yet is
			// an empty one (Matrix's first build), with or without a cache.
			key += " blacklist=absent"
		case err != nil:
			return "", fileError(f.what, f.path, err)
		default:
			key += fmt.Sprintf(" %s=%x", f.what, sha256.Sum256(data))
		}
	}
	if fl.blacklist != "" {
		// The rules' origins ("file:line") name the file as given: the
		// cached scans count by them (ruleKey), and the report prints them.
		key += fmt.Sprintf(" blacklist-path=%q", fl.blacklist)
	}
	return key, nil
}
