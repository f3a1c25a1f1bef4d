package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/internal/atomicfile"
	"github.com/tracebeat/tracebeat/internal/outset"
	"github.com/tracebeat/tracebeat/internal/pathguard"
	"github.com/tracebeat/tracebeat/methodmap"
)

// outputPaths are the files written after the pipeline: the maps and the
// optional report.
type outputPaths struct {
	methodMap, ignoreMap, report string
	// anchor is the output folder (the merged jar's folder with --merge):
	// where a run's publish journal lives.
	anchor string
	// inventory names the file in anchor that lists what the last run of
	// this output wrote there: the folder's for mirrors, the jar's own
	// with --merge (other jars in that folder are other runs').
	inventory string
}

// dirs are the folders the run writes in.
func (p outputPaths) dirs() []string {
	dirs := []string{p.anchor, filepath.Dir(p.methodMap), filepath.Dir(p.ignoreMap)}
	if p.report != "" {
		dirs = append(dirs, filepath.Dir(p.report))
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

// mapPaths returns where the maps go: given paths, else the output
// directory, else beside the merged jar.
func mapPaths(fl *instrumentFlags) outputPaths {
	dir := fl.output
	if fl.merge {
		dir = filepath.Dir(fl.output)
	}
	p := outputPaths{methodMap: fl.methodMap, ignoreMap: fl.ignoreMap, report: fl.report, anchor: dir,
		inventory: ".tracebeat-outputs"}
	if fl.merge {
		p.inventory = "." + filepath.Base(fl.output) + ".tracebeat-outputs"
	}
	if p.methodMap == "" {
		p.methodMap = filepath.Join(dir, "methodMapping.txt")
	}
	if p.ignoreMap == "" {
		p.ignoreMap = filepath.Join(filepath.Dir(p.methodMap), "ignoreMethodMapping.txt")
	}
	return p
}

// mirrorNamesDiffer refuses two inputs whose mirrors would be one output
// (lib/gson.jar and /usr/share/java/gson.jar), naming both and the ways
// out, before the path guard would call their outputs one file.
func mirrorNamesDiffer(fl *instrumentFlags, inputs []string) error {
	if fl.merge {
		return nil
	}
	inputOf := map[string]string{}
	for _, in := range inputs {
		out := instrument.MirrorPath(fl.output, in)
		if first, ok := inputOf[out]; ok {
			return fmt.Errorf("inputs %s and %s would both be written to %s (each input is mirrored under its file name): give one of them another file name, or write all inputs into one jar with --merge", first, in, out)
		}
		inputOf[out] = in
	}
	return nil
}

// guardPaths compares every path the run writes (mirrors or the merged
// jar, maps, report, cache) with every path it reads, by file identity,
// before anything is written. The base map may be the method map: it is
// read whole before the map is written, which is how a build keeps its ids
// in one file.
func guardPaths(fl *instrumentFlags, inputs []string, paths outputPaths) error {
	var ins []pathguard.Path
	for _, in := range inputs {
		st, err := os.Stat(in)
		ins = append(ins, pathguard.Path{Role: "input", Path: in, Tree: err == nil && st.IsDir()})
	}
	for _, cp := range fl.classpath {
		ins = append(ins, pathguard.Path{Role: "classpath", Path: cp})
	}
	for _, f := range []struct{ role, path string }{
		{"mapping", fl.mapping}, {"block list", fl.blacklist}, {"config", fl.config},
	} {
		if f.path != "" {
			ins = append(ins, pathguard.Path{Role: f.role, Path: f.path})
		}
	}
	var outs []pathguard.Path
	if fl.merge {
		outs = append(outs, pathguard.Path{Role: "output", Path: fl.output})
	} else {
		for _, in := range ins[:len(inputs)] {
			outs = append(outs, pathguard.Path{Role: "output", Path: instrument.MirrorPath(fl.output, in.Path), Tree: in.Tree})
		}
	}
	maps := []pathguard.Path{{Role: "method map", Path: paths.methodMap}, {Role: "ignore map", Path: paths.ignoreMap}}
	if paths.report != "" {
		maps = append(maps, pathguard.Path{Role: "report", Path: paths.report})
	}
	if fl.cache != "" {
		maps = append(maps, pathguard.Path{Role: "cache", Path: fl.cache, Tree: true})
	}
	outs = append(outs, maps...)
	if err := pathguard.Check(ins, outs); err != nil {
		return err
	}
	if fl.baseMap == "" {
		return nil
	}
	base := []pathguard.Path{{Role: "base map", Path: fl.baseMap}}
	return pathguard.Check(base, slices.DeleteFunc(slices.Clone(outs), func(p pathguard.Path) bool { return p.Role == "method map" }))
}

// checkWritable refuses map and report paths that can never be written
// (a parent is a file, the path is a directory) before the pipeline runs,
// so such a mistake does not cost a whole run and leave outputs without
// maps.
func (p outputPaths) checkWritable() error {
	for _, f := range []struct{ what, path string }{
		{"method map", p.methodMap}, {"ignore map", p.ignoreMap}, {"report", p.report},
	} {
		if f.path == "" {
			continue
		}
		if st, err := os.Stat(f.path); err == nil && st.IsDir() {
			return fmt.Errorf("%s %s: is a directory", f.what, f.path)
		}
		// The nearest existing ancestor must be a directory.
		for dir := filepath.Dir(f.path); ; dir = filepath.Dir(dir) {
			st, err := os.Stat(dir)
			if err == nil {
				if !st.IsDir() {
					return fmt.Errorf("%s %s: %s is not a directory", f.what, f.path, dir)
				}
				break
			}
			// Missing (or under a file: ENOTDIR): look further up.
			if parent := filepath.Dir(dir); parent == dir {
				break
			}
		}
	}
	return nil
}

// stageMaps writes the maps and the report under temporary names and adds
// them to set, which publishes them with the jars. A file that already
// holds what would be written is left alone (a cached run mostly writes
// the maps the last run wrote, tens of MB each).
func stageMaps(res *instrument.Result, p outputPaths, set *outset.Set, rules []methodmap.RuleCount, haveTexts bool) (buildID string, err error) {
	var mu sync.Mutex
	stage := func(what, path string, data []byte, write func(tmp string) error) error {
		if data != nil && atomicfile.Holds(path, data) {
			mu.Lock()
			set.Holds(path) // this run's output all the same
			mu.Unlock()
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fileError(what, path, err)
		}
		tmp := atomicfile.TempPath(path)
		if err := write(tmp); err != nil {
			os.Remove(tmp)
			return fileError(what, path, unwrapPathError(err))
		}
		mu.Lock()
		set.Add(tmp, path)
		mu.Unlock()
		return nil
	}
	// The two maps and the report are written at once: each is tens of
	// MB of text for a large app, and the build waits for all.
	var mapErr, repErr error
	// A run with a map path laid the maps out as texts; one without did
	// not, and they are written straight from its lists rather than held
	// whole to be compared.
	var mapText, ignoreText []byte
	if haveTexts {
		var err error
		if mapText, ignoreText, err = res.MapTexts(); err != nil {
			return "", err
		}
	}
	// The build identity is the map's (methodmap.BuildID): of its text
	// when it is held, else of what is written.
	id := methodmap.NewBuildID()
	var wg sync.WaitGroup
	wg.Go(func() {
		if mapText != nil {
			id.Write(mapText)
		}
		mapErr = stage("method map", p.methodMap, mapText, func(tmp string) error {
			return atomicfile.Write(tmp, 0o644, func(w io.Writer) error {
				if mapText != nil {
					return res.WriteMethodMap(w)
				}
				return res.WriteMethodMap(io.MultiWriter(w, id))
			})
		})
	})
	if p.report != "" {
		wg.Go(func() {
			data := res.ReportText(rules)
			repErr = stage("report", p.report, data, func(tmp string) error {
				return atomicfile.WriteBytes(tmp, 0o644, data)
			})
		})
	}
	ignErr := stage("ignore map", p.ignoreMap, ignoreText, func(tmp string) error {
		return atomicfile.Write(tmp, 0o644, res.WriteIgnoreMap)
	})
	wg.Wait()
	if err := cmp.Or(mapErr, ignErr, repErr); err != nil {
		return "", err
	}
	return id.String(), nil
}

// unwrapPathError drops the temporary name from an error about one: the
// message names the output the user gave.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
