package bijoubufjson

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the kind of a JSON value.
type Kind uint8

// The six kinds of JSON value.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// What names a kind in an error: "null", "a bool", "a number", …
func (k Kind) What() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "a bool"
	case Number:
		return "a number"
	case String:
		return "a string"
	case Array:
		return "an array"
	}
	return "an object"
}

// numForm says how a number was written: as an integer that fits a uint64 (numU), as a
// negative integer that fits an int64 (numI), or otherwise (numF, held as a float64).
// Integers stay exact, as the Rust reader keeps them.
type numForm uint8

const (
	numU numForm = iota
	numI
	numF
)

// Value is a parsed JSON value: objects keep their members in document order.
type Value struct {
	Kind    Kind
	Bool    bool
	Str     string // a string's value
	Items   []Value
	Members []Member
	form    numForm
	u       uint64
	i       int64
	f       float64
}

// Member is one member of an object.
type Member struct {
	Key   string
	Value Value
}

// float is a number's value as a float64 (rounded to nearest, as Rust's `as` casts).
func (v *Value) float() float64 {
	switch v.form {
	case numU:
		return float64(v.u)
	case numI:
		return float64(v.i)
	}
	return v.f
}

// ParseError is a JSON text that is not one well-formed document: a syntax error, a
// number out of range, arrays and objects nested too deep, or a key twice in one object.
type ParseError struct {
	Offset  int
	Message string
}

func (e *ParseError) Error() string {
	return e.Message + " at character " + strconv.Itoa(e.Offset)
}

// Parse reads text as one JSON document whose arrays and objects nest at most
// maxNesting deep, refusing a key twice in one object (which would be ambiguous: the
// error names the object's JSON path), numbers that overflow a float64, lone surrogates
// and control characters in strings.
func Parse(text string, maxNesting int) (Value, error) {
	p := parser{s: text, max: maxNesting}
	p.ws()
	v, err := p.value(&root, 0)
	if err != nil {
		return Value{}, err
	}
	p.ws()
	if p.pos != len(p.s) {
		return Value{}, p.fail("trailing characters")
	}
	return v, nil
}

type parser struct {
	s   string
	pos int
	max int
}

func (p *parser) fail(what string) error {
	return &ParseError{Offset: p.pos, Message: what}
}

func (p *parser) ws() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\n', '\r', '\t':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(at *At, nesting int) (Value, error) {
	if p.pos >= len(p.s) {
		return Value{}, p.fail("EOF while parsing a value")
	}
	switch c := p.s[p.pos]; c {
	case '{', '[':
		if nesting+1 > p.max {
			return Value{}, p.fail("arrays and objects nest deeper than " + strconv.Itoa(p.max) +
				" (twice the message depth limit) at " + at.Path())
		}
		if c == '{' {
			return p.object(at, nesting+1)
		}
		return p.array(at, nesting+1)
	case '"':
		s, err := p.str()
		return Value{Kind: String, Str: s}, err
	case 't':
		return p.word("true", Value{Kind: Bool, Bool: true})
	case 'f':
		return p.word("false", Value{Kind: Bool})
	case 'n':
		return p.word("null", Value{Kind: Null})
	}
	return p.number()
}

func (p *parser) word(w string, v Value) (Value, error) {
	if !strings.HasPrefix(p.s[p.pos:], w) {
		return Value{}, p.fail("expected ident")
	}
	p.pos += len(w)
	return v, nil
}

func (p *parser) object(at *At, nesting int) (Value, error) {
	p.pos++
	v := Value{Kind: Object}
	var keys map[string]struct{}
	p.ws()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	for {
		p.ws()
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			return Value{}, p.fail("expected a member name")
		}
		key, err := p.str()
		if err != nil {
			return Value{}, err
		}
		// Large objects (maps, Structs) check duplicates through a set.
		dup := false
		if len(v.Members) < 16 {
			for i := range v.Members {
				if v.Members[i].Key == key {
					dup = true
				}
			}
		} else {
			if keys == nil {
				keys = make(map[string]struct{}, 2*len(v.Members))
				for i := range v.Members {
					keys[v.Members[i].Key] = struct{}{}
				}
			}
			_, dup = keys[key]
			keys[key] = struct{}{}
		}
		if dup {
			return Value{}, p.fail("duplicate key " + quote(key) + " in the object at " + at.Path())
		}
		p.ws()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return Value{}, p.fail("expected ':'")
		}
		p.pos++
		p.ws()
		here := at.Key(key)
		item, err := p.value(&here, nesting)
		if err != nil {
			return Value{}, err
		}
		v.Members = append(v.Members, Member{Key: key, Value: item})
		p.ws()
		if p.pos >= len(p.s) {
			return Value{}, p.fail("EOF while parsing an object")
		}
		c := p.s[p.pos]
		p.pos++
		if c == '}' {
			return v, nil
		}
		if c != ',' {
			return Value{}, p.fail("expected ',' or '}'")
		}
	}
}

func (p *parser) array(at *At, nesting int) (Value, error) {
	p.pos++
	v := Value{Kind: Array}
	p.ws()
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		p.ws()
		here := at.Index(len(v.Items))
		item, err := p.value(&here, nesting)
		if err != nil {
			return Value{}, err
		}
		v.Items = append(v.Items, item)
		p.ws()
		if p.pos >= len(p.s) {
			return Value{}, p.fail("EOF while parsing an array")
		}
		c := p.s[p.pos]
		p.pos++
		if c == ']' {
			return v, nil
		}
		if c != ',' {
			return Value{}, p.fail("expected ',' or ']'")
		}
	}
}

func (p *parser) str() (string, error) {
	p.pos++
	var b strings.Builder
	start := p.pos
	for {
		if p.pos >= len(p.s) {
			return "", p.fail("EOF while parsing a string")
		}
		c := p.s[p.pos]
		if c == '"' {
			if b.Len() == 0 {
				s := p.s[start:p.pos]
				p.pos++
				return s, nil
			}
			b.WriteString(p.s[start:p.pos])
			p.pos++
			return b.String(), nil
		}
		if c < 0x20 {
			return "", p.fail("control character (\\u0000-\\u001F) found while parsing a string")
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(p.s[p.pos:])
			if r == utf8.RuneError && n == 1 {
				return "", p.fail("invalid UTF-8 in a string")
			}
			p.pos += n
			continue
		}
		if c != '\\' {
			p.pos++
			continue
		}
		b.WriteString(p.s[start:p.pos])
		if p.pos+1 >= len(p.s) {
			return "", p.fail("EOF while parsing a string")
		}
		e := p.s[p.pos+1]
		p.pos += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
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
			u, err := p.hex4()
			if err != nil {
				return "", err
			}
			switch {
			case u >= 0xD800 && u < 0xDC00:
				if !strings.HasPrefix(p.s[p.pos:], "\\u") {
					return "", p.fail("lone leading surrogate in hex escape")
				}
				p.pos += 2
				lo, err := p.hex4()
				if err != nil {
					return "", err
				}
				if lo < 0xDC00 || lo > 0xDFFF {
					return "", p.fail("lone leading surrogate in hex escape")
				}
				b.WriteRune(0x10000 + (rune(u)-0xD800)<<10 + (rune(lo) - 0xDC00))
			case u >= 0xDC00 && u <= 0xDFFF:
				return "", p.fail("lone trailing surrogate in hex escape")
			default:
				b.WriteRune(rune(u))
			}
		default:
			return "", p.fail("invalid escape")
		}
		start = p.pos
	}
}

func (p *parser) hex4() (uint16, error) {
	if p.pos+4 > len(p.s) {
		return 0, p.fail("EOF while parsing a string")
	}
	var u uint16
	for _, c := range []byte(p.s[p.pos : p.pos+4]) {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, p.fail("invalid escape")
		}
		u = u<<4 | uint16(d)
	}
	p.pos += 4
	return u, nil
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; an integer within the
// uint64 (or, negative, int64) range stays exact, anything else is a float64, and one
// beyond the float64 range is refused.
func (p *parser) number() (Value, error) {
	s := p.s
	i := p.pos
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i >= len(s) || s[i] < '0' || s[i] > '9' {
		return Value{}, p.fail("expected a value")
	}
	if s[i] == '0' {
		i++
	} else {
		digits()
	}
	integral := true
	if i < len(s) && s[i] == '.' {
		i++
		integral = false
		if digits() == 0 {
			p.pos = i
			return Value{}, p.fail("invalid number")
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		integral = false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.pos = i
			return Value{}, p.fail("invalid number")
		}
	}
	text := s[p.pos:i]
	v := Value{Kind: Number, Str: text}
	if integral {
		if text[0] == '-' {
			// "-0" is the float -0.0, as serde_json reads it (so a double keeps its sign).
			if n, err := strconv.ParseInt(text, 10, 64); err == nil && n != 0 {
				v.form, v.i = numI, n
				p.pos = i
				return v, nil
			}
		} else if n, err := strconv.ParseUint(text, 10, 64); err == nil {
			v.form, v.u = numU, n
			p.pos = i
			return v, nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && (math.IsInf(f, 0) || math.IsNaN(f)) {
		return Value{}, p.fail("number out of range")
	}
	v.form, v.f = numF, f
	p.pos = i
	return v, nil
}
