// A merged jar is written input by input, so each input's entries lie in
// one span of it. A delta run copies the span of an unchanged input from
// the last output, checked against the sums the last run kept, instead
// of writing its thousands of entries again: an Android app's classes
// and libraries go into one jar, and a one-class edit rewrote all of it.

package instrument

import (
	"fmt"
	"strings"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"
)

// closeLastOutput closes the last output once nothing more is copied
// from it.
func (d *delta) closeLastOutput() {
	if d != nil && d.lastOut != nil {
		d.lastOut.Close()
		d.lastOut = nil
	}
}

// spliceInput copies unchanged input i's span from the last output into
// js, the merged jar, when prepareDelta planned it: the span is intact
// and a full run writes the same entries (fits). False when the input is
// to be written entry by entry: then its records are taken from its pack
// as an unchanged input's are.
func (d *delta) spliceInput(js *jario.JarSink, i int, tick func()) (moved jario.Span, ok bool, err error) {
	if d == nil || d.splices == nil || d.splices[i] == nil {
		return jario.Span{}, false, nil
	}
	in, last := d.p.inputs[i], &d.snap.inputs[i]
	names := jario.RecordNames(d.splices[i])
	if !last.out.Fits(names, js.Names) || js.Writer.Off+(last.out.End-last.out.Start) >= jario.MaxUint32 {
		// planSplices saw the names the earlier inputs write as the writer
		// does, so only a jar grown near 4 GB (where the records would take
		// the zip64 form) comes here: its records come from its pack.
		d.splices[i] = nil
		if why := d.keepInput(i); why != "" {
			return jario.Span{}, false, fmt.Errorf("%s: cache: %s", in.Path, why)
		}
		d.p.infos[i] = make([]*scan.Class, len(in.Entries)) // listed only now
		return jario.Span{}, false, nil
	}
	if moved, err = js.Writer.SpliceSpan(d.lastOut.File, last.out, d.splices[i]); err != nil {
		return jario.Span{}, false, fmt.Errorf("%s: %w", in.Path, err)
	}
	for _, name := range names {
		js.Names[name] = true
	}
	for _, name := range last.out.Skipped {
		if !jario.IsDirName(name) { // as emit says it
			d.p.warns.atOutput(i, "%s: %s%s", in.Path, name, mergeSkipSuffix)
		}
	}
	for range last.out.Classes {
		tick()
	}
	moved.Skipped, moved.Classes = last.out.Skipped, last.out.Classes
	return moved, true, nil
}

// planSplices decides, in input order, which unchanged inputs of a merged
// output are copied from the last output: those whose span there is
// intact and fits the names the inputs before them write. The rest are
// written entry by entry from their packs' records (keepInput), and what
// they write is every name they hold; a signature file among them (which
// a rewrite may drop) leaves the names after it unknown, and no later
// input is copied.
func (d *delta) planSplices(intact []bool) string {
	d.splices = make([][]byte, len(d.p.inputs))
	names := map[string]bool{}
	known := true
	for i, in := range d.p.inputs {
		span := &d.snap.inputs[i].out
		if d.unlisted[i] {
			var records []byte
			if known && intact != nil && intact[i] && onlyMergeSkips(d.snap.inputs[i].outWarnings) {
				records = d.lastOut.Records(*span)
			}
			if recNames := jario.RecordNames(records); records != nil && span.Fits(recNames, names) {
				d.splices[i] = records
				for _, name := range recNames {
					names[name] = true
				}
				continue
			}
			if why := d.keepInput(i); why != "" {
				return in.Path + ": " + why
			}
		}
		for j := range in.Entries {
			name := in.Entries[j].Name
			names[name] = true
			if jario.IsSignatureFile(name) {
				known = false
			}
		}
	}
	return ""
}

// onlyMergeSkips reports whether what writing an input's entries said is
// only that some were written by an earlier input: what copying its span
// says again (anything else is said again only by writing the entries).
func onlyMergeSkips(warnings []string) bool {
	for _, w := range warnings {
		if !strings.HasSuffix(w, mergeSkipSuffix) {
			return false
		}
	}
	return true
}
