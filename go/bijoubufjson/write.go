package bijoubufjson

import (
	"bytes"
	"encoding/base64"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
)

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }

// Marshal is m as compact proto3 JSON text with the default depth limit. Whatever it
// writes reads back with Unmarshal as a message with the same encoding; a value the text
// could not carry is refused rather than written as something else: a Timestamp or
// Duration out of range, a Value with no kind set (or a NullValue other than 0, or a
// number that is not finite), a FieldMask path lowerCamelCase cannot spell and read back,
// an Any whose type URL names no registered message or whose bytes do not decode, and
// messages nested deeper than the limit, counting those inside Any payloads.
func Marshal(m bijoubuf.Message) (string, error) {
	return MarshalOptions(m, Options{})
}

// MarshalOptions is Marshal with opts's depth limit.
func MarshalOptions(m bijoubuf.Message, opts Options) (string, error) {
	var b strings.Builder
	if err := writeMessage(&b, m.BijoubufDesc(), reflect.ValueOf(m), &root, opts.top()); err != nil {
		return "", err
	}
	return b.String(), nil
}

// writeMessage writes mp (a *M of type desc, possibly nil: the empty message) at depth d.
func writeMessage(b *strings.Builder, desc *bijoubuf.MessageDesc, mp reflect.Value, at *At, d depth) error {
	if err := d.check(at); err != nil {
		return err
	}
	if mp.IsNil() {
		mp = reflect.ValueOf(desc.New())
	}
	sv := mp.Elem()
	if done, err := writeSpecial(b, desc, sv, at, d); done || err != nil {
		return err
	}
	b.WriteByte('{')
	first := true
	if err := writeMembers(b, desc, sv, at, d, &first); err != nil {
		return err
	}
	b.WriteByte('}')
	return nil
}

func item(b *strings.Builder, first *bool) {
	if !*first {
		b.WriteByte(',')
	}
	*first = false
}

// writeMembers writes the present fields of sv, in field-number order, into an open
// object.
func writeMembers(b *strings.Builder, desc *bijoubuf.MessageDesc, sv reflect.Value, at *At, d depth, first *bool) error {
	for i := range desc.Fields {
		f := &desc.Fields[i]
		v, ok := getField(sv, f)
		if !ok {
			continue
		}
		here := at.Key(f.JSONName)
		item(b, first)
		quoteInto(b, f.JSONName)
		b.WriteByte(':')
		switch {
		case f.Map:
			b.WriteByte('{')
			none := true
			for _, k := range sortedKeys(v) {
				ks := keyText(k)
				p := here.Key(ks)
				item(b, &none)
				quoteInto(b, ks)
				b.WriteByte(':')
				if err := writeElement(b, f.MapValue, v.MapIndex(k), &p, d); err != nil {
					return err
				}
			}
			b.WriteByte('}')
		case f.Repeated:
			b.WriteByte('[')
			for k := 0; k < v.Len(); k++ {
				if k > 0 {
					b.WriteByte(',')
				}
				p := here.Index(k)
				if err := writeElement(b, f, v.Index(k), &p, d); err != nil {
					return err
				}
			}
			b.WriteByte(']')
		default:
			if err := writeElement(b, f, v, &here, d); err != nil {
				return err
			}
		}
	}
	return nil
}

// sortedKeys is a map's keys in the order the encoder writes them: integers by value,
// strings by their UTF-8 bytes, false before true.
func sortedKeys(m reflect.Value) []reflect.Value {
	keys := m.MapKeys()
	sort.Slice(keys, func(i, j int) bool {
		a, c := keys[i], keys[j]
		switch a.Kind() {
		case reflect.String:
			return a.String() < c.String()
		case reflect.Bool:
			return !a.Bool() && c.Bool()
		case reflect.Int32, reflect.Int64, reflect.Int:
			return a.Int() < c.Int()
		}
		return a.Uint() < c.Uint()
	})
	return keys
}

func keyText(k reflect.Value) string {
	switch k.Kind() {
	case reflect.String:
		return k.String()
	case reflect.Bool:
		return strconv.FormatBool(k.Bool())
	case reflect.Int32, reflect.Int64, reflect.Int:
		return strconv.FormatInt(k.Int(), 10)
	}
	return strconv.FormatUint(k.Uint(), 10)
}

// writeElement writes one value of field f's element type (v a scalar, an enum's
// number, or a *M), in a message at depth d.
func writeElement(b *strings.Builder, f *bijoubuf.FieldDesc, v reflect.Value, at *At, d depth) error {
	if v.Kind() == reflect.Pointer && f.Kind != bijoubuf.KindMessage {
		v = v.Elem()
	}
	switch f.Kind {
	case bijoubuf.KindMessage:
		return writeMessage(b, f.Message(), v, at, d.next())
	case bijoubuf.KindEnum:
		n := int32(v.Int())
		if f.Enum.FullName == "google.protobuf.NullValue" {
			if n != 0 {
				return errAt(at, "NullValue "+itoa(int(n))+" has no JSON form (only NULL_VALUE, 0, is null)")
			}
			b.WriteString("null")
			return nil
		}
		if name, ok := f.Enum.ValueName(n); ok {
			quoteInto(b, name)
		} else {
			b.WriteString(itoa(int(n)))
		}
		return nil
	}
	return writeScalar(b, f.Kind, v, at)
}

func writeScalar(b *strings.Builder, kind bijoubuf.Kind, v reflect.Value, at *At) error {
	switch kind {
	case bijoubuf.KindBool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case bijoubuf.KindInt32, bijoubuf.KindSint32, bijoubuf.KindSfixed32:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case bijoubuf.KindUint32, bijoubuf.KindFixed32:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	// 64-bit integers are strings: JSON numbers are doubles in many readers.
	case bijoubuf.KindInt64, bijoubuf.KindSint64, bijoubuf.KindSfixed64:
		b.WriteString(`"` + strconv.FormatInt(v.Int(), 10) + `"`)
	case bijoubuf.KindUint64, bijoubuf.KindFixed64:
		b.WriteString(`"` + strconv.FormatUint(v.Uint(), 10) + `"`)
	case bijoubuf.KindFloat:
		x := float32(v.Float())
		if !writeNonFinite(b, float64(x)) {
			b.WriteString(formatFloat32(x))
		}
	case bijoubuf.KindDouble:
		if x := v.Float(); !writeNonFinite(b, x) {
			b.WriteString(formatDouble(x))
		}
	case bijoubuf.KindString:
		if !validUTF8(v.String()) {
			return errAt(at, "a string that is not UTF-8")
		}
		quoteInto(b, v.String())
	case bijoubuf.KindBytes:
		b.WriteByte('"')
		b.WriteString(base64.StdEncoding.EncodeToString(v.Bytes()))
		b.WriteByte('"')
	default:
		return errAt(at, "not a scalar type: "+kind.String())
	}
	return nil
}

// writeNonFinite writes the quoted names proto3 JSON gives the floats that are not finite.
func writeNonFinite(b *strings.Builder, x float64) bool {
	switch {
	case math.IsNaN(x):
		b.WriteString(`"NaN"`)
	case math.IsInf(x, 1):
		b.WriteString(`"Infinity"`)
	case math.IsInf(x, -1):
		b.WriteString(`"-Infinity"`)
	default:
		return false
	}
	return true
}

// intField is integer field n of sv (0 when absent).
func intField(desc *bijoubuf.MessageDesc, sv reflect.Value, n uint32) int64 {
	f, ok := desc.FieldByNumber(n)
	if !ok {
		return 0
	}
	v, ok := getField(sv, f)
	if !ok {
		return 0
	}
	return v.Int()
}

// writeSpecial writes sv in the special form of desc and returns true, or returns false
// for an ordinary message.
func writeSpecial(b *strings.Builder, desc *bijoubuf.MessageDesc, sv reflect.Value, at *At, d depth) (bool, error) {
	name := desc.FullName
	if !strings.HasPrefix(name, "google.protobuf.") {
		return false, nil
	}
	if kind, ok := wrapperKind(name); ok {
		f, err := field(desc, 1, at)
		if err != nil {
			return true, err
		}
		v, ok := getField(sv, f)
		if !ok {
			v = reflect.New(elemType(fieldType(sv, f))).Elem()
		}
		return true, writeScalar(b, kind, v, at)
	}
	switch name {
	case "google.protobuf.Timestamp":
		s, n := intField(desc, sv, 1), intField(desc, sv, 2)
		t, ok := timestampText(s, n)
		if !ok {
			return true, errAt(at, "Timestamp "+formatInt(s)+"s "+formatInt(n)+"ns is outside 0001-01-01 to 9999-12-31")
		}
		quoteInto(b, t)
	case "google.protobuf.Duration":
		s, n := intField(desc, sv, 1), intField(desc, sv, 2)
		t, ok := durationText(s, n)
		if !ok {
			return true, errAt(at, "Duration "+formatInt(s)+"s "+formatInt(n)+"ns is out of range or mixes signs")
		}
		quoteInto(b, t)
	case "google.protobuf.FieldMask":
		var paths []string
		if f, ok := desc.FieldByNumber(1); ok {
			if v, ok := getField(sv, f); ok {
				for i := 0; i < v.Len(); i++ {
					p := at.Index(i)
					c, ok := maskPathJSON(v.Index(i).String())
					if !ok {
						return true, errAt(&p, "FieldMask path "+quote(v.Index(i).String())+" has no proto3 JSON spelling that reads back as it")
					}
					paths = append(paths, c)
				}
			}
		}
		quoteInto(b, strings.Join(paths, ","))
	case "google.protobuf.Struct":
		return true, writeStruct(b, desc, sv, at, d)
	case "google.protobuf.ListValue":
		return true, writeList(b, desc, sv, at, d)
	case "google.protobuf.Value":
		return true, writeValue(b, desc, sv, at, d)
	case "google.protobuf.Any":
		return true, writeAny(b, desc, sv, at, d)
	default:
		return false, nil
	}
	return true, nil
}

// writeStruct writes a Struct at depth d: an object of its fields, each a Value one
// level deeper.
func writeStruct(b *strings.Builder, desc *bijoubuf.MessageDesc, sv reflect.Value, at *At, d depth) error {
	b.WriteByte('{')
	if f, ok := desc.FieldByNumber(1); ok && f.Map {
		if v, ok := getField(sv, f); ok {
			first := true
			for _, k := range sortedKeys(v) {
				ks := keyText(k)
				p := at.Key(ks)
				item(b, &first)
				quoteInto(b, ks)
				b.WriteByte(':')
				if err := writeValueElement(b, f.MapValue, v.MapIndex(k), &p, d.next()); err != nil {
					return err
				}
			}
		}
	}
	b.WriteByte('}')
	return nil
}

// writeList writes a ListValue at depth d: an array of its values, each a Value one
// level deeper.
func writeList(b *strings.Builder, desc *bijoubuf.MessageDesc, sv reflect.Value, at *At, d depth) error {
	b.WriteByte('[')
	if f, ok := desc.FieldByNumber(1); ok {
		if v, ok := getField(sv, f); ok {
			for i := 0; i < v.Len(); i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				p := at.Index(i)
				if err := writeValueElement(b, f, v.Index(i), &p, d.next()); err != nil {
					return err
				}
			}
		}
	}
	b.WriteByte(']')
	return nil
}

// writeValueElement writes a Struct's or ListValue's element, a Value at depth d.
func writeValueElement(b *strings.Builder, f *bijoubuf.FieldDesc, v reflect.Value, at *At, d depth) error {
	if err := d.check(at); err != nil {
		return err
	}
	if f.Kind != bijoubuf.KindMessage {
		return errAt(at, "expected a google.protobuf.Value")
	}
	desc := f.Message()
	if v.IsNil() {
		v = reflect.ValueOf(desc.New())
	}
	return writeValue(b, desc, v.Elem(), at, d)
}

// writeValue writes a Value at depth d: whichever member of its kind is set.
func writeValue(b *strings.Builder, desc *bijoubuf.MessageDesc, sv reflect.Value, at *At, d depth) error {
	for n := uint32(1); n <= 6; n++ {
		f, ok := desc.FieldByNumber(n)
		if !ok {
			continue
		}
		v, ok := getField(sv, f)
		if !ok {
			continue
		}
		switch n {
		case 1:
			if v.Int() != 0 {
				return errAt(at, "Value.null_value "+formatInt(v.Int())+" has no JSON form (only NULL_VALUE, 0, is null)")
			}
			b.WriteString("null")
		case 2:
			x := v.Float()
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return errAt(at, "a Value number must be finite (JSON has no NaN or Infinity)")
			}
			b.WriteString(formatDouble(x))
		case 3, 4:
			return writeScalar(b, f.Kind, v, at)
		default:
			inner := d.next()
			if err := inner.check(at); err != nil {
				return err
			}
			md := f.Message()
			switch md.FullName {
			case "google.protobuf.Struct":
				return writeStruct(b, md, v.Elem(), at, inner)
			case "google.protobuf.ListValue":
				return writeList(b, md, v.Elem(), at, inner)
			}
			return errAt(at, "a Value's struct or list is not a Struct or ListValue")
		}
		return nil
	}
	return errAt(at, "a google.protobuf.Value with no kind set")
}

// writeAny writes an Any at depth d: its payload is decoded with the depth left (SPEC
// §9.3 counts it as nested bytes) and written one level deeper, after "@type".
func writeAny(b *strings.Builder, desc *bijoubuf.MessageDesc, sv reflect.Value, at *At, d depth) error {
	var url string
	var payload []byte
	if f, ok := desc.FieldByNumber(1); ok {
		if v, ok := getField(sv, f); ok {
			url = v.String()
		}
	}
	if f, ok := desc.FieldByNumber(2); ok {
		if v, ok := getField(sv, f); ok {
			payload = v.Bytes()
		}
	}
	if url == "" && len(payload) == 0 {
		b.WriteString("{}")
		return nil
	}
	innerDesc, err := resolve(url, at)
	if err != nil {
		return err
	}
	left := d.left()
	if left == 0 {
		return d.next().tooDeep(at)
	}
	inner := innerDesc.New()
	if err := inner.UnmarshalOptions(bytes.Clone(payload), bijoubuf.DecodeOptions{}.WithMaxDepth(left)); err != nil {
		return errAt(at, "the Any value does not decode as "+url+": "+err.Error())
	}
	b.WriteString(`{"@type":`)
	quoteInto(b, url)
	next := d.next()
	if isSpecial(innerDesc.FullName) {
		b.WriteString(`,"value":`)
		if err := writeMessage(b, innerDesc, reflect.ValueOf(inner), at, next); err != nil {
			return err
		}
	} else {
		if err := next.check(at); err != nil {
			return err
		}
		first := false
		if err := writeMembers(b, innerDesc, reflect.ValueOf(inner).Elem(), at, next, &first); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}
