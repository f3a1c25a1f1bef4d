// Package english writes counts as a person reads them: "1 thread",
// "2 threads".
package english

import (
	"fmt"
	"strings"
)

// Count is n and the noun, plural unless n is 1. Nouns ending in s, x,
// ch or sh take "es"; a consonant and y takes "ies"; every other noun "s".
func Count[N ~int | ~int32 | ~int64 | ~uint32 | ~uint64](n N, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %s", n, Plural(noun))
}

// Plural is the plural of an English noun (see Count).
func Plural(noun string) string {
	switch {
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"),
		strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "sh"):
		return noun + "es"
	case len(noun) > 1 && strings.HasSuffix(noun, "y") && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}
