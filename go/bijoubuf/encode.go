package bijoubuf

import (
	"cmp"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/bijoubuf/bijoubuf/go/bijou64"
)

// What generated code calls to encode: a size pass over a Sizes, which checks the value
// (depth, required fields, UTF-8, preserved unknown records) and gives the length of the
// message; then one write pass into a buffer of exactly that length, from its end to its
// start (BackWriter), where each nested message's length is known when its prefix is
// written. The size pass records nothing but its first refusal.

// Sizer is what a generated message implements for the encoder (exported so that a
// generated package can encode messages of another: the well-known types).
type Sizer interface {
	// BijoubufSize is the length of the message's content at depth (the top level is
	// 1), or 0 after recording a refusal on s.
	BijoubufSize(s *Sizes, depth int) int
	// BijoubufWrite writes the content backwards, the same fields as BijoubufSize
	// counted, from the last to the first.
	BijoubufWrite(w *BackWriter)
}

// Sizes is an encode's size pass: its limits and the first refusal.
type Sizes struct {
	err      *EncodeError
	maxDepth int
	opts     EncodeOptions
}

// NewSizes starts a size pass under opts's limits.
func NewSizes(opts EncodeOptions) Sizes {
	return Sizes{maxDepth: opts.MaxDepth(), opts: opts}
}

// Check ends the size pass of a top-level message named name (the root of error paths)
// whose length is n: the refusal recorded, if any, else the size limit (SPEC §9).
func (s *Sizes) Check(n int, name string) error {
	if s.err != nil {
		return s.err.InMessage(name)
	}
	if s.opts.hasMaxSize && n > s.opts.maxSize {
		return NewEncodeError(EncodeSizeLimitExceeded, "needs "+itoa(n)+" bytes, more than the limit of "+itoa(s.opts.maxSize)).InMessage(name)
	}
	return nil
}

// Encode is the canonical encoding of m, a top-level message whose short name (the root
// of error paths) is name: the size pass, the size limit, then one write of exactly that
// many bytes (SPEC §9: refusals come before any output). Generated Marshal methods do
// the same with their own type, which lets the compiler keep the passes' state on the
// stack.
func Encode(m Sizer, opts EncodeOptions, name string) ([]byte, error) {
	s := NewSizes(opts)
	n := m.BijoubufSize(&s, 1)
	if err := s.Check(n, name); err != nil {
		return nil, err
	}
	w := NewBackWriter(n)
	m.BijoubufWrite(&w)
	return w.Bytes()
}

// Encoder encodes messages into buffers the caller gives, keeping the passes' state in
// itself between encodes: with a long-lived Encoder (one per goroutine; it is not safe
// for concurrent use) and a buffer reused from one message to the next, an encode
// allocates nothing but the buffer's growth. Its zero value encodes under the default
// limits; Options sets others. Each encode is the size pass (every refusal and the size
// limit, before anything is written, SPEC §9), then one write.
type Encoder struct {
	Options EncodeOptions
	s       Sizes
	w       BackWriter
}

// Encode writes m's canonical encoding into the slice room(n) gives for its length n,
// once the size pass has accepted m (a refusal returns before room is called). The
// slice may hold anything (a pooled buffer, the part of one after a header): every byte
// of it is written and nothing outside it; one of another length is size-mismatch.
// Append and AppendFrame do the same at a buffer's end.
func (e *Encoder) Encode(m Message, room func(n int) []byte) error {
	sm, own, n, err := e.size(m)
	if err != nil {
		return err
	}
	return e.write(sm, own, room(n))
}

// Size is the length of m's canonical encoding under e.Options, as protobuf-go's
// proto.Size gives, or the refusal an encode would give (0 then): only the size pass
// runs, nothing is written.
func (e *Encoder) Size(m Message) (int, error) {
	_, _, n, err := e.size(m)
	if err != nil {
		return 0, err
	}
	return n, nil
}

// Size is Encoder.Size under the default limits (it allocates the passes' state once; a
// long-lived Encoder's Size allocates nothing).
func Size(m Message) (int, error) {
	var e Encoder
	return e.Size(m)
}

// Equal says whether a and b are the same value in the one sense a canonical encoding
// gives: messages of the same type (by full name) whose encodings are the same bytes
// (unknown records a preserving decode kept count as fields do). Unlike protobuf-go's
// proto.Equal, a NaN equals a NaN (every NaN has one encoding, SPEC §3.5) and −0 does
// not equal +0. A value that cannot be encoded (not UTF-8, a required field unset)
// equals nothing, and a nil message of a type equals its empty message, whose encoding
// it has.
func Equal(a, b Message) bool {
	if a == nil || b == nil || a.BijoubufDesc().FullName != b.BijoubufDesc().FullName {
		return a == nil && b == nil
	}
	x, err := a.Marshal()
	if err != nil {
		return false
	}
	y, err := b.Marshal()
	return err == nil && string(x) == string(y)
}

// Append appends m's canonical encoding to dst, as protobuf-go's MarshalAppend does. On
// a refusal it returns dst as it was and the error.
func (e *Encoder) Append(dst []byte, m Message) ([]byte, error) {
	sm, own, n, err := e.size(m)
	if err != nil {
		return dst, err
	}
	at := len(dst)
	dst = slices.Grow(dst, n)[:at+n]
	if err := e.write(sm, own, dst[at:]); err != nil {
		return dst[:at], err
	}
	return dst, nil
}

// AppendFrame appends m to a length-delimited stream (SPEC §9.2) as one frame: the
// length prefix, then the encoding, written in place (AppendFrame of Marshal's bytes
// copies them). On a refusal it returns stream as it was and the error.
func (e *Encoder) AppendFrame(stream []byte, m Message) ([]byte, error) {
	sm, own, n, err := e.size(m)
	if err != nil {
		return stream, err
	}
	at := len(stream)
	stream = bijou64.Append(stream, uint64(n))
	from := len(stream)
	stream = slices.Grow(stream, n)[:from+n]
	if err := e.write(sm, own, stream[from:]); err != nil {
		return stream[:at], err
	}
	return stream, nil
}

// size is the size pass of m: the length of its encoding, or its refusal (the top-level
// message's name the root of its path). A message that is not generated code (no
// Sizer) is encoded by its own MarshalOptions here, and its bytes (own) copied by write.
func (e *Encoder) size(m Message) (sm Sizer, own []byte, n int, err error) {
	sm, ok := m.(Sizer)
	if !ok {
		own, err = m.MarshalOptions(e.Options)
		return nil, own, len(own), err
	}
	e.s = NewSizes(e.Options)
	n = sm.BijoubufSize(&e.s, 1)
	err = e.s.Check(n, m.BijoubufDesc().Name)
	e.s = Sizes{}
	return sm, nil, n, err
}

// write is the write pass of sm (or the copy of own, without one) into buf, exactly as
// long as size said.
func (e *Encoder) write(sm Sizer, own, buf []byte) error {
	if sm == nil {
		if len(buf) != len(own) {
			return NewEncodeError(EncodeSizeMismatch, "was given "+itoa(len(buf))+" bytes for an encoding of "+itoa(len(own)))
		}
		copy(buf, own)
		return nil
	}
	e.w = NewBackWriterInto(buf)
	sm.BijoubufWrite(&e.w)
	_, err := e.w.Bytes()
	e.w = BackWriter{} // the buffer is the caller's: not kept
	return err
}

// Failed says whether a refusal was recorded.
func (s *Sizes) Failed() bool { return s.err != nil }

// Err is the refusal recorded, if any.
func (s *Sizes) Err() *EncodeError { return s.err }

// fail records err when it is the first refusal, and returns 0 for the size function to
// return.
func (s *Sizes) fail(err *EncodeError) int {
	if s.err == nil {
		s.err = err
	}
	return 0
}

// Enter is the size pass entering a nested message of field name in a message at
// depth: false after refusing one deeper than the depth limit (depth-limit-exceeded,
// SPEC §9.3).
func (s *Sizes) Enter(depth int, name string) bool {
	if depth < s.maxDepth {
		return true
	}
	return s.tooDeep(name)
}

// tooDeep is Enter's refusal, kept out of line so that Enter inlines.
func (s *Sizes) tooDeep(name string) bool {
	s.fail(NewEncodeError(EncodeDepthLimitExceeded, "nests messages deeper than "+itoa(s.maxDepth)).InField(name))
	return false
}

// Leave is the size pass leaving a nested message of field name: false when the
// message's size pass recorded a refusal, which then gets the field's segment (return
// 0 at once).
func (s *Sizes) Leave(name string) bool {
	if s.err == nil {
		return true
	}
	s.err.InField(name)
	return false
}

// Missing refuses an unset required field (missing-required-field); returns 0.
func (s *Sizes) Missing(name string) int {
	return s.fail(NewEncodeError(EncodeMissingRequiredField, "is required but unset").InField(name))
}

// BadString refuses a string that is not UTF-8 (invalid-utf8: Go strings may hold any
// bytes, and such a string has no spelling, SPEC §9); returns 0.
func (s *Sizes) BadString(name string) int {
	return s.fail(NewEncodeError(EncodeInvalidUTF8, "holds a string that is not UTF-8").InField(name))
}

// ValidString says whether str is well-formed UTF-8 (what a decoder accepts, SPEC §7).
func ValidString(str string) bool {
	// ASCII (most strings) eight bytes at a time, the bytes OR'ed into one word: no
	// high bit set, no multi-byte sequence to check. A string of eight bytes or more
	// ends with one more word that overlaps the last (its bytes are OR'ed twice).
	var or uint64
	if n := len(str); n >= 8 {
		for i := 0; i+8 <= n; i += 8 {
			or |= word(str[i : i+8])
		}
		or |= word(str[n-8:])
	} else {
		for i := 0; i < n; i++ {
			or |= uint64(str[i])
		}
	}
	if or&0x8080_8080_8080_8080 == 0 {
		return true
	}
	return utf8.ValidString(str)
}

// word is s's first eight bytes as a little-endian word (one load).
func word(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// CheckUnknown refuses preserved unknown records that could not be decoded again (SPEC
// §8.2, §9: unknown-field-order): numbers not strictly ascending, outside 1 ..= 2^29 − 1,
// or declared by the message (desc), and wire types outside 0..3. It returns false after
// recording the refusal.
func (s *Sizes) CheckUnknown(u []UnknownRecord, desc *MessageDesc) bool {
	var prev uint32
	for _, f := range u {
		why := ""
		switch {
		case f.Number <= prev:
			why = "holds preserved unknown field " + itoa(int(f.Number)) + " out of order or twice"
		case f.Number > MaxFieldNumber:
			why = "holds a preserved unknown field past 536870911"
		case f.Wire > WireI32:
			why = "holds a preserved unknown field with wire type " + itoa(int(f.Wire))
		case f.Wire != WireLen && f.Bytes != nil, f.Wire == WireI32 && f.Value > math.MaxUint32:
			why = "holds a preserved unknown field whose payload does not fit its wire type"
		}
		if why == "" {
			if _, declared := desc.FieldByNumber(f.Number); declared {
				why = "holds a preserved unknown field " + itoa(int(f.Number)) + " the schema declares"
			}
		}
		if why != "" {
			s.fail(NewEncodeError(EncodeUnknownFieldOrder, why))
			return false
		}
		prev = f.Number
	}
	return true
}

// UnknownBefore adds to size the preserved records of u numbered below number, each
// keyed from the record before it (prev), and returns the records left, the size and
// the last number.
func UnknownBefore(u []UnknownRecord, number uint32, size int, prev uint32) ([]UnknownRecord, int, uint32) {
	for len(u) > 0 && u[0].Number < number {
		size += UnknownSize(prev, u[0])
		prev = u[0].Number
		u = u[1:]
	}
	return u, size, prev
}

// ----- the write pass -----

// UnknownBefore writes the preserved records of u numbered below number and returns the
// ones left.
func (w *Writer) UnknownBefore(u []UnknownRecord, number uint32) []UnknownRecord {
	for len(u) > 0 && u[0].Number < number {
		w.Unknown(u[0])
		u = u[1:]
	}
	return u
}

// ----- helpers for generated code -----

// IsZero32 says whether f is +0.0, a float's default (−0.0 and NaN are not; SPEC §5.1).
func IsZero32(f float32) bool { return math.Float32bits(f) == 0 }

// IsZero64 says whether f is +0.0, a double's default.
func IsZero64(f float64) bool { return math.Float64bits(f) == 0 }

// Compare is the key order of SPEC §6.4 for integer and string keys (ReadMap's compare).
func Compare[K cmp.Ordered](a, b K) int { return cmp.Compare(a, b) }

// SignedKey renders a signed integer map key as a path segment: [-1].
func SignedKey[K ~int32 | ~int64](k K) string { return IntKey(int64(k)) }

// UnsignedKey renders an unsigned integer map key as a path segment: [5].
func UnsignedKey[K ~uint32 | ~uint64](k K) string { return UintKey(uint64(k)) }

// BytesCopy reads length-prefixed bytes into a new slice (empty but not nil when the
// length is 0, so that explicit presence can tell it from absent).
func (r *Reader) BytesCopy() ([]byte, error) {
	b, err := r.LenBytes()
	if err != nil {
		return nil, err
	}
	return append([]byte{}, b...), nil
}

// AppendSortedKeys appends a map's keys to dst in SPEC §6.4's order and returns the
// extended slice: generated code passes a small array on its stack, so a map of up to
// that many entries is written without allocating.
func AppendSortedKeys[K cmp.Ordered, V any](dst []K, m map[K]V) []K {
	start := len(dst)
	for k := range m {
		dst = append(dst, k)
	}
	slices.Sort(dst[start:])
	return dst
}

// Entry is one key and value of a map, as AppendSortedEntries lists them.
type Entry[K, V any] struct {
	Key   K
	Value V
}

// AppendSortedEntries appends a map's entries to dst in SPEC §6.4's key order and
// returns the extended slice. Generated code walks these rather than sorted keys, so
// that no key is hashed again to find its value; it passes a small array on its stack,
// so a map of up to that many entries is written without allocating.
func AppendSortedEntries[K cmp.Ordered, V any](dst []Entry[K, V], m map[K]V) []Entry[K, V] {
	start := len(dst)
	for k, v := range m {
		dst = append(dst, Entry[K, V]{k, v})
	}
	e := dst[start:]
	if len(e) > 12 {
		slices.SortFunc(e, func(a, b Entry[K, V]) int { return cmp.Compare(a.Key, b.Key) })
		return dst
	}
	// Insertion sort: the maps of messages are mostly small, and this compares keys
	// directly rather than through a function value.
	for i := 1; i < len(e); i++ {
		for j := i; j > 0 && e[j].Key < e[j-1].Key; j-- {
			e[j], e[j-1] = e[j-1], e[j]
		}
	}
	return dst
}

// AppendSortedBoolKeys is AppendSortedKeys for bool keys: false, then true.
func AppendSortedBoolKeys[V any](dst []bool, m map[bool]V) []bool {
	if _, ok := m[false]; ok {
		dst = append(dst, false)
	}
	if _, ok := m[true]; ok {
		dst = append(dst, true)
	}
	return dst
}

// KeyString writes the key of string field number and the string (Key, then String):
// one call for the common case of a one-byte key and a one-byte length.
func (w *Writer) KeyString(number uint32, s string) {
	d := number - w.prev - 1
	if p := w.pos; number > w.prev && d < 62 && number <= MaxFieldNumber && len(s) < bijou64.FirstTierTag && len(w.buf)-p > len(s)+1 {
		w.buf[p] = byte(d<<2 | uint32(WireLen))
		w.buf[p+1] = byte(len(s))
		w.prev = number
		w.pos = p + 2 + copy(w.buf[p+2:], s)
		return
	}
	w.Key(number, WireLen)
	w.String(s)
}
