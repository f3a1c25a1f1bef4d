package scan

import (
	"sync"
	"sync/atomic"
)

// ReasonCode numbers the texts of reasons and of the policy's rules, so
// that a method record holds a number instead of a string (see
// Method). Code 0 is the empty text: the reason of a traced method, or
// no rule.
type ReasonCode uint32

// reasonTable interns reason texts for the whole process: the set is
// small (this package's and methodmap's reasons, and the reasons and
// rules a Policy's Decide returns) and a code means the same text in every run, so
// records decoded from a cache index can share it.
type reasonTable struct {
	mu    sync.Mutex
	codes map[string]ReasonCode
	texts atomic.Pointer[[]string] // copied on write: readers take no lock
}

var Reasons = newReasonTable()

func newReasonTable() *reasonTable {
	t := &reasonTable{codes: map[string]ReasonCode{"": 0}}
	t.texts.Store(&[]string{""})
	return t
}

// Code returns the code of a reason text, giving it one if it has none.
func (t *reasonTable) Code(text string) ReasonCode {
	if text == "" {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.codes[text]; ok {
		return c
	}
	old := *t.texts.Load()
	texts := append(old[:len(old):len(old)], text)
	c := ReasonCode(len(old))
	t.codes[text] = c
	t.texts.Store(&texts)
	return c
}

// Text returns the text of a code that code returned.
func (t *reasonTable) Text(c ReasonCode) string { return (*t.texts.Load())[c] }
