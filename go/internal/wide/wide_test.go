package wide_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
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
// accepted and the number of unknown records it kept, or its refusal. It also says
// whether the decode accepted in, and whether an accepted value re-encodes to in (a
// canonical decoder's every accepted input does, unknown records kept included).
func verdict(m bijoubuf.Message, in []byte, opts bijoubuf.DecodeOptions) (s string, accepted, same bool) {
	kept, err := m.BijoubufUnmarshal(bytes.Clone(in), opts)
	if err != nil {
		d, ok := bijoubuf.AsDecodeError(err)
		if !ok {
			return "not a DecodeError: " + err.Error(), false, false
		}
		return fmt.Sprintf("refused: %v at %d in %s", d.Code(), d.Offset(), d.Path()), false, false
	}
	out, err := m.MarshalOptions(bijoubuf.EncodeOptions{})
	return fmt.Sprintf("accepted, %d unknown kept: % X (%v)", kept, out, err), true, err == nil && bytes.Equal(out, in)
}

// compare decodes in as Wide both ways (in parts and as one function) under every
// option and fails t where they differ; it says whether the strict decode accepted in.
func compare(t *testing.T, in []byte) bool {
	t.Helper()
	return compareShapes(t, in, "in parts", func() bijoubuf.Message { return new(parts.Wide) },
		"whole", func() bijoubuf.Message { return new(whole.Wide) })
}

// compareShapes decodes in as a message of two packages' shapes (named a and b) under
// every option and fails t where they differ; it says whether the strict decode
// accepted in.
func compareShapes(t *testing.T, in []byte, a string, newA func() bijoubuf.Message, b string, newB func() bijoubuf.Message) bool {
	t.Helper()
	accepted := false
	for i, opts := range options {
		x, ok, same := verdict(newA(), in, opts)
		y, _, _ := verdict(newB(), in, opts)
		if x != y {
			t.Fatalf("options %d, input % X:\n%s: %s\n%s: %s", i, in, a, x, b, y)
		}
		// Compared with the input too, not only between the shapes: a fault of the
		// runtime both shapes call (an unknown record dropped while a nested message is
		// read) makes them agree.
		if ok && !same {
			t.Fatalf("options %d, input % X: both shapes accept it and re-encode it otherwise: %s", i, in, x)
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
		// compare also checks each accepted decode's re-encoding against in: the records
		// kept (an enclosing message's wait in the reader while a nested one is read:
		// field 10 before f20, 40 to 44 before f60) come back in place.
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

// compareTable is compareShapes for Table, whose scalar fields are read through its
// field table in package parts and by the cases of its switch in package whole.
func compareTable(t *testing.T, in []byte) bool {
	t.Helper()
	return compareShapes(t, in, "through the table", func() bijoubuf.Message { return new(parts.Table) },
		"by the cases", func() bijoubuf.Message { return new(whole.Table) })
}

// Random values of TableNext (Table with its reserved numbers, which are unknown to
// Table, set in about half of them) and mutations of their encodings: the same value,
// bytes, refusal, offset and path through the table as through the cases.
func TestTableReadsWhatTheCasesRead(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	refusals := map[string]int{}
	accepted, unknown := 0, 0
	for range 400 {
		v := new(whole.TableNext)
		fill(r, reflect.ValueOf(v).Elem(), 2)
		if r.IntN(2) == 0 {
			v.X1, v.X9, v.X30, v.X31, v.X47 = 0, "", 0, 0, 0
		}
		in, err := v.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		known := v.X1 == 0 && v.X9 == "" && v.X30 == 0 && v.X31 == 0 && v.X47 == 0
		if got := compareTable(t, in); got != known {
			t.Fatalf("% X: accepted %v, holding only Table's fields %v", in, got, known)
		}
		if n, err := new(parts.Table).BijoubufUnmarshal(in, options[1]); err == nil && n > 0 {
			unknown++
		}
		for range 20 {
			bad := mutate(r, in)
			if compareTable(t, bad) {
				accepted++
				continue
			}
			_, err := new(whole.Table).BijoubufUnmarshal(bad, bijoubuf.DecodeOptions{})
			d, _ := bijoubuf.AsDecodeError(err)
			refusals[fmt.Sprint(d.Code())]++
		}
	}
	// The comparison saw unknown records kept among the table's fields, mutations
	// accepted and refused, and refusals of many kinds (wire types, defaults, ranges,
	// NaNs, bools among them).
	if unknown < 100 || accepted < 100 || len(refusals) < 8 {
		t.Fatalf("too narrow: %d inputs with unknown records kept, %d mutations accepted, refusals %v", unknown, accepted, refusals)
	}
	t.Logf("%d mutations accepted; refusals %v", accepted, refusals)
}

// Every kind of the table, each field of it set alone to a value of several bytes (or
// true), then each refused alone for its default value, or, of explicit presence, read
// present with its zero value: the value, or the refusal's code, offset and path, the
// same both ways.
func TestTableFieldsOneByOne(t *testing.T) {
	ty := reflect.TypeFor[whole.Table]()
	set, explicits := 0, 0
	for i := range ty.NumField() {
		f := ty.Field(i)
		if !f.IsExported() || !strings.HasPrefix(f.Name, "T") {
			continue
		}
		v := new(whole.Table)
		x := reflect.ValueOf(v).Elem().Field(i)
		explicit := x.Kind() == reflect.Pointer
		if explicit {
			x.Set(reflect.New(x.Type().Elem()))
			x = x.Elem()
		}
		switch x.Kind() {
		case reflect.Bool:
			x.SetBool(true)
		case reflect.Int32, reflect.Int64:
			x.SetInt(-100000)
		case reflect.Uint32, reflect.Uint64:
			x.SetUint(100000)
		case reflect.Float32, reflect.Float64:
			x.SetFloat(math.Copysign(0, -1))
		default:
			t.Fatalf("%s: %v", f.Name, x.Kind())
		}
		in, err := v.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !compareTable(t, in) {
			t.Fatalf("%s: % X refused", f.Name, in)
		}
		back := new(parts.Table)
		if err := back.Unmarshal(in); err != nil {
			t.Fatal(err)
		}
		got := reflect.ValueOf(back).Elem().FieldByName(f.Name)
		if explicit {
			got = got.Elem()
		}
		if !reflect.DeepEqual(got.Interface(), x.Interface()) {
			t.Fatalf("%s: read %v, written %v", f.Name, got, x)
		}
		// The same record with its value's bytes zeroed: the default value, present,
		// which a field of implicit presence refuses (and both ways make the same of).
		zero := bytes.Clone(in)
		for j := 1; j < len(zero); j++ {
			zero[j] = 0
		}
		if compareTable(t, zero) && !explicit {
			t.Fatalf("%s: % X accepted", f.Name, zero)
		}
		// A field of explicit presence holding its zero value is present.
		if explicit {
			x.SetZero()
			in, err := v.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !compareTable(t, in) {
				t.Fatalf("%s: % X, zero and present, refused", f.Name, in)
			}
			back := new(parts.Table)
			if err := back.Unmarshal(in); err != nil {
				t.Fatal(err)
			}
			if p := reflect.ValueOf(back).Elem().FieldByName(f.Name); p.IsNil() || !p.Elem().IsZero() {
				t.Fatalf("%s: read %v from % X", f.Name, p, in)
			}
			explicits++
		}
		set++
	}
	if set < 40 || explicits < 10 {
		t.Fatalf("only %d table fields, %d of explicit presence", set, explicits)
	}
}

// BenchmarkTableDecode decodes the same encodings of random Table values (about two of
// every three fields set, a third of the table's fields of explicit presence) through
// the field table (parts) and by the switch's cases (whole).
func BenchmarkTableDecode(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	var ins [][]byte
	for range 16 {
		v := new(whole.Table)
		fill(r, reflect.ValueOf(v).Elem(), 1)
		in, err := v.Marshal()
		if err != nil {
			b.Fatal(err)
		}
		ins = append(ins, in)
	}
	for _, c := range []struct {
		name string
		new  func() bijoubuf.Message
	}{{"table", func() bijoubuf.Message { return new(parts.Table) }}, {"cases", func() bijoubuf.Message { return new(whole.Table) }}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if err := c.new().Unmarshal(ins[i%len(ins)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
