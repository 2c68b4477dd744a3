package bijoubuf

import (
	"encoding/binary"
	"math"
)

// The bulk reads below take a whole packed run of fixed-width elements in one call, for
// generated code: the reader is inside a record OpenRun opened with the element's width,
// so the bytes left are a whole number of elements (O14 was checked there), and each
// call reads every one of them, appending to dst (made by the caller at the count the
// record carries).

// ReadFixed64s appends the rest of a run of fixed64 or sfixed64 elements to dst.
func ReadFixed64s[T ~uint64 | ~int64](r *Reader, dst []T) []T {
	b := r.buf[r.pos:r.end]
	for len(b) >= 8 {
		dst = append(dst, T(binary.BigEndian.Uint64(b)))
		b = b[8:]
	}
	r.pos = r.end - len(b)
	return dst
}

// ReadFixed32s appends the rest of a run of fixed32 or sfixed32 elements to dst.
func ReadFixed32s[T ~uint32 | ~int32](r *Reader, dst []T) []T {
	b := r.buf[r.pos:r.end]
	for len(b) >= 4 {
		dst = append(dst, T(binary.BigEndian.Uint32(b)))
		b = b[4:]
	}
	r.pos = r.end - len(b)
	return dst
}

// ReadFloat64s appends the rest of a run of doubles to dst. A NaN other than the
// canonical one is non-canonical-nan at its first byte (O10): the elements before it are
// in the returned slice, whose length is the failing element's index.
func ReadFloat64s(r *Reader, dst []float64) ([]float64, error) {
	b := r.buf[r.pos:r.end]
	k := len(dst)
	dst = append(dst, make([]float64, len(b)/8)...)
	for i := k; i < len(dst); i++ {
		bits := binary.BigEndian.Uint64(b[8*(i-k):])
		f := math.Float64frombits(bits)
		if f != f && bits != NaN64Bits {
			r.pos += 8 * (i - k)
			return dst[:i], NewDecodeError(NonCanonicalNaN, r.pos)
		}
		dst[i] = f
	}
	r.pos = r.end
	return dst, nil
}

// ReadFloat32s appends the rest of a run of floats to dst, as ReadFloat64s.
func ReadFloat32s(r *Reader, dst []float32) ([]float32, error) {
	b := r.buf[r.pos:r.end]
	for len(b) >= 4 {
		bits := binary.BigEndian.Uint32(b)
		f := math.Float32frombits(bits)
		if f != f && bits != NaN32Bits {
			r.pos = r.end - len(b)
			return dst, NewDecodeError(NonCanonicalNaN, r.pos)
		}
		dst = append(dst, f)
		b = b[4:]
	}
	r.pos = r.end - len(b)
	return dst, nil
}
