package decode

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

// WriteStacksText writes stacks as indented, named call trees. Key methods
// are marked with '*'; ids missing from names are shown as UnknownName.
func WriteStacksText(w io.Writer, stacks []Stack, names *MethodNames) error {
	bw := bufio.NewWriter(w)
	for i, s := range stacks {
		if i > 0 {
			bw.WriteString("\n")
		}
		writeStackText(bw, fmt.Sprintf("stack %d of %d", i+1, len(stacks)), s, names.Name)
	}
	return bw.Flush()
}

// writeStackText writes one stack; name gives a line's name.
func writeStackText(bw *bufio.Writer, title string, s Stack, name func(int) string) {
	fmt.Fprintf(bw, "%s: %s, %d lines, stackKey %s\n", title, s.formatCost(s.Cost()), len(s.Lines), s.KeyString())
	if len(s.Key) > 0 {
		fmt.Fprintf(bw, "key method: %d %s\n", s.Key[0], name(s.Key[0]))
	}
	if len(s.Report) > 0 {
		keys := make([]string, 0, len(s.Report))
		for k := range s.Report {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + s.Report[k]
		}
		fmt.Fprintf(bw, "report: %s\n", strings.Join(parts, " "))
	}
	costWidth, countWidth := len("cost"), len("count")
	for _, l := range s.Lines {
		costWidth = max(costWidth, len(s.formatCost(l.Cost)))
		countWidth = max(countWidth, len(strconv.Itoa(l.Count)))
	}
	fmt.Fprintf(bw, "  %*s  %*s  method\n", costWidth, "cost", countWidth, "count")
	marks := s.KeyMarks()
	for i, l := range s.Lines {
		mark := " "
		if marks[i] {
			mark = "*"
		}
		var flags string
		if l.NoEnter {
			flags += "  [started before buffer]"
		}
		if l.Unclosed {
			flags += "  [no exit recorded]"
		}
		fmt.Fprintf(bw, "%s %*s  %*d  %s%s%s\n", mark, costWidth, s.formatCost(l.Cost),
			countWidth, l.Count, strings.Repeat("  ", l.Depth), name(l.MethodID), flags)
	}
}

// stackJSON is the --format json form of a stack.
type stackJSON struct {
	Cost       int64             `json:"cost"`
	StackKey   string            `json:"stackKey"`
	KeyMethods []methodJSON      `json:"keyMethods"`
	Report     map[string]string `json:"report,omitempty"`
	Lines      []stackLineJSON   `json:"lines"`
}

type methodJSON struct {
	ID      int    `json:"id"`
	Name    string `json:"name"`
	Unknown bool   `json:"unknown,omitempty"`
}

type stackLineJSON struct {
	Depth    int    `json:"depth"`
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Unknown  bool   `json:"unknown,omitempty"`
	Count    int    `json:"count"`
	Cost     int64  `json:"cost"`
	Key      bool   `json:"key,omitempty"`
	Unclosed bool   `json:"unclosed,omitempty"`
	NoEnter  bool   `json:"startedBeforeBuffer,omitempty"`
}

// WriteStacksJSON writes {"stacks":[...]} with names resolved.
func WriteStacksJSON(w io.Writer, stacks []Stack, names *MethodNames) error {
	out := struct {
		Stacks []stackJSON `json:"stacks"`
	}{Stacks: make([]stackJSON, 0, len(stacks))}
	for _, s := range stacks {
		js := stackJSON{Cost: s.Cost(), StackKey: s.KeyString(), Report: s.Report,
			KeyMethods: []methodJSON{}, Lines: []stackLineJSON{}}
		if len(js.Report) == 0 {
			js.Report = nil
		}
		for _, id := range s.Key {
			_, known := names.Lookup(id)
			js.KeyMethods = append(js.KeyMethods, methodJSON{ID: id, Name: names.Name(id), Unknown: !known})
		}
		marks := s.KeyMarks()
		for i, l := range s.Lines {
			_, known := names.Lookup(l.MethodID)
			js.Lines = append(js.Lines, stackLineJSON{Depth: l.Depth, ID: l.MethodID, Name: names.Name(l.MethodID),
				Unknown: !known, Count: l.Count, Cost: l.Cost, Key: marks[i],
				Unclosed: l.Unclosed, NoEnter: l.NoEnter})
		}
		out.Stacks = append(out.Stacks, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeStacksEvents writes stack reports as events (FormatPerfetto): each
// stack a track of its own ("stack N"), each line a slice that starts
// where its previous sibling ended (the first child where its parent
// starts) and lasts its cost, so the picture is the stack's call tree
// drawn as a flame chart. Key methods and counts are annotations.
func writeStacksEvents(w io.Writer, format Format, stacks []Stack, names *MethodNames) error {
	const pid = 1
	sink := newEventSink(format, w)
	sink.Write(traceout.Event{Name: "process_name", Ph: 'M', Pid: pid, Args: []traceout.Arg{traceout.StrArg("name", "tracebeat decode: stacks")}})
	for i, s := range stacks {
		tid := int64(i + 1)
		unit := int64(time.Millisecond)
		if s.Unit != 0 {
			unit = int64(s.Unit)
		}
		sink.Write(traceout.Event{Name: "thread_name", Ph: 'M', Pid: pid, Tid: tid,
			Args: []traceout.Arg{traceout.StrArg("name", fmt.Sprintf("stack %d: %s", i+1, s.formatCost(s.Cost())))}})
		marks := s.KeyMarks()
		cursor := []int64{0} // by depth: where the next call at that depth starts
		for k, l := range s.Lines {
			for len(cursor) <= l.Depth+1 {
				cursor = append(cursor, cursor[len(cursor)-1])
			}
			start := cursor[l.Depth]
			cost := min(l.Cost, (1<<62)/unit) // a damaged cost must not wrap around
			args := []traceout.Arg{traceout.IntArg("count", int64(l.Count))}
			if marks[k] {
				args = append(args, traceout.BoolArg("key"))
			}
			args = appendFrameFlags(args, Frame{Unclosed: l.Unclosed, NoEnter: l.NoEnter})
			if err := sink.Write(traceout.Event{Name: names.Name(l.MethodID), Ph: 'X', TsNs: start, DurNs: cost * unit,
				Pid: pid, Tid: tid, Args: args}); err != nil {
				return err
			}
			cursor[l.Depth] = min(start+cost*unit, 1<<62)
			cursor[l.Depth+1] = start
		}
	}
	return sink.Close()
}
