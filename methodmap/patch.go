package methodmap

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Patching written maps: a run that knows which classes changed since a
// map was written replaces only their lines, in a single pass over the
// old text, instead of building and encoding hundreds of thousands of
// entries again. The results are the bytes EncodeMap and EncodeIgnoreMap
// would write for the patched contents; the inputs must be texts those
// functions wrote.

var errNotEncoded = errors.New("map text was not written by tracebeat")

// mapLine is one line of a map text as EncodeMap writes it.
type mapLine struct {
	text  []byte // with its line end
	id    int
	class []byte // dotted
}

// nextMapLine splits the first line off text. header reports the
// high-water comment line, which carries no entry.
func nextMapLine(text []byte) (l mapLine, rest []byte, header bool, err error) {
	end := bytes.IndexByte(text, '\n')
	if end < 0 {
		return l, nil, false, errNotEncoded
	}
	l.text, rest = text[:end+1], text[end+1:]
	if bytes.HasPrefix(l.text, []byte(highWaterPrefix)) {
		return l, rest, true, nil
	}
	idText, after, ok1 := bytes.Cut(l.text[:end], []byte{','})
	_, member, ok2 := bytes.Cut(after, []byte{','})
	class, _, ok3 := bytes.Cut(member, []byte{' '})
	id, err := strconv.Atoi(string(idText))
	if !ok1 || !ok2 || !ok3 || err != nil || id <= 0 {
		return l, nil, false, errNotEncoded
	}
	l.id, l.class = id, class
	return l, rest, false, nil
}

// dottedSet returns the dotted forms of internal class names.
func dottedSet(classes map[string]bool) map[string]bool {
	out := make(map[string]bool, len(classes))
	for c := range classes {
		out[dotted(c)] = true
	}
	return out
}

// SelectClasses parses the entries of the given classes (internal names)
// out of a map text, with the text's high-water mark: the part of a base
// map that methods of those classes can match.
func SelectClasses(text []byte, classes map[string]bool) (*Map, error) {
	want := dottedSet(classes)
	m := &Map{}
	for rest := text; len(rest) > 0; {
		l, r, header, err := nextMapLine(rest)
		if err != nil {
			return nil, err
		}
		rest = r
		if header {
			v, err := strconv.Atoi(string(bytes.TrimSpace(l.text[len(highWaterPrefix):])))
			if err != nil {
				return nil, errNotEncoded
			}
			m.HighWater = max(m.HighWater, v)
			continue
		}
		if l.id != DispatchID {
			m.HighWater = max(m.HighWater, l.id)
		}
		if !want[string(l.class)] {
			continue
		}
		e, err := parseMapLine(string(bytes.TrimRight(l.text, "\n")))
		if err != nil {
			return nil, err
		}
		m.Entries = append(m.Entries, e)
	}
	return m, nil
}

// PatchMap returns old, a text EncodeMap wrote, without the lines of the
// given classes (internal names) and of the given ids, with the entries of
// add, and with highWater as its high-water mark. An added entry whose id
// or key is already in the result, or whose id is out of range, is
// refused, as EncodeMap refuses such a map.
func PatchMap(old []byte, classes map[string]bool, dropIDs map[int]bool, add []Entry, highWater int) ([]byte, error) {
	drop := dottedSet(classes)
	add = slices.Clone(add)
	slices.SortFunc(add, func(a, b Entry) int { return a.ID - b.ID })
	keys := make(map[MethodKey]bool, len(add))
	for i, e := range add {
		k := lineKey(e.Key, e.Access)
		switch {
		case e.ID <= 0 || e.ID > MaxID:
			return nil, fmt.Errorf("refusing to patch a map: id %d out of range", e.ID)
		case i > 0 && add[i-1].ID == e.ID:
			return nil, fmt.Errorf("refusing to patch a map: id %d twice", e.ID)
		case keys[k] || !drop[dotted(e.Key.Class)]:
			return nil, fmt.Errorf("refusing to patch a map: %s twice or not of a patched class", mapText(e.Key, e.Access))
		}
		keys[k] = true
	}
	// The high-water line comes first but depends on every id: the lines
	// are laid out after room for it.
	const room = len(highWaterPrefix) + 12
	out := make([]byte, room, room+len(old)+len(add)*96)
	maxEntry := 0
	emit := func(e Entry) {
		out = strconv.AppendInt(out, int64(e.ID), 10)
		out = append(out, ',')
		out = strconv.AppendInt(out, int64(e.Access), 10)
		out = append(out, ',')
		out = appendMapText(out, e.Key, e.Access)
		out = append(out, '\n')
		maxEntry = max(maxEntry, e.ID)
	}
	for rest := old; len(rest) > 0; {
		l, r, header, err := nextMapLine(rest)
		if err != nil {
			return nil, err
		}
		rest = r
		if header {
			continue
		}
		dropped := drop[string(l.class)] || dropIDs[l.id]
		for len(add) > 0 && (add[0].ID < l.id || dropped && add[0].ID == l.id) {
			emit(add[0])
			add = add[1:]
		}
		if dropped {
			continue
		}
		if len(add) > 0 && add[0].ID == l.id {
			return nil, fmt.Errorf("refusing to patch a map: id %d twice", l.id)
		}
		out = append(out, l.text...)
		if l.id != DispatchID {
			maxEntry = max(maxEntry, l.id)
		}
	}
	for _, e := range add {
		emit(e)
	}
	start := room
	if highWater > maxEntry {
		h := strconv.AppendInt([]byte(highWaterPrefix), int64(highWater), 10)
		h = append(h, '\n')
		start -= len(h)
		copy(out[start:], h)
	}
	return out[start:], nil
}

// PatchIgnoreMap returns old, a text EncodeIgnoreMap wrote, without the
// lines of the given classes (internal names) and with the lines of add.
func PatchIgnoreMap(old []byte, classes map[string]bool, add []IgnoredMethod) ([]byte, error) {
	header := []byte(ignoreHeader + "\n")
	if !bytes.HasPrefix(old, header) {
		return nil, errNotEncoded
	}
	drop := dottedSet(classes)
	lines := make([][]byte, len(add))
	for i, m := range add {
		if !drop[dotted(m.Key.Class)] {
			return nil, fmt.Errorf("refusing to patch an ignore map: %s is not of a patched class", mapText(m.Key, m.Access))
		}
		lines[i] = append(appendMapText(nil, m.Key, m.Access), '\n')
	}
	slices.SortFunc(lines, bytes.Compare)
	lines = slices.CompactFunc(lines, bytes.Equal)
	out := make([]byte, 0, len(old)+len(add)*96)
	out = append(out, header...)
	for rest := old[len(header):]; len(rest) > 0; {
		end := bytes.IndexByte(rest, '\n')
		if end < 0 {
			return nil, errNotEncoded
		}
		line := rest[:end+1]
		rest = rest[end+1:]
		class, _, ok := bytes.Cut(line, []byte{' '})
		if !ok {
			return nil, errNotEncoded
		}
		if drop[string(class)] {
			continue
		}
		for len(lines) > 0 && bytes.Compare(lines[0], line) < 0 {
			out = append(out, lines[0]...)
			lines = lines[1:]
		}
		out = append(out, line...)
	}
	for _, l := range lines {
		out = append(out, l...)
	}
	return out, nil
}

// SameMapLines reports whether two lists of entries are written as the
// same lines of a method map, in any order: a patch that replaces the
// lines of some classes by the same lines leaves the text as it was.
func SameMapLines(a, b []Entry) bool {
	return sameLines(a, b, func(dst []byte, e Entry) []byte {
		dst = strconv.AppendInt(dst, int64(e.ID), 10)
		dst = append(dst, ',')
		dst = strconv.AppendUint(dst, uint64(e.Access), 10)
		dst = append(dst, ',')
		return appendMapText(dst, e.Key, e.Access)
	})
}

// SameIgnoreLines is SameMapLines for the lines of an ignore map, which
// show the method and not why it is ignored.
func SameIgnoreLines(a, b []IgnoredMethod) bool {
	return sameLines(a, b, func(dst []byte, m IgnoredMethod) []byte { return appendMapText(dst, m.Key, m.Access) })
}

func sameLines[T any](a, b []T, line func([]byte, T) []byte) bool {
	if len(a) != len(b) {
		return false
	}
	count := make(map[string]int, len(a))
	var buf []byte
	for _, x := range a {
		buf = line(buf[:0], x)
		count[string(buf)]++
	}
	for _, x := range b {
		buf = line(buf[:0], x)
		if count[string(buf)] == 0 {
			return false
		}
		count[string(buf)]--
	}
	return true
}

// Select returns the entries of the given classes (internal names) with
// the map's high-water mark over all of its entries: what SelectClasses
// gives for a map already parsed.
func (m *Map) Select(classes map[string]bool) *Map {
	out := &Map{HighWater: m.HighWater}
	for _, e := range m.Entries {
		if e.ID != DispatchID {
			out.HighWater = max(out.HighWater, e.ID)
		}
		if classes[e.Key.Class] {
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}

// Merge returns a base map of primary's entries and those of secondary
// whose method and id primary does not hold, with the higher high-water
// mark: a release's map (primary) whose ids win, extended by the map of
// the last build (secondary), so methods added since the release keep
// their ids from build to build too. Either may be nil.
func Merge(primary, secondary *Map) *Map {
	switch {
	case secondary == nil:
		return primary
	case primary == nil:
		return secondary
	}
	keys := make(map[MethodKey]bool, len(primary.Entries))
	ids := make(map[int]bool, len(primary.Entries))
	for _, e := range primary.Entries {
		keys[e.Key], ids[e.ID] = true, true
	}
	// An entry of secondary that is left out still retires its id.
	out := &Map{Entries: slices.Clip(slices.Clone(primary.Entries)), HighWater: max(primary.HighWater, secondary.HighWater)}
	for _, e := range secondary.Entries {
		if e.ID != DispatchID {
			out.HighWater = max(out.HighWater, e.ID)
		}
		if !keys[e.Key] && !ids[e.ID] {
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}
