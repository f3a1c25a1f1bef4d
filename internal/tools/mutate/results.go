package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strings"
)

// results are the outcomes of an earlier run, by mutant key, each with
// the digest of the code it was tested against.
type results map[string]outcome

type outcome struct {
	digest, status string
}

// detected reports a status the tests reached: a test failed or hung.
func detected(status string) bool { return status == "killed" || status == "timed-out" }

// readResults reads a results file: lines `digest status file:line:col from to`.
// A missing file is an empty record.
func readResults(path string) (results, error) {
	out := results{}
	if path == "" {
		return out, nil
	}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for n, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 5 {
			return nil, fmt.Errorf("%s:%d: want `digest status file:line:col from to`", path, n+1)
		}
		out[strings.Join(f[2:], " ")] = outcome{digest: f[0], status: f[1]}
	}
	return out, nil
}

// write stores the record sorted by key, so that it diffs well.
func (r results) write(path string) error {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s %s %s\n", r[k].digest, r[k].status, k)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// treeDigest names the content of the source files of a run: a result
// holds while they are the same.
func treeDigest(files []string) (string, error) {
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}
