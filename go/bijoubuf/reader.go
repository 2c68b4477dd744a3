package bijoubuf

import (
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/bijoubuf/bijoubuf/go/bijou64"
)

func itoa(n int) string { return strconv.Itoa(n) }

// wrap adds path segments to err when it is a *DecodeError; any other error (from a
// caller's decode function) passes through unchanged.
func wrap(err error, add func(*DecodeError)) error {
	if d, ok := err.(*DecodeError); ok {
		add(d)
	}
	return err
}

// MaxFieldNumber is the largest field number, 2^29 − 1 (SPEC §4.3).
const MaxFieldNumber = 1<<29 - 1

// WireType is the low two bits of a key (SPEC §4.2). All four values are valid.
type WireType uint8

// The wire types.
const (
	WireVarint WireType = 0 // one bijou64
	WireI64    WireType = 1 // eight big-endian bytes
	WireLen    WireType = 2 // bijou64 length, then that many bytes
	WireI32    WireType = 3 // four big-endian bytes
)

const (
	// noKey: no record in the lookahead (field numbers start at 1).
	noKey uint32 = 0
	// endKey: the lookahead found the end of the message; above every field number, so
	// every later question is answered "absent" by one comparison.
	endKey uint32 = math.MaxUint32
)

// NaN32Bits and NaN64Bits are the one spelling of NaN for float and double (SPEC §3.5):
// sign clear, quiet bit set, the rest of the payload zero.
const (
	NaN32Bits uint32 = 0x7FC00000
	NaN64Bits uint64 = 0x7FF8000000000000
)

// UnknownRecord is a record the schema does not know, kept by a preserving decode (SPEC
// §8.2) as its number, wire type and payload: Value for VARINT, I64 and I32 records,
// Bytes (a copy of the content, without its length prefix) for LEN records.
type UnknownRecord struct {
	Number uint32
	Wire   WireType
	Value  uint64
	Bytes  []byte
}

// Reader is the decoding cursor generated code drives: one forward pass over the input,
// every read bounded by the current message's content (or repeated record), every
// failure a *DecodeError at the offset SPEC §11.1 names.
//
// A message's decode asks for its known fields once each, in ascending field number,
// with Field, reads each present value with an element read (Uint32, String, Message, …),
// and ends with Finish. The reader holds one record of lookahead: a request for field n
// first disposes of every record numbered below n (those are unknown, since the known
// ones below n were asked for already), then answers "absent" or hands over the record.
// Delta keys make the numbers strictly ascending (SPEC §4.1), so the first violation in
// byte order is the one reported (SPEC §10.1).
//
// Generated code walks the records instead: Next (or its inlined half NextFast) reads
// each key, a switch on the number reads the value or passes the record to Skip, and
// Kept ends the message once AtEnd. The element reads' Fast halves (Int32Fast, …) and
// EnterFast/LeaveFast are their common cases, small enough to be inlined.
//
// Element reads return errors without a path; the caller adds the field's segment with
// DecodeError.InField (Message, Run and ReadMap add theirs).
type Reader struct {
	// buf is the whole input: offsets are absolute (SPEC §1).
	buf []byte
	// end is the end of the current message's content or run.
	end int
	pos int
	// prev is the number of the last record whose key was read in this message.
	prev uint32
	// next is the lookahead: a record whose key was read but not handed out.
	next     uint32
	nextWire WireType
	// keyPos is the offset of the last key read.
	keyPos   int
	depth    uint32
	maxDepth uint32
	preserve bool
	// keep: unknown records of the current message are kept when the decode preserves
	// (the message type is in the preserving set; unknownRecord asks preserve too).
	keep         bool
	unknown      []UnknownRecord
	unknownCount int
	// chunk holds copies of the strings read so far, which String's results point
	// into: only its unused capacity is ever written (see substring).
	chunk []byte
	// str is a copy of buf[strBase:], a small input from its first string on, or a
	// larger one's last bytes, which String's results are cut from (see substring).
	str     string
	strBase int
	// chunked is the bytes of the strings copied into chunks, the first of them at
	// chunkedFrom: whether they were dense enough that copying the input's last bytes
	// whole wastes little (see substring).
	chunked, chunkedFrom int
	// savedUnknown holds the kept unknown records of the messages enclosing the current
	// one that had kept some when it was entered (Enter, Leave): empty unless a decode
	// preserves and has kept records.
	savedUnknown [][]UnknownRecord
}

// newReader is a reader over buf[start:end] as a top-level message (depth 1).
func newReader(buf []byte, start, end int, opts DecodeOptions) *Reader {
	return &Reader{
		buf:      buf,
		end:      end,
		pos:      start,
		keyPos:   start,
		depth:    1,
		maxDepth: uint32(opts.MaxDepth()),
		preserve: opts.preserve,
	}
}

// Pos is the offset of the next unread byte.
func (r *Reader) Pos() int { return r.pos }

// KeyPos is the offset of the key of the record most recently read.
func (r *Reader) KeyPos() int { return r.keyPos }

// End is the end of the current message's content or run.
func (r *Reader) End() int { return r.end }

// AtEnd says whether the current message or run has no bytes left.
func (r *Reader) AtEnd() bool { return r.pos >= r.end }

// Depth is the current message's depth (the top level is 1).
func (r *Reader) Depth() int { return int(r.depth) }

// UnknownCount is the number of unknown records kept so far in the whole decode.
func (r *Reader) UnknownCount() int { return r.unknownCount }

// ----- raw reads (SPEC §2, §3, §7) -----

// Varint reads one bijou64 (SPEC §2): truncated (O1) or varint-overflow (O2) at its tag.
func (r *Reader) Varint() (uint64, error) {
	at := r.pos
	// Every value here, with no further call, when nine bytes are left before the bound
	// (the payload in one eight-byte load); one-, two- and three-byte values (most keys,
	// lengths and numbers) also nearer the bound; the rest and every error in varintLong.
	if at < r.end {
		b := r.buf[at:r.end]
		tag := b[0]
		switch {
		case tag < bijou64.FirstTierTag:
			r.pos = at + 1
			return uint64(tag), nil
		case len(b) >= bijou64.MaxLen:
			// The payload is the first t of the eight bytes after the tag, big-endian.
			t := int(tag) - (bijou64.FirstTierTag - 1)
			p := binary.BigEndian.Uint64(b[1:bijou64.MaxLen]) >> (8 * uint(8-t))
			if t < 8 || p <= bijou64.MaxTier8Payload {
				r.pos = at + 1 + t
				return bijou64.Offsets[t] + p, nil
			}
		case tag == bijou64.FirstTierTag && len(b) >= 2:
			r.pos = at + 2
			return bijou64.Offsets[1] + uint64(b[1]), nil
		case tag == bijou64.FirstTierTag+1 && len(b) >= 3:
			r.pos = at + 3
			return bijou64.Offsets[2] + (uint64(b[1])<<8 | uint64(b[2])), nil
		}
	}
	return r.varintLong(at)
}

// varintMid reads a two- or three-byte value (tiers 1 and 2) when at least three bytes
// are left before the bound, and declines otherwise, reading nothing. It is small enough
// to be inlined into the full reads (Int32, Uint32, …), which generated code calls once
// the one-byte Fast read declined: so a value of up to three bytes costs one call there,
// not two (Int32, then Varint). A value near the bound, a longer one, a one-byte value
// (a map key's, read without a Fast read first) and every error are Varint's.
func (r *Reader) varintMid() (uint64, bool) {
	at := r.pos
	if r.end-at < 3 {
		return 0, false
	}
	b := r.buf[at : at+3 : at+3]
	switch b[0] {
	case bijou64.FirstTierTag:
		r.pos = at + 2
		return tier1Offset + uint64(b[1]), true
	case bijou64.FirstTierTag + 1:
		r.pos = at + 3
		return tier2Offset + (uint64(b[1])<<8 | uint64(b[2])), true
	}
	return 0, false
}

// The first values of tiers 1 and 2 (bijou64.Offsets[1] and [2]) as constants, which
// the inliner counts cheaper than the table's elements (TestFullReadsAgreeWithVarint
// checks the reads against bijou64.Decode on every tier's edges).
const (
	tier1Offset = 248
	tier2Offset = 504
)

// varintLong is Varint past its one-byte case. The slice ends at the bound, so a value
// cut by the bound is truncated, never read from the bytes beyond it.
func (r *Reader) varintLong(at int) (uint64, error) {
	v, n, err := bijou64.Decode(r.buf[at:r.end])
	if err != nil {
		if err == bijou64.ErrOverflow {
			return 0, NewDecodeError(VarintOverflow, at)
		}
		return 0, NewDecodeError(Truncated, at)
	}
	r.pos = at + n
	return v, nil
}

// fixed reads n raw bytes: truncated at their first byte when they are not all there.
func (r *Reader) fixed(n int) ([]byte, error) {
	at := r.pos
	if r.end-at < n {
		return nil, NewDecodeError(Truncated, at)
	}
	r.pos = at + n
	return r.buf[at : at+n], nil
}

// Fixed32 reads four big-endian bytes (fixed32; SPEC §3.4).
func (r *Reader) Fixed32() (uint32, error) {
	b, err := r.fixed(4)
	if err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint32(b), nil
}

// Fixed64 reads eight big-endian bytes (fixed64; SPEC §3.4).
func (r *Reader) Fixed64() (uint64, error) {
	b, err := r.fixed(8)
	if err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint64(b), nil
}

// Length reads a bijou64 length and checks it against the bytes left in the current
// bound before anything is allocated (SPEC §9.4): a length past the end is truncated
// at the length prefix (O1).
func (r *Reader) Length() (int, error) {
	at := r.pos
	// A one-byte prefix (most strings and nested messages) without the Varint call.
	if at < r.end {
		if tag := r.buf[at]; tag < bijou64.FirstTierTag {
			if int(tag) > r.end-at-1 {
				return 0, NewDecodeError(Truncated, at)
			}
			r.pos = at + 1
			return int(tag), nil
		}
	}
	l, err := r.Varint()
	if err != nil {
		return 0, err
	}
	if l > uint64(r.end-r.pos) {
		return 0, NewDecodeError(Truncated, at)
	}
	return int(l), nil
}

// LenBytes reads a length-prefixed byte string, borrowed from the input (not copied).
func (r *Reader) LenBytes() ([]byte, error) {
	l, err := r.Length()
	if err != nil {
		return nil, err
	}
	at := r.pos
	r.pos = at + l
	return r.buf[at:r.pos:r.pos], nil
}

// ----- scalar values with their checks (SPEC §3) -----

// Uint64 reads a uint64 (SPEC §3.1).
func (r *Reader) Uint64() (uint64, error) { return r.Varint() }

// Uint32 reads a uint32: above u32max is integer-out-of-range at the value (O8).
func (r *Reader) Uint32() (uint32, error) {
	at := r.pos
	v, ok := r.varintMid()
	if !ok {
		var err error
		if v, err = r.Varint(); err != nil {
			return 0, err
		}
	}
	if v > math.MaxUint32 {
		return 0, NewDecodeError(IntegerOutOfRange, at)
	}
	return uint32(v), nil
}

// Int64 reads an int64 or sint64: zigzag, no range check (SPEC §3.2).
func (r *Reader) Int64() (int64, error) {
	// Varint's value is 0 on error, and so is its unzigzag (written out: the inliner
	// counts it cheaper than the call).
	v, err := r.Varint()
	return int64(v>>1) ^ -int64(v&1), err
}

// Int32 reads an int32, sint32 or enum number: a zigzag image above u32max is
// integer-out-of-range at the value (O8; SPEC §3.2, §3.6).
func (r *Reader) Int32() (int32, error) {
	at := r.pos
	v, ok := r.varintMid()
	if !ok {
		var err error
		if v, err = r.Varint(); err != nil {
			return 0, err
		}
	}
	if v > math.MaxUint32 {
		return 0, NewDecodeError(IntegerOutOfRange, at)
	}
	return int32(bijou64.Unzigzag(v)), nil
}

// Bool reads a bool: anything but 0 or 1 (F8 00 too) is invalid-bool at the value (O9).
func (r *Reader) Bool() (bool, error) {
	at := r.pos
	v, err := r.Varint()
	if err != nil {
		return false, err
	}
	if v > 1 {
		return false, NewDecodeError(InvalidBool, at)
	}
	return v == 1, nil
}

// The Fast reads below are the element reads' common cases, small enough for the
// compiler to inline into generated code: a one-byte value that passes its check is
// read and true returned; otherwise nothing is read and false returned, and the caller
// makes the full read (which finds any error at the same offset).

// Uint64Fast is Uint64 for a one-byte value.
func (r *Reader) Uint64Fast() (uint64, bool) {
	if at := r.pos; at < r.end {
		if t := r.buf[at]; t < bijou64.FirstTierTag {
			r.pos = at + 1
			return uint64(t), true
		}
	}
	return 0, false
}

// Uint32Fast is Uint32 for a one-byte value.
func (r *Reader) Uint32Fast() (uint32, bool) {
	if at := r.pos; at < r.end {
		if t := r.buf[at]; t < bijou64.FirstTierTag {
			r.pos = at + 1
			return uint32(t), true
		}
	}
	return 0, false
}

// Int64Fast is Int64 for a one-byte value.
func (r *Reader) Int64Fast() (int64, bool) {
	if at := r.pos; at < r.end {
		if t := r.buf[at]; t < bijou64.FirstTierTag {
			r.pos = at + 1
			return int64(t>>1) ^ -int64(t&1), true
		}
	}
	return 0, false
}

// Int32Fast is Int32 for a one-byte value.
func (r *Reader) Int32Fast() (int32, bool) {
	if at := r.pos; at < r.end {
		if t := r.buf[at]; t < bijou64.FirstTierTag {
			r.pos = at + 1
			return int32(t>>1) ^ -int32(t&1), true
		}
	}
	return 0, false
}

// BoolFast is Bool for the bytes 00 and 01.
func (r *Reader) BoolFast() (bool, bool) {
	if at := r.pos; at < r.end {
		if t := r.buf[at]; t <= 1 {
			r.pos = at + 1
			return t == 1, true
		}
	}
	return false, false
}

// Float64Fast is Float64 for a value that is not a NaN.
func (r *Reader) Float64Fast() (float64, bool) {
	if at := r.pos; r.end-at >= 8 {
		f := math.Float64frombits(binary.BigEndian.Uint64(r.buf[at : at+8]))
		if f == f {
			r.pos = at + 8
			return f, true
		}
	}
	return 0, false
}

// Float32Fast is Float32 for a value that is not a NaN.
func (r *Reader) Float32Fast() (float32, bool) {
	if at := r.pos; r.end-at >= 4 {
		f := math.Float32frombits(binary.BigEndian.Uint32(r.buf[at : at+4]))
		if f == f {
			r.pos = at + 4
			return f, true
		}
	}
	return 0, false
}

// Sfixed32 reads an sfixed32: four big-endian bytes, two's complement.
func (r *Reader) Sfixed32() (int32, error) {
	v, err := r.Fixed32()
	return int32(v), err
}

// Sfixed64 reads an sfixed64: eight big-endian bytes, two's complement.
func (r *Reader) Sfixed64() (int64, error) {
	v, err := r.Fixed64()
	return int64(v), err
}

// Float32 reads a float: a NaN other than 7F C0 00 00 is non-canonical-nan at its first
// byte (O10; SPEC §3.5).
func (r *Reader) Float32() (float32, error) {
	at := r.pos
	bits, err := r.Fixed32()
	if err != nil {
		return 0, err
	}
	f := math.Float32frombits(bits)
	if f != f && bits != NaN32Bits {
		return 0, NewDecodeError(NonCanonicalNaN, at)
	}
	return f, nil
}

// Float64 reads a double: a NaN other than 7F F8 00 00 00 00 00 00 is
// non-canonical-nan at its first byte (O10; SPEC §3.5).
func (r *Reader) Float64() (float64, error) {
	at := r.pos
	bits, err := r.Fixed64()
	if err != nil {
		return 0, err
	}
	f := math.Float64frombits(bits)
	if f != f && bits != NaN64Bits {
		return 0, NewDecodeError(NonCanonicalNaN, at)
	}
	return f, nil
}

// String reads a length-prefixed string: content that is not well-formed UTF-8 is
// invalid-utf8 at the first byte of the first ill-formed sequence (O11; SPEC §7).
func (r *Reader) String() (string, error) {
	at := r.pos
	// The common case in one call: a one-byte length and ASCII content, cut from the
	// copy of the input's last bytes when it lies there (see substring).
	if at < r.end {
		if l := int(r.buf[at]); l < bijou64.FirstTierTag && l <= r.end-at-1 {
			from, to := at+1, at+1+l
			var ascii bool
			if l < 8 && from+8 <= len(r.buf) {
				// One load of eight bytes, the string's l of them kept.
				w := binary.LittleEndian.Uint64(r.buf[from:])
				ascii = w&(1<<(8*uint(l))-1)&0x8080808080808080 == 0
			} else {
				ascii = isASCII(r.buf[from:to])
			}
			if ascii {
				r.pos = to
				if from >= r.strBase && to <= r.strBase+len(r.str) {
					return r.str[from-r.strBase : to-r.strBase], nil
				}
				return r.substring(from, to), nil
			}
		}
	}
	b, err := r.LenBytes()
	if err != nil {
		return "", err
	}
	if bad := invalidUTF8At(b); bad >= 0 {
		return "", NewDecodeError(InvalidUTF8, r.pos-len(b)+bad)
	}
	return r.substring(r.pos-len(b), r.pos), nil
}

// stringChunk is the most one allocation for strings takes: the strings a decode
// returns are copied one after another into chunks of this size, so a message's
// strings cost one allocation per chunk, not one each, and a string kept alive keeps
// at most its chunk of other strings alive. A string longer than a chunk is its own
// allocation. An input of at most a chunk is copied whole from its first string instead
// (keys and numbers included, fewer instructions than string by string) and the
// decode's strings are cut from that copy. So is a larger input's rest once a chunk or
// less of it is left, when its strings so far were at least a quarter of the input they
// lay in; when they were sparser, its strings go on to chunks (copying the rest whole
// allocated a chunk's worth again for an analytics report's page, whose last 4 KiB
// hold about 400 bytes of strings).
const stringChunk = 4096

// substring is a copy of buf[at:to] as a string: cut from the copy of a small input
// when it lies there, else copied into the current chunk when it has the room, else
// into a new one.
func (r *Reader) substring(at, to int) string {
	n := to - at
	if n == 0 {
		return ""
	}
	if at >= r.strBase && to <= r.strBase+len(r.str) {
		return r.str[at-r.strBase : to-r.strBase]
	}
	if len(r.buf) <= stringChunk || (len(r.buf)-at <= stringChunk && 4*r.chunked >= at-r.chunkedFrom) {
		r.str, r.strBase = string(r.buf[at:]), at
		return r.str[:n]
	}
	if r.chunked == 0 {
		r.chunkedFrom = at
	}
	r.chunked += n
	if cap(r.chunk)-len(r.chunk) < n {
		if n > stringChunk {
			return string(r.buf[at:to])
		}
		r.chunk = make([]byte, 0, stringChunk)
	}
	off := len(r.chunk)
	if n <= 16 && cap(r.chunk)-off >= 16 && len(r.buf)-at >= 16 {
		// A short string as one 16-byte block: what lands past its end is unused
		// capacity, which the next string's copy overwrites.
		*(*[16]byte)(r.chunk[off : off+16]) = *(*[16]byte)(r.buf[at:])
		r.chunk = r.chunk[:off+n]
	} else {
		r.chunk = append(r.chunk, r.buf[at:to]...)
	}
	// SAFETY: chunk[off:off+n] is never written again: the chunk is only written past
	// its length, within its capacity (checked above), so later strings land after
	// this one and the chunk is never moved; a new chunk is a new allocation. The
	// string's bytes therefore never change, as a string's must not. Without this, each
	// string is its own allocation, or (as before) a substring of a 4 KiB copy of the
	// input, keys and numbers included: about 64 KB copied per OpenTelemetry metrics
	// batch for 21 KB of strings.
	return unsafe.String(&r.chunk[off], n)
}

// Bytes reads length-prefixed bytes, borrowed from the input: copy them to keep them
// past the input's lifetime.
func (r *Reader) Bytes() ([]byte, error) { return r.LenBytes() }

// isASCII says whether b is all ASCII, eight bytes at a time.
func isASCII(b []byte) bool {
	if len(b) < 8 {
		var or byte
		for _, c := range b {
			or |= c
		}
		return or < utf8.RuneSelf
	}
	// Whole words, then the last eight bytes (overlapping the words read).
	or := binary.LittleEndian.Uint64(b[len(b)-8:])
	for i := 8; i <= len(b); i += 8 {
		or |= binary.LittleEndian.Uint64(b[i-8 : i])
	}
	return or&0x8080808080808080 == 0
}

// invalidUTF8At is the length of b's longest well-formed UTF-8 prefix when b is not
// well-formed (so the offset of the first ill-formed sequence), or −1. Go's decoder
// refuses overlong forms, surrogates, values above U+10FFFF, truncated sequences and
// stray continuation bytes, as SPEC §7 asks.
func invalidUTF8At(b []byte) int {
	if len(b) < 16 {
		// Short strings (most): all ASCII, checked inline.
		var or byte
		for _, c := range b {
			or |= c
		}
		if or < utf8.RuneSelf {
			return -1
		}
	} else if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// ----- keys and unknown fields (SPEC §4, §8) -----

// Field asks for known field number with wire type wire: true when its record is next
// (read its value with an element read), false when the field is absent. Records
// numbered below number are unknown and are refused (strict) or kept (preserving); a
// different wire type is wire-type-mismatch at the key (O5). A key past field number
// 2^29 − 1 is field-number-overflow at the key (O3). Ask in ascending field number.
func (r *Reader) Field(number uint32, wire WireType, name string) (bool, error) {
	// Inlined: a field the lookahead is past is absent, and the record the lookahead
	// holds is handed out when its number and wire type are the ones asked for. Reading
	// a key, unknown records and the mismatch error are out of line.
	if r.next > number {
		return false, nil
	}
	return r.field(number, wire, name)
}

// field is Field past its inlined cases.
func (r *Reader) field(number uint32, wire WireType, name string) (bool, error) {
	for {
		if r.next == noKey {
			at := r.pos
			if at >= r.end {
				r.next = endKey
				return false, nil
			}
			// A one-byte key (a delta below 62) read here; readKey reads the rest and
			// refuses a number past the largest.
			if k := r.buf[at]; k < bijou64.FirstTierTag && r.prev+1+uint32(k>>2) <= MaxFieldNumber {
				n := r.prev + 1 + uint32(k>>2)
				r.pos = at + 1
				r.keyPos = at
				r.prev = n
				r.next = n
				r.nextWire = WireType(k & 3)
			} else if err := r.readKey(); err != nil {
				return false, err
			}
		}
		if r.next > number {
			return false, nil
		}
		if r.next == number {
			r.next = noKey
			if r.nextWire != wire {
				// SPEC §4.4
				return false, NewDecodeError(WireTypeMismatch, r.keyPos).InField(name)
			}
			return true, nil
		}
		// The lookahead is below number: an unknown record comes first.
		if err := r.unknownRecord(); err != nil {
			return false, err
		}
	}
}

// readKey reads the key at the position (there is one) into the lookahead.
func (r *Reader) readKey() error {
	at := r.pos
	k, err := r.Varint()
	if err != nil {
		return err
	}
	// SPEC §4.1: number = prev + 1 + (key >> 2); prev < 2^29 and key >> 2 < 2^62, so
	// the sum cannot wrap in 64 bits (SPEC §4.3).
	n := uint64(r.prev) + 1 + k>>2
	if n > MaxFieldNumber {
		return NewDecodeError(FieldNumberOverflow, at)
	}
	r.keyPos = at
	r.prev = uint32(n)
	r.next = uint32(n)
	r.nextWire = WireType(k & 3)
	return nil
}

// unknownRecord disposes of the lookahead record, which the schema does not know.
func (r *Reader) unknownRecord() error {
	number := r.next
	r.next = noKey
	if !r.keep || !r.preserve {
		// SPEC §8.1
		return NewDecodeError(UnknownField, r.keyPos).InUnknown(number)
	}
	// SPEC §8.2: keep number, wire type and payload; the payload is not interpreted.
	f := UnknownRecord{Number: number, Wire: r.nextWire}
	var err error
	switch r.nextWire {
	case WireVarint:
		f.Value, err = r.Varint()
	case WireI64:
		f.Value, err = r.Fixed64()
	case WireLen:
		var b []byte
		if b, err = r.LenBytes(); err == nil {
			f.Bytes = append([]byte{}, b...)
		}
	default:
		var v uint32
		v, err = r.Fixed32()
		f.Value = uint64(v)
	}
	if err != nil {
		return wrap(err, func(d *DecodeError) { d.InUnknown(number) })
	}
	r.unknown = append(r.unknown, f)
	r.unknownCount++
	return nil
}

// Next reads the key of the current message's next record, for a decode that walks the
// records in byte order (generated code: one loop, a switch on the field number, ending
// when AtEnd): the record's number and wire type, or number 0 at the end of the
// message's content, with an error when the key is malformed (O1, O2) or names a
// number past 2^29 − 1 (O3).
// Delta keys make the numbers strictly ascending (SPEC §4.1), so each known field comes
// at most once. Pass a record the message does not know to Skip; the wire type of a
// known one is the caller's to check (WireMismatch). Do not mix with Field in one
// message.
func (r *Reader) Next() (uint32, WireType, error) {
	at := r.pos
	if at >= r.end {
		return 0, 0, nil
	}
	// A one-byte key (a delta below 62) and a two-byte one (below 126: GoogleMessage1's
	// steps to fields 100, 150 and 271) here; nextLong reads the rest.
	if k := r.buf[at]; k < bijou64.FirstTierTag {
		if n := r.prev + 1 + uint32(k>>2); n <= MaxFieldNumber {
			r.pos = at + 1
			r.keyPos = at
			r.prev = n
			return n, WireType(k & 3), nil
		}
	} else if k == bijou64.FirstTierTag && r.end-at >= 2 {
		k := tier1Offset + uint32(r.buf[at+1])
		if n := r.prev + 1 + k>>2; n <= MaxFieldNumber {
			r.pos = at + 2
			r.keyPos = at
			r.prev = n
			return n, WireType(k & 3), nil
		}
	}
	return r.nextLong()
}

// NextFast is Next's common case, small enough for the compiler to inline into a
// message's decode: a one-byte key whose number is in range is read and true returned;
// otherwise nothing is read and false returned, and the caller calls Next.
func (r *Reader) NextFast() (uint32, WireType, bool) {
	at := r.pos
	if at < r.end {
		if k := r.buf[at]; k < bijou64.FirstTierTag {
			if n := r.prev + 1 + uint32(k>>2); n <= MaxFieldNumber {
				r.pos = at + 1
				r.keyPos = at
				r.prev = n
				return n, WireType(k & 3), true
			}
		}
	}
	return 0, 0, false
}

// nextLong is Next past its one-byte case.
func (r *Reader) nextLong() (uint32, WireType, error) {
	if err := r.readKey(); err != nil {
		return 0, 0, err
	}
	n := r.next
	r.next = noKey
	return n, r.nextWire, nil
}

// Skip disposes of a record Next read that the message does not know: refused
// (unknown-field at its key, strict) or kept (preserving, SPEC §8).
func (r *Reader) Skip(number uint32, wire WireType) error {
	r.next, r.nextWire = number, wire
	return r.unknownRecord()
}

// WireMismatch is the error for a known field's record with another wire type (O5;
// SPEC §4.4): at its key, with the field's path.
func (r *Reader) WireMismatch(name string) error {
	return NewDecodeError(WireTypeMismatch, r.keyPos).InField(name)
}

// Kept ends a message walked with Next, at the end of its content (AtEnd): the unknown
// records kept for it (none unless preserving).
func (r *Reader) Kept() []UnknownRecord {
	u := r.unknown
	r.unknown = nil
	return u
}

// KeptRef is Kept for a generated message's field: nil when no record was kept (every
// strict decode), else the records behind a pointer, so that a message pays 8 bytes for
// them, not a slice header's 24. Not written over Kept: taking the address of Kept's
// result moves it to the heap on every call, kept records or not (TestAllocations).
func (r *Reader) KeptRef() *[]UnknownRecord {
	if r.unknown == nil {
		return nil
	}
	u := new([]UnknownRecord)
	*u = r.unknown
	r.unknown = nil
	return u
}

// Unknowns is the records a generated message's field holds (KeptRef): nil for nil.
func Unknowns(u *[]UnknownRecord) []UnknownRecord {
	if u == nil {
		return nil
	}
	return *u
}

// Finish ends the current message: it disposes of the records after the last known
// field asked for (all unknown) and returns the unknown fields kept for this message
// (none unless preserving).
func (r *Reader) Finish() ([]UnknownRecord, error) {
	if r.next == endKey {
		r.next = noKey
	}
	for {
		if r.next == noKey {
			if r.pos >= r.end {
				break
			}
			if err := r.readKey(); err != nil {
				return nil, err
			}
		}
		if err := r.unknownRecord(); err != nil {
			return nil, err
		}
	}
	u := r.unknown
	r.unknown = nil
	return u, nil
}

// allRead says whether every record of the current message was handed out or disposed
// of: a decode that forgot Finish would otherwise accept bytes it never looked at.
func (r *Reader) allRead() bool {
	return (r.next == noKey || r.next == endKey) && r.pos >= r.end
}

// unread is the error for a message that left records unread: the first one left is
// unknown-field, in every mode, since the message neither asked for it nor kept it.
func (r *Reader) unread() error {
	r.keep = false
	if _, err := r.Finish(); err != nil {
		return err
	}
	return NewDecodeError(UnknownField, r.pos)
}

// ----- presence and oneofs (SPEC §5) -----

// DefaultValuePresent is the error for an implicit-presence field whose record holds
// its default (O12): at the record's key, with the field's path.
func (r *Reader) DefaultValuePresent(name string) error {
	return NewDecodeError(DefaultValuePresent, r.keyPos).InField(name)
}

// OneofConflict is the error for a second member of a oneof (O6): at its key.
func (r *Reader) OneofConflict(name string) error {
	return NewDecodeError(OneofConflict, r.keyPos).InField(name)
}

// MissingRequired is the error for an absent required field (O16): just past the end
// of the current message's content. Call it after Finish, before the message returns.
func (r *Reader) MissingRequired(name string) error {
	return NewDecodeError(MissingRequiredField, r.end).InField(name)
}

// ----- nested messages (SPEC §9.1, §9.3) -----

// CheckDepth refuses, at the record's key and before its payload is read, a record
// that would open a message deeper than the depth limit (O7; SPEC §9.3, §10.1 step 1):
// a singular or repeated message field, or a map with message values.
func (r *Reader) CheckDepth(name string) error {
	if r.depth >= r.maxDepth {
		return NewDecodeError(DepthLimitExceeded, r.keyPos).InField(name)
	}
	return nil
}

// Message reads the present record of message field name: the depth check at its key,
// then Nested; errors get the field's segment.
func (r *Reader) Message(name string, keeps bool, decode func(*Reader) error) error {
	if err := r.CheckDepth(name); err != nil {
		return err
	}
	if err := r.Nested(keeps, decode); err != nil {
		return wrap(err, func(d *DecodeError) { d.InField(name) })
	}
	return nil
}

// Nested reads a length-prefixed message at the position: its content is exactly the
// LEN payload (SPEC §9.1), one level deeper. decode asks for the message's fields and
// ends with Finish; keeps says whether the type keeps unknown records when the decode
// preserves them (the preserving set, SPEC §8.2). The caller checked the depth at the
// record's key (CheckDepth). Errors have no segment of the field; the caller adds it.
func (r *Reader) Nested(keeps bool, decode func(*Reader) error) error {
	f, err := r.Enter(keeps)
	if err != nil {
		return err
	}
	return r.Leave(f, decode(r))
}

// ----- repeated fields and maps (SPEC §6) -----

// openRun reads a repeated or map record's length prefix (its errors carry the field's
// path, without an index), refuses an empty record (O13, at the key) and, for width 4
// or 8, a content length that is not a multiple of it (O14, at the prefix). It returns
// the outer bound to restore.
func (r *Reader) openRun(name string, width int) (int, error) {
	at := r.pos
	l, err := r.Length()
	if err != nil {
		return 0, wrap(err, func(d *DecodeError) { d.InField(name) })
	}
	if l == 0 {
		return 0, NewDecodeError(EmptyRepeated, r.keyPos).InField(name)
	}
	if width > 1 && l%width != 0 {
		return 0, NewDecodeError(PackedLengthMismatch, at).InField(name)
	}
	outer := r.end
	r.end = r.pos + l
	return outer, nil
}

// Run reads the present record of repeated field name: its length prefix, then elem(i)
// for i = 0, 1, … until the content is used up. width is the element width for fixed
// 4- and 8-byte types (fixed32, sfixed32, float; fixed64, sfixed64, double), else 0.
// An element's errors get "[i]" and the field's segment. Elements are never counted
// ahead, so nothing is allocated for elements the input did not supply. For message
// elements call CheckDepth before Run and Nested in elem.
func (r *Reader) Run(name string, width int, elem func(i int) error) error {
	outer, err := r.openRun(name, width)
	if err != nil {
		return err
	}
	for i := 0; r.pos < r.end; i++ {
		if err := elem(i); err != nil {
			return wrap(err, func(d *DecodeError) { d.InIndex(i).InField(name) })
		}
	}
	r.end = outer
	return nil
}

// ReadMap reads the present record of map field name (SPEC §6.3): entries of a key
// element and a value element until the content is used up. key reads and checks a key
// element (its errors carry the map's path); each key must be strictly above the one
// before in compare's order (O15, at the key element, with the key's segment, rendered
// by seg); value reads the value element (its errors carry the key's segment). For
// message values call CheckDepth before ReadMap and Nested in value.
func ReadMap[K any](r *Reader, name string, key func() (K, error), compare func(a, b K) int, seg func(K) string, value func(K) error) error {
	outer, err := r.openRun(name, 0)
	if err != nil {
		return err
	}
	var last K
	for i := 0; r.pos < r.end; i++ {
		at := r.pos
		k, err := key()
		if err != nil {
			return wrap(err, func(d *DecodeError) { d.InField(name) })
		}
		if i > 0 && compare(k, last) <= 0 {
			// SPEC §6.4
			return NewDecodeError(MapKeyOrder, at).InKey(seg(k)).InField(name)
		}
		if err := value(k); err != nil {
			return wrap(err, func(d *DecodeError) { d.InKey(seg(k)).InField(name) })
		}
		last = k
	}
	r.end = outer
	return nil
}

// CompareBool is false < true (SPEC §6.4), for bool map keys.
func CompareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// ----- top-level messages and frames (SPEC §9) -----

// Decode decodes buf as one top-level message named name (its short name, the root of
// error paths): the size limit first (O17, at 0), then decode over the whole input, which
// asks for the message's fields and ends with Finish, as in Nested. It returns the number
// of unknown records kept (preserving decodes only).
func Decode(buf []byte, opts DecodeOptions, name string, keeps bool, decode func(*Reader) error) (int, error) {
	if opts.hasMaxSize && len(buf) > opts.maxSize {
		// SPEC §9.4: before any other check.
		return 0, NewDecodeError(SizeLimitExceeded, 0).InMessage(name)
	}
	return decodeTop(newReader(buf, 0, len(buf), opts), name, keeps, decode)
}

func decodeTop(r *Reader, name string, keeps bool, decode func(*Reader) error) (int, error) {
	r.keep = r.preserve && keeps
	err := decode(r)
	if err == nil && !r.allRead() {
		err = r.unread()
	}
	if err != nil {
		return 0, wrap(err, func(d *DecodeError) { d.InMessage(name) })
	}
	return r.unknownCount, nil
}

// StartDecode begins decoding buf as one top-level message named name (its short name,
// the root of error paths): the size limit first (O17, at 0), then a reader over the
// whole input, which the message's decode drives and EndDecode ends. keeps says whether
// the type keeps unknown records when opts preserve them. It is Decode in two halves,
// for generated code: the reader is a value the caller can keep on its stack.
func StartDecode(buf []byte, opts DecodeOptions, name string, keeps bool) (Reader, error) {
	if opts.hasMaxSize && len(buf) > opts.maxSize {
		// SPEC §9.4: before any other check.
		return Reader{}, NewDecodeError(SizeLimitExceeded, 0).InMessage(name)
	}
	return Reader{
		buf:      buf,
		end:      len(buf),
		depth:    1,
		maxDepth: uint32(opts.MaxDepth()),
		preserve: opts.preserve,
		keep:     opts.preserve && keeps,
	}, nil
}

// EndDecode ends a decode begun by StartDecode, err being what the message's decode
// returned: records it left unread are refused, errors get the root of their path, and
// the result is the number of unknown records kept.
func (r *Reader) EndDecode(err error, name string) (int, error) {
	if err == nil && !r.allRead() {
		err = r.unread()
	}
	if err != nil {
		return 0, wrap(err, func(d *DecodeError) { d.InMessage(name) })
	}
	return r.unknownCount, nil
}

// ----- the calls generated code makes inline (no function values, so the reader stays
// on the caller's stack) -----

// Frame is the enclosing message's state, saved by Enter and given back to Leave. It is
// small enough to travel in registers (16 bytes): the enclosing message's kept unknown
// records, when it has any (a preserving decode), wait on the reader's stack of them
// (saved says so), not in the frame, which a copy of at every nested message cost a
// failed store-to-load forward when the frame carried them.
type Frame struct {
	end   int
	prev  uint32
	keep  bool
	saved bool
}

// Enter reads the length prefix of a message at the position and makes its content
// the current message, one level deeper (SPEC §9.1): Nested's first half. The caller
// checked the depth at the record's key (CheckDepth), then calls the message's decode
// and passes what it returned to Leave. On error nothing changed and Leave is not
// called. Errors have no segment of the field; the caller adds it.
func (r *Reader) Enter(keeps bool) (Frame, error) {
	l, err := r.Length()
	if err != nil {
		return Frame{}, err
	}
	f := Frame{end: r.end, prev: r.prev, keep: r.keep}
	if r.unknown != nil {
		r.savedUnknown = append(r.savedUnknown, r.unknown)
		r.unknown, f.saved = nil, true
	}
	r.end = r.pos + l
	r.prev = 0
	r.next = noKey
	r.depth++
	r.keep = r.preserve && keeps
	return f, nil
}

// EnterFast is Enter for a one-byte length prefix that fits in the current bound, the
// enclosing message holding no kept unknown record, small enough for the compiler to
// inline into generated code; otherwise nothing is read and false returned, and the
// caller calls Enter.
func (r *Reader) EnterFast(keeps bool) (f Frame, ok bool) {
	if at := r.pos; at < r.end && r.unknown == nil {
		if l := int(r.buf[at]); l < bijou64.FirstTierTag && l < r.end-at {
			f = Frame{r.end, r.prev, r.keep, false}
			r.pos = at + 1
			r.end = at + 1 + l
			r.prev = 0
			r.depth++
			r.keep = keeps // unknownRecord also asks r.preserve
			return f, true
		}
	}
	return
}

// Leave ends the message Enter began, err being what its decode returned: records it
// left unread are refused, and the enclosing message's state comes back.
func (r *Reader) Leave(f Frame, err error) error {
	if err == nil && !r.allRead() {
		err = r.unread()
	}
	r.depth--
	r.end, r.prev, r.keep, r.unknown = f.end, f.prev, f.keep, nil
	if f.saved {
		last := len(r.savedUnknown) - 1
		r.unknown = r.savedUnknown[last]
		r.savedUnknown[last] = nil
		r.savedUnknown = r.savedUnknown[:last]
	}
	r.next = noKey
	return err
}

// LeaveFast is Leave for a decode that returned nil and read every record, no kept
// unknown record of an enclosing message waiting (Frame), small enough for the compiler
// to inline into generated code: true when the enclosing message's state came back;
// otherwise nothing changed, and the caller calls Leave. A decode that returned nil
// took its own kept records (Kept, KeptRef), so none is left to drop.
func (r *Reader) LeaveFast(f Frame) bool {
	if r.pos < r.end || r.next != noKey || f.saved {
		return false
	}
	r.depth--
	r.end, r.prev, r.keep = f.end, f.prev, f.keep
	return true
}

// OpenRun reads the present record of repeated or map field name up to its content,
// with the checks Run and ReadMap make (O13, O14), and returns the bound to give back
// to CloseRun once the content is used up (AtEnd).
func (r *Reader) OpenRun(name string, width int) (int, error) { return r.openRun(name, width) }

// CloseRun ends a record OpenRun opened.
func (r *Reader) CloseRun(outer int) { r.end = outer }

// Left is the number of bytes left in the current message or run.
func (r *Reader) Left() int { return r.end - r.pos }

// CountVarints is the number of whole bijou64 values from the position to the end of
// the current run, read by their tags alone and stopping at one cut by the end: the
// count of a varint run's elements when it is well formed (an element costs the input
// at least a byte, so a slice of that length is paid for). Nothing is consumed or
// refused; the element reads find any error in order.
func (r *Reader) CountVarints() int {
	n := 0
	b := r.buf[r.pos:r.end]
	for i := 0; i < len(b); n++ {
		if t := b[i]; t < bijou64.FirstTierTag {
			i++
		} else if i += int(t) - (bijou64.FirstTierTag - 2); i > len(b) {
			break
		}
	}
	return n
}

// CountLens is the number of whole length-prefixed elements (strings, bytes, messages)
// from the position to the end of the current run, by their length prefixes alone,
// stopping at the first prefix that is malformed or runs past the end: the count of
// the run's elements when it is well formed. Nothing is consumed or refused.
func (r *Reader) CountLens() int {
	n := 0
	b := r.buf[r.pos:r.end]
	for len(b) > 0 {
		if t := b[0]; t < bijou64.FirstTierTag {
			// A one-byte length prefix (most elements).
			if int(t) > len(b)-1 {
				break
			}
			b = b[1+int(t):]
			n++
			continue
		}
		l, k, err := bijou64.Decode(b)
		if err != nil || l > uint64(len(b)-k) {
			break
		}
		b = b[k+int(l):]
		n++
	}
	return n
}
