package mapping

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// parseLenientObject parses the JSON object in s. R8 writes strict JSON, but
// mapping files are also produced or edited by other tools and R8's own
// reader (Gson in lenient mode) accepts single-quoted strings, unquoted keys
// and values, and trailing commas, so this parser accepts them too.
// Numbers are returned as float64, strings as string, objects as
// map[string]any and arrays as []any.
func parseLenientObject(s string) (map[string]any, error) {
	p := lenientParser{s: s}
	p.skipSpace()
	if !p.peek('{') {
		return nil, errors.New("metadata does not start with '{'")
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q after the metadata object", p.s[p.i:])
	}
	return v.(map[string]any), nil
}

type lenientParser struct {
	s     string
	i     int
	depth int
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 64

func (p *lenientParser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

func (p *lenientParser) peek(c byte) bool { return p.i < len(p.s) && p.s[p.i] == c }

func (p *lenientParser) errorf(format string, args ...any) error {
	return fmt.Errorf("at offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *lenientParser) value() (any, error) {
	p.skipSpace()
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end of metadata")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"' || c == '\'':
		return p.quoted()
	default:
		word := p.bareWord()
		switch word {
		case "":
			return nil, p.errorf("unexpected %q", c)
		case "true":
			return true, nil
		case "false":
			return false, nil
		case "null":
			return nil, nil
		}
		if f, err := strconv.ParseFloat(word, 64); err == nil {
			return f, nil
		}
		return word, nil // lenient: an unquoted string
	}
}

func (p *lenientParser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorf("metadata nested deeper than %d levels", maxDepth)
	}
	return nil
}

func (p *lenientParser) object() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.i++ // '{'
	obj := map[string]any{}
	for {
		p.skipSpace()
		if p.peek('}') {
			p.i++
			return obj, nil
		}
		var key string
		if p.peek('"') || p.peek('\'') {
			k, err := p.quoted()
			if err != nil {
				return nil, err
			}
			key = k
		} else if key = p.bareWord(); key == "" {
			return nil, p.errorf("expected a key")
		}
		p.skipSpace()
		if !p.peek(':') {
			return nil, p.errorf("expected ':' after key %q", key)
		}
		p.i++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		obj[key] = v
		p.skipSpace()
		switch {
		case p.peek(','):
			p.i++ // a trailing comma before '}' is accepted by the loop
		case p.peek('}'):
		default:
			return nil, p.errorf("expected ',' or '}'")
		}
	}
}

func (p *lenientParser) array() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.i++ // '['
	arr := []any{}
	for {
		p.skipSpace()
		if p.peek(']') {
			p.i++
			return arr, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.skipSpace()
		switch {
		case p.peek(','):
			p.i++
		case p.peek(']'):
		default:
			return nil, p.errorf("expected ',' or ']'")
		}
	}
}

// bareWord reads an unquoted key, number or literal.
func (p *lenientParser) bareWord() string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == ',' || c == ':' || c == '{' || c == '}' || c == '[' || c == ']' ||
			c == '"' || c == '\'' || c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			break
		}
		p.i++
	}
	return p.s[start:p.i]
}

func (p *lenientParser) quoted() (string, error) {
	quote := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == quote:
			p.i++
			return b.String(), nil
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", p.errorf("unterminated escape")
			}
			esc := p.s[p.i+1]
			p.i += 2
			switch esc {
			case '"', '\'', '\\', '/':
				b.WriteByte(esc)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if p.i+4 > len(p.s) {
					return "", p.errorf("short \\u escape")
				}
				r, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
				if err != nil {
					return "", p.errorf("bad \\u escape %q", p.s[p.i:p.i+4])
				}
				b.WriteRune(rune(r))
				p.i += 4
			default:
				return "", p.errorf("unknown escape \\%c", esc)
			}
		default:
			_, size := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteString(p.s[p.i : p.i+size])
			p.i += size
		}
	}
	return "", p.errorf("unterminated string")
}
