// Package jarpack writes jars that depend on their contents only: the
// manifest first, then the entries in name order, all deflated with one
// fixed time. The runtime jar and the release's plugin jar are made this
// way, so that building twice gives the same bytes.
package jarpack

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// EntryTime is every entry's modification time.
var EntryTime = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// Pack returns a jar holding META-INF/MANIFEST.MF with manifest, then files
// (by entry name; a manifest among them is ignored).
func Pack(manifest string, files map[string][]byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: EntryTime})
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	if err := add("META-INF/MANIFEST.MF", []byte(manifest)); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		if n != "META-INF/MANIFEST.MF" {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		if err := add(n, files[n]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadTree reads the regular files below root that keep accepts, by
// slash-separated name relative to root: what Pack takes.
func ReadTree(root string, keep func(name string) bool) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if !keep(name) {
			return nil
		}
		data, err := os.ReadFile(p)
		files[name] = data
		return err
	})
	return files, err
}

// ReadZip reads the file entries of zr that keep accepts, by name: what
// Pack takes, from a jar.
func ReadZip(zr *zip.Reader, keep func(name string) bool) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") || !keep(f.Name) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("entry %s: %w", f.Name, err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("entry %s: %w", f.Name, err)
		}
		files[f.Name] = data
	}
	return files, nil
}
