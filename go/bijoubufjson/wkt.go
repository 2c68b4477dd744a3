package bijoubufjson

import (
	"reflect"
	"strings"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
)

// The special JSON forms of the well-known types (google.protobuf.*), keyed on the full
// name and reached through the descriptors by field number; on the wire these are
// ordinary messages (SPEC §4.4).

func wrapperKind(name string) (bijoubuf.Kind, bool) {
	switch name {
	case "google.protobuf.DoubleValue":
		return bijoubuf.KindDouble, true
	case "google.protobuf.FloatValue":
		return bijoubuf.KindFloat, true
	case "google.protobuf.Int64Value":
		return bijoubuf.KindInt64, true
	case "google.protobuf.UInt64Value":
		return bijoubuf.KindUint64, true
	case "google.protobuf.Int32Value":
		return bijoubuf.KindInt32, true
	case "google.protobuf.UInt32Value":
		return bijoubuf.KindUint32, true
	case "google.protobuf.BoolValue":
		return bijoubuf.KindBool, true
	case "google.protobuf.StringValue":
		return bijoubuf.KindString, true
	case "google.protobuf.BytesValue":
		return bijoubuf.KindBytes, true
	}
	return 0, false
}

// isSpecial says whether a message type has a special JSON form (inside an Any it goes
// under "value").
func isSpecial(name string) bool {
	if _, ok := wrapperKind(name); ok {
		return true
	}
	switch name {
	case "google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.FieldMask",
		"google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue",
		"google.protobuf.Any":
		return true
	}
	return false
}

// field is desc's field number n; a well-known type generated from another schema
// without it is a broken build, reported as an error rather than a panic.
func field(desc *bijoubuf.MessageDesc, n uint32, at *At) (*bijoubuf.FieldDesc, error) {
	f, ok := desc.FieldByNumber(n)
	if !ok {
		return nil, errAt(at, desc.FullName+" has no field "+itoa(int(n)))
	}
	return f, nil
}

func itoa(n int) string { return formatInt(int64(n)) }

// readSpecial fills sv from the special form of desc and returns true, or returns false
// for an ordinary message.
func readSpecial(desc *bijoubuf.MessageDesc, sv reflect.Value, j *Value, at *At, d depth) (bool, error) {
	name := desc.FullName
	if !strings.HasPrefix(name, "google.protobuf.") {
		return false, nil
	}
	if kind, ok := wrapperKind(name); ok {
		f, err := field(desc, 1, at)
		if err != nil {
			return true, err
		}
		v, err := scalar(kind, elemType(fieldType(sv, f)), j, at)
		if err != nil {
			return true, err
		}
		setField(sv, f, v)
		return true, nil
	}
	text := func(what string) (string, error) {
		if j.Kind != String {
			return "", errAt(at, "expected "+what+" string, found "+j.Kind.What())
		}
		return j.Str, nil
	}
	switch name {
	case "google.protobuf.Timestamp", "google.protobuf.Duration":
		var s int64
		var n int32
		if name == "google.protobuf.Timestamp" {
			t, err := text("an RFC 3339 timestamp")
			if err != nil {
				return true, err
			}
			var ok bool
			if s, n, ok = parseTimestamp(t); !ok {
				return true, errAt(at, "not an RFC 3339 timestamp between years 1 and 9999")
			}
		} else {
			t, err := text(`a duration ("1.5s")`)
			if err != nil {
				return true, err
			}
			var ok bool
			if s, n, ok = parseDuration(t); !ok {
				return true, errAt(at, `not a duration such as "1.5s" within ±10000 years`)
			}
		}
		return true, setInts(desc, sv, s, int64(n), at)
	case "google.protobuf.FieldMask":
		t, err := text("a field mask")
		if err != nil {
			return true, err
		}
		f, err := field(desc, 1, at)
		if err != nil {
			return true, err
		}
		var paths []string
		if t != "" {
			for _, p := range strings.Split(t, ",") {
				paths = append(paths, snake(p))
			}
		}
		if len(paths) > 0 {
			setField(sv, f, reflect.ValueOf(paths).Convert(fieldType(sv, f)))
		}
		return true, nil
	case "google.protobuf.Struct":
		if j.Kind != Object {
			return true, errAt(at, "expected an object, found "+j.Kind.What())
		}
		f, err := field(desc, 1, at)
		if err != nil {
			return true, err
		}
		if !f.Map || f.MapValue.Kind != bijoubuf.KindMessage {
			return true, errAt(at, "Struct.fields is not a map of Value")
		}
		t := fieldType(sv, f)
		out := reflect.MakeMapWithSize(t, len(j.Members))
		for i := range j.Members {
			p := at.Key(j.Members[i].Key)
			v, err := readValue(f.MapValue.Message(), &j.Members[i].Value, &p, d.next())
			if err != nil {
				return true, err
			}
			out.SetMapIndex(reflect.ValueOf(j.Members[i].Key).Convert(t.Key()), reflect.ValueOf(v))
		}
		if len(j.Members) > 0 {
			setField(sv, f, out)
		}
		return true, nil
	case "google.protobuf.ListValue":
		if j.Kind != Array {
			return true, errAt(at, "expected an array, found "+j.Kind.What())
		}
		f, err := field(desc, 1, at)
		if err != nil {
			return true, err
		}
		if f.Kind != bijoubuf.KindMessage {
			return true, errAt(at, desc.FullName+" field 1 is not a message")
		}
		t := fieldType(sv, f)
		out := reflect.MakeSlice(t, 0, len(j.Items))
		for i := range j.Items {
			p := at.Index(i)
			v, err := readValue(f.Message(), &j.Items[i], &p, d.next())
			if err != nil {
				return true, err
			}
			out = reflect.Append(out, reflect.ValueOf(v))
		}
		if len(j.Items) > 0 {
			setField(sv, f, out)
		}
		return true, nil
	case "google.protobuf.Value":
		m, err := readValue(desc, j, at, d)
		if err != nil {
			return true, err
		}
		sv.Set(reflect.ValueOf(m).Elem())
		return true, nil
	case "google.protobuf.Any":
		return true, readAny(desc, sv, j, at, d)
	}
	return false, nil
}

func elemType(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer {
		return t.Elem()
	}
	return t
}

// setInts sets fields 1 and 2 (seconds and nanos) of a Timestamp or Duration.
func setInts(desc *bijoubuf.MessageDesc, sv reflect.Value, s, n int64, at *At) error {
	for i, v := range [2]int64{s, n} {
		f, err := field(desc, uint32(i+1), at)
		if err != nil {
			return err
		}
		x := reflect.New(elemType(fieldType(sv, f))).Elem()
		x.SetInt(v)
		setField(sv, f, x)
	}
	return nil
}

// readValue is a google.protobuf.Value at depth d.
func readValue(desc *bijoubuf.MessageDesc, j *Value, at *At, d depth) (bijoubuf.Message, error) {
	if err := d.check(at); err != nil {
		return nil, err
	}
	m := desc.New()
	sv := reflect.ValueOf(m).Elem()
	var n uint32
	switch j.Kind {
	case Null:
		n = 1
	case Number:
		n = 2
	case String:
		n = 3
	case Bool:
		n = 4
	case Object:
		n = 5
	default:
		n = 6
	}
	f, err := field(desc, n, at)
	if err != nil {
		return nil, err
	}
	var v reflect.Value
	switch n {
	case 1:
		v, err = enumValue(f.Enum, elemType(fieldType(sv, f)), j, at)
	case 2:
		v, err = scalar(bijoubuf.KindDouble, elemType(fieldType(sv, f)), j, at)
	case 3:
		v, err = scalar(bijoubuf.KindString, elemType(fieldType(sv, f)), j, at)
	case 4:
		v, err = scalar(bijoubuf.KindBool, elemType(fieldType(sv, f)), j, at)
	default:
		var inner bijoubuf.Message
		inner, err = readMessage(f.Message(), j, at, d.next())
		v = reflect.ValueOf(inner)
	}
	if err != nil {
		return nil, err
	}
	setField(sv, f, v)
	return m, nil
}

// resolve is the message type a type URL names: "<host>/<full name>".
func resolve(url string, at *At) (*bijoubuf.MessageDesc, error) {
	i := strings.LastIndexByte(url, '/')
	if i < 0 || i == len(url)-1 {
		return nil, errAt(at, "type URL "+quote(url)+` is not of the form "<host>/<message full name>"`)
	}
	desc, ok := bijoubuf.FindMessage(url[i+1:])
	if !ok {
		return nil, errAt(at, "type URL "+quote(url)+" names no message of the schema")
	}
	return desc, nil
}

// readAny is an Any at depth d: its payload is a message one level deeper, encoded with
// the depth left.
func readAny(desc *bijoubuf.MessageDesc, sv reflect.Value, j *Value, at *At, d depth) error {
	if j.Kind != Object {
		return errAt(at, "expected an object, found "+j.Kind.What())
	}
	ti := -1
	for i := range j.Members {
		if j.Members[i].Key == "@type" {
			ti = i
			break
		}
	}
	if ti < 0 {
		if len(j.Members) == 0 {
			return nil
		}
		return errAt(at, `an Any with fields needs "@type"`)
	}
	ty := &j.Members[ti].Value
	if ty.Kind != String {
		p := at.Key("@type")
		return errAt(&p, "expected a type URL string")
	}
	url := ty.Str
	innerDesc, err := resolve(url, at)
	if err != nil {
		return err
	}
	rest := make([]Member, 0, len(j.Members)-1)
	rest = append(rest, j.Members[:ti]...)
	rest = append(rest, j.Members[ti+1:]...)
	var inner bijoubuf.Message
	if isSpecial(innerDesc.FullName) {
		if len(rest) != 1 || rest[0].Key != "value" {
			return errAt(at, "an Any holding "+innerDesc.FullName+` has exactly one other key, "value"`)
		}
		p := at.Key("value")
		if inner, err = readMessage(innerDesc, &rest[0].Value, &p, d.next()); err != nil {
			return err
		}
	} else {
		if err := d.next().check(at); err != nil {
			return err
		}
		inner = innerDesc.New()
		if err := readFields(innerDesc, reflect.ValueOf(inner).Elem(), rest, at, d.next()); err != nil {
			return err
		}
	}
	left := d.left()
	if left < 1 {
		left = 1
	}
	b, err := inner.MarshalOptions(bijoubuf.EncodeOptions{}.WithMaxDepth(left))
	if err != nil {
		return errAt(at, err.Error())
	}
	fu, err := field(desc, 1, at)
	if err != nil {
		return err
	}
	fv, err := field(desc, 2, at)
	if err != nil {
		return err
	}
	setField(sv, fu, reflect.ValueOf(url).Convert(elemType(fieldType(sv, fu))))
	if len(b) > 0 {
		setField(sv, fv, reflect.ValueOf(b))
	}
	return nil
}
