package jvmruntime

import (
	"fmt"
	"regexp"
	"sort"
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

// The forms Settings.parseSize, parseDuration and count accept.
var (
	sizeForm     = regexp.MustCompile(`^[0-9]+[kmgKMG]?$`)
	durationForm = regexp.MustCompile(`^[0-9.]+ *(ns|us|µs|ms|s|m|min|h)?$`)
	countForm    = regexp.MustCompile(`^[0-9]+$`)
)

func anyText(string) error { return nil }

func isSize(v string) error {
	if !sizeForm.MatchString(v) {
		return fmt.Errorf("%q is not a size (bytes, or a number with k, m or g, like 64m)", v)
	}
	return nil
}

func isDuration(v string) error {
	if !durationForm.MatchString(strings.ToLower(v)) || strings.Count(v, ".") > 1 || strings.HasPrefix(v, ".") {
		return fmt.Errorf("%q is not a duration (a number with ns, us, ms, s, m or h, like 700ms)", v)
	}
	return nil
}

func isCount(v string) error {
	if !countForm.MatchString(v) {
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
