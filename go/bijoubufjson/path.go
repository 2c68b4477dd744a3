package bijoubufjson

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// At is where a value sits in a JSON document, as a chain up to the document, so that a
// path is only spelled out for an error.
type At struct {
	parent *At
	key    string
	index  int
	isKey  bool
	// child is the place keyIn and indexIn reuse for the values below this one.
	child *At
}

var root At

// Key is member key of the value at a.
func (a *At) Key(key string) At { return At{parent: a, key: key, isKey: true} }

// Index is element i of the array at a.
func (a *At) Index(i int) At { return At{parent: a, index: i} }

// keyIn is Key in a place kept for a's children, which the next keyIn or indexIn on a
// overwrites: for a reader that visits one value at a time and spells a path (Path) at
// once when it needs one, so that walking a document does not allocate a place per value.
func (a *At) keyIn(key string) *At {
	c := a.place()
	c.key, c.index, c.isKey = key, 0, true
	return c
}

// indexIn is Index in the place keyIn uses.
func (a *At) indexIn(i int) *At {
	c := a.place()
	c.key, c.index, c.isKey = "", i, false
	return c
}

func (a *At) place() *At {
	if a.child == nil {
		a.child = &At{parent: a}
	}
	return a.child
}

// Path spells the path as the Rust and TypeScript readers do: `$.lines[3].sku`, with
// `$["odd key"]` for a key that is not a plain identifier.
func (a *At) Path() string {
	if a == nil || a.parent == nil {
		return "$"
	}
	p := a.parent.Path()
	if !a.isKey {
		return p + "[" + strconv.Itoa(a.index) + "]"
	}
	return memberPath(p, a.key)
}

func memberPath(parent, key string) string {
	plain := key != ""
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '@') {
			plain = false
			break
		}
	}
	if plain {
		return parent + "." + key
	}
	return parent + "[" + quote(key) + "]"
}

// quote is s as a JSON string literal, spelled as serde_json spells it: `"` and `\`
// escaped, control characters as `\b \f \n \r \t` or `\u00xx`, everything else as it is.
func quote(s string) string {
	var b strings.Builder
	quoteInto(&b, s)
	return b.String()
}

const lowerHex = "0123456789abcdef"

func quoteInto(b *strings.Builder, s string) {
	b.WriteByte('"')
	plain := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var esc string
		switch {
		case c == '"':
			esc = `\"`
		case c == '\\':
			esc = `\\`
		case c == '\n':
			esc = `\n`
		case c == '\r':
			esc = `\r`
		case c == '\t':
			esc = `\t`
		case c == 0x08:
			esc = `\b`
		case c == 0x0C:
			esc = `\f`
		case c < 0x20:
			esc = `\u00` + string(lowerHex[c>>4]) + string(lowerHex[c&15])
		default:
			continue
		}
		b.WriteString(s[plain:i])
		b.WriteString(esc)
		plain = i + 1
	}
	b.WriteString(s[plain:])
	b.WriteByte('"')
}

// validUTF8 reports whether s may be written as JSON text.
func validUTF8(s string) bool { return utf8.ValidString(s) }
