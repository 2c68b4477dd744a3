package bijoubuf

import (
	"encoding/binary"
	"math"

	"github.com/bijoubuf/bijoubuf/go/bijou64"
)

// BackWriter is the write pass of a generated encode: it fills a buffer of the size the
// size pass announced from its end towards its start, a message's fields last to first
// and each value before its key and length prefix. A nested message's length is then
// known when its prefix is written (the bytes written since it began), so the size pass
// records no lengths; the bytes are the same canonical bytes a forward write produces.
//
// A key is a delta from the field before it (SPEC §4.1), which a backward write meets
// only after the field: Field leaves a field's key pending and writes it when the next
// field down (or the message's start) says what it is a delta from. Generated code calls
// Field before each field's value, from the highest number to the lowest.
//
// A write past the start of the buffer, a buffer not filled exactly, or a field number
// not below the one written after it (delta keys cannot spell it) or outside
// 1 ..= 2^29 − 1 is not a panic: the writer stops writing and Bytes reports
// size-mismatch, field-order or unknown-field-order.
type BackWriter struct {
	buf []byte
	// pos is where the bytes written so far begin; the next write ends there.
	pos int
	// pending is the key of the field written last (the lowest so far in its message)
	// as number<<2 | wire type, or 0: a key's delta is pending − (prev+1)<<2.
	pending uint64
	err     *EncodeError
}

// NewBackWriter is the write pass of a top-level message of exactly size bytes.
func NewBackWriter(size int) BackWriter {
	return BackWriter{buf: make([]byte, size), pos: size}
}

// NewBackWriterInto is the write pass of a top-level message into buf, which must be
// exactly as long as the size pass announced: a buffer the caller owns (one taken from
// a pool, or part of a larger one with a header before it), whose bytes need not be
// zero. Every byte of buf is written before Bytes, which returns buf, reports success;
// nothing outside buf is touched. A buf of another length is not a panic: Bytes reports
// size-mismatch.
func NewBackWriterInto(buf []byte) BackWriter {
	return BackWriter{buf: buf, pos: len(buf)}
}

// Bytes ends the write: the first field's key (a delta from 0), then the encoding, or
// why the writes did not produce it.
func (w *BackWriter) Bytes() ([]byte, error) {
	w.flush()
	if w.err != nil {
		return nil, w.err
	}
	if w.pos != 0 {
		return nil, NewEncodeError(EncodeSizeMismatch, "wrote "+itoa(len(w.buf)-w.pos)+" bytes where its size pass announced "+itoa(len(w.buf)))
	}
	return w.buf, nil
}

// Len is the number of bytes written so far.
func (w *BackWriter) Len() int { return len(w.buf) - w.pos }

// overflow stops the writer (a write needed more bytes than the buffer has left) and
// returns −1 for room to return.
func (w *BackWriter) overflow() int {
	if w.err == nil {
		w.err = NewEncodeError(EncodeSizeMismatch, "wrote more bytes than its size pass announced ("+itoa(len(w.buf))+")")
	}
	w.pos = 0
	return -1
}

// room makes room for n more bytes below pos and returns where they begin, or −1 after
// stopping the writer. A stopped writer has no room left (pos 0), so that nothing is
// written after a refusal.
func (w *BackWriter) room(n int) int {
	p := w.pos - n
	if p < 0 {
		return w.overflow()
	}
	w.pos = p
	return p
}

// Field begins field number with wire type wire: it writes the key of the field written
// before it (the next one up), a delta from number, and leaves this one's key pending.
// Fields go from the highest number to the lowest.
func (w *BackWriter) Field(number uint32, wire WireType) {
	// Inlined: a one-byte key or none, in room. The rest in field.
	d, k, ok := w.pendingKey(number)
	if p := w.pos - k; ok && p >= 0 {
		if k != 0 {
			w.buf[p] = byte(d)
		}
		w.pos = p
		w.pending = uint64(number)<<2 | uint64(wire)
		return
	}
	w.field(number, wire, EncodeFieldOrder)
}

// pendingKey is what the one-call paths write before field number: the pending key's
// delta from number and its length, 1, or 0 when nothing is pending (the first field of
// its message); ok false when they cannot: a key longer than a byte, or a number out of
// order or outside 1 ..= 2^29 − 1 (which the slow path refuses).
func (w *BackWriter) pendingKey(number uint32) (d uint64, k int, ok bool) {
	pk := w.pending
	if pk == 0 {
		return 0, 0, number-1 < MaxFieldNumber
	}
	// A number not below the pending one underflows the delta past any one-byte key.
	d = pk - (uint64(number)+1)<<2
	return d, 1, d < bijou64.FirstTierTag && number != 0
}

// field is Field past its inlined case: a key of more than one byte, or a refusal
// (code: field-order or unknown-field-order).
func (w *BackWriter) field(number uint32, wire WireType, code EncodeCode) {
	if number-1 >= MaxFieldNumber || (w.pending != 0 && uint64(number) >= w.pending>>2) {
		w.fieldOrder(number, code)
		return
	}
	if pk := w.pending; pk != 0 {
		w.Varint(pk - (uint64(number)+1)<<2)
	}
	w.pending = uint64(number)<<2 | uint64(wire)
}

// flush writes the pending key as the first of its message (a delta from 0).
func (w *BackWriter) flush() {
	if pk := w.pending; pk != 0 {
		w.Varint(pk - 4)
		w.pending = 0
	}
}

// fieldOrder records a field number out of order (or outside the range) and stops the
// writer.
func (w *BackWriter) fieldOrder(number uint32, code EncodeCode) {
	if w.err == nil {
		after := "the end of its message"
		if w.pending != 0 {
			after = "field " + itoa(int(w.pending>>2))
		}
		what := "field "
		if code == EncodeUnknownFieldOrder {
			what = "preserved unknown field "
		}
		w.err = NewEncodeError(code, "wrote "+what+itoa(int(number))+" before "+after)
	}
	w.pos = 0
}

// Varint writes a bijou64 (uint32, uint64, a length; SPEC §2).
func (w *BackWriter) Varint(v uint64) {
	if p := w.pos - 1; v < bijou64.FirstTierTag && uint(p) < uint(len(w.buf)) {
		w.buf[p] = byte(v)
		w.pos = p
		return
	}
	w.varint(v)
}

// varint is Varint past its one-byte case.
func (w *BackWriter) varint(v uint64) {
	n := bijou64.Size(v)
	if p := w.room(n); p >= 0 {
		if n >= 4 {
			w.putLong(p, n, v)
		} else {
			bijou64.Put(w.buf[p:], v)
		}
	}
}

// putLong writes v, n ≥ 4 bytes of it, at w.buf[p:]: its payload as the last bytes of
// one eight-byte store, which writes zeros before the payload. Those land where the
// buffer is not written yet (writes go from its end to its start), and the tag and the
// writes after this one overwrite them. Within seven bytes of the buffer's start,
// bijou64.Put writes byte by byte.
func (w *BackWriter) putLong(p, n int, v uint64) {
	if t := n - 1; p+t >= 7 {
		binary.BigEndian.PutUint64(w.buf[p+t-7:], v-bijou64.Offsets[t])
		w.buf[p] = bijou64.FirstTierTag - 1 + byte(t)
		return
	}
	bijou64.Put(w.buf[p:], v)
}

// Zigzag writes a signed value (int32, int64, sint32, sint64, enum; SPEC §3.2).
func (w *BackWriter) Zigzag(v int64) { w.Varint(bijou64.Zigzag(v)) }

// Bool writes false as 00, true as 01 (SPEC §3.3).
func (w *BackWriter) Bool(b bool) {
	w.Varint(BoolValue(b))
}

// Fixed32 writes four big-endian bytes (fixed32; sfixed32 as uint32(v)).
func (w *BackWriter) Fixed32(v uint32) {
	if p := w.room(4); p >= 0 {
		binary.BigEndian.PutUint32(w.buf[p:], v)
	}
}

// Fixed64 writes eight big-endian bytes (fixed64; sfixed64 as uint64(v)).
func (w *BackWriter) Fixed64(v uint64) {
	if p := w.room(8); p >= 0 {
		binary.BigEndian.PutUint64(w.buf[p:], v)
	}
}

// Float32 writes a float's bits, every NaN as 7F C0 00 00 (SPEC §3.5).
func (w *BackWriter) Float32(f float32) { w.Fixed32(Float32Bits(f)) }

// Float64 writes a double's bits, every NaN as 7F F8 00 00 00 00 00 00 (SPEC §3.5).
func (w *BackWriter) Float64(f float64) { w.Fixed64(Float64Bits(f)) }

// LenBytes writes a length prefix and the bytes (bytes; SPEC §7).
func (w *BackWriter) LenBytes(b []byte) {
	if p := w.room(len(b)); p >= 0 {
		copy(w.buf[p:], b)
		w.Varint(uint64(len(b)))
	}
}

// String writes a length prefix and the string's bytes. The caller has a string that is
// valid UTF-8 (Go strings need not be): the size pass checks (ValidString).
func (w *BackWriter) String(s string) {
	if p := w.room(len(s)); p >= 0 {
		copy(w.buf[p:], s)
		w.Varint(uint64(len(s)))
	}
}

// FieldString writes string field number (Field, then String) in one call where the
// key and the length are a byte each.
func (w *BackWriter) FieldString(number uint32, s string) {
	d, k, ok := w.pendingKey(number)
	if p := w.pos - k - 1 - len(s); ok && len(s) < bijou64.FirstTierTag && p >= 0 {
		// The length, the string, the pending key (written first: with no key pending,
		// the string or the length overwrite it).
		buf := w.buf // indexed, as in FieldVarint
		buf[p+k+len(s)] = byte(d)
		copy(buf[p+1:], s)
		buf[p] = byte(len(s))
		w.pos = p
		w.pending = uint64(number)<<2 | uint64(WireLen)
		return
	}
	w.Field(number, WireLen)
	w.String(s)
}

// FieldBytes writes bytes field number (Field, then LenBytes) in one call where the
// key and the length are a byte each.
func (w *BackWriter) FieldBytes(number uint32, v []byte) {
	d, k, ok := w.pendingKey(number)
	if p := w.pos - k - 1 - len(v); ok && len(v) < bijou64.FirstTierTag && p >= 0 {
		buf := w.buf              // indexed, as in FieldVarint
		buf[p+k+len(v)] = byte(d) // as in FieldString
		copy(buf[p+1:], v)
		buf[p] = byte(len(v))
		w.pos = p
		w.pending = uint64(number)<<2 | uint64(WireLen)
		return
	}
	w.Field(number, WireLen)
	w.LenBytes(v)
}

// FieldVarint writes field number of wire type VARINT holding v (Field, then Varint)
// in one call: a one-byte key and value as FieldVarintFast writes them, the rest in
// FieldVarintRest.
func (w *BackWriter) FieldVarint(number uint32, v uint64) {
	if !w.FieldVarintFast(number, v) {
		w.FieldVarintRest(number, v)
	}
}

// FieldVarintFast is FieldVarint's common case, small enough for the compiler to inline
// into generated code: a key pending whose delta from number is one byte (with none
// pending, the subtraction wraps past any one-byte key), and a one-byte value. It
// reports false, having written nothing, for every other case, which FieldVarint then
// writes or refuses.
func (w *BackWriter) FieldVarintFast(number uint32, v uint64) bool {
	d := w.pending - (uint64(number)+1)<<2
	if p := w.pos - 2; d < bijou64.FirstTierTag && v < bijou64.FirstTierTag && p >= 0 && number != 0 {
		buf := w.buf
		buf[p+1] = byte(d)
		buf[p] = byte(v)
		w.pos = p
		w.pending = uint64(number)<<2 | uint64(WireVarint)
		return true
	}
	return false
}

// FieldVarintRest is FieldVarint past FieldVarintFast's case, which generated code
// calls once FieldVarintFast declined: a value under a one-byte key (or none: the first
// field of its message) in one write, spelled here (SPEC §2.2: the tag, then the value
// less the tier's offset in big-endian bytes); a longer key or a refusal through Field
// and Varint.
func (w *BackWriter) FieldVarintRest(number uint32, v uint64) {
	d, k, ok := w.pendingKey(number)
	n := bijou64.Size(v)
	if p := w.pos - k - n; ok && p >= 0 {
		b := w.buf[p:w.pos]
		b[len(b)-1] = byte(d) // as in FieldString: with no key pending, the value overwrites it
		switch n {
		case 1:
			b[0] = byte(v)
		case 2:
			b[1] = byte(v - bijou64.Offsets[1])
			b[0] = bijou64.FirstTierTag
		case 3:
			x := v - bijou64.Offsets[2]
			b[2] = byte(x)
			b[1] = byte(x >> 8)
			b[0] = bijou64.FirstTierTag + 1
		default:
			w.putLong(p, n, v)
		}
		w.pos = p
		w.pending = uint64(number)<<2 | uint64(WireVarint)
		return
	}
	w.Field(number, WireVarint)
	w.Varint(v)
}

// FieldZigzag writes signed field number (int32, int64, sint32, sint64, enum).
func (w *BackWriter) FieldZigzag(number uint32, v int64) {
	w.FieldVarint(number, bijou64.Zigzag(v))
}

// FieldBool writes bool field number.
func (w *BackWriter) FieldBool(number uint32, v bool) {
	w.FieldVarint(number, BoolValue(v))
}

// FieldFixed64Fast is FieldFixed64's common case, small enough for the compiler to
// inline into generated code: a key pending whose delta from number is one byte. It
// reports false, having written nothing, for every other case (no key pending, a longer
// key, a number out of order or 0, no room), which FieldFixed64 then writes or refuses.
func (w *BackWriter) FieldFixed64Fast(number uint32, v uint64) bool {
	d := w.pending - (uint64(number)+1)<<2
	if p := w.pos - 9; d < bijou64.FirstTierTag && p >= 0 && number != 0 {
		b := w.buf[p : p+9]
		b[8] = byte(d)
		binary.BigEndian.PutUint64(b, v)
		w.pos = p
		w.pending = uint64(number)<<2 | uint64(WireI64)
		return true
	}
	return false
}

// FieldFixed32Fast is FieldFixed64Fast for wire type I32 (FieldFixed32's common case).
func (w *BackWriter) FieldFixed32Fast(number uint32, v uint32) bool {
	d := w.pending - (uint64(number)+1)<<2
	if p := w.pos - 5; d < bijou64.FirstTierTag && p >= 0 && number != 0 {
		b := w.buf[p : p+5]
		b[4] = byte(d)
		binary.BigEndian.PutUint32(b, v)
		w.pos = p
		w.pending = uint64(number)<<2 | uint64(WireI32)
		return true
	}
	return false
}

// Float64Bits is f's bits as a double field holds them, every NaN canonical (SPEC §3.5).
func Float64Bits(f float64) uint64 {
	if f != f {
		return NaN64Bits
	}
	return math.Float64bits(f)
}

// Float64FromBits is the double of the given bits (math.Float64frombits): generated
// getters spell a schema's float default this way, exactly, infinities and NaN included.
func Float64FromBits(b uint64) float64 { return math.Float64frombits(b) }

// Float32FromBits is Float64FromBits for a float.
func Float32FromBits(b uint32) float32 { return math.Float32frombits(b) }

// Float32Bits is Float64Bits for a float.
func Float32Bits(f float32) uint32 {
	if f != f {
		return NaN32Bits
	}
	return math.Float32bits(f)
}

// FieldFixed64 writes field number of wire type I64 holding v (Field, then Fixed64) in
// one call where the key is a byte.
func (w *BackWriter) FieldFixed64(number uint32, v uint64) {
	d, k, ok := w.pendingKey(number)
	if p := w.pos - k - 8; ok && p >= 0 {
		buf := w.buf         // indexed, as in FieldVarint
		buf[p+k+7] = byte(d) // as in FieldString
		binary.BigEndian.PutUint64(buf[p:], v)
		w.pos = p
		w.pending = uint64(number)<<2 | uint64(WireI64)
		return
	}
	w.Field(number, WireI64)
	w.Fixed64(v)
}

// FieldFixed32 writes field number of wire type I32 holding v (Field, then Fixed32) in
// one call where the key is a byte.
func (w *BackWriter) FieldFixed32(number uint32, v uint32) {
	d, k, ok := w.pendingKey(number)
	if p := w.pos - k - 4; ok && p >= 0 {
		buf := w.buf         // indexed, as in FieldVarint
		buf[p+k+3] = byte(d) // as in FieldString
		binary.BigEndian.PutUint32(buf[p:], v)
		w.pos = p
		w.pending = uint64(number)<<2 | uint64(WireI32)
		return
	}
	w.Field(number, WireI32)
	w.Fixed32(v)
}

// FieldFloat64 writes double field number, every NaN canonical (SPEC §3.5).
func (w *BackWriter) FieldFloat64(number uint32, f float64) {
	w.FieldFixed64(number, Float64Bits(f))
}

// FieldFloat32 writes float field number, every NaN canonical (SPEC §3.5).
func (w *BackWriter) FieldFloat32(number uint32, f float32) {
	w.FieldFixed32(number, Float32Bits(f))
}

// BackMark is what Open saves: the enclosing message's pending key and where the
// content ends.
type BackMark struct {
	pending uint64
	end     int
}

// Open begins the content of a nested message, or of a repeated or map record, whose
// fields' keys start again from 0 (Field before it writes the record's key). Close
// ends it.
func (w *BackWriter) Open() BackMark {
	m := BackMark{pending: w.pending, end: w.pos}
	w.pending = 0
	return m
}

// OpenField begins field number as a LEN record and opens its content (Field, then
// Open) in one call.
func (w *BackWriter) OpenField(number uint32) BackMark {
	d, k, ok := w.pendingKey(number)
	if p := w.pos - k; ok && p >= 0 {
		if k != 0 {
			w.buf[p] = byte(d)
		}
		w.pos = p
		w.pending = 0
		return BackMark{pending: uint64(number)<<2 | uint64(WireLen), end: p}
	}
	w.field(number, WireLen, EncodeFieldOrder)
	return w.Open()
}

// Close ends what Open began: the content's first key, then its length prefix (the
// bytes written since Open).
func (w *BackWriter) Close(m BackMark) {
	// Inlined: a one-byte first key and a one-byte length.
	p, pk := w.pos-2, w.pending
	if n, d := m.end-p-1, pk-4; d < bijou64.FirstTierTag && n < bijou64.FirstTierTag && uint(p)+1 < uint(len(w.buf)) {
		w.buf[p+1] = byte(d)
		w.buf[p] = byte(n)
		w.pos = p
		w.pending = m.pending
		return
	}
	w.close(m)
}

// close is Close past its inlined case.
func (w *BackWriter) close(m BackMark) {
	w.flush()
	w.Varint(uint64(m.end - w.pos))
	w.pending = m.pending
}

// UnknownAfter writes the preserved records of u numbered above number, the last first,
// and returns the ones left (SPEC §8.2: each keyed from the field before it). A record
// that is not below the one written after it (out of order, twice, or colliding with a
// set known field) or is outside 1 ..= 2^29 − 1 could not be decoded again:
// unknown-field-order (SPEC §9).
func (w *BackWriter) UnknownAfter(u []UnknownRecord, number uint32) []UnknownRecord {
	for len(u) > 0 && u[len(u)-1].Number > number {
		w.unknown(u[len(u)-1])
		u = u[:len(u)-1]
	}
	return u
}

// unknown writes one preserved record.
func (w *BackWriter) unknown(f UnknownRecord) {
	w.field(f.Number, f.Wire, EncodeUnknownFieldOrder)
	if w.err != nil {
		return
	}
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

// Fixed64s writes vs as the content of a packed run of fixed64 elements (eight
// big-endian bytes each) with one room check for the whole run.
func (w *BackWriter) Fixed64s(vs []uint64) {
	if p := w.room(8 * len(vs)); p >= 0 {
		b := w.buf[p : p+8*len(vs)]
		for i, v := range vs {
			binary.BigEndian.PutUint64(b[8*i:], v)
		}
	}
}

// Sfixed64s is Fixed64s for sfixed64 elements.
func (w *BackWriter) Sfixed64s(vs []int64) {
	if p := w.room(8 * len(vs)); p >= 0 {
		b := w.buf[p : p+8*len(vs)]
		for i, v := range vs {
			binary.BigEndian.PutUint64(b[8*i:], uint64(v))
		}
	}
}

// Float64s writes vs as the content of a packed run of doubles, every NaN as
// 7F F8 00 00 00 00 00 00 (SPEC §3.5), with one room check for the whole run.
func (w *BackWriter) Float64s(vs []float64) {
	if p := w.room(8 * len(vs)); p >= 0 {
		b := w.buf[p : p+8*len(vs)]
		for i, f := range vs {
			bits := math.Float64bits(f)
			if f != f {
				bits = NaN64Bits
			}
			binary.BigEndian.PutUint64(b[8*i:], bits)
		}
	}
}

// Fixed32s writes vs as the content of a packed run of fixed32 elements (four
// big-endian bytes each) with one room check for the whole run.
func (w *BackWriter) Fixed32s(vs []uint32) {
	if p := w.room(4 * len(vs)); p >= 0 {
		b := w.buf[p : p+4*len(vs)]
		for i, v := range vs {
			binary.BigEndian.PutUint32(b[4*i:], v)
		}
	}
}

// Sfixed32s is Fixed32s for sfixed32 elements.
func (w *BackWriter) Sfixed32s(vs []int32) {
	if p := w.room(4 * len(vs)); p >= 0 {
		b := w.buf[p : p+4*len(vs)]
		for i, v := range vs {
			binary.BigEndian.PutUint32(b[4*i:], uint32(v))
		}
	}
}

// Float32s writes vs as the content of a packed run of floats, every NaN as
// 7F C0 00 00 (SPEC §3.5), with one room check for the whole run.
func (w *BackWriter) Float32s(vs []float32) {
	if p := w.room(4 * len(vs)); p >= 0 {
		b := w.buf[p : p+4*len(vs)]
		for i, f := range vs {
			bits := math.Float32bits(f)
			if f != f {
				bits = NaN32Bits
			}
			binary.BigEndian.PutUint32(b[4*i:], bits)
		}
	}
}
