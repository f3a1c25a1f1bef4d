package decode

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// MapBuild is the method map given for the names, for the check that it is
// the map of the build that was recorded.
type MapBuild struct {
	Path string // as the user named it
	ID   string // methodmap.BuildID of its lines; "" when no map was given
	// Force decodes with the map although the recording names another
	// build: the names may then be another build's.
	Force bool
}

// WrongMapError says that the map given is not the recorded build's.
type WrongMapError struct {
	Source string
	Map    MapBuild
	Builds []string // the recording's
}

func (e *WrongMapError) Error() string {
	return fmt.Sprintf("%s was recorded from build %s, but %s is the map of build %s: its ids name other methods. "+
		"Use the methodMapping.txt written with that build (`tracebeat instrument` prints build=%s next to its path), "+
		"or pass --any-map to use this one anyway",
		e.Source, strings.Join(e.Builds, " and "), e.Map.Path, e.Map.ID, e.Builds[0])
}

// CheckBuild compares a recording's builds with the map's. It returns the
// error that refuses the map, or a note for the user ("" for none).
func CheckBuild(src string, rec *recording.Recording, m MapBuild) (note string, err error) {
	switch {
	case m.ID == "":
		return "", nil
	case len(rec.Builds) == 0:
		return fmt.Sprintf("%s names no build (recorded by a runtime before version 3, from classes instrumented before build identities, "+
			"or loaded by a class loader of the program's own; -Dtracebeat.build=ID names it): that %s is its build's map cannot be checked", src, m.Path), nil
	case slices.Contains(rec.Builds, m.ID):
		return "", nil
	case m.Force:
		return fmt.Sprintf("warning: %s is the map of build %s, and %s was recorded from build %s: names may be another build's (--any-map)",
			m.Path, m.ID, src, strings.Join(rec.Builds, " and ")), nil
	}
	return "", &WrongMapError{Source: src, Map: m, Builds: rec.Builds}
}

// UncheckedBuildNote is what decode says of an input that names no build
// (Matrix buffers and stack reports, systrace): only the ids can be checked.
func UncheckedBuildNote(src string, m MapBuild) string {
	if m.ID == "" {
		return ""
	}
	return fmt.Sprintf("%s names no build (Matrix's runtime and systrace record none): that %s is its build's map is checked only by the ids it names (any it lacks are counted below)", src, m.Path)
}
