// Command difffalse counts the false alarms of tracebeat diff on one
// build's runs: every split of a folder's recordings into two sides of at
// least diff.MinRuns runs (fewer get no verdict) is compared (diff.Compare, default options), and it prints
// "K of N splits gave a verdict (M methods compared)". bench/diff-libraries.sh
// runs it.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/tracebeat/tracebeat/decode"
	"github.com/tracebeat/tracebeat/diff"
	"github.com/tracebeat/tracebeat/profile"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: difffalse FOLDER methodMapping.txt")
		os.Exit(2)
	}
	names, err := decode.LoadMethodNames(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "difffalse:", err)
		os.Exit(2)
	}
	files, _ := filepath.Glob(filepath.Join(os.Args[1], "*.trace"))
	slices.Sort(files)
	var runs []*profile.Profile
	for _, f := range files {
		p, err := profile.Read(f, names, decode.MapBuild{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "difffalse:", err)
			os.Exit(1)
		}
		runs = append(runs, p)
	}
	n := len(runs)
	splits, failed, compared := 0, 0, 0
	for mask := 1; mask < 1<<n; mask++ {
		k := 0
		for i := range n {
			k += mask >> i & 1
		}
		if mask&1 == 0 || k < diff.MinRuns || k > n-diff.MinRuns {
			continue // each split once: the side with the first run; both sides of MinRuns or more
		}
		splits++
		var a, b diff.Side
		for i, r := range runs {
			if mask>>i&1 == 1 {
				a.Runs = append(a.Runs, r)
			} else {
				b.Runs = append(b.Runs, r)
			}
		}
		res := diff.Compare(a, b, diff.Options{})
		compared = res.Compared
		if res.Regressed() || res.Counts[diff.Improved] > 0 {
			failed++
			for _, m := range res.Methods {
				if m.Status == diff.Regressed || m.Status == diff.Improved {
					fmt.Fprintf(os.Stderr, "difffalse: split %b: %s %s\n", mask, m.Status, m.Name)
				}
			}
		}
	}
	fmt.Printf("%d of %d splits gave a verdict (%d methods compared)\n", failed, splits, compared)
}
