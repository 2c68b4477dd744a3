package bijoubuf

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// A field of a message built at random, written forwards by Writer and backwards by
// BackWriter: the two must give the same bytes.
type tfield struct {
	number uint32
	kind   int // 0 varint, 1 fixed32, 2 fixed64, 3 float32, 4 float64, 5 string, 6 bytes, 7 message, 8 unknown
	u      uint64
	s      string
	f64    float64
	kids   []tfield
	rec    UnknownRecord
}

func randFields(r *rand.Rand, depth int) []tfield {
	var out []tfield
	var number uint32
	for range r.IntN(7) {
		// Small gaps (one-byte keys) mostly, then gaps past 62 and past 2^14 (longer keys).
		switch r.IntN(6) {
		case 0:
			number += 62 + uint32(r.IntN(200))
		case 1:
			number += 1 << (8 + r.IntN(20))
		default:
			number += 1 + uint32(r.IntN(3))
		}
		if number > MaxFieldNumber {
			break
		}
		f := tfield{number: number, kind: r.IntN(9)}
		if f.kind == 7 && depth > 3 {
			f.kind = 0
		}
		// Values of every bijou64 width.
		f.u = r.Uint64() >> r.IntN(64)
		f.f64 = r.NormFloat64()
		if r.IntN(5) == 0 {
			f.f64 = math.NaN()
		}
		f.s = strings.Repeat("é", r.IntN(3)*r.IntN(200))
		switch f.kind {
		case 7:
			f.kids = randFields(r, depth+1)
		case 8:
			f.rec = UnknownRecord{Number: number, Wire: WireType(r.IntN(4))}
			switch f.rec.Wire {
			case WireLen:
				f.rec.Bytes = []byte(f.s)
			case WireI32:
				f.rec.Value = f.u & math.MaxUint32
			default:
				f.rec.Value = f.u
			}
		}
		out = append(out, f)
	}
	return out
}

func (f *tfield) wire() WireType {
	switch f.kind {
	case 0:
		return WireVarint
	case 1, 3:
		return WireI32
	case 2, 4:
		return WireI64
	case 8:
		return f.rec.Wire
	}
	return WireLen
}

func tcontentSize(fs []tfield) int {
	n := 0
	var prev uint32
	for i := range fs {
		f := &fs[i]
		switch f.kind {
		case 0:
			n += KeySize(prev, f.number) + VarintSize(f.u)
		case 1, 3:
			n += KeySize(prev, f.number) + 4
		case 2, 4:
			n += KeySize(prev, f.number) + 8
		case 5, 6:
			n += KeySize(prev, f.number) + LenSize(len(f.s))
		case 7:
			n += KeySize(prev, f.number) + LenSize(tcontentSize(f.kids))
		case 8:
			n += UnknownSize(prev, f.rec)
		}
		prev = f.number
	}
	return n
}

func writeForward(w *Writer, fs []tfield) {
	for i := range fs {
		f := &fs[i]
		if f.kind == 8 {
			w.Unknown(f.rec)
			continue
		}
		w.Key(f.number, f.wire())
		switch f.kind {
		case 0:
			w.Varint(f.u)
		case 1:
			w.Fixed32(uint32(f.u))
		case 2:
			w.Fixed64(f.u)
		case 3:
			w.Float32(float32(f.f64))
		case 4:
			w.Float64(f.f64)
		case 5:
			w.String(f.s)
		case 6:
			w.LenBytes([]byte(f.s))
		case 7:
			m := w.Begin(tcontentSize(f.kids))
			writeForward(w, f.kids)
			w.End(m)
		}
	}
}

func writeBackward(w *BackWriter, fs []tfield, r *rand.Rand) {
	for i := len(fs) - 1; i >= 0; i-- {
		f := &fs[i]
		// Both spellings of the one-call helpers and the calls they stand for.
		split := r.IntN(2) == 0
		switch f.kind {
		case 5:
			if split {
				w.Field(f.number, WireLen)
				w.String(f.s)
			} else {
				w.FieldString(f.number, f.s)
			}
			continue
		case 7:
			var m BackMark
			if split {
				w.Field(f.number, WireLen)
				m = w.Open()
			} else {
				m = w.OpenField(f.number)
			}
			writeBackward(w, f.kids, r)
			w.Close(m)
			continue
		case 8:
			if len(w.UnknownAfter([]UnknownRecord{f.rec}, f.number-1)) != 0 {
				panic("UnknownAfter left the record")
			}
			continue
		}
		if !split {
			switch f.kind {
			case 0:
				// As generated code writes it (the inlined case, then the call), or the
				// call alone.
				if r.IntN(2) == 0 || !w.FieldVarintFast(f.number, f.u) {
					w.FieldVarint(f.number, f.u)
				}
			case 1:
				w.FieldFixed32(f.number, uint32(f.u))
			case 2:
				w.FieldFixed64(f.number, f.u)
			case 3:
				w.FieldFloat32(f.number, float32(f.f64))
			case 4:
				w.FieldFloat64(f.number, f.f64)
			case 6:
				w.FieldBytes(f.number, []byte(f.s))
			}
			continue
		}
		w.Field(f.number, f.wire())
		switch f.kind {
		case 0:
			w.Varint(f.u)
		case 1:
			w.Fixed32(uint32(f.u))
		case 2:
			w.Fixed64(f.u)
		case 3:
			w.Float32(float32(f.f64))
		case 4:
			w.Float64(f.f64)
		case 6:
			w.LenBytes([]byte(f.s))
		}
	}
}

// TestBackWriterWritesWhatWriterWrites: backwards, fields last to first, keys left
// pending, the bytes are those the forward writer writes, for keys and lengths of
// every width, nested and empty messages and kept unknown records.
func TestBackWriterWritesWhatWriterWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		fs := randFields(r, 0)
		n := tcontentSize(fs)
		fw := NewWriter(n)
		writeForward(fw, fs)
		want, err := fw.Bytes()
		if err != nil {
			t.Fatalf("%d: forward: %v", i, err)
		}
		bw := NewBackWriter(n)
		writeBackward(&bw, fs, r)
		got, err := bw.Bytes()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d: backward % X (%v), forward % X", i, got, err, want)
		}
	}
}

func encodeCode(t *testing.T, err error) EncodeCode {
	t.Helper()
	var e *EncodeError
	if !errors.As(err, &e) {
		t.Fatalf("%v is not an EncodeError", err)
	}
	return e.Code()
}

// TestBackWriterRefuses: every writer check, as an error and never a panic: fields not
// from the highest number down, numbers outside 1 ..= 2^29 − 1, unknown records out of
// order, and a size pass that announced too few or too many bytes.
func TestBackWriterRefuses(t *testing.T) {
	cases := []struct {
		name  string
		size  int
		write func(w *BackWriter)
		code  EncodeCode
	}{
		{"ascending", 4, func(w *BackWriter) { w.Field(1, WireVarint); w.Varint(0); w.Field(2, WireVarint); w.Varint(0) }, EncodeFieldOrder},
		{"twice", 4, func(w *BackWriter) { w.Field(2, WireVarint); w.Varint(0); w.Field(2, WireVarint); w.Varint(0) }, EncodeFieldOrder},
		{"string twice", 6, func(w *BackWriter) { w.FieldString(2, "a"); w.FieldString(2, "b") }, EncodeFieldOrder},
		{"message twice", 6, func(w *BackWriter) {
			m := w.OpenField(3)
			w.Close(m)
			m = w.OpenField(3)
			w.Close(m)
		}, EncodeFieldOrder},
		{"field 0", 2, func(w *BackWriter) { w.Field(0, WireVarint); w.Varint(0) }, EncodeFieldOrder},
		{"varint twice", 4, func(w *BackWriter) { w.FieldVarint(2, 1); w.FieldZigzag(2, -1) }, EncodeFieldOrder},
		{"bool after a lower field", 4, func(w *BackWriter) { w.FieldBool(1, true); w.FieldBool(3, true) }, EncodeFieldOrder},
		{"fixed64 twice", 18, func(w *BackWriter) { w.FieldFixed64(2, 1); w.FieldFloat64(2, 1) }, EncodeFieldOrder},
		{"fixed32 twice", 10, func(w *BackWriter) { w.FieldFixed32(2, 1); w.FieldFloat32(2, 1) }, EncodeFieldOrder},
		{"bytes twice", 6, func(w *BackWriter) { w.FieldBytes(2, []byte{1}); w.FieldBytes(2, nil) }, EncodeFieldOrder},
		{"too few for a fixed64", 8, func(w *BackWriter) { w.FieldFixed64(1, 1) }, EncodeSizeMismatch},
		{"too few for a varint", 2, func(w *BackWriter) { w.FieldVarint(1, 300) }, EncodeSizeMismatch},
		{"field 0 after 1", 4, func(w *BackWriter) { w.Field(1, WireVarint); w.Varint(0); w.Field(0, WireVarint); w.Varint(0) }, EncodeFieldOrder},
		{"2^32 − 1 after field 1", 8, func(w *BackWriter) { w.FieldVarint(1, 0); w.FieldVarint(math.MaxUint32, 0) }, EncodeFieldOrder},
		{"2^32 − 1 first", 8, func(w *BackWriter) { w.FieldString(math.MaxUint32, "") }, EncodeFieldOrder},
		{"message at 2^32 − 1", 8, func(w *BackWriter) { w.FieldFixed32(1, 0); w.Close(w.OpenField(math.MaxUint32)) }, EncodeFieldOrder},
		{"past the largest", 8, func(w *BackWriter) { w.Field(MaxFieldNumber+1, WireVarint); w.Varint(0) }, EncodeFieldOrder},
		{"unknown ascending", 4, func(w *BackWriter) {
			w.UnknownAfter([]UnknownRecord{{Number: 5, Wire: WireVarint}, {Number: 4, Wire: WireVarint}}, 0)
		}, EncodeUnknownFieldOrder},
		{"unknown on a field", 4, func(w *BackWriter) {
			w.Field(5, WireVarint)
			w.Varint(0)
			w.UnknownAfter([]UnknownRecord{{Number: 5, Wire: WireVarint}}, 0)
		}, EncodeUnknownFieldOrder},
		{"too few bytes announced", 2, func(w *BackWriter) { w.FieldString(1, "abc") }, EncodeSizeMismatch},
		{"too few for a long string", 10, func(w *BackWriter) { w.FieldString(1, strings.Repeat("a", 300)) }, EncodeSizeMismatch},
		{"too few for a nested message", 3, func(w *BackWriter) {
			m := w.OpenField(1)
			w.Field(1, WireI64)
			w.Fixed64(7)
			w.Close(m)
		}, EncodeSizeMismatch},
		{"too few for a run", 5, func(w *BackWriter) { m := w.OpenField(1); w.Float64s([]float64{1}); w.Close(m) }, EncodeSizeMismatch},
		{"too many bytes announced", 9, func(w *BackWriter) { w.FieldString(1, "abc") }, EncodeSizeMismatch},
		{"nothing written", 1, func(w *BackWriter) {}, EncodeSizeMismatch},
	}
	for _, c := range cases {
		w := NewBackWriter(c.size)
		c.write(&w)
		b, err := w.Bytes()
		if err == nil {
			t.Errorf("%s: accepted, % X", c.name, b)
			continue
		}
		if got := encodeCode(t, err); got != c.code {
			t.Errorf("%s: %v, want code %v", c.name, err, c.code)
		}
	}
	// Writes after a refusal change nothing and do not panic.
	w := NewBackWriter(3)
	w.FieldString(1, "abcdef")
	w.Fixed64(1)
	w.Float32s([]float32{1, 2})
	w.Varint(1 << 40)
	w.Close(w.OpenField(2))
	if _, err := w.Bytes(); err == nil || encodeCode(t, err) != EncodeSizeMismatch {
		t.Errorf("after an overflow: %v", err)
	}
}

// TestBackWriterRuns: the packed fixed-width runs written in one call are the elements
// written one by one, every NaN canonical.
func TestBackWriterRuns(t *testing.T) {
	f64 := []float64{1.5, math.NaN(), math.Copysign(0, -1), math.Inf(1), math.Float64frombits(0x7FF0_0000_0000_0001)}
	f32 := []float32{1.5, float32(math.NaN()), float32(math.Copysign(0, -1)), math.Float32frombits(0xFF80_0001)}
	u64 := []uint64{0, 1, math.MaxUint64}
	s64 := []int64{-1, math.MinInt64, 5}
	u32 := []uint32{0, 7, math.MaxUint32}
	s32 := []int32{-1, math.MinInt32, 5}
	n := 8*(len(f64)+len(u64)+len(s64)) + 4*(len(f32)+len(u32)+len(s32))
	bulk, one := NewBackWriter(n), NewBackWriter(n)
	bulk.Float64s(f64)
	bulk.Float32s(f32)
	bulk.Fixed64s(u64)
	bulk.Sfixed64s(s64)
	bulk.Fixed32s(u32)
	bulk.Sfixed32s(s32)
	for i := len(f64) - 1; i >= 0; i-- {
		one.Float64(f64[i])
	}
	for i := len(f32) - 1; i >= 0; i-- {
		one.Float32(f32[i])
	}
	for i := len(u64) - 1; i >= 0; i-- {
		one.Fixed64(u64[i])
	}
	for i := len(s64) - 1; i >= 0; i-- {
		one.Fixed64(uint64(s64[i]))
	}
	for i := len(u32) - 1; i >= 0; i-- {
		one.Fixed32(u32[i])
	}
	for i := len(s32) - 1; i >= 0; i-- {
		one.Fixed32(uint32(s32[i]))
	}
	a, errA := bulk.Bytes()
	b, errB := one.Bytes()
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Fatalf("runs % X (%v), one by one % X (%v)", a, errA, b, errB)
	}
	// Written backwards: the last run written (sfixed32) begins the buffer, the first
	// (doubles, the last one a signalling NaN written canonically) ends it.
	if !bytes.HasPrefix(b, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0, 0, 0}) ||
		!bytes.HasSuffix(b, []byte{0x7F, 0xF8, 0, 0, 0, 0, 0, 0}) {
		t.Errorf("% X", b)
	}
}

// TestFieldVarintFastWritesOnlyItsCase: FieldVarintFast writes a one-byte key and value
// as FieldVarint does, and for every other case reports false having written nothing, so
// that FieldVarint after it writes or refuses as it would alone.
func TestFieldVarintFastWritesOnlyItsCase(t *testing.T) {
	state := func(w *BackWriter) string {
		return string(w.buf[w.pos:]) + "|" + itoa(w.pos) + "|" + itoa(int(w.pending))
	}
	for _, c := range []struct {
		name       string
		prev       uint32 // the field written before (above) it, 0 for none
		number     uint32
		v          uint64
		room       int // bytes left below the field before
		wantInline bool
	}{
		{"one-byte key and value", 10, 9, 5, 8, true},
		{"the largest one-byte delta and value", 63, 1, 247, 8, true},
		{"the first field written (nothing pending)", 0, 9, 5, 8, false},
		{"a delta past one byte", 64, 1, 5, 8, false},
		{"a value past one byte", 10, 9, 248, 8, false},
		{"the same number again", 10, 10, 5, 8, false},
		{"a number above the pending one", 10, 11, 5, 8, false},
		{"number 0", 10, 0, 5, 8, false},
		{"no room for two bytes", 10, 9, 5, 1, false},
	} {
		w := NewBackWriter(c.room + 2)
		if c.prev != 0 {
			// Two bytes (F8 34), its key left pending: a varint's, so that a delta
			// of 62 is the key 62<<2 = F8, the first past one byte.
			w.FieldVarint(c.prev, 300)
		}
		before := state(&w)
		if got := w.FieldVarintFast(c.number, c.v); got != c.wantInline {
			t.Errorf("%s: FieldVarintFast = %v, want %v", c.name, got, c.wantInline)
			continue
		}
		if !c.wantInline {
			if after := state(&w); after != before {
				t.Errorf("%s: wrote %q over %q", c.name, after, before)
			}
			continue
		}
		want := NewBackWriter(c.room + 2)
		if c.prev != 0 {
			want.FieldVarint(c.prev, 300)
		}
		want.FieldVarint(c.number, c.v)
		if got, wantState := state(&w), state(&want); got != wantState {
			t.Errorf("%s: wrote %q, FieldVarint %q", c.name, got, wantState)
		}
	}
}

// TestFieldFixedFastWritesOnlyItsCase: FieldFixed64Fast and FieldFixed32Fast write what
// FieldFixed64 and FieldFixed32 write where they take the field, and nothing where they
// decline it.
func TestFieldFixedFastWritesOnlyItsCase(t *testing.T) {
	state := func(w *BackWriter) string {
		return string(w.buf[w.pos:]) + "|" + itoa(w.pos) + "|" + itoa(int(w.pending))
	}
	for _, c := range []struct {
		name   string
		prev   uint32 // the field written before (above) it, 0 for none
		number uint32
		room   int  // bytes left below the field before
		keyOK  bool // the key is a one-byte delta from the pending one
	}{
		{"one-byte key", 10, 9, 16, true},
		{"the largest one-byte delta", 63, 1, 16, true},
		{"the first field written (nothing pending)", 0, 9, 16, false},
		{"a delta past one byte", 64, 1, 16, false},
		{"the same number again", 10, 10, 16, false},
		{"a number above the pending one", 10, 11, 16, false},
		{"number 0", 10, 0, 16, false},
		{"room for the 32-bit field only", 10, 9, 8, true},
		{"room for neither", 10, 9, 4, true},
	} {
		for _, width := range []int{64, 32} {
			fast := func(w *BackWriter) bool {
				if width == 64 {
					return w.FieldFixed64Fast(c.number, 0x0102030405060708)
				}
				return w.FieldFixed32Fast(c.number, 0x01020304)
			}
			full := func(w *BackWriter) {
				if width == 64 {
					w.FieldFixed64(c.number, 0x0102030405060708)
				} else {
					w.FieldFixed32(c.number, 0x01020304)
				}
			}
			// The fast path writes the pending key's byte and the value.
			inline := c.keyOK && c.room >= 1+width/8
			w := NewBackWriter(c.room + 2)
			if c.prev != 0 {
				w.FieldVarint(c.prev, 300) // two bytes, its key left pending
			}
			before := state(&w)
			if got := fast(&w); got != inline {
				t.Errorf("%s, %d bits: taken = %v, want %v", c.name, width, got, inline)
				continue
			}
			if !inline {
				if after := state(&w); after != before {
					t.Errorf("%s, %d bits: wrote %q over %q", c.name, width, after, before)
				}
				continue
			}
			want := NewBackWriter(c.room + 2)
			if c.prev != 0 {
				want.FieldVarint(c.prev, 300)
			}
			full(&want)
			if got, wantState := state(&w), state(&want); got != wantState {
				t.Errorf("%s, %d bits: wrote %q, the full call %q", c.name, width, got, wantState)
			}
		}
	}
	// Every NaN is written as the canonical one.
	if Float64Bits(math.Float64frombits(0x7FF0000000000001)) != NaN64Bits || Float64Bits(math.Copysign(0, -1)) != 1<<63 {
		t.Error("Float64Bits")
	}
	if Float32Bits(math.Float32frombits(0xFF800001)) != NaN32Bits || Float32Bits(1) != 0x3F800000 {
		t.Error("Float32Bits")
	}
}

// TestValidString: the size pass's UTF-8 check says what utf8.ValidString says, with
// the bad byte in the eight-byte words or in the tail, of every length to 40.
func TestValidString(t *testing.T) {
	for n := range 40 {
		base := []byte(strings.Repeat("abcdefgh", 5)[:n])
		check := func(b []byte) {
			if got, want := ValidString(string(b)), utf8.Valid(b); got != want {
				t.Errorf("% X: %v, want %v", b, got, want)
			}
		}
		check(base)
		for i := range n {
			for _, c := range []byte{0x80, 0xC3, 0xFF, 0x7F} {
				b := append([]byte{}, base...)
				b[i] = c
				check(b)
			}
			if i+1 < n {
				b := append([]byte{}, base...)
				b[i], b[i+1] = 0xC3, 0xA9 // é
				check(b)
			}
		}
	}
}
