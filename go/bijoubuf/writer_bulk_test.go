package bijoubuf

import (
	"bytes"
	"math"
	"testing"
)

// The bulk writers of packed fixed-width runs write what the element writers write,
// NaN canonical, and stop the writer (size-mismatch) when the run does not fit.
func TestBulkRuns(t *testing.T) {
	nan := math.Float64frombits(0x7FF0000000000001)
	f64 := []float64{0, -1.5, math.Inf(1), nan, math.MaxFloat64}
	f32 := []float32{0, -1.5, float32(math.Inf(-1)), float32(nan)}
	u64 := []uint64{0, 1, math.MaxUint64, 0x0102030405060708}
	s64 := []int64{0, -1, math.MinInt64}
	u32 := []uint32{0, 1, math.MaxUint32}
	s32 := []int32{0, -1, math.MinInt32}
	size := 8*(len(f64)+len(u64)+len(s64)) + 4*(len(f32)+len(u32)+len(s32))

	bulk := NewWriter(size)
	Float64s(bulk, f64)
	Float32s(bulk, f32)
	Fixed64s(bulk, u64)
	Fixed64s(bulk, s64)
	Fixed32s(bulk, u32)
	Fixed32s(bulk, s32)
	got, err := bulk.Bytes()
	if err != nil {
		t.Fatal(err)
	}

	one := NewWriter(size)
	for _, v := range f64 {
		one.Float64(v)
	}
	for _, v := range f32 {
		one.Float32(v)
	}
	for _, v := range u64 {
		one.Fixed64(v)
	}
	for _, v := range s64 {
		one.Fixed64(uint64(v))
	}
	for _, v := range u32 {
		one.Fixed32(v)
	}
	for _, v := range s32 {
		one.Fixed32(uint32(v))
	}
	want, err := one.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("bulk % X\nwant % X", got, want)
	}
	if !bytes.Contains(got, []byte{0x7F, 0xF8, 0, 0, 0, 0, 0, 0}) || !bytes.Contains(got, []byte{0x7F, 0xC0, 0, 0}) {
		t.Fatalf("NaN not canonical: % X", got)
	}

	short := NewWriter(8*len(u64) - 1)
	Fixed64s(short, u64)
	if _, err := short.Bytes(); err == nil || err.(*EncodeError).Code() != EncodeSizeMismatch {
		t.Fatalf("a run past the announced size: %v, want size-mismatch", err)
	}
}

// KeyString writes what Key then String write: one-byte key and length (its own path),
// a wide key, a long string, and a number out of order (refused as field-order).
func TestKeyString(t *testing.T) {
	long := string(bytes.Repeat([]byte{'x'}, 300))
	cases := []struct {
		numbers []uint32
		s       string
	}{
		{[]uint32{1, 2, 62}, "ab"},
		{[]uint32{1, 70}, "ab"}, // delta 68: a two-byte key
		{[]uint32{3}, long},     // a two-byte length
		{[]uint32{MaxFieldNumber - 1, MaxFieldNumber}, ""},
		{[]uint32{5, 5}, "a"}, // out of order
	}
	for _, c := range cases {
		size := 0
		for range c.numbers {
			size += 4 + LenSize(len(c.s))
		}
		a, b := NewWriter(size), NewWriter(size)
		for _, n := range c.numbers {
			a.KeyString(n, c.s)
			b.Key(n, WireLen)
			b.String(c.s)
		}
		if a.pos != b.pos || !bytes.Equal(a.buf[:a.pos], b.buf[:b.pos]) || (a.err == nil) != (b.err == nil) {
			t.Fatalf("%v: KeyString % X (%v), Key+String % X (%v)", c.numbers, a.buf[:a.pos], a.err, b.buf[:b.pos], b.err)
		}
	}
	w := NewWriter(8)
	w.KeyString(4, "a")
	w.KeyString(4, "b")
	if w.err == nil || w.err.Code() != EncodeFieldOrder {
		t.Fatalf("field 4 twice: %v, want field-order", w.err)
	}
}
