package bijoubuf

import (
	"encoding/binary"
	"math"

	"github.com/bijoubuf/bijoubuf/go/bijou64"
)

// An encode is two walks over the same fields, as the Rust encoder does: a size pass
// (KeySize, VarintSize, LenSize, …) that gives the exact length of the message, then one
// write into a buffer of exactly that length. Writer writes forwards, so a nested
// message's length prefix must be known before its content (Begin takes it): for
// encodes written by hand. Generated code writes backwards with BackWriter, which
// learns each length as it writes, so that its size pass records none.

// KeySize is the length of the key of field number after field prev (0 first) (SPEC §4.1).
func KeySize(prev, number uint32) int {
	// Every tier's OFFSET is a multiple of 4, so the wire type in the low two bits never
	// moves a key to another tier: the size is the same for all four.
	return bijou64.Size(uint64(number-prev-1)<<2 | 3)
}

// VarintSize is the length of a bijou64 (uint32, uint64, bool, a length).
func VarintSize(v uint64) int { return bijou64.Size(v) }

// Zigzag is bijou64.Zigzag, for generated code: a signed value as the bijou64 it is
// written as (FieldVarintFast's argument).
func Zigzag(v int64) uint64 { return bijou64.Zigzag(v) }

// BoolValue is the bijou64 a bool is written as, 0 or 1, for generated code
// (FieldVarintFast's argument).
func BoolValue(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// ZigzagSize is the length of a signed value (int32, int64, sint32, sint64, enum).
func ZigzagSize(v int64) int { return bijou64.Size(bijou64.Zigzag(v)) }

// LenSize is the length of a LEN payload with n content bytes: prefix and content.
func LenSize(n int) int { return bijou64.Size(uint64(n)) + n }

// UnknownSize is the length of a kept unknown record re-emitted after field prev.
func UnknownSize(prev uint32, f UnknownRecord) int {
	n := KeySize(prev, f.Number)
	switch f.Wire {
	case WireVarint:
		return n + bijou64.Size(f.Value)
	case WireI64:
		return n + 8
	case WireLen:
		return n + LenSize(len(f.Bytes))
	}
	return n + 4
}

// Writer writes one encoding into a buffer of the size its size pass announced. A write
// past the end, a size that was not used up, or a field number not above the one before
// it in the same message (delta keys cannot spell it) is not a panic: the writer stops
// writing and Bytes reports size-mismatch or field-order.
type Writer struct {
	buf  []byte
	pos  int
	prev uint32
	err  *EncodeError
}

// NewWriter is a writer for an encoding of exactly size bytes (a top-level message; its
// first field's key is a delta from 0).
func NewWriter(size int) *Writer {
	return &Writer{buf: make([]byte, size)}
}

// Bytes is the encoding, or why the writes did not produce it.
func (w *Writer) Bytes() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.pos != len(w.buf) {
		return nil, NewEncodeError(EncodeSizeMismatch, "wrote "+itoa(w.pos)+" bytes where its size pass announced "+itoa(len(w.buf)))
	}
	return w.buf, nil
}

// Len is the number of bytes written so far.
func (w *Writer) Len() int { return w.pos }

// room says whether n more bytes fit, and stops the writer when they do not.
func (w *Writer) room(n int) bool {
	if w.err != nil {
		return false
	}
	if len(w.buf)-w.pos < n {
		w.err = NewEncodeError(EncodeSizeMismatch, "wrote more bytes than its size pass announced ("+itoa(len(w.buf))+")")
		return false
	}
	return true
}

// Key writes the key of field number with wire type wire, a delta from the previous
// field in the same message (SPEC §4.1). Fields must come in ascending number order.
func (w *Writer) Key(number uint32, wire WireType) {
	if number <= w.prev || number > MaxFieldNumber {
		w.keyOrder(number)
		return
	}
	d := uint64(number-w.prev-1)<<2 | uint64(wire)
	w.prev = number
	if d < bijou64.FirstTierTag && w.pos < len(w.buf) {
		w.buf[w.pos] = byte(d)
		w.pos++
		return
	}
	w.Varint(d)
}

// keyOrder records a field number out of order (or past the largest).
func (w *Writer) keyOrder(number uint32) {
	if w.err == nil {
		w.err = NewEncodeError(EncodeFieldOrder, "wrote field "+itoa(int(number))+" after field "+itoa(int(w.prev)))
	}
}

// Varint writes a bijou64 (uint32, uint64, a length; SPEC §2). After a refusal the
// bytes written no longer matter (Bytes reports the refusal), so the one-byte path need
// not look at it, only at the room left.
func (w *Writer) Varint(v uint64) {
	if v < bijou64.FirstTierTag && w.pos < len(w.buf) {
		w.buf[w.pos] = byte(v)
		w.pos++
		return
	}
	if n := bijou64.Size(v); w.room(n) {
		w.pos += bijou64.Put(w.buf[w.pos:], v)
	}
}

// Zigzag writes a signed value (int32, int64, sint32, sint64, enum; SPEC §3.2).
func (w *Writer) Zigzag(v int64) { w.Varint(bijou64.Zigzag(v)) }

// Bool writes false as 00, true as 01 (SPEC §3.3).
func (w *Writer) Bool(b bool) { w.Varint(BoolValue(b)) }

// Fixed32 writes four big-endian bytes (fixed32; sfixed32 as uint32(v)).
func (w *Writer) Fixed32(v uint32) {
	if w.room(4) {
		binary.BigEndian.PutUint32(w.buf[w.pos:], v)
		w.pos += 4
	}
}

// Fixed64 writes eight big-endian bytes (fixed64; sfixed64 as uint64(v)).
func (w *Writer) Fixed64(v uint64) {
	if w.room(8) {
		binary.BigEndian.PutUint64(w.buf[w.pos:], v)
		w.pos += 8
	}
}

// Float32 writes a float's bits, every NaN as 7F C0 00 00 (SPEC §3.5).
func (w *Writer) Float32(f float32) {
	if f != f {
		w.Fixed32(NaN32Bits)
		return
	}
	w.Fixed32(math.Float32bits(f))
}

// Float64 writes a double's bits, every NaN as 7F F8 00 00 00 00 00 00 (SPEC §3.5).
func (w *Writer) Float64(f float64) {
	if f != f {
		w.Fixed64(NaN64Bits)
		return
	}
	w.Fixed64(math.Float64bits(f))
}

// LenBytes writes a length prefix and the bytes (bytes; SPEC §7).
func (w *Writer) LenBytes(b []byte) {
	w.Varint(uint64(len(b)))
	if w.room(len(b)) {
		w.pos += copy(w.buf[w.pos:], b)
	}
}

// String writes a length prefix and the string's bytes. The caller has a string that
// is valid UTF-8 (Go strings need not be): EncodeString checks.
func (w *Writer) String(s string) {
	if p := w.pos; len(s) < bijou64.FirstTierTag && len(w.buf)-p > len(s) {
		w.buf[p] = byte(len(s))
		w.pos = p + 1 + copy(w.buf[p+1:], s)
		return
	}
	w.Varint(uint64(len(s)))
	if w.room(len(s)) {
		w.pos += copy(w.buf[w.pos:], s)
	}
}

// CheckString refuses a string with no UTF-8 spelling before any output (SPEC §9:
// invalid-utf8, an encoder's refusal): Go strings may hold any bytes.
func CheckString(s string) error {
	if bad := invalidUTF8At([]byte(s)); bad >= 0 {
		return NewEncodeError(EncodeInvalidUTF8, "holds a string that is not UTF-8 at byte "+itoa(bad))
	}
	return nil
}

// Mark is what Begin saves: the enclosing message's previous field and where the
// content must end.
type Mark struct {
	prev uint32
	end  int
}

// Begin writes the length prefix of a nested message (or of a repeated or map record's
// content) of size bytes, from the size pass, and starts its fields' keys from 0.
func (w *Writer) Begin(size int) Mark {
	w.Varint(uint64(size))
	m := Mark{prev: w.prev, end: w.pos + size}
	w.prev = 0
	return m
}

// End closes what Begin opened: the content must be exactly the size announced.
func (w *Writer) End(m Mark) {
	if w.err == nil && w.pos != m.end {
		w.err = NewEncodeError(EncodeSizeMismatch, "a nested message wrote a different size than it announced")
	}
	w.prev = m.prev
}

// Unknown re-emits a kept unknown record, its key computed from the field before it
// (SPEC §8.2) and its payload copied. A record whose number is not above the field
// written before it (out of order, twice, or colliding with a set known field) or is
// outside 1 ..= 2^29 − 1 could not be decoded again: unknown-field-order (SPEC §9).
// A number the schema declares for a field that is not set is for the caller to refuse.
func (w *Writer) Unknown(f UnknownRecord) {
	if (f.Number <= w.prev || f.Number > MaxFieldNumber) && w.err == nil {
		w.err = NewEncodeError(EncodeUnknownFieldOrder, "holds a preserved unknown field "+itoa(int(f.Number))+" after field "+itoa(int(w.prev)))
		return
	}
	w.Key(f.Number, f.Wire)
	switch f.Wire {
	case WireVarint:
		w.Varint(f.Value)
	case WireI64:
		w.Fixed64(f.Value)
	case WireLen:
		w.LenBytes(f.Bytes)
	default:
		w.Fixed32(uint32(f.Value))
	}
}

// Fixed64s writes vs as the content of a packed run of fixed64 or sfixed64 elements
// (eight big-endian bytes each) in one pass: one room check for the whole run.
func Fixed64s[T ~uint64 | ~int64](w *Writer, vs []T) {
	n := 8 * len(vs)
	if !w.room(n) {
		return
	}
	b := w.buf[w.pos : w.pos+n]
	for i, v := range vs {
		binary.BigEndian.PutUint64(b[8*i:], uint64(v))
	}
	w.pos += n
}

// Float64s writes vs as the content of a packed run of doubles, every NaN as
// 7F F8 00 00 00 00 00 00 (SPEC §3.5), with one room check for the whole run.
func Float64s(w *Writer, vs []float64) {
	n := 8 * len(vs)
	if !w.room(n) {
		return
	}
	b := w.buf[w.pos : w.pos+n]
	for i, f := range vs {
		bits := math.Float64bits(f)
		if f != f {
			bits = NaN64Bits
		}
		binary.BigEndian.PutUint64(b[8*i:], bits)
	}
	w.pos += n
}

// Fixed32s writes vs as the content of a packed run of fixed32 or sfixed32 elements
// (four big-endian bytes each), with one room check for the whole run.
func Fixed32s[T ~uint32 | ~int32](w *Writer, vs []T) {
	n := 4 * len(vs)
	if !w.room(n) {
		return
	}
	b := w.buf[w.pos : w.pos+n]
	for i, v := range vs {
		binary.BigEndian.PutUint32(b[4*i:], uint32(v))
	}
	w.pos += n
}

// Float32s writes vs as the content of a packed run of floats, every NaN as
// 7F C0 00 00 (SPEC §3.5), with one room check for the whole run.
func Float32s(w *Writer, vs []float32) {
	n := 4 * len(vs)
	if !w.room(n) {
		return
	}
	b := w.buf[w.pos : w.pos+n]
	for i, f := range vs {
		bits := math.Float32bits(f)
		if f != f {
			bits = NaN32Bits
		}
		binary.BigEndian.PutUint32(b[4*i:], bits)
	}
	w.pos += n
}
