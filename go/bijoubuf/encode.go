package bijoubuf

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/bijoubuf/bijoubuf/go/bijou64"
)

// What generated code calls to encode: a size pass over a Sizes, which checks the value
// (depth, required fields, UTF-8, preserved unknown records) and records the length of
// every nested message and every repeated or map record in the order it meets them; then
// one write pass into a buffer of exactly the total, where BeginNext takes those lengths
// back in the same order. Nothing is measured twice.

// Sizer is what a generated message implements for the encoder (exported so that a
// generated package can encode messages of another: the well-known types).
type Sizer interface {
	// BijoubufSize is the length of the message's content at depth (the top level is
	// 1), or 0 after recording a refusal on s.
	BijoubufSize(s *Sizes, depth int) int
	// BijoubufWrite writes the content, the same walk as BijoubufSize.
	BijoubufWrite(w *Writer)
}

// Sizes is an encode's size pass: its limits, the lengths it recorded, and the first
// refusal. The first lengths live in the value itself, so an encode of a message with
// few nested records allocates nothing but its output.
type Sizes struct {
	list     sizeList
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

// NewWriterFor is the write pass after s: a writer into a new buffer of n bytes, taking
// the lengths s recorded back in order (BeginNext). It copies them, so that the
// writer holds no pointer to s and s can stay on its caller's stack. s is handed over:
// it gives its lengths to this one writer and is not used again (the writer's Bytes
// gives their storage back for the next encode).
func NewWriterFor(n int, s *Sizes) Writer {
	return Writer{buf: make([]byte, n), sizes: s.list}
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
	w := NewWriterFor(n, &s)
	m.BijoubufWrite(&w)
	return w.Bytes()
}

// sizeList is the lengths a size pass recorded, in order: the first ones in place, the
// rest in a slice taken from extraPool (so that a large message's encode does not grow
// a new one from nothing each time) and given back by the writer's Bytes.
type sizeList struct {
	inline [8]int
	extra  []int
	count  int
	pooled *[]int
}

// extraPool holds the slices of lengths that encodes gave back.
var extraPool = sync.Pool{New: func() any { return new([]int) }}

// release gives the slice of lengths back to extraPool, once; l is not used after.
func (l *sizeList) release() {
	if p := l.pooled; p != nil {
		l.pooled = nil
		*p = l.extra[:0]
		l.extra = nil
		extraPool.Put(p)
	}
}

func (l *sizeList) add() int {
	i := l.count
	l.count++
	if i-len(l.inline) >= len(l.extra) {
		l.grow()
	}
	return i
}

// grow makes room for at least one more length past the inline ones (out of line, so
// that add and Open inline): the slice is used to its capacity before it is grown, so
// grow runs about log(n) times for n lengths, not n times.
func (l *sizeList) grow() {
	if l.pooled == nil {
		l.pooled = extraPool.Get().(*[]int)
		l.extra = (*l.pooled)[:0]
	}
	if len(l.extra) < cap(l.extra) {
		l.extra = l.extra[:cap(l.extra)]
		return
	}
	l.extra = append(l.extra, make([]int, max(16, len(l.extra)))...)
}

func (l *sizeList) get(i int) int {
	if i < len(l.inline) {
		return l.inline[i]
	}
	return l.extra[i-len(l.inline)]
}

func (l *sizeList) set(i, n int) {
	if i < len(l.inline) {
		l.inline[i] = n
	} else {
		l.extra[i-len(l.inline)] = n
	}
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

// Open starts a nested message, or a repeated or map record, of field name in a message
// at depth, and returns its slot for Close. For a message (msg true) it refuses one
// deeper than the depth limit (depth-limit-exceeded, SPEC §9) and returns false.
func (s *Sizes) Open(depth int, msg bool, name string) (int, bool) {
	// Inlined: a slot that is there, within the depth limit; the rest out of line.
	if i := s.list.count; i-len(s.list.inline) < len(s.list.extra) && (!msg || depth < s.maxDepth) {
		s.list.count = i + 1
		return i, true
	}
	return s.open(depth, msg, name)
}

// open is Open past its inlined case: the depth refusal, or a slot to grow.
func (s *Sizes) open(depth int, msg bool, name string) (int, bool) {
	if msg && depth >= s.maxDepth {
		return s.tooDeep(name)
	}
	return s.list.add(), true
}

// tooDeep is Open's refusal, kept out of line so that Open inlines.
func (s *Sizes) tooDeep(name string) (int, bool) {
	s.fail(NewEncodeError(EncodeDepthLimitExceeded, "nests messages deeper than "+itoa(s.maxDepth)).InField(name))
	return 0, false
}

// Close records the length of what Open started; false when the size pass of its content
// recorded a refusal, which then gets the field's segment (return 0 at once).
func (s *Sizes) Close(slot, n int, name string) bool {
	if s.err != nil {
		s.err.InField(name)
		return false
	}
	s.list.set(slot, n)
	return true
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
	if len(str) < 16 {
		// Short strings (most): all ASCII, checked inline.
		var or byte
		for i := 0; i < len(str); i++ {
			or |= str[i]
		}
		if or < utf8.RuneSelf {
			return true
		}
	}
	return utf8.ValidString(str)
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

// BeginNext is Begin with the next length the size pass recorded (Sizes.Open/Close, in
// the same order).
func (w *Writer) BeginNext() Mark {
	// The common case in one call: a recorded length below 248, one byte of prefix.
	if i, p := w.next, w.pos; i < w.sizes.count && p < len(w.buf) {
		if size := w.sizes.get(i); size < bijou64.FirstTierTag {
			w.next = i + 1
			w.buf[p] = byte(size)
			w.pos = p + 1
			m := Mark{prev: w.prev, end: p + 1 + size}
			w.prev = 0
			return m
		}
	}
	return w.beginNext()
}

// beginNext is BeginNext past its one-byte case.
func (w *Writer) beginNext() Mark {
	size := 0
	if w.next < w.sizes.count {
		size = w.sizes.get(w.next)
		w.next++
	} else if w.err == nil {
		w.err = NewEncodeError(EncodeSizeMismatch, "the write pass opened more records than its size pass")
	}
	return w.Begin(size)
}

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

// KeyBeginNext writes the key of field number with wire type LEN and begins its
// content with the next recorded length (Key, then BeginNext): one call for the common
// case of a one-byte key and a one-byte length.
func (w *Writer) KeyBeginNext(number uint32) Mark {
	d := number - w.prev - 1
	if i, p := w.next, w.pos; number > w.prev && d < 62 && number <= MaxFieldNumber && i < w.sizes.count && len(w.buf)-p > 1 {
		if size := w.sizes.get(i); size < bijou64.FirstTierTag {
			w.buf[p] = byte(d<<2 | uint32(WireLen))
			w.buf[p+1] = byte(size)
			w.next = i + 1
			w.pos = p + 2
			m := Mark{prev: number, end: p + 2 + size}
			w.prev = 0
			return m
		}
	}
	w.Key(number, WireLen)
	return w.BeginNext()
}
