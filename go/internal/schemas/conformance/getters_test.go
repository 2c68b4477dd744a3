package conformance

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
)

// same says whether a getter's result b is the field's value a: floats by their bits
// (a NaN is itself), slices and maps the very same ones, the rest by DeepEqual.
func same(a, b reflect.Value) bool {
	if !a.IsValid() {
		return true // a default this test does not know
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Slice, reflect.Map:
		return a.Pointer() == b.Pointer() && a.Len() == b.Len()
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// unset is what field f's getter returns when the field is unset: a closed enum's
// first value for an enum of explicit presence, the type's zero otherwise (the
// conformance schemas declare one proto2 default, Required.b's 7), or an invalid value
// for a field of the well-known types (descriptor.proto declares defaults of its own;
// go/internal/defaults checks each kind of default).
func unset(d *bijoubuf.MessageDesc, f *bijoubuf.FieldDesc, ty reflect.Type) reflect.Value {
	z := reflect.Zero(ty)
	switch {
	case strings.HasPrefix(d.FullName, "google.protobuf.") && f.Explicit && !f.Repeated && !f.Map:
		return reflect.Value{}
	case f.Repeated || f.Map:
		return z
	case d.FullName == "conformance.Required" && f.Name == "b":
		return reflect.ValueOf(uint32(7))
	case f.Kind == bijoubuf.KindEnum && f.Explicit && len(f.Enum.Values) > 0:
		v := reflect.New(ty).Elem()
		v.SetInt(int64(f.Enum.Values[0].Number))
		return v
	}
	return z
}

// TestGettersOfEveryType: every field of every registered message type has a getter,
// Get plus its Go name (a oneof's interface too), which on arbitrary values returns
// what the field holds, the unset value (above) for an unset field of explicit
// presence or a oneof member not held, and on a nil message the unset value of every
// field, without panicking.
func TestGettersOfEveryType(t *testing.T) {
	getter := func(m reflect.Value, name string) reflect.Value {
		t.Helper()
		g := m.MethodByName("Get" + name)
		if !g.IsValid() {
			t.Fatalf("%s has no Get%s", m.Type(), name)
		}
		return g.Call(nil)[0]
	}
	checked := 0
	eachArbitrary(t, func(d *bijoubuf.MessageDesc, seed uint64, msg bijoubuf.Message, _ []byte) {
		m := reflect.ValueOf(msg)
		s := m.Elem()
		null := reflect.Zero(m.Type())
		for i := range d.Fields {
			f := &d.Fields[i]
			var want reflect.Value
			if f.Oneof != "" {
				iface := s.FieldByName(f.OneofGoName)
				if got := getter(m, f.OneofGoName); !same(iface, got) {
					t.Errorf("%s.Get%s() is not the oneof", d.FullName, f.OneofGoName)
				}
				got := getter(m, f.GoName)
				want = unset(d, f, got.Type())
				wrapper := reflect.TypeOf(f.NewOneofWrapper())
				if !iface.IsNil() && iface.Elem().Type() == wrapper && !iface.Elem().IsNil() {
					want = iface.Elem().Elem().FieldByName(f.GoName)
				}
				if !same(want, got) {
					t.Errorf("%s seed %d: Get%s() = %v, want %v", d.FullName, seed, f.GoName, got, want)
				}
				if null := getter(null, f.GoName); !same(unset(d, f, got.Type()), null) {
					t.Errorf("%s: nil Get%s() = %v", d.FullName, f.GoName, null)
				}
				checked++
				continue
			}
			v := s.FieldByName(f.GoName)
			got := getter(m, f.GoName)
			want = v
			held := f.Explicit && !f.Repeated && !f.Map && f.Kind != bijoubuf.KindMessage
			if held && v.IsNil() {
				want = unset(d, f, got.Type())
			} else if held && v.Kind() == reflect.Pointer {
				want = v.Elem()
			}
			if !same(want, got) {
				t.Errorf("%s seed %d: Get%s() = %v, want %v", d.FullName, seed, f.GoName, got, want)
			}
			if null := getter(null, f.GoName); !same(unset(d, f, got.Type()), null) {
				t.Errorf("%s: nil Get%s() = %v", d.FullName, f.GoName, null)
			}
			checked++
		}
	})
	if checked < 1000 {
		t.Fatalf("only %d getters checked", checked)
	}
}
