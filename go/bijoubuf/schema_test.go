package bijoubuf

// A small schema-driven decoder and encoder made of the runtime's primitives, the way
// generated code will use them: enough to run SPEC's vector cards and Appendix A through
// the Reader and the Writer. Test-only; it is not the codegen backend.

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"math"
	"sort"
	"strings"
	"testing"
)

type kind int

const (
	kUint32 kind = iota + 1
	kUint64
	kInt32 // int32, sint32, enum: zigzag with the 32-bit range check
	kInt64 // int64, sint64
	kBool
	kFixed32
	kSfixed32
	kFloat
	kFixed64
	kSfixed64
	kDouble
	kString
	kBytes
	kMsg
)

func (k kind) wire() WireType {
	switch k {
	case kFixed32, kSfixed32, kFloat:
		return WireI32
	case kFixed64, kSfixed64, kDouble:
		return WireI64
	case kString, kBytes, kMsg:
		return WireLen
	}
	return WireVarint
}

func (k kind) width() int {
	switch k.wire() {
	case WireI32:
		return 4
	case WireI64:
		return 8
	}
	return 0
}

type field struct {
	num      uint32
	name     string
	kind     kind
	msg      *msgT // kind == kMsg, or a map's message values
	implicit bool
	required bool
	repeated bool
	mapKey   kind // a map: mapKey is the key kind, kind the value kind
	oneof    string
}

func (f *field) wire() WireType {
	if f.repeated || f.mapKey != 0 {
		return WireLen
	}
	return f.kind.wire()
}

type msgT struct {
	name   string
	fields []field
}

type entry struct{ k, v any }

type val struct {
	fields  map[uint32]any
	unknown []UnknownRecord
}

func readElem(r *Reader, k kind, m *msgT) (any, error) {
	switch k {
	case kUint32:
		v, err := r.Uint32()
		return uint64(v), err
	case kUint64:
		return r.Uint64()
	case kInt32:
		v, err := r.Int32()
		return int64(v), err
	case kInt64:
		return r.Int64()
	case kBool:
		return r.Bool()
	case kFixed32:
		v, err := r.Fixed32()
		return uint64(v), err
	case kSfixed32:
		v, err := r.Sfixed32()
		return int64(v), err
	case kFloat:
		return r.Float32()
	case kFixed64:
		return r.Fixed64()
	case kSfixed64:
		return r.Sfixed64()
	case kDouble:
		return r.Float64()
	case kString:
		return r.String()
	case kBytes:
		b, err := r.Bytes()
		return append([]byte{}, b...), err
	}
	var out *val
	err := r.Nested(true, func(r *Reader) error {
		var err error
		out, err = m.decode(r)
		return err
	})
	return out, err
}

func isDefault(x any) bool {
	switch v := x.(type) {
	case uint64:
		return v == 0
	case int64:
		return v == 0
	case bool:
		return !v
	case float32:
		return math.Float32bits(v) == 0
	case float64:
		return math.Float64bits(v) == 0
	case string:
		return v == ""
	case []byte:
		return len(v) == 0
	}
	return false
}

func compareKeys(a, b any) int {
	switch x := a.(type) {
	case uint64:
		return cmp.Compare(x, b.(uint64))
	case int64:
		return cmp.Compare(x, b.(int64))
	case bool:
		return CompareBool(x, b.(bool))
	}
	return strings.Compare(a.(string), b.(string))
}

func keySeg(k any) string {
	switch x := k.(type) {
	case uint64:
		return UintKey(x)
	case int64:
		return IntKey(x)
	case bool:
		return BoolKey(x)
	}
	return StringKey(k.(string))
}

func (m *msgT) decode(r *Reader) (*val, error) {
	v := &val{fields: map[uint32]any{}}
	oneofs := map[string]bool{}
	for i := range m.fields {
		f := &m.fields[i]
		ok, err := r.Field(f.num, f.wire(), f.name)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if f.oneof != "" {
			if oneofs[f.oneof] {
				return nil, r.OneofConflict(f.name)
			}
			oneofs[f.oneof] = true
		}
		x, err := m.readField(r, f)
		if err != nil {
			return nil, err
		}
		v.fields[f.num] = x
	}
	u, err := r.Finish()
	if err != nil {
		return nil, err
	}
	v.unknown = u
	for i := range m.fields {
		if f := &m.fields[i]; f.required {
			if _, ok := v.fields[f.num]; !ok {
				return nil, r.MissingRequired(f.name)
			}
		}
	}
	return v, nil
}

func (m *msgT) readField(r *Reader, f *field) (any, error) {
	if f.kind == kMsg {
		if err := r.CheckDepth(f.name); err != nil {
			return nil, err
		}
	}
	switch {
	case f.mapKey != 0:
		var es []entry
		err := ReadMap(r, f.name,
			func() (any, error) { return readElem(r, f.mapKey, nil) },
			compareKeys, keySeg,
			func(k any) error {
				x, err := readElem(r, f.kind, f.msg)
				es = append(es, entry{k, x})
				return err
			})
		return es, err
	case f.repeated:
		var xs []any
		err := r.Run(f.name, f.kind.width(), func(int) error {
			x, err := readElem(r, f.kind, f.msg)
			xs = append(xs, x)
			return err
		})
		return xs, err
	case f.kind == kMsg:
		var out *val
		err := r.Message(f.name, true, func(r *Reader) error {
			var err error
			out, err = f.msg.decode(r)
			return err
		})
		return out, err
	}
	x, err := readElem(r, f.kind, nil)
	if err != nil {
		return nil, wrap(err, func(d *DecodeError) { d.InField(f.name) })
	}
	if f.implicit && isDefault(x) {
		return nil, r.DefaultValuePresent(f.name)
	}
	return x, nil
}

// ----- encoding: the size pass, then the write -----

type rec struct {
	num     uint32
	f       *field
	x       any
	unknown *UnknownRecord
}

func (m *msgT) records(v *val) []rec {
	var rs []rec
	for i := range m.fields {
		if x, ok := v.fields[m.fields[i].num]; ok {
			rs = append(rs, rec{num: m.fields[i].num, f: &m.fields[i], x: x})
		}
	}
	for i := range v.unknown {
		rs = append(rs, rec{num: v.unknown[i].Number, unknown: &v.unknown[i]})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].num < rs[j].num })
	return rs
}

func elemSize(k kind, m *msgT, x any) int {
	switch k {
	case kUint32, kUint64:
		return VarintSize(x.(uint64))
	case kInt32, kInt64:
		return ZigzagSize(x.(int64))
	case kBool:
		return 1
	case kFixed32, kSfixed32, kFloat:
		return 4
	case kFixed64, kSfixed64, kDouble:
		return 8
	case kString:
		return LenSize(len(x.(string)))
	case kBytes:
		return LenSize(len(x.([]byte)))
	}
	return LenSize(m.size(x.(*val)))
}

func writeElem(w *Writer, k kind, m *msgT, x any) {
	switch k {
	case kUint32, kUint64:
		w.Varint(x.(uint64))
	case kInt32, kInt64:
		w.Zigzag(x.(int64))
	case kBool:
		w.Bool(x.(bool))
	case kFixed32:
		w.Fixed32(uint32(x.(uint64)))
	case kSfixed32:
		w.Fixed32(uint32(x.(int64)))
	case kFloat:
		w.Float32(x.(float32))
	case kFixed64:
		w.Fixed64(x.(uint64))
	case kSfixed64:
		w.Fixed64(uint64(x.(int64)))
	case kDouble:
		w.Float64(x.(float64))
	case kString:
		w.String(x.(string))
	case kBytes:
		w.LenBytes(x.([]byte))
	default:
		mark := w.Begin(m.size(x.(*val)))
		m.write(w, x.(*val))
		w.End(mark)
	}
}

func contentSize(f *field, x any) int {
	n := 0
	switch {
	case f.mapKey != 0:
		for _, e := range x.([]entry) {
			n += elemSize(f.mapKey, nil, e.k) + elemSize(f.kind, f.msg, e.v)
		}
	case f.repeated:
		for _, e := range x.([]any) {
			n += elemSize(f.kind, f.msg, e)
		}
	}
	return n
}

func (m *msgT) size(v *val) int {
	n, prev := 0, uint32(0)
	for _, r := range m.records(v) {
		switch {
		case r.unknown != nil:
			n += UnknownSize(prev, *r.unknown)
		case r.f.repeated || r.f.mapKey != 0:
			n += KeySize(prev, r.num) + LenSize(contentSize(r.f, r.x))
		default:
			n += KeySize(prev, r.num) + elemSize(r.f.kind, r.f.msg, r.x)
		}
		prev = r.num
	}
	return n
}

func (m *msgT) write(w *Writer, v *val) {
	for _, r := range m.records(v) {
		if r.unknown != nil {
			w.Unknown(*r.unknown)
			continue
		}
		w.Key(r.num, r.f.wire())
		switch {
		case r.f.mapKey != 0:
			mark := w.Begin(contentSize(r.f, r.x))
			for _, e := range r.x.([]entry) {
				writeElem(w, r.f.mapKey, nil, e.k)
				writeElem(w, r.f.kind, r.f.msg, e.v)
			}
			w.End(mark)
		case r.f.repeated:
			mark := w.Begin(contentSize(r.f, r.x))
			for _, e := range r.x.([]any) {
				writeElem(w, r.f.kind, r.f.msg, e)
			}
			w.End(mark)
		default:
			writeElem(w, r.f.kind, r.f.msg, r.x)
		}
	}
}

func (m *msgT) encode(v *val) ([]byte, error) {
	w := NewWriter(m.size(v))
	m.write(w, v)
	return w.Bytes()
}

func (m *msgT) decodeAll(buf []byte, opts DecodeOptions) (*val, int, error) {
	var out *val
	n, err := Decode(buf, opts, m.name, true, func(r *Reader) error {
		var err error
		out, err = m.decode(r)
		return err
	})
	return out, n, err
}

// ----- helpers -----

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// wantError checks err is a *DecodeError with code, offset and path.
func wantError(t *testing.T, err error, code Code, offset int, path string) {
	t.Helper()
	d, ok := AsDecodeError(err)
	if !ok {
		t.Fatalf("got %v, want %s at %d, path %s", err, code, offset, path)
	}
	if d.Code() != code || d.Offset() != offset || d.Path() != path {
		t.Fatalf("got %s at %d, path %s; want %s at %d, path %s", d.Code(), d.Offset(), d.Path(), code, offset, path)
	}
}

// wantRoundTrip decodes in, and checks the value re-encodes to exactly in.
func wantRoundTrip(t *testing.T, m *msgT, opts DecodeOptions, in []byte) *val {
	t.Helper()
	v, _, err := m.decodeAll(in, opts)
	if err != nil {
		t.Fatalf("decode % X: %v", in, err)
	}
	out, err := m.encode(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if !bytes.Equal(out, in) {
		t.Fatalf("re-encoded % X, want % X", out, in)
	}
	return v
}
