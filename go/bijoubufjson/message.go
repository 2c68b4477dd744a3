package bijoubufjson

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
)

// Error says why a JSON document does not map to a message, or why a message has no
// proto3 JSON form: the JSON path of the offending value (`$.lines[3].sku`, empty for a
// syntax error) and what is wrong there.
type Error struct {
	Path    string
	Message string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}

func errAt(at *At, msg string) error { return &Error{Path: at.Path(), Message: msg} }

// Options are the JSON mapping's depth limit: how deep messages may nest (the top level
// is depth 1), counting the messages inside Any payloads, as the binary decoder counts
// nested bytes. The zero value is the default, 100; the limit is clamped as SPEC §9.3
// says (below 1 is 1, above 500 is 500).
type Options struct {
	MaxDepth int
}

func (o Options) top() depth {
	d := o.MaxDepth
	switch {
	case d == 0:
		d = bijoubuf.DefaultMaxDepth
	case d < 0:
		d = 1
	case d > bijoubuf.MaxDepthLimit:
		d = bijoubuf.MaxDepthLimit
	}
	return depth{at: 1, max: d}
}

// depth is the nesting depth of a message being read or written, and the limit.
type depth struct{ at, max int }

func (d depth) next() depth { return depth{at: d.at + 1, max: d.max} }

// left is the number of levels below this one.
func (d depth) left() int {
	if d.max > d.at {
		return d.max - d.at
	}
	return 0
}

func (d depth) check(at *At) error {
	if d.at > d.max {
		return d.tooDeep(at)
	}
	return nil
}

func (d depth) tooDeep(at *At) error {
	return errAt(at, "messages nest deeper than "+strconv.Itoa(d.max)+" (counting those inside Any payloads)")
}

// Unmarshal reads proto3 JSON text into m (replacing its value) with the default depth
// limit.
func Unmarshal(text string, m bijoubuf.Message) error {
	return UnmarshalOptions(text, m, Options{})
}

// UnmarshalOptions reads proto3 JSON text into m under opts's depth limit. The JSON's
// arrays and objects may nest at most twice that deep (a message costs at most two: a
// repeated or map field's container and its own object); deeper text is refused before
// anything is built.
func UnmarshalOptions(text string, m bijoubuf.Message, opts Options) error {
	d := opts.top()
	j, err := Parse(text, 2*d.max)
	if err != nil {
		return &Error{Message: err.Error()}
	}
	// A root of the reader's own: its places (At.keyIn) are written as it reads.
	got, err := readMessage(m.BijoubufDesc(), &j, new(At), d)
	if err != nil {
		return err
	}
	reflect.ValueOf(m).Elem().Set(reflect.ValueOf(got).Elem())
	return nil
}

// readMessage is a JSON value as a new message of type desc at depth d.
func readMessage(desc *bijoubuf.MessageDesc, j *Value, at *At, d depth) (bijoubuf.Message, error) {
	if err := d.check(at); err != nil {
		return nil, err
	}
	m := desc.New()
	if err := readMessageInto(desc, reflect.ValueOf(m).Elem(), j, at, d); err != nil {
		return nil, err
	}
	return m, nil
}

// readMessageInto sets the fields of sv, an empty desc message at depth d (already
// checked against the limit), from a JSON value.
func readMessageInto(desc *bijoubuf.MessageDesc, sv reflect.Value, j *Value, at *At, d depth) error {
	if done, err := readSpecial(desc, sv, j, at, d); done || err != nil {
		return err
	}
	if j.Kind != Object {
		return errAt(at, "expected an object for "+desc.FullName+", found "+j.Kind.What())
	}
	return readFields(desc, sv, j.Members, at, d)
}

// fieldByJSONName is the field whose JSON name is key, or else whose .proto name is.
func fieldByJSONName(desc *bijoubuf.MessageDesc, key string) *bijoubuf.FieldDesc {
	for i := range desc.Fields {
		if desc.Fields[i].JSONName == key {
			return &desc.Fields[i]
		}
	}
	for i := range desc.Fields {
		if desc.Fields[i].Name == key {
			return &desc.Fields[i]
		}
	}
	return nil
}

// readFields sets the fields of sv (a desc message at depth d) from an object's members.
func readFields(desc *bijoubuf.MessageDesc, sv reflect.Value, members []Member, at *At, d depth) error {
	type seenField struct {
		number uint32
		key    string
	}
	var seen []seenField
	var oneofs [][2]string
	for i := range members {
		key, v := members[i].Key, &members[i].Value
		here := at.keyIn(key)
		f := fieldByJSONName(desc, key)
		if f == nil {
			return errAt(here, desc.FullName+" has no field named "+quote(key))
		}
		for _, s := range seen {
			if s.number == f.Number {
				return errAt(here, "field "+f.Name+" is also given as "+quote(s.key))
			}
		}
		seen = append(seen, seenField{f.Number, key})
		// null means absent, except where it is the value (google.protobuf.Value).
		if v.Kind == Null && !nullIsValue(f) {
			continue
		}
		if f.Oneof != "" {
			for _, o := range oneofs {
				if o[0] == f.Oneof {
					return errAt(here, "oneof "+f.Oneof+" already has a member set ("+quote(o[1])+")")
				}
			}
			oneofs = append(oneofs, [2]string{f.Oneof, key})
		}
		// The value is read into its place: the struct field, or the oneof wrapper's
		// field (the wrapper is stored once its value is read).
		var dst, wrapper reflect.Value
		if f.Oneof != "" {
			wrapper = reflect.ValueOf(f.NewOneofWrapper())
			dst = wrapper.Elem().FieldByName(f.GoName)
		} else {
			dst = sv.FieldByName(f.GoName)
		}
		var err error
		switch {
		case f.Map:
			var val reflect.Value
			if val, err = readMap(f, dst.Type(), v, here, d); err == nil {
				dst.Set(val)
			}
		case f.Repeated:
			err = readRepeatedInto(f, dst, v, here, d)
		default:
			err = readElementInto(f, dst, v, here, d)
		}
		if err != nil {
			return err
		}
		if wrapper.IsValid() {
			sv.FieldByName(f.OneofGoName).Set(wrapper)
		}
	}
	return nil
}

func nullIsValue(f *bijoubuf.FieldDesc) bool {
	if f.Map {
		f = f.MapValue
	}
	switch f.Kind {
	case bijoubuf.KindMessage:
		return f.Message().FullName == "google.protobuf.Value"
	case bijoubuf.KindEnum:
		return f.Enum.FullName == "google.protobuf.NullValue"
	}
	return false
}

// fieldType is the Go type that holds field f of the message sv: the struct field's
// type, or the oneof wrapper's.
func fieldType(sv reflect.Value, f *bijoubuf.FieldDesc) reflect.Type {
	if f.Oneof != "" {
		w := reflect.TypeOf(f.NewOneofWrapper()).Elem()
		sf, _ := w.FieldByName(f.GoName)
		return sf.Type
	}
	return sv.FieldByName(f.GoName).Type()
}

// setField stores val (of fieldType, or its element type where the field is a pointer to
// a scalar) in field f of sv.
func setField(sv reflect.Value, f *bijoubuf.FieldDesc, val reflect.Value) {
	if f.Oneof != "" {
		w := reflect.ValueOf(f.NewOneofWrapper())
		assign(w.Elem().FieldByName(f.GoName), val)
		sv.FieldByName(f.OneofGoName).Set(w)
		return
	}
	assign(sv.FieldByName(f.GoName), val)
}

func assign(dst, val reflect.Value) {
	if dst.Kind() == reflect.Pointer && val.Type() == dst.Type().Elem() {
		p := reflect.New(val.Type())
		p.Elem().Set(val)
		dst.Set(p)
		return
	}
	dst.Set(val)
}

// getField is field f of sv and whether it is present: the value itself (a pointer to a
// scalar is followed), the *M of a message, the slice or map of a repeated field or map.
func getField(sv reflect.Value, f *bijoubuf.FieldDesc) (reflect.Value, bool) {
	var v reflect.Value
	if f.Oneof != "" {
		iv := sv.FieldByName(f.OneofGoName)
		if iv.IsNil() || iv.Elem().Type() != reflect.TypeOf(f.NewOneofWrapper()) {
			return reflect.Value{}, false
		}
		v = iv.Elem().Elem().FieldByName(f.GoName)
		if v.Kind() == reflect.Pointer && f.Kind != bijoubuf.KindMessage {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return reflect.Value{}, false
		}
		return v, true
	}
	v = sv.FieldByName(f.GoName)
	switch {
	case f.Map || f.Repeated:
		return v, v.Len() > 0
	case v.Kind() == reflect.Pointer:
		if v.IsNil() {
			return reflect.Value{}, false
		}
		if f.Kind == bijoubuf.KindMessage {
			return v, true
		}
		return v.Elem(), true
	case f.Kind == bijoubuf.KindBytes && f.Explicit:
		return v, !v.IsNil()
	case f.Explicit:
		return v, true
	}
	return v, !isDefault(v)
}

// isDefault says whether an implicit-presence scalar holds its default (a float's
// default is +0.0 only: -0.0 and NaN are values).
func isDefault(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int32, reflect.Int64, reflect.Int:
		return v.Int() == 0
	case reflect.Uint32, reflect.Uint64, reflect.Uint:
		return v.Uint() == 0
	case reflect.Float32:
		return math.Float32bits(float32(v.Float())) == 0
	case reflect.Float64:
		return math.Float64bits(v.Float()) == 0
	case reflect.String, reflect.Slice, reflect.Map:
		return v.Len() == 0
	}
	return v.IsZero()
}

// readRepeatedInto sets dst, a repeated field's slice, from a JSON array. The elements
// of a repeated message field lie together, in one array of structs the slice points
// into (so that a walk over the field, as the encoder's, reads memory in order), when
// every element is an object of a type with no special JSON form, and the depth limit
// leaves room for them; otherwise each element is its own message, and the first bad one
// is reported.
func readRepeatedInto(f *bijoubuf.FieldDesc, dst reflect.Value, v *Value, here *At, d depth) error {
	if v.Kind != Array {
		return errAt(here, "expected an array, found "+v.Kind.What())
	}
	t := dst.Type()
	n := len(v.Items)
	out := reflect.MakeSlice(t, n, n)
	if f.Kind == bijoubuf.KindMessage && n > 0 && slabbable(f.Message(), t.Elem(), v.Items, d.next()) {
		desc, nd := f.Message(), d.next()
		slab := reflect.MakeSlice(reflect.SliceOf(t.Elem().Elem()), n, n)
		for i := range v.Items {
			p := here.indexIn(i)
			e := slab.Index(i)
			if err := readFields(desc, e, v.Items[i].Members, p, nd); err != nil {
				return err
			}
			out.Index(i).Set(e.Addr())
		}
		dst.Set(out)
		return nil
	}
	for i := range v.Items {
		p := here.indexIn(i)
		if err := readElementInto(f, out.Index(i), &v.Items[i], p, d); err != nil {
			return err
		}
	}
	dst.Set(out)
	return nil
}

// slabbable says whether the elements of a repeated desc field (Go element type et) may
// be read into one array of structs: each is an object of an ordinary message (one with
// no special JSON form), within the depth limit at d, so that none can be refused before
// its fields are read and the array is no larger than the text paid for.
func slabbable(desc *bijoubuf.MessageDesc, et reflect.Type, items []Value, d depth) bool {
	if et.Kind() != reflect.Pointer || et.Elem().Kind() != reflect.Struct || d.at > d.max ||
		strings.HasPrefix(desc.FullName, "google.protobuf.") {
		return false
	}
	for i := range items {
		if items[i].Kind != Object {
			return false
		}
	}
	return true
}

func readMap(f *bijoubuf.FieldDesc, t reflect.Type, v *Value, here *At, d depth) (reflect.Value, error) {
	if v.Kind != Object {
		return reflect.Value{}, errAt(here, "expected an object for a map, found "+v.Kind.What())
	}
	out := reflect.MakeMapWithSize(t, len(v.Members))
	for i := range v.Members {
		k := v.Members[i].Key
		p := here.keyIn(k)
		mk, err := mapKey(f.MapKey.Kind, t.Key(), k, p)
		if err != nil {
			return reflect.Value{}, err
		}
		e, err := readElement(f.MapValue, t.Elem(), &v.Members[i].Value, p, d)
		if err != nil {
			return reflect.Value{}, err
		}
		if out.MapIndex(mk).IsValid() {
			// "1" and "01" name the same integer key.
			return reflect.Value{}, errAt(p, "the same map key twice")
		}
		out.SetMapIndex(mk, e)
	}
	return out, nil
}

func mapKey(kind bijoubuf.Kind, t reflect.Type, k string, at *At) (reflect.Value, error) {
	switch kind {
	case bijoubuf.KindBool:
		switch k {
		case "true":
			return reflect.ValueOf(true).Convert(t), nil
		case "false":
			return reflect.ValueOf(false).Convert(t), nil
		}
		return reflect.Value{}, errAt(at, `a bool map key must be "true" or "false"`)
	case bijoubuf.KindString:
		return reflect.ValueOf(k).Convert(t), nil
	}
	j := Value{Kind: String, Str: k}
	return scalar(kind, t, &j, at)
}

// readElement is one element of field f (a message field's value, a repeated field's
// element or a map's value) as a value of Go type t, in a message at depth d.
func readElement(f *bijoubuf.FieldDesc, t reflect.Type, j *Value, at *At, d depth) (reflect.Value, error) {
	switch f.Kind {
	case bijoubuf.KindMessage:
		m, err := readMessage(f.Message(), j, at, d.next())
		if err != nil {
			return reflect.Value{}, err
		}
		return reflect.ValueOf(m), nil
	case bijoubuf.KindEnum:
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		return enumValue(f.Enum, t, j, at)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return scalar(f.Kind, t, j, at)
}

// readElementInto reads one element of field f into dst, where it is kept: a message
// field's *M, an explicit-presence scalar's pointer (allocated here) or the value itself.
func readElementInto(f *bijoubuf.FieldDesc, dst reflect.Value, j *Value, at *At, d depth) error {
	if f.Kind == bijoubuf.KindMessage {
		m, err := readMessage(f.Message(), j, at, d.next())
		if err != nil {
			return err
		}
		dst.Set(reflect.ValueOf(m))
		return nil
	}
	if dst.Kind() != reflect.Pointer {
		return scalarOrEnumInto(f, dst, j, at)
	}
	p := reflect.New(dst.Type().Elem())
	if err := scalarOrEnumInto(f, p.Elem(), j, at); err != nil {
		return err
	}
	dst.Set(p)
	return nil
}

func scalarOrEnumInto(f *bijoubuf.FieldDesc, out reflect.Value, j *Value, at *At) error {
	if f.Kind == bijoubuf.KindEnum {
		return enumInto(f.Enum, out, j, at)
	}
	return scalarInto(f.Kind, out, j, at)
}

func enumValue(e *bijoubuf.EnumDesc, t reflect.Type, j *Value, at *At) (reflect.Value, error) {
	out := reflect.New(t).Elem()
	return out, enumInto(e, out, j, at)
}

// enumInto sets out (an enum's Go integer) from a JSON name or number.
func enumInto(e *bijoubuf.EnumDesc, out reflect.Value, j *Value, at *At) error {
	switch j.Kind {
	case Null:
		if e.FullName == "google.protobuf.NullValue" {
			return nil
		}
	case String:
		n, ok := e.ValueNumber(j.Str)
		if !ok {
			return errAt(at, quote(j.Str)+" is not a value of "+e.FullName)
		}
		out.SetInt(int64(n))
		return nil
	case Number:
		n, why := integer(j)
		if why != "" {
			return errAt(at, why)
		}
		if !n.IsInt64() || n.Int64() < math.MinInt32 || n.Int64() > math.MaxInt32 {
			return errAt(at, "enum number "+n.String()+" is outside the int32 range")
		}
		out.SetInt(n.Int64())
		return nil
	}
	return errAt(at, "expected an enum name or number, found "+j.Kind.What())
}

// scalar is one scalar of schema type kind as a value of Go type t, with its range check.
func scalar(kind bijoubuf.Kind, t reflect.Type, j *Value, at *At) (reflect.Value, error) {
	out := reflect.New(t).Elem()
	return out, scalarInto(kind, out, j, at)
}

// scalarInto sets out (a settable value of the Go type holding kind) from JSON, with the
// range check.
func scalarInto(kind bijoubuf.Kind, out reflect.Value, j *Value, at *At) error {
	expected := func(what string) error { return errAt(at, "expected "+what+", found "+j.Kind.What()) }
	integral := func(lo, hi int64) (int64, error) {
		if n, ok := plainInt64(j); ok && n >= lo && n <= hi {
			return n, nil
		}
		n, why := integer(j)
		if why != "" {
			return 0, errAt(at, why)
		}
		if !n.IsInt64() || n.Int64() < lo || n.Int64() > hi {
			return 0, errAt(at, n.String()+" is out of range for "+kind.String())
		}
		return n.Int64(), nil
	}
	switch kind {
	case bijoubuf.KindBool:
		if j.Kind != Bool {
			return expected("true or false")
		}
		out.SetBool(j.Bool)
	case bijoubuf.KindString:
		if j.Kind != String {
			return expected("a string")
		}
		out.SetString(j.Str)
	case bijoubuf.KindBytes:
		if j.Kind != String {
			return expected("a base64 string")
		}
		b, ok := decodeBase64(j.Str)
		if !ok {
			return errAt(at, "bytes must be standard or URL-safe base64")
		}
		if b == nil {
			b = []byte{}
		}
		out.SetBytes(b)
	case bijoubuf.KindInt32, bijoubuf.KindSint32, bijoubuf.KindSfixed32:
		n, err := integral(math.MinInt32, math.MaxInt32)
		if err != nil {
			return err
		}
		out.SetInt(n)
	case bijoubuf.KindInt64, bijoubuf.KindSint64, bijoubuf.KindSfixed64:
		n, err := integral(math.MinInt64, math.MaxInt64)
		if err != nil {
			return err
		}
		out.SetInt(n)
	case bijoubuf.KindUint32, bijoubuf.KindFixed32:
		n, err := integral(0, math.MaxUint32)
		if err != nil {
			return err
		}
		out.SetUint(uint64(n))
	case bijoubuf.KindUint64, bijoubuf.KindFixed64:
		if n, ok := plainUint64(j); ok {
			out.SetUint(n)
			return nil
		}
		n, why := integer(j)
		if why != "" {
			return errAt(at, why)
		}
		if n.Sign() < 0 || !n.IsUint64() {
			return errAt(at, n.String()+" is out of range for "+kind.String())
		}
		out.SetUint(n.Uint64())
	case bijoubuf.KindDouble:
		x, why := toFloat(j)
		if why != "" {
			return errAt(at, why)
		}
		out.SetFloat(x)
	case bijoubuf.KindFloat:
		x, why := toFloat32(j)
		if why != "" {
			return errAt(at, why)
		}
		out.SetFloat(float64(x))
	default:
		return errAt(at, "not a scalar type: "+kind.String())
	}
	return nil
}
