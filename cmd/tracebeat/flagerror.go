package main

import (
	"fmt"
	"regexp"
	"strings"
)

// pflag says a bad value as `invalid argument "abc" for "-w, --workers"
// flag: strconv.ParseInt: parsing "abc": invalid syntax`: Go's words.
var invalidFlagValue = regexp.MustCompile(`^invalid argument "(.*)" for "(.*?)" flag: (.*)$`)

// flagMessage is a flag-parsing error in a user's words: the flag, the
// value, and what it should be.
func flagMessage(err error) string {
	m := invalidFlagValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error()
	}
	value, flag, why := m[1], m[2], m[3]
	if i := strings.LastIndex(flag, ", "); i >= 0 {
		flag = flag[i+2:] // "-w, --workers": the long name
	}
	switch {
	case strings.Contains(why, "ParseBool"):
		return fmt.Sprintf("%s: %q is not true or false", flag, value)
	case strings.Contains(why, "ParseInt") || strings.Contains(why, "ParseUint"):
		if strings.Contains(why, "out of range") {
			return fmt.Sprintf("%s: %s is too large", flag, value)
		}
		return fmt.Sprintf("%s: %q is not a whole number", flag, value)
	case strings.Contains(why, "ParseFloat"):
		return fmt.Sprintf("%s: %q is not a number", flag, value)
	case strings.Contains(why, "ParseDuration") || strings.Contains(why, "time: "):
		return fmt.Sprintf("%s: %q is not a duration (like 30s or 2m)", flag, value)
	}
	return fmt.Sprintf("%s: %q: %s", flag, value, why)
}
