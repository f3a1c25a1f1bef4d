package javatest

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Comparison is what instrumenting cost the classes HotSpot accepted
// before: the gates' verdict on one jar.
type Comparison struct {
	// Lost lists each class accepted before and not after, with why.
	Lost []string
	// NewVerifyErrors, NewFailovers and NewLinkErrors count Lost by kind.
	NewVerifyErrors, NewFailovers, NewLinkErrors int
	// Unread lists the classes accepted before that the instrumenter
	// could not read (copied untouched), with its reason.
	Unread []string
}

// Failed reports whether any class was lost or left unread.
func (c Comparison) Failed() bool { return len(c.Lost) > 0 || len(c.Unread) > 0 }

// Details are the first n lost and unread classes, one a line.
func (c Comparison) Details(n int) string {
	return strings.Join(append(firstN(c.Lost, n), firstN(c.Unread, n)...), "\n  ")
}

// Compare holds after against before: every class before accepted must be
// accepted after. unread maps classes (dotted or slashed names) the
// instrumenter could not read to its reason.
func Compare(before, after VerifyResult, unread map[string]string) Comparison {
	var c Comparison
	ok := map[string]bool{}
	for _, cl := range after.OK {
		ok[cl] = true
	}
	for _, cl := range before.OK {
		switch {
		case after.VerifyErrors[cl] != "":
			c.NewVerifyErrors++
			c.Lost = append(c.Lost, cl+": "+after.VerifyErrors[cl])
		case slices.Contains(after.Failovers, cl):
			c.NewFailovers++
			c.Lost = append(c.Lost, cl+": failed over to the old verifier")
		case !ok[cl]:
			c.NewLinkErrors++
			c.Lost = append(c.Lost, cl+": "+after.LinkErrors[cl])
		}
	}
	okBefore := map[string]bool{}
	for _, cl := range before.OK {
		okBefore[cl] = true
	}
	for cl, why := range unread {
		dotted := strings.ReplaceAll(cl, "/", ".")
		if okBefore[dotted] {
			c.Unread = append(c.Unread, dotted+": "+why)
		}
	}
	sort.Strings(c.Unread)
	return c
}

func firstN(list []string, n int) []string {
	if len(list) > n {
		return append(list[:n:n], fmt.Sprintf("... and %d more", len(list)-n))
	}
	return list
}
