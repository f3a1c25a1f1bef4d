package decode

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tracebeat/tracebeat/internal/english"
)

// UnknownIDs counts ids that the method map lacks, in memory independent of
// the input size: ids fit in 20 bits, so a bitset covers them all.
type UnknownIDs struct {
	seen        []uint64     // bitset over ids 0..MaxMethodID
	beyond      map[int]bool // larger numbers (only systrace payloads can be)
	Distinct    int
	Occurrences int64
	Examples    []int // the first few distinct ids, in order of appearance
}

const maxUnknownExamples = 10

// Note records one occurrence of an id that names lacks; known ids are ignored.
// It reports whether id was unknown.
func (u *UnknownIDs) Note(names *MethodNames, id int) bool {
	if _, ok := names.Lookup(id); ok {
		return false
	}
	u.Occurrences++
	if u.seen == nil {
		u.seen = make([]uint64, (MaxMethodID+1+63)/64)
	}
	if id < 0 || id > MaxMethodID {
		if !u.beyond[id] {
			if u.beyond == nil {
				u.beyond = map[int]bool{}
			}
			u.beyond[id] = true
			u.Distinct++
			u.example(id)
		}
		return true
	}
	word, bit := id/64, uint64(1)<<(id%64)
	if u.seen[word]&bit == 0 {
		u.seen[word] |= bit
		u.Distinct++
		u.example(id)
	}
	return true
}

func (u *UnknownIDs) example(id int) {
	if len(u.Examples) < maxUnknownExamples {
		u.Examples = append(u.Examples, id)
	}
}

// String summarizes the unknown ids, or is empty when there were none.
func (u *UnknownIDs) String() string {
	if u.Occurrences == 0 {
		return ""
	}
	ids := make([]string, len(u.Examples))
	for i, id := range u.Examples {
		ids[i] = strconv.Itoa(id)
	}
	more := ""
	if u.Distinct > len(u.Examples) {
		more = ", ..."
	}
	return fmt.Sprintf("%s not in the map (%s): %s%s", english.Count(u.Distinct, "method id"), english.Count(u.Occurrences, "occurrence"), strings.Join(ids, ", "), more)
}
