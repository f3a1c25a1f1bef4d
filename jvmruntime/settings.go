package jvmruntime

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// SettingsEntry is where a runtime jar carries its settings
// (Settings.CARRIED): a properties file the recorder reads at start, under
// the system properties, which win. An Android app has no command line:
// this is how it is told.
const SettingsEntry = "com/github/tracebeat/runtime/settings.properties"

// settingKinds are the settings the recorder reads (Settings.java's list,
// Clock's and BuildIds'), keyed without their "tracebeat." prefix, each
// with how its value is checked.
var settingKinds = map[string]func(string) error{
	"trace":         anyText,
	"mode":          oneOf("ring", "stream"),
	"budget":        isSize,
	"maxsize":       isSize,
	"maxage":        isDuration,
	"flush":         isDuration,
	"compress":      oneOf("lz", "deflate", "none"),
	"slow":          isDuration,
	"stall":         isDuration,
	"anr":           isDuration,
	"looper":        oneOf("true", "false"),
	"slow.threads":  anyText,
	"stall.threads": anyText,
	"slow.methods":  anyText,
	"stall.methods": anyText,
	"map":           anyText,
	"reports":       isCount,
	"reports.size":  isSize,
	"dump.dir":      anyText,
	"clock":         oneOf("shared", "precise"),
	"build":         anyText,
}

func anyText(string) error { return nil }

// isSize reads a size as Settings.parseSize does: bytes, or a number with
// k, m or g, that fits a long.
func isSize(v string) error {
	n := strings.ToLower(strings.TrimSpace(v))
	unit := int64(1)
	if k := strings.IndexByte("kmg", n[len(n)-1]); k >= 0 {
		unit, n = int64(1)<<(10*(k+1)), n[:len(n)-1]
	}
	if x, err := strconv.ParseInt(n, 10, 64); err != nil || x < 0 || x > math.MaxInt64/unit {
		return fmt.Errorf("%q is not a size (bytes, or a number with k, m or g, like 64m)", v)
	}
	return nil
}

// isDuration reads a duration as Settings.parseDuration does: a number
// (digits and a point), then ns, us, ms, s, m, min or h (none: ms).
func isDuration(v string) error {
	s := strings.ToLower(strings.TrimSpace(v))
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(s)
	}
	scale, known := map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "": 1e6, "ms": 1e6, "s": 1e9, "m": 60e9, "min": 60e9, "h": 3600e9}[strings.TrimSpace(s[i:])]
	x, err := strconv.ParseFloat(s[:i], 64)
	if i == 0 || err != nil || !known || x*scale >= math.MaxInt64 {
		return fmt.Errorf("%q is not a duration (a number with ns, us, ms, s, m or h, like 700ms)", v)
	}
	return nil
}

// isCount reads a count as Settings.count does: a long, not negative.
func isCount(v string) error {
	if x, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil || x < 0 {
		return fmt.Errorf("%q is not a count", v)
	}
	return nil
}

func oneOf(values ...string) func(string) error {
	return func(v string) error {
		for _, w := range values {
			if strings.EqualFold(v, w) {
				return nil
			}
		}
		return fmt.Errorf("%q is not %s", v, strings.Join(values, " or "))
	}
}

// ParseSettings reads KEY=VALUE pairs (KEY with or without its
// "tracebeat." prefix) into the settings a jar carries, keyed with the
// prefix; an unknown key or a value the recorder would not read is an
// error that says which.
func ParseSettings(pairs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, p := range pairs {
		key, value, ok := strings.Cut(p, "=")
		key = strings.TrimPrefix(strings.TrimSpace(key), "tracebeat.")
		value = strings.TrimSpace(value)
		if !ok || key == "" {
			return nil, fmt.Errorf("%q: want KEY=VALUE, like slow=500ms", p)
		}
		check, known := settingKinds[key]
		if !known {
			return nil, fmt.Errorf("%q: no setting %q (the settings: %s)", p, key, strings.Join(settingNames(), ", "))
		}
		if value == "" {
			return nil, fmt.Errorf("%q: no value", p)
		}
		if err := check(value); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		out["tracebeat."+key] = value
	}
	return out, nil
}

func settingNames() []string {
	names := make([]string, 0, len(settingKinds))
	for k := range settingKinds {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// settingsFile writes settings as a properties file java.util.Properties
// reads back exactly: sorted keys, and in values the characters the format
// gives a meaning to escaped (a regular expression's backslashes among
// them), anything outside ASCII as \uXXXX.
func settingsFile(settings map[string]string) []byte {
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# written by tracebeat runtime --set\n")
	for _, k := range keys {
		b.WriteString(escapeProperty(k, true))
		b.WriteByte('=')
		b.WriteString(escapeProperty(settings[k], false))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func escapeProperty(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\' || r == '=' || r == ':' || r == '#' || r == '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == ' ' && (key || i == 0):
			b.WriteString("\\ ")
		case r == '\t':
			b.WriteString("\\t")
		case r == '\n':
			b.WriteString("\\n")
		case r == '\r':
			b.WriteString("\\r")
		case r == '\f':
			b.WriteString("\\f")
		case r < 0x20 || r > 0x7e:
			if r1, r2 := utf16.EncodeRune(r); r1 != unicode.ReplacementChar {
				fmt.Fprintf(&b, "\\u%04X\\u%04X", r1, r2) // a surrogate pair: Java's two chars
			} else {
				fmt.Fprintf(&b, "\\u%04X", r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
