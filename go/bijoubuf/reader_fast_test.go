package bijoubuf

import (
	"encoding/binary"
	"math"
	"testing"
	"unicode/utf8"

	"github.com/bijoubuf/bijoubuf/go/bijou64"
)

// codeAt is err's code and offset, or "" and -1 for nil.
func codeAt(t *testing.T, err error) (string, int) {
	t.Helper()
	if err == nil {
		return "", -1
	}
	d, ok := AsDecodeError(err)
	if !ok {
		t.Fatalf("not a DecodeError: %v", err)
	}
	return d.Code().String(), d.Offset()
}

// Varint's inline tiers agree with bijou64.Decode on every tier edge, exact, padded and
// cut short.
func TestVarintAgreesWithBijou64(t *testing.T) {
	var values []uint64
	for _, o := range bijou64.Offsets {
		values = append(values, o, o+1, o+255, o+256)
		if o > 0 {
			values = append(values, o-1)
		}
	}
	values = append(values, math.MaxUint64)
	for _, v := range values {
		enc := bijou64.Encode(v)
		for _, in := range [][]byte{enc, append(append([]byte{}, enc...), 0xFF, 0xFF), enc[:len(enc)-1]} {
			want, n, werr := bijou64.Decode(in)
			r := readerOver(in)
			got, err := r.Varint()
			code, _ := codeAt(t, err)
			if werr != nil {
				if code != werr.(bijou64.Error).Code() {
					t.Errorf("% x: got %v, want %v", in, err, werr)
				}
				continue
			}
			if err != nil || got != want || r.Pos() != n {
				t.Errorf("% x: got %d at %d (%v), want %d at %d", in, got, r.Pos(), err, want, n)
			}
		}
	}
}

// The full integer reads (which read two- and three-byte values without calling Varint)
// agree with bijou64.Decode and the checks of SPEC §3 on every tier edge, exact, padded and cut
// short: the value, the bytes read, and an error's code and offset.
func TestFullReadsAgreeWithVarint(t *testing.T) {
	var values []uint64
	for _, o := range bijou64.Offsets {
		values = append(values, o, o+1, o+255, o+256)
		if o > 0 {
			values = append(values, o-1)
		}
	}
	values = append(values, math.MaxUint32, math.MaxUint32+1, math.MaxUint64)
	type want struct {
		v    any
		code string
		at   int
	}
	reads := []struct {
		name string
		full func(*Reader) (any, error)
		ref  func(v uint64) (any, string)
	}{
		{"Int64", func(r *Reader) (any, error) { return r.Int64() },
			func(v uint64) (any, string) { return bijou64.Unzigzag(v), "" }},
		{"Int32", func(r *Reader) (any, error) { return r.Int32() },
			func(v uint64) (any, string) {
				if v > math.MaxUint32 {
					return int32(0), "integer-out-of-range"
				}
				return int32(bijou64.Unzigzag(v)), ""
			}},
		{"Uint32", func(r *Reader) (any, error) { return r.Uint32() },
			func(v uint64) (any, string) {
				if v > math.MaxUint32 {
					return uint32(0), "integer-out-of-range"
				}
				return uint32(v), ""
			}},
	}
	checked := 0
	for _, v := range values {
		enc := bijou64.Encode(v)
		for _, in := range [][]byte{enc, append(append([]byte{}, enc...), 0xFF, 0xFF), enc[:len(enc)-1]} {
			for _, rd := range reads {
				rv, n, rerr := bijou64.Decode(in)
				var w want
				if rerr != nil {
					w.code = rerr.(bijou64.Error).Code()
				} else {
					w.v, w.code = rd.ref(rv)
				}
				r := readerOver(in)
				got, err := rd.full(r)
				code, at := codeAt(t, err)
				if code != w.code || (code != "" && at != w.at) {
					t.Errorf("%s(% x): error %v, want %s at %d", rd.name, in, err, w.code, w.at)
					continue
				}
				if code == "" && (got != w.v || r.Pos() != n) {
					t.Errorf("%s(% x) = %v at %d, want %v at %d", rd.name, in, got, r.Pos(), w.v, n)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

// Every Fast read either declines, reading nothing, or returns what the full read does.
func TestFastReadsAgreeWithFullReads(t *testing.T) {
	var inputs [][]byte
	for b := range 256 {
		inputs = append(inputs, []byte{byte(b)}, []byte{byte(b), 0x01, 0x02})
	}
	for _, f := range []uint64{math.Float64bits(1.5), math.Float64bits(math.Inf(-1)), NaN64Bits, NaN64Bits | 1} {
		inputs = append(inputs, binary.BigEndian.AppendUint64(nil, f))
	}
	for _, f := range []uint32{math.Float32bits(1.5), NaN32Bits, NaN32Bits | 1} {
		inputs = append(inputs, binary.BigEndian.AppendUint32(nil, f))
	}
	inputs = append(inputs, nil)
	type read struct {
		name string
		fast func(*Reader) (any, bool)
		full func(*Reader) (any, error)
	}
	reads := []read{
		{"Uint64", func(r *Reader) (any, bool) { return r.Uint64Fast() }, func(r *Reader) (any, error) { return r.Uint64() }},
		{"Uint32", func(r *Reader) (any, bool) { return r.Uint32Fast() }, func(r *Reader) (any, error) { return r.Uint32() }},
		{"Int64", func(r *Reader) (any, bool) { return r.Int64Fast() }, func(r *Reader) (any, error) { return r.Int64() }},
		{"Int32", func(r *Reader) (any, bool) { return r.Int32Fast() }, func(r *Reader) (any, error) { return r.Int32() }},
		{"Bool", func(r *Reader) (any, bool) { return r.BoolFast() }, func(r *Reader) (any, error) { return r.Bool() }},
		{"Float64", func(r *Reader) (any, bool) { return r.Float64Fast() }, func(r *Reader) (any, error) { return r.Float64() }},
		{"Float32", func(r *Reader) (any, bool) { return r.Float32Fast() }, func(r *Reader) (any, error) { return r.Float32() }},
	}
	accepted := 0
	for _, rd := range reads {
		for _, in := range inputs {
			fast := readerOver(in)
			fv, ok := rd.fast(fast)
			if !ok {
				if fast.Pos() != 0 {
					t.Errorf("%sFast % x declined but read %d bytes", rd.name, in, fast.Pos())
				}
				continue
			}
			accepted++
			full := readerOver(in)
			v, err := rd.full(full)
			if err != nil || v != fv || full.Pos() != fast.Pos() {
				t.Errorf("%sFast % x = %v at %d; full read %v at %d (%v)", rd.name, in, fv, fast.Pos(), v, full.Pos(), err)
			}
		}
	}
	if accepted == 0 {
		t.Fatal("no Fast read accepted anything")
	}
}

// NextFast reads what Next reads, or declines reading nothing.
func TestNextFastAgreesWithNext(t *testing.T) {
	for k := range 256 {
		for _, prev := range []uint32{0, 5, MaxFieldNumber - 70, MaxFieldNumber - 1} {
			in := []byte{byte(k), 0x00, 0x00}
			fast, full := readerOver(in), readerOver(in)
			fast.prev, full.prev = prev, prev
			n, w, ok := fast.NextFast()
			fn, fw, err := full.Next()
			if !ok {
				if fast.Pos() != 0 {
					t.Errorf("key %#x after %d: declined but read", k, prev)
				}
				continue
			}
			if err != nil || n != fn || w != fw || fast.Pos() != full.Pos() || fast.KeyPos() != full.KeyPos() {
				t.Errorf("key %#x after %d: fast %d/%d, Next %d/%d (%v)", k, prev, n, w, fn, fw, err)
			}
		}
	}
}

// Next's inline two-byte keys read what the general key read (nextLong) does: every
// tier-1 key, after field numbers near and far from the limit, whole and cut by the
// bound.
func TestNextTwoByteKeys(t *testing.T) {
	checked := 0
	for b := range 256 {
		for _, prev := range []uint32{0, 5, MaxFieldNumber - 130, MaxFieldNumber - 1} {
			for _, in := range [][]byte{{bijou64.FirstTierTag, byte(b), 0x00}, {bijou64.FirstTierTag, byte(b)}, {bijou64.FirstTierTag}} {
				next, long := readerOver(in), readerOver(in)
				next.prev, long.prev = prev, prev
				n, w, err := next.Next()
				ln, lw, lerr := long.nextLong()
				code, at := codeAt(t, err)
				lcode, lat := codeAt(t, lerr)
				if n != ln || w != lw || code != lcode || at != lat || next.Pos() != long.Pos() || next.KeyPos() != long.KeyPos() || next.prev != long.prev {
					t.Errorf("% x after %d: Next %d/%d %v at %d, nextLong %d/%d %v at %d", in, prev, n, w, err, next.Pos(), ln, lw, lerr, long.Pos())
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

// String's one-call path (a word load, masked) and its full path agree with Go's UTF-8
// rules: every length up to 40, a non-ASCII or ill-formed byte at every place, with and
// without bytes after the string.
func TestStringPaths(t *testing.T) {
	for l := 0; l <= 40; l++ {
		for bad := -1; bad < l; bad++ {
			for _, b := range []byte{0xC3, 0xFF, 0x80} {
				content := make([]byte, l)
				for i := range content {
					content[i] = 'a' + byte(i%26)
				}
				if bad >= 0 {
					content[bad] = b
					if b == 0xC3 && bad+1 < l {
						content[bad+1] = 0xA9 // é
					}
				}
				for _, tail := range [][]byte{nil, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}} {
					in := append(append([]byte{byte(l)}, content...), tail...)
					r := newReader(in, 0, 1+l, DecodeOptions{})
					s, err := r.String()
					code, at := codeAt(t, err)
					if utf8.Valid(content) {
						if err != nil || s != string(content) || r.Pos() != 1+l {
							t.Errorf("% x: got %q (%v), want %q", in, s, err, content)
						}
						continue
					}
					want := 1 + invalidUTF8At(content)
					if code != "invalid-utf8" || at != want {
						t.Errorf("% x: got %v, want invalid-utf8 at %d", in, err, want)
					}
				}
			}
		}
	}
}

// The bulk reads of packed runs read what element reads do, and a non-canonical NaN
// stops them at its element.
func TestBulkReadsAgreeWithElementReads(t *testing.T) {
	var run []byte
	for i := range 5 {
		run = binary.BigEndian.AppendUint64(run, math.Float64bits(float64(i)-1.5))
	}
	r := readerOver(run)
	if got := ReadFixed64s(r, []uint64(nil)); len(got) != 5 || got[4] != math.Float64bits(2.5) || !r.AtEnd() {
		t.Errorf("ReadFixed64s: %v", got)
	}
	r = readerOver(run)
	got, err := ReadFloat64s(r, make([]float64, 0, 5))
	if err != nil || len(got) != 5 || got[0] != -1.5 || got[4] != 2.5 || !r.AtEnd() {
		t.Errorf("ReadFloat64s: %v %v", got, err)
	}
	r = readerOver(run[:20])
	if got := ReadFixed32s(r, []int32(nil)); len(got) != 5 || uint32(got[0]) != binary.BigEndian.Uint32(run) || !r.AtEnd() {
		t.Errorf("ReadFixed32s: %v", got)
	}
	binary.BigEndian.PutUint64(run[24:], NaN64Bits|1)
	r = readerOver(run)
	got, err = ReadFloat64s(r, nil)
	if code, at := codeAt(t, err); code != "non-canonical-nan" || at != 24 || len(got) != 3 {
		t.Errorf("ReadFloat64s over a bad NaN: %v %v", got, err)
	}
	var run32 []byte
	for _, f := range []uint32{math.Float32bits(1), NaN32Bits, NaN32Bits | 2} {
		run32 = binary.BigEndian.AppendUint32(run32, f)
	}
	r = readerOver(run32)
	got32, err := ReadFloat32s(r, nil)
	if code, at := codeAt(t, err); code != "non-canonical-nan" || at != 8 || len(got32) != 2 {
		t.Errorf("ReadFloat32s over a bad NaN: %v %v", got32, err)
	}
}
