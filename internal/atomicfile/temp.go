package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/tracebeat/tracebeat/internal/proc"
)

// Temporary names carry the id of the process that made them,
// ".NAME.tracebeat-PID-N.tmp", so that a later run can tell the debris of
// a run that was killed from the files of one still at work (SweepTemps).

// tempSeq makes the temporary names of one process unique.
var tempSeq atomic.Uint64

// tempPattern matches the temporary names of TempPath.
var tempPattern = regexp.MustCompile(`^\..*\.tracebeat-(\d+)-\d+\.tmp$`)

// legacyPattern matches what earlier versions left: ".NAME.tmp-DIGITS" of
// the files they wrote (jars, maps, the report) and the cache's
// ".dat-DIGITS"; other tools' temporary files in the same folder are left
// alone.
var legacyPattern = regexp.MustCompile(`^\..+\.(jar|txt|json|idx|snap)\.tmp-\d+$|^\.dat-\d+$`)

// legacyAge is how old a temporary file of an earlier version must be
// before a run removes it: such a name carries no process id to ask.
const legacyAge = time.Hour

// TempPath returns a new temporary name beside final.
func TempPath(final string) string {
	return filepath.Join(filepath.Dir(final),
		fmt.Sprintf(".%s.tracebeat-%d-%d.tmp", filepath.Base(final), os.Getpid(), tempSeq.Add(1)))
}

// CreateTemp creates a temporary file for final. An error names final,
// the path the user gave, not the temporary name.
func CreateTemp(final string) (*os.File, error) {
	for {
		f, err := os.OpenFile(TempPath(final), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, &os.PathError{Op: "create", Path: final, Err: unwrapPath(err)}
		}
	}
}

// MkdirTemp creates a temporary directory for final (see CreateTemp).
func MkdirTemp(final string) (string, error) {
	for {
		p := TempPath(final)
		err := os.Mkdir(p, 0o700)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", &os.PathError{Op: "create", Path: final, Err: unwrapPath(err)}
		}
	}
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// SweepTemps removes, in dir, the temporary files and folders of
// processes that no longer run, and those of earlier versions older than
// an hour. It reports the first problem and goes on.
func SweepTemps(dir string) error { return sweep(dir, legacyPattern) }

// SweepOwnTemps is SweepTemps for a folder only tracebeat writes (the
// cache's): any ".NAME.tmp-DIGITS" of an earlier version goes.
func SweepOwnTemps(dir string) error { return sweep(dir, ownLegacyPattern) }

var ownLegacyPattern = regexp.MustCompile(`^\..+\.tmp-\d+$|^\.dat-\d+$`)

func sweep(dir string, legacy *regexp.Regexp) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	var first error
	for _, e := range entries {
		name := e.Name()
		stale := false
		if m := tempPattern.FindStringSubmatch(name); m != nil {
			stale = !OwnerAlive(m[1])
		} else if legacy.MatchString(name) {
			info, err := e.Info()
			stale = err == nil && time.Since(info.ModTime()) > legacyAge
		}
		if stale {
			if err := os.RemoveAll(filepath.Join(dir, name)); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// OwnerAlive reports whether the process whose id a name carries still
// runs. This process counts as alive.
func OwnerAlive(pidText string) bool {
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return false
	}
	return pid == os.Getpid() || proc.Alive(pid)
}
