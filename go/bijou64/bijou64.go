// Package bijou64 is the varint of the bijoubuf wire format (SPEC §2): an encoding of
// uint64 in which every value has exactly one byte string, without any decoder check.
//
// The first byte, the tag, fixes the length. Tags 00–F7 are the value itself; tag
// F7+t (t = 1..8) is followed by t big-endian payload bytes, and the value is
// Offsets[t] + payload. Tier t starts where tier t−1 ends, so a longer spelling of a
// small value does not exist: F8 00 is 248, not 0.
//
//	| tier | tag   | bytes | first value          | last value           |
//	|------|-------|-------|----------------------|----------------------|
//	| 0    | 00–F7 | 1     | 0                    | 247                  |
//	| 1    | F8    | 2     | 248                  | 503                  |
//	| 2    | F9    | 3     | 504                  | 66039                |
//	| 3    | FA    | 4     | 66040                | 16843255             |
//	| 4    | FB    | 5     | 16843256             | 4311810551           |
//	| 5    | FC    | 6     | 4311810552           | 1103823438327        |
//	| 6    | FD    | 7     | 1103823438328        | 282578800148983      |
//	| 7    | FE    | 8     | 282578800148984      | 72340172838076919    |
//	| 8    | FF    | 9     | 72340172838076920    | 18446744073709551615 |
//
// A byte string that begins a bijou64 but is not one is either truncated
// ([ErrTruncated]) or a tier-8 payload above the space left below 2^64
// ([ErrOverflow]); SPEC §2.4 names these "truncated" and "varint-overflow".
//
// The package depends on nothing but the standard library's encoding/binary.
package bijou64

import "encoding/binary"

// MaxLen is the length of the longest encoding (tier 8: tag and 8 payload bytes).
const MaxLen = 9

// FirstTierTag is the first tag that is not the value itself (tier 1).
const FirstTierTag = 0xF8

// Offsets holds OFFSET[t], the first value of tier t (SPEC §2.2):
// OFFSET[0] = 0, OFFSET[1] = 248, OFFSET[t+1] = OFFSET[t] + 256^t.
var Offsets = [9]uint64{
	0,
	248,
	504,
	66040,
	16843256,
	4311810552,
	1103823438328,
	282578800148984,
	72340172838076920,
}

// MaxTier8Payload is the largest valid tier-8 payload, u64max − OFFSET[8]
// (FE FE FE FE FE FE FE 07).
const MaxTier8Payload = ^uint64(0) - 72340172838076920

// Error says why bytes are not a bijou64 (SPEC §2.4).
type Error uint8

const (
	// ErrTruncated: the input ends before the tag or before all payload bytes.
	ErrTruncated Error = iota + 1
	// ErrOverflow: a tier-8 payload above FE FE FE FE FE FE FE 07 (the value would
	// pass u64max; wrapping would give 0..247 a second spelling).
	ErrOverflow
)

// Code is the stable kebab-case code SPEC §2.4 and §11.1 give the error.
func (e Error) Code() string {
	switch e {
	case ErrTruncated:
		return "truncated"
	case ErrOverflow:
		return "varint-overflow"
	}
	return "unknown"
}

// Error implements the error interface: "truncated: …" or "varint-overflow: …".
func (e Error) Error() string {
	switch e {
	case ErrTruncated:
		return "truncated: the input ends inside a bijou64"
	case ErrOverflow:
		return "varint-overflow: a tier-8 bijou64 above u64::MAX"
	}
	return "unknown bijou64 error"
}

// PayloadLen is the number of payload bytes after tag (0 for tier 0, else 1..8).
func PayloadLen(tag byte) int {
	if tag < FirstTierTag {
		return 0
	}
	return int(tag) - 0xF7
}

// Size is the length of the encoding of x, 1..9.
func Size(x uint64) int {
	switch {
	case x < 248:
		return 1
	case x < 504:
		return 2
	case x < 66040:
		return 3
	case x < 16843256:
		return 4
	case x < 4311810552:
		return 5
	case x < 1103823438328:
		return 6
	case x < 282578800148984:
		return 7
	case x < 72340172838076920:
		return 8
	}
	return 9
}

// Put writes the encoding of x at the start of b and returns its length. b must hold
// Size(x) bytes; a shorter b panics, as copy into a short slice would not.
func Put(b []byte, x uint64) int {
	if x < 248 {
		b[0] = byte(x)
		return 1
	}
	n := Size(x)
	t := n - 1
	_ = b[t] // one bounds check for the loop below
	b[0] = byte(0xF7 + t)
	p := x - Offsets[t]
	for i := t; i >= 1; i-- {
		b[i] = byte(p)
		p >>= 8
	}
	return n
}

// Append appends the encoding of x to dst.
func Append(dst []byte, x uint64) []byte {
	if x < 248 {
		return append(dst, byte(x))
	}
	var w [MaxLen]byte
	n := Put(w[:], x)
	return append(dst, w[:n]...)
}

// Encode returns the encoding of x as a new slice.
func Encode(x uint64) []byte {
	return Append(make([]byte, 0, Size(x)), x)
}

// Decode reads the bijou64 at the start of b: its value and length, or ErrTruncated
// when b ends inside it, or ErrOverflow for a tier-8 payload past u64max. Bytes after
// the encoding are not looked at.
//
// With nine bytes available the value is read with one 8-byte load (the fast path);
// nearer the end of b the payload is read byte by byte.
func Decode(b []byte) (uint64, int, error) {
	if len(b) == 0 {
		return 0, 0, ErrTruncated
	}
	tag := b[0]
	if tag < FirstTierTag {
		return uint64(tag), 1, nil
	}
	t := int(tag) - 0xF7
	if len(b) >= MaxLen {
		// The 8 bytes after the tag hold the payload in their first t bytes: shift the
		// rest out.
		w := binary.BigEndian.Uint64(b[1:MaxLen])
		p := w >> (8 * uint(8-t))
		return finish(p, t)
	}
	if len(b) < 1+t {
		return 0, 0, ErrTruncated
	}
	var p uint64
	for _, c := range b[1 : 1+t] {
		p = p<<8 | uint64(c)
	}
	return finish(p, t)
}

// finish adds the tier's offset to payload p (SPEC §2.1), refusing a tier-8 overflow.
func finish(p uint64, t int) (uint64, int, error) {
	if t == 8 && p > MaxTier8Payload {
		return 0, 0, ErrOverflow
	}
	return p + Offsets[t], 1 + t, nil
}

// Zigzag maps a signed integer to an unsigned one: 0, −1, 1, −2, 2 ↦ 0, 1, 2, 3, 4
// (SPEC §1). Signed values are written as bijou64(Zigzag(v)).
func Zigzag(v int64) uint64 {
	return uint64(v<<1) ^ uint64(v>>63)
}

// Unzigzag is the inverse of Zigzag; every uint64 is the image of one int64.
func Unzigzag(u uint64) int64 {
	return int64(u>>1) ^ -int64(u&1)
}
