package testee

import (
	"math"
	"reflect"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
)

// rng is splitmix64: small, seedable, the same sequence on every platform.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func (r *rng) n(k int) int       { return int(r.next() % uint64(k)) }
func (r *rng) chance(k int) bool { return r.n(k) == 0 }

// edges are the bijou64 tier edges (SPEC §2.3) and their neighbours: where a varint's
// length changes.
var edges = func() []uint64 {
	out := []uint64{0, 1, 2, math.MaxUint64, math.MaxUint64 - 1}
	for _, e := range []uint{7, 14, 21, 28, 35, 42, 49, 56, 63} {
		b := uint64(1) << e
		out = append(out, b-1, b, b+1)
	}
	// bijou64's offset tiers: 128, 16512, 2113664, … (each tier starts where the last
	// one's values end).
	var base uint64
	for i := 0; i < 9; i++ {
		base += uint64(1) << (7 * uint(i))
		out = append(out, base-1, base, base+1)
	}
	return out
}()

func (r *rng) bits() uint64 {
	if r.chance(2) {
		return edges[r.n(len(edges))]
	}
	return r.next() >> uint(r.n(64))
}

var strs = []string{"", "a", "é", "😀", "\x00", "Ａ", "\u007f", "k", "zz", "\u2028", "\uffff"}

func (r *rng) str() string {
	s := ""
	for i := r.n(4); i > 0; i-- {
		s += strs[r.n(len(strs))]
	}
	return s
}

// Arbitrary is a value of the message type desc built from seed, biased towards the tier
// edges, ±0.0, NaN, infinities and multi-byte strings; the cross-language property
// tests ask for its encoding.
func Arbitrary(desc *bijoubuf.MessageDesc, seed uint64) bijoubuf.Message {
	r := &rng{s: seed}
	return r.message(desc, 1)
}

const arbitraryDepth = 4

func (r *rng) message(desc *bijoubuf.MessageDesc, depth int) bijoubuf.Message {
	m := desc.New()
	sv := reflect.ValueOf(m).Elem()
	oneofs := map[string]bool{}
	for i := range desc.Fields {
		f := &desc.Fields[i]
		if f.Oneof != "" {
			// At most one member of a oneof: the first one picked.
			if oneofs[f.Oneof] || !r.chance(3) {
				continue
			}
			oneofs[f.Oneof] = true
		} else if !f.Required && r.chance(3) {
			continue
		}
		t := fieldTypeOf(sv, f)
		var v reflect.Value
		switch {
		case f.Map:
			v = reflect.MakeMap(t)
			for k := r.n(4); k > 0; k-- {
				key := r.element(f.MapKey, t.Key(), depth)
				if !key.IsValid() {
					continue
				}
				val := r.element(f.MapValue, t.Elem(), depth)
				if !val.IsValid() {
					continue
				}
				v.SetMapIndex(key, val)
			}
		case f.Repeated:
			v = reflect.MakeSlice(t, 0, 3)
			for k := r.n(4); k > 0; k-- {
				if e := r.element(f, t.Elem(), depth); e.IsValid() {
					v = reflect.Append(v, e)
				}
			}
		default:
			v = r.element(f, t, depth)
		}
		if !v.IsValid() {
			continue
		}
		setFieldOf(sv, f, v)
	}
	return m
}

// element is one value of field f's element type as Go type t (the value of a pointer
// field's element), or an invalid Value for a message past the depth this builds to.
func (r *rng) element(f *bijoubuf.FieldDesc, t reflect.Type, depth int) reflect.Value {
	if f.Kind == bijoubuf.KindMessage {
		if depth >= arbitraryDepth && !f.Required {
			return reflect.Value{}
		}
		return reflect.ValueOf(r.message(f.Message(), depth+1))
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	v := reflect.New(t).Elem()
	switch f.Kind {
	case bijoubuf.KindBool:
		v.SetBool(r.chance(2))
	case bijoubuf.KindInt32, bijoubuf.KindSint32, bijoubuf.KindSfixed32:
		v.SetInt(int64(int32(r.bits())))
	case bijoubuf.KindInt64, bijoubuf.KindSint64, bijoubuf.KindSfixed64:
		v.SetInt(int64(r.bits()))
	case bijoubuf.KindUint32, bijoubuf.KindFixed32:
		v.SetUint(uint64(uint32(r.bits())))
	case bijoubuf.KindUint64, bijoubuf.KindFixed64:
		v.SetUint(r.bits())
	case bijoubuf.KindFloat, bijoubuf.KindDouble:
		specials := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1.5, -2, math.MaxFloat32, math.SmallestNonzeroFloat32}
		if r.chance(2) {
			v.SetFloat(specials[r.n(len(specials))])
		} else if f.Kind == bijoubuf.KindFloat {
			v.SetFloat(float64(math.Float32frombits(uint32(r.next()))))
		} else {
			v.SetFloat(math.Float64frombits(r.next()))
		}
	case bijoubuf.KindString:
		v.SetString(r.str())
	case bijoubuf.KindBytes:
		b := make([]byte, r.n(6))
		for i := range b {
			b[i] = byte(r.next())
		}
		v.SetBytes(b)
	case bijoubuf.KindEnum:
		if len(f.Enum.Values) > 0 && !r.chance(4) {
			v.SetInt(int64(f.Enum.Values[r.n(len(f.Enum.Values))].Number))
		} else {
			v.SetInt(int64(int32(r.bits())))
		}
	}
	return v
}

// fieldTypeOf is the Go type holding field f of sv (the oneof wrapper's field for a
// member of a oneof).
func fieldTypeOf(sv reflect.Value, f *bijoubuf.FieldDesc) reflect.Type {
	if f.Oneof != "" {
		sf, _ := reflect.TypeOf(f.NewOneofWrapper()).Elem().FieldByName(f.GoName)
		return sf.Type
	}
	return sv.FieldByName(f.GoName).Type()
}

func setFieldOf(sv reflect.Value, f *bijoubuf.FieldDesc, v reflect.Value) {
	put := func(dst reflect.Value) {
		if dst.Kind() == reflect.Pointer && v.Type() == dst.Type().Elem() {
			p := reflect.New(v.Type())
			p.Elem().Set(v)
			dst.Set(p)
			return
		}
		dst.Set(v)
	}
	if f.Oneof != "" {
		w := reflect.ValueOf(f.NewOneofWrapper())
		put(w.Elem().FieldByName(f.GoName))
		sv.FieldByName(f.OneofGoName).Set(w)
		return
	}
	put(sv.FieldByName(f.GoName))
}
