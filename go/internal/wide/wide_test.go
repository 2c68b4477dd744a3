package wide_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	"github.com/bijoubuf/bijoubuf/go/internal/wide/parts"
	"github.com/bijoubuf/bijoubuf/go/internal/wide/whole"
)

// Wide's decoder and encode passes are generated in parts (package parts) and as one
// function each (package whole) from the same schema. The two must make the same of
// every input: the same value, re-encoded to the same bytes, or the same refusal (code,
// offset, path), strict and preserving; and the same of every value they encode.

var options = []bijoubuf.DecodeOptions{{}, bijoubuf.DecodeOptions{}.Preserving(true)}

// verdict is what a decode of in into m makes of it: the re-encoding of the value it
// accepted and the number of unknown records it kept, or its refusal.
func verdict(m bijoubuf.Message, in []byte, opts bijoubuf.DecodeOptions) (string, bool) {
	kept, err := m.BijoubufUnmarshal(bytes.Clone(in), opts)
	if err != nil {
		d, ok := bijoubuf.AsDecodeError(err)
		if !ok {
			return "not a DecodeError: " + err.Error(), false
		}
		return fmt.Sprintf("refused: %v at %d in %s", d.Code(), d.Offset(), d.Path()), false
	}
	out, err := m.MarshalOptions(bijoubuf.EncodeOptions{})
	return fmt.Sprintf("accepted, %d unknown kept: % X (%v)", kept, out, err), true
}

// compare decodes in both ways under every option and fails t where they differ; it
// says whether the strict decode accepted in.
func compare(t *testing.T, in []byte) bool {
	t.Helper()
	accepted := false
	for i, opts := range options {
		p, ok := verdict(new(parts.Wide), in, opts)
		w, _ := verdict(new(whole.Wide), in, opts)
		if p != w {
			t.Fatalf("options %d, input % X:\nin parts: %s\nwhole:    %s", i, in, p, w)
		}
		if i == 0 {
			accepted = ok
		}
	}
	return accepted
}

// fill sets about two of every three of v's settable fields to random values, and
// messages to depth levels.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() && r.IntN(3) != 0 {
				fill(r, f, depth)
			}
		}
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int32, reflect.Int64:
		// Small, negative, and up to the type's width: one-byte and longer values.
		v.SetInt(int64(r.Uint64()>>r.IntN(64)) * int64(1-2*r.IntN(2)))
		if v.Kind() == reflect.Int32 {
			v.SetInt(int64(int32(v.Int())))
		}
	case reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64() >> r.IntN(64))
		if v.Kind() == reflect.Uint32 {
			v.SetUint(uint64(uint32(v.Uint())))
		}
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{r.NormFloat64(), 0.5, math.Inf(-1)}[r.IntN(3)])
	case reflect.String:
		v.SetString([]string{"a", "word", "ünïcode", "a longer string of text"}[r.IntN(4)])
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte{1, 2, 3, 0xff}[:1+r.IntN(4)])
			return
		}
		n := 1 + r.IntN(3)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(r, s.Index(i), depth)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 1 + r.IntN(3) {
			k := reflect.New(v.Type().Key()).Elem()
			e := reflect.New(v.Type().Elem()).Elem()
			fill(r, k, depth)
			fill(r, e, depth)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		if depth > 0 {
			p := reflect.New(v.Type().Elem())
			fill(r, p.Elem(), depth-1)
			v.Set(p)
		}
	}
}

// randomWide is a random value of Wide: about two thirds of its fields set, its oneof
// one of its three members or none.
func randomWide(r *rand.Rand) *whole.Wide {
	m := new(whole.Wide)
	fill(r, reflect.ValueOf(m).Elem(), 2)
	switch r.IntN(4) {
	case 0:
		m.Pick = &whole.Wide_PickA{PickA: 1 + r.Int32N(1000)}
	case 1:
		m.Pick = &whole.Wide_PickB{PickB: "b"}
	case 2:
		m.Pick = &whole.Wide_PickC{PickC: &whole.Sub{A: 3}}
	default:
		m.Pick = nil
	}
	return m
}

// mutate is in with one random change: a byte changed, inserted or removed, or the
// input cut short.
func mutate(r *rand.Rand, in []byte) []byte {
	out := bytes.Clone(in)
	if len(out) == 0 {
		return []byte{byte(r.IntN(256))}
	}
	i := r.IntN(len(out))
	switch r.IntN(4) {
	case 0:
		out[i] = byte(r.IntN(256))
	case 1:
		out[i] ^= 1 << r.IntN(8)
	case 2:
		out = append(out[:i], append([]byte{byte(r.IntN(256))}, out[i:]...)...)
	default:
		out = out[:i]
	}
	return out
}

func TestPartsReadWhatOneFunctionReads(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	refusals := map[string]int{}
	accepted, lastPart := 0, 0
	for range 400 {
		v := randomWide(r)
		in, err := v.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !compare(t, in) {
			t.Fatalf("% X, a value's encoding, refused", in)
		}
		if v.F1000 != 0 || v.F100000 != "" {
			lastPart++
		}
		for range 20 {
			bad := mutate(r, in)
			if compare(t, bad) {
				accepted++
				continue
			}
			_, err := new(whole.Wide).BijoubufUnmarshal(bad, bijoubuf.DecodeOptions{})
			d, _ := bijoubuf.AsDecodeError(err)
			refusals[fmt.Sprint(d.Code())]++
		}
	}
	// The comparison saw inputs that reach the last part, mutations both accepted and
	// refused, and refusals of many kinds.
	if lastPart < 100 || accepted < 100 || len(refusals) < 8 {
		t.Fatalf("too narrow: %d values reaching the last part, %d mutations accepted, refusals %v", lastPart, accepted, refusals)
	}
	t.Logf("%d mutations accepted; refusals %v", accepted, refusals)
}

// A preserving decode of WideNext's encodings as Wide keeps the records of the numbers
// Wide does not know, in every part's range and past the last, and the encode writes
// each back in its place.
func TestPartsKeepUnknownRecordsInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	kept := 0
	for range 300 {
		v := new(whole.WideNext)
		fill(r, reflect.ValueOf(v).Elem(), 2)
		// At most one of Wide's oneof members.
		switch r.IntN(4) {
		case 0:
			v.PickB, v.PickC = "", nil
		case 1:
			v.PickA, v.PickC = 0, nil
		case 2:
			v.PickA, v.PickB = 0, ""
		default:
			v.PickA, v.PickB, v.PickC = 0, "", nil
		}
		in, err := v.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		compare(t, in)
		if n, err := new(parts.Wide).BijoubufUnmarshal(in, options[1]); err == nil && n >= 3 {
			kept++
		}
	}
	if kept < 100 {
		t.Fatalf("only %d inputs accepted with three unknown records or more", kept)
	}
}

// Wide's encode passes are in parts too: a value holding a string that is not UTF-8 is
// refused by both shapes alike, whichever field holds it.
func TestPartsRefuseWhatOneFunctionRefuses(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var names []string
	ty := reflect.TypeFor[whole.Wide]()
	for i := range ty.NumField() {
		if f := ty.Field(i); f.Type.Kind() == reflect.String {
			names = append(names, f.Name)
		}
	}
	if len(names) < 10 {
		t.Fatalf("only %d string fields: %v", len(names), names)
	}
	for _, name := range names {
		for range 20 {
			w := randomWide(r)
			in, err := w.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			p := new(parts.Wide)
			if err := p.Unmarshal(in); err != nil {
				t.Fatal(err)
			}
			reflect.ValueOf(w).Elem().FieldByName(name).SetString("\xff")
			reflect.ValueOf(p).Elem().FieldByName(name).SetString("\xff")
			_, we := w.Marshal()
			_, pe := p.Marshal()
			if we == nil || pe == nil || we.Error() != pe.Error() {
				t.Fatalf("%s not UTF-8: whole %v, in parts %v", name, we, pe)
			}
		}
	}
}

// FuzzPartsReadWhatOneFunctionReads is the same comparison on any input.
func FuzzPartsReadWhatOneFunctionReads(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 8 {
		in, err := randomWide(r).Marshal()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in []byte) { compare(t, in) })
}
