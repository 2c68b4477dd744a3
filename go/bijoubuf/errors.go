package bijoubuf

import (
	"errors"
	"strconv"
	"strings"
)

// Code is a stable kebab-case error code of SPEC §11.1, one per decoder obligation
// O1–O17. The codes are part of the format: vectors and other implementations use them.
type Code uint8

// The decode error codes, in SPEC §10.2's order.
const (
	Truncated            Code = iota + 1 // O1
	VarintOverflow                       // O2
	FieldNumberOverflow                  // O3
	UnknownField                         // O4
	WireTypeMismatch                     // O5
	OneofConflict                        // O6
	DepthLimitExceeded                   // O7
	IntegerOutOfRange                    // O8
	InvalidBool                          // O9
	NonCanonicalNaN                      // O10
	InvalidUTF8                          // O11
	DefaultValuePresent                  // O12
	EmptyRepeated                        // O13
	PackedLengthMismatch                 // O14
	MapKeyOrder                          // O15
	MissingRequiredField                 // O16
	SizeLimitExceeded                    // O17
)

var codeText = [...]string{
	Truncated:            "truncated",
	VarintOverflow:       "varint-overflow",
	FieldNumberOverflow:  "field-number-overflow",
	UnknownField:         "unknown-field",
	WireTypeMismatch:     "wire-type-mismatch",
	OneofConflict:        "oneof-conflict",
	DepthLimitExceeded:   "depth-limit-exceeded",
	IntegerOutOfRange:    "integer-out-of-range",
	InvalidBool:          "invalid-bool",
	NonCanonicalNaN:      "non-canonical-nan",
	InvalidUTF8:          "invalid-utf8",
	DefaultValuePresent:  "default-value-present",
	EmptyRepeated:        "empty-repeated",
	PackedLengthMismatch: "packed-length-mismatch",
	MapKeyOrder:          "map-key-order",
	MissingRequiredField: "missing-required-field",
	SizeLimitExceeded:    "size-limit-exceeded",
}

// The phrase between the path and the offset in an error's text: the words of the Rust
// runtime's ErrorKind::what and the TypeScript runtime's WHAT table (SPEC §11.4).
var codeWhat = [...]string{
	Truncated:            "ends inside an element",
	VarintOverflow:       "holds a bijou64 above u64::MAX",
	FieldNumberOverflow:  "has a key past field number 536870911",
	UnknownField:         "is not in the schema",
	WireTypeMismatch:     "has a wire type its schema type does not use",
	OneofConflict:        "is a second member of its oneof",
	DepthLimitExceeded:   "nests deeper than the depth limit",
	IntegerOutOfRange:    "holds a value outside its declared width",
	InvalidBool:          "holds a bool other than 0 or 1",
	NonCanonicalNaN:      "holds a non-canonical NaN",
	InvalidUTF8:          "is not valid UTF-8",
	DefaultValuePresent:  "holds its default",
	EmptyRepeated:        "is a repeated record with no elements",
	PackedLengthMismatch: "has a packed length that is not a multiple of its element width",
	MapKeyOrder:          "has a key not above the previous key",
	MissingRequiredField: "is required but absent",
	SizeLimitExceeded:    "is longer than the size limit",
}

// String is the kebab-case code: "default-value-present".
func (c Code) String() string {
	if int(c) < len(codeText) && codeText[c] != "" {
		return codeText[c]
	}
	return "code(" + strconv.Itoa(int(c)) + ")"
}

// What is the phrase an error of this code prints between its path and its offset:
// "holds its default" for DefaultValuePresent.
func (c Code) What() string {
	if int(c) < len(codeWhat) {
		return codeWhat[c]
	}
	return ""
}

// DecodeError says why a byte string was refused: the code, the absolute byte offset in
// the top-level input (or stream) and the field path, outermost first
// (Order.lines[3].sku). Its text is the Rust and TypeScript runtimes' (SPEC §11.4):
//
//	default-value-present: Person.age holds its default at byte 17
type DecodeError struct {
	code   Code
	offset int
	// Rendered segments, innermost first: adding one while the error travels outwards
	// is an append.
	revPath []string
}

// NewDecodeError is an error of code at absolute byte offset, with an empty path.
func NewDecodeError(code Code, offset int) *DecodeError {
	return &DecodeError{code: code, offset: offset}
}

// Code is what went wrong.
func (e *DecodeError) Code() Code { return e.code }

// Offset is the absolute byte offset (SPEC §11.1 says which byte).
func (e *DecodeError) Offset() int { return e.offset }

// Path is the field path rendered as text (SPEC §11.3): "Outer.inner[3].name"; empty
// for an error found before the top-level message was entered.
func (e *DecodeError) Path() string {
	var b strings.Builder
	for i := len(e.revPath) - 1; i >= 0; i-- {
		b.WriteString(e.revPath[i])
	}
	return b.String()
}

// Error is "<code>: <path> <what> at byte <offset>", with "input" for an empty path.
func (e *DecodeError) Error() string {
	p := e.Path()
	if p == "" {
		p = "input"
	}
	return e.code.String() + ": " + p + " " + e.code.What() + " at byte " + strconv.Itoa(e.offset)
}

// push adds an outer segment, already rendered.
func (e *DecodeError) push(seg string) *DecodeError {
	e.revPath = append(e.revPath, seg)
	return e
}

// InMessage roots the path at a top-level message's short name: "Person".
func (e *DecodeError) InMessage(name string) *DecodeError { return e.push(name) }

// InField adds a field segment: ".name".
func (e *DecodeError) InField(name string) *DecodeError { return e.push("." + name) }

// InUnknown adds an unknown field's segment: ".7".
func (e *DecodeError) InUnknown(number uint32) *DecodeError {
	return e.push("." + strconv.FormatUint(uint64(number), 10))
}

// InIndex adds a repeated element's segment: "[3]".
func (e *DecodeError) InIndex(i int) *DecodeError { return e.push("[" + strconv.Itoa(i) + "]") }

// InKey adds a map entry's segment (SPEC §11.3), rendered by one of the Key functions.
func (e *DecodeError) InKey(seg string) *DecodeError { return e.push(seg) }

// StringKey renders a string map key as a path segment: ["k"], with `"` and `\`
// escaped by a backslash, U+0000–U+001F and U+007F written \u{hex}, every other
// character as itself (SPEC §11.3).
func StringKey(k string) string {
	var b strings.Builder
	b.WriteString(`["`)
	for _, r := range k {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r <= 0x1f || r == 0x7f:
			b.WriteString(`\u{` + strconv.FormatInt(int64(r), 16) + `}`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString(`"]`)
	return b.String()
}

// IntKey renders a signed integer map key: [-1].
func IntKey(k int64) string { return "[" + strconv.FormatInt(k, 10) + "]" }

// UintKey renders an unsigned integer map key: [5].
func UintKey(k uint64) string { return "[" + strconv.FormatUint(k, 10) + "]" }

// BoolKey renders a bool map key: [true].
func BoolKey(k bool) string { return "[" + strconv.FormatBool(k) + "]" }

// AsDecodeError returns err's *DecodeError, if it is one.
func AsDecodeError(err error) (*DecodeError, bool) {
	var d *DecodeError
	ok := errors.As(err, &d)
	return d, ok
}

// EncodeCode is a code of an encoder's refusal (SPEC §11.1's second table), or one of
// the implementation's own: buffer-too-small, size-mismatch, field-order.
type EncodeCode uint8

// The encode error codes.
const (
	EncodeDepthLimitExceeded   EncodeCode = iota + 1 // depth-limit-exceeded
	EncodeSizeLimitExceeded                          // size-limit-exceeded
	EncodeMissingRequiredField                       // missing-required-field
	EncodeUnknownFieldOrder                          // unknown-field-order
	EncodeIntegerOutOfRange                          // integer-out-of-range
	EncodeInvalidUTF8                                // invalid-utf8
	EncodeInvalidValue                               // invalid-value
	EncodeSizeMismatch                               // size-mismatch (a size pass disagreed with the write)
	EncodeFieldOrder                                 // field-order (fields written out of ascending order)
)

var encodeCodeText = [...]string{
	EncodeDepthLimitExceeded:   "depth-limit-exceeded",
	EncodeSizeLimitExceeded:    "size-limit-exceeded",
	EncodeMissingRequiredField: "missing-required-field",
	EncodeUnknownFieldOrder:    "unknown-field-order",
	EncodeIntegerOutOfRange:    "integer-out-of-range",
	EncodeInvalidUTF8:          "invalid-utf8",
	EncodeInvalidValue:         "invalid-value",
	EncodeSizeMismatch:         "size-mismatch",
	EncodeFieldOrder:           "field-order",
}

// String is the kebab-case code.
func (c EncodeCode) String() string {
	if int(c) < len(encodeCodeText) && encodeCodeText[c] != "" {
		return encodeCodeText[c]
	}
	return "code(" + strconv.Itoa(int(c)) + ")"
}

// EncodeError says why the encoder refused a value (SPEC §9): the code, a short
// explanation, and where in the value (informative).
type EncodeError struct {
	code    EncodeCode
	detail  string
	revPath []string
}

// NewEncodeError is an error of code with an explanation such as "is required but unset".
func NewEncodeError(code EncodeCode, detail string) *EncodeError {
	return &EncodeError{code: code, detail: detail}
}

// Code is what went wrong.
func (e *EncodeError) Code() EncodeCode { return e.code }

// Path is the value's path rendered as text, as for DecodeError.
func (e *EncodeError) Path() string {
	var b strings.Builder
	for i := len(e.revPath) - 1; i >= 0; i-- {
		b.WriteString(e.revPath[i])
	}
	return b.String()
}

// InMessage roots the path at a message's short name.
func (e *EncodeError) InMessage(name string) *EncodeError {
	e.revPath = append(e.revPath, name)
	return e
}

// InField adds a field segment.
func (e *EncodeError) InField(name string) *EncodeError {
	e.revPath = append(e.revPath, "."+name)
	return e
}

// Error is "<code>: <path> <detail>", with "value" for an empty path, as the TypeScript
// runtime prints it: "missing-required-field: Reading.sensor is required but unset".
func (e *EncodeError) Error() string {
	p := e.Path()
	if p == "" {
		p = "value"
	}
	return e.code.String() + ": " + p + " " + e.detail
}

// InField adds a field segment to err when it is a *DecodeError (an element read's
// error, which has no path yet), and returns err.
func InField(err error, name string) error {
	return wrap(err, func(d *DecodeError) { d.InField(name) })
}

// InElement adds a repeated element's segment and the field's to err when it is a
// *DecodeError: ".name[i]".
func InElement(err error, i int, name string) error {
	return wrap(err, func(d *DecodeError) { d.InIndex(i).InField(name) })
}

// InEntry adds a map entry's segment (rendered by one of the Key functions) and the
// field's to err when it is a *DecodeError: ".name[key]".
func InEntry(err error, seg string, name string) error {
	return wrap(err, func(d *DecodeError) { d.InKey(seg).InField(name) })
}

// KeyOrderError is the error for a map key not above the one before it (O15; SPEC
// §6.4): at the key element at, with the key's segment and the field's.
func KeyOrderError(at int, seg string, name string) error {
	return NewDecodeError(MapKeyOrder, at).InKey(seg).InField(name)
}
