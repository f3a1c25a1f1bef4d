// Package store is the directory that `tracebeat instrument --cache` keeps
// between runs. It owns the directory's layout; the pipeline asks it for
// bytes and files by key and never builds a path into it.
//
// Layout (v2), under the directory given:
//
//	v2/packs/<key>.idx  index of one input's pack (the pipeline's encoding)
//	v2/packs/<key>.dat  the rewritten class bodies the index points into
//	v2/packs/<key>.jar  the output jar made from that input, when it is one
//	v2/last/<path key>  the pack key last written for an input path
//	v2/maps/<path key>.txt  the planned method map of a map path
//	v2/runs/<identity>[.ignore]  what the last run with that identity wrote
//
// Keys of packs are salted with the options that decide outputs (Open's
// salt), so runs with other options never share one. Every file appears
// whole or not at all (a temporary file renamed into place); what a killed
// run left half-written is removed when a store is opened.
//
// It knows nothing of classes, jars or maps beyond their being files.
package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tracebeat/tracebeat/internal/atomicfile"
)

// Part is one file of a pack.
type Part string

// The parts of a pack.
const (
	Index  Part = ".idx"
	Bodies Part = ".dat"
	Jar    Part = ".jar"
)

const layout = "v2"

// Store is an open cache directory.
type Store struct {
	dir  string
	salt [32]byte
}

// Open opens (and lays out, when new) the cache under root. salt is mixed
// into every pack key: the options, the program and whatever else decides
// what a pack holds.
func Open(root string, salt [32]byte) (*Store, error) {
	dir := filepath.Join(root, layout)
	// spare/ held superseded jars to write over, in versions that did
	// that; its files are of no use now.
	_ = os.RemoveAll(filepath.Join(dir, "spare"))
	for _, sub := range []string{"packs", "last", "maps", "runs"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
		// What killed runs left half-written; runs at work keep theirs.
		_ = atomicfile.SweepOwnTemps(filepath.Join(dir, sub))
	}
	return &Store{dir: dir, salt: salt}, nil
}

// Key hashes parts (each length-prefixed) with the store's salt.
func (s *Store) Key(parts ...[]byte) string {
	h := sha256.New()
	h.Write(s.salt[:])
	for _, p := range parts {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// pathKey names what is kept for a path, whatever the options: the store
// holds one pack per input path and one map per map path.
func pathKey(path string) string {
	sum := sha256.Sum256([]byte(path))
	return hex.EncodeToString(sum[:])
}

// Path is where part of pack key lies, to read it (or to append to a
// pack's bodies, which only grow).
func (s *Store) Path(key string, part Part) string {
	return filepath.Join(s.dir, "packs", key+string(part))
}

// Write writes part of pack key whole, from what write produces.
func (s *Store) Write(key string, part Part, write func(io.Writer) error) error {
	if err := atomicfile.Write(s.Path(key, part), 0o644, write); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// CreateTemp makes a temporary file for a part written piece by piece;
// Commit gives it its name.
func (s *Store) CreateTemp() (*os.File, error) {
	return atomicfile.CreateTemp(filepath.Join(s.dir, "packs", "new.dat"))
}

// Commit renames the finished temporary file tmp to part of pack key.
func (s *Store) Commit(tmp, key string, part Part) error {
	dst := s.Path(key, part)
	if filepath.Clean(tmp) == dst {
		return nil // a directory's pack, appended to in place
	}
	return os.Rename(tmp, dst)
}

// PutFile makes part of pack key a copy of the file src (LinkOrCopy).
func (s *Store) PutFile(key string, part Part, src string) error {
	dst := s.Path(key, part)
	os.Remove(dst)
	return LinkOrCopy(src, dst)
}

// LinkOrCopy makes dst a copy of src: a hard link where the file system
// allows, else a copy written whole. A link is safe where neither name is
// ever written in place (tracebeat replaces files by rename, and hashes a
// pack's jar before it trusts it again); on a file system without links
// (FAT, some network shares) the copy path runs.
func LinkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	return atomicfile.Write(dst, 0o644, func(w io.Writer) error {
		f, err := os.Open(src)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(w, f)
		return err
	})
}

// Remove removes part of pack key.
func (s *Store) Remove(key string, part Part) { os.Remove(s.Path(key, part)) }

// RemovePack removes every part of pack key.
func (s *Store) RemovePack(key string) {
	for _, p := range []Part{Index, Bodies, Jar} {
		s.Remove(key, p)
	}
}

// LastPack is the pack key last recorded for input path, or "".
func (s *Store) LastPack(path string) string {
	b, err := os.ReadFile(filepath.Join(s.dir, "last", pathKey(path)))
	if err != nil || len(b) != 64 {
		return ""
	}
	return string(b)
}

// SetLastPack records key as the pack of input path.
func (s *Store) SetLastPack(path, key string) error {
	if s.LastPack(path) == key { // most inputs of most runs
		return nil
	}
	return s.writeFile(filepath.Join(s.dir, "last", pathKey(path)), []byte(key))
}

func (s *Store) mapPath(mapPath string) (string, error) {
	abs, err := filepath.Abs(mapPath)
	if err != nil {
		return "", err
	}
	return filepath.Join(s.dir, "maps", pathKey(abs)[:32]+".txt"), nil
}

// Map returns the map kept for the map path mapPath; an error that
// os.IsNotExist accepts when there is none.
func (s *Store) Map(mapPath string) ([]byte, error) {
	p, err := s.mapPath(mapPath)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// MapName is the name under which Map's file lies, for messages.
func (s *Store) MapName(mapPath string) string {
	p, err := s.mapPath(mapPath)
	if err != nil {
		return mapPath
	}
	return p
}

// PutMap keeps data as the map of the map path mapPath.
func (s *Store) PutMap(mapPath string, data []byte) error {
	p, err := s.mapPath(mapPath)
	if err != nil {
		return err
	}
	if atomicfile.Holds(p, data) {
		return nil
	}
	return s.writeFile(p, data)
}

// Run returns what the last run with identity kept: its record and its
// ignore map; ok is false when there is none.
func (s *Store) Run(identity string) (record, ignore []byte, ok bool) {
	p := filepath.Join(s.dir, "runs", identity)
	record, err := os.ReadFile(p)
	if err != nil {
		return nil, nil, false
	}
	ignore, err = os.ReadFile(p + ".ignore")
	if err != nil {
		return nil, nil, false
	}
	return record, ignore, true
}

// PutRun keeps the record and ignore map of the run with identity.
func (s *Store) PutRun(identity string, record, ignore []byte) error {
	p := filepath.Join(s.dir, "runs", identity)
	if !atomicfile.Holds(p+".ignore", ignore) {
		if err := s.writeFile(p+".ignore", ignore); err != nil {
			return err
		}
	}
	return s.writeFile(p, record)
}

// RemoveRun forgets the run with identity (its outputs changed since).
func (s *Store) RemoveRun(identity string) {
	p := filepath.Join(s.dir, "runs", identity)
	os.Remove(p)
	os.Remove(p + ".ignore")
	os.Remove(p + ".report")
}

// Report returns the report kept for the run with identity, nil when
// there is none.
func (s *Store) Report(identity string) []byte {
	data, err := os.ReadFile(filepath.Join(s.dir, "runs", identity+".report"))
	if err != nil {
		return nil
	}
	return data
}

// PutReport keeps a report for the run with identity.
func (s *Store) PutReport(identity string, data []byte) error {
	return s.writeFile(filepath.Join(s.dir, "runs", identity+".report"), data)
}

func (s *Store) writeFile(path string, data []byte) error {
	if err := atomicfile.WriteBytes(path, 0o644, data); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}
