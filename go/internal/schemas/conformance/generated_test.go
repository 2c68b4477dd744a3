package conformance

// The generated code as its users call it: SPEC Appendix A through the typed structs,
// round trips of every shape, the encoder's refusals, map order, and what an encode and
// a decode allocate.

import (
	"bytes"
	"encoding/hex"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	"github.com/bijoubuf/bijoubuf/go/wkt"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ptr[T any](v T) *T { return &v }

func wantDecodeError(t *testing.T, err error, code bijoubuf.Code, offset int, path string) {
	t.Helper()
	d, ok := bijoubuf.AsDecodeError(err)
	if !ok || d.Code() != code || d.Offset() != offset || d.Path() != path {
		t.Fatalf("got %v, want %s at %d, path %s", err, code, offset, path)
	}
}

func wantEncodeError(t *testing.T, err error, code bijoubuf.EncodeCode, path string) {
	t.Helper()
	e, ok := err.(*bijoubuf.EncodeError)
	if !ok || e.Code() != code || e.Path() != path {
		t.Fatalf("got %v, want %s with path %s", err, code, path)
	}
}

const a1 = "02 03 41 64 61 00 48 08 00"

func TestAppendixA1(t *testing.T) {
	var p Person
	if err := p.Unmarshal(unhex(t, a1)); err != nil {
		t.Fatal(err)
	}
	want := Person{Name: "Ada", Age: 36, Score: ptr(int32(0))}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("decoded %+v", p)
	}
	p.Score = nil
	if out, err := p.Marshal(); err != nil || !bytes.Equal(out, unhex(t, a1)[:7]) {
		t.Fatalf("without score: % X %v", out, err)
	}
	p.Score, p.Active = ptr(int32(0)), true
	if out, err := p.Marshal(); err != nil || !bytes.Equal(out, unhex(t, "02 03 41 64 61 00 48 00 01 04 00")) {
		t.Fatalf("active: % X %v", out, err)
	}
	// age = 0 written by hand: refused at its key.
	wantDecodeError(t, p.Unmarshal(unhex(t, "02 01 41 00 00")), bijoubuf.DefaultValuePresent, 3, "Person.age")
}

const a2 = "00 F9 01 F1 02 04 02 02 42 6F 06 0C 06 02 02 41 31 00 02 04 02 02 42 37 04 03 02 0C 04 67 69 66 74 01 04 72 75 73 68 0A"

func TestAppendixA2(t *testing.T) {
	in := unhex(t, a2)
	var o Order
	n, err := o.BijoubufUnmarshal(in, bijoubuf.DecodeOptions{}.Preserving(true))
	if err != nil || n != 1 {
		t.Fatalf("%d unknown, %v", n, err)
	}
	if o.Id != 1001 || o.Customer.Name != "Bo" || len(o.Lines) != 2 || o.Lines[0].Sku != "A1" || o.Lines[0].Qty != 2 || o.Lines[1].Sku != "B7" ||
		!reflect.DeepEqual(o.Tags, map[string]int64{"gift": -1, "rush": 5}) {
		t.Fatalf("decoded %+v", o)
	}
	if u := o.BijoubufUnknown(); len(u) != 1 || !reflect.DeepEqual(u[0], bijoubuf.UnknownRecord{Number: 6, Wire: bijoubuf.WireVarint, Value: 3}) {
		t.Fatalf("unknown %+v", u)
	}
	if out, err := o.Marshal(); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("re-encoded % X %v", out, err)
	}
	// Without lines the kept field 6 follows field 2: its key is recomputed.
	o.Lines = nil
	if out, err := o.Marshal(); err != nil || !bytes.Equal(out, unhex(t, "00 F9 01 F1 02 04 02 02 42 6F 0C 03 02 0C 04 67 69 66 74 01 04 72 75 73 68 0A")) {
		t.Fatalf("without lines: % X %v", out, err)
	}
	wantDecodeError(t, o.Unmarshal(in), bijoubuf.UnknownField, 24, "Order.6")
}

const a3 = "01 00 00 00 00 00 00 00 2A 01 7F F8 00 00 00 00 00 00 02 0C 3F C0 00 00 80 00 00 00 7F 80 00 00 00 00 04 05"

func TestAppendixA3(t *testing.T) {
	in := unhex(t, a3)
	var r Reading
	if err := r.Unmarshal(in); err != nil {
		t.Fatal(err)
	}
	if *r.Sensor != 42 || !math.IsNaN(*r.Value) || len(r.Samples) != 3 || r.Samples[0] != 1.5 || math.Float32bits(r.Samples[1]) != 0x80000000 ||
		!math.IsInf(float64(r.Samples[2]), 1) || *r.Offset != -3 || !reflect.DeepEqual(r.Unit, &Reading_Celsius{Celsius: false}) {
		t.Fatalf("decoded %+v", r)
	}
	// Any NaN is written canonically.
	r.Value = ptr(math.Float64frombits(0xFFF8000000000001))
	if out, err := r.Marshal(); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("another NaN: % X %v", out, err)
	}
	wantDecodeError(t, r.Unmarshal(in[9:]), bijoubuf.WireTypeMismatch, 9, "Reading.value")
	wantDecodeError(t, r.Unmarshal(unhex(t, "14 05")), bijoubuf.MissingRequiredField, 2, "Reading.sensor")
	// A second member of the oneof, at its key.
	wantDecodeError(t, r.Unmarshal(unhex(t, "01 00 00 00 00 00 00 00 2A 08 01 02 00")), bijoubuf.OneofConflict, 11, "Reading.other")
	r.Sensor = nil
	_, err := r.Marshal()
	wantEncodeError(t, err, bijoubuf.EncodeMissingRequiredField, "Reading.sensor")
}

func TestAppendixA4(t *testing.T) {
	stream := unhex(t, "09 "+a1+" 00")
	var got []*Person
	for pos := 0; pos < len(stream); {
		p := new(Person)
		next, _, err := bijoubuf.DecodeFrame(stream, pos, bijoubuf.DecodeOptions{}, "Person", true, p.BijoubufDecode)
		if err != nil {
			t.Fatal(err)
		}
		got, pos = append(got, p), next
	}
	if len(got) != 2 || got[0].Name != "Ada" || !reflect.DeepEqual(*got[1], Person{}) {
		t.Fatalf("frames %+v", got)
	}
	var out []byte
	for _, p := range got {
		b, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		out = bijoubuf.AppendFrame(out, b)
	}
	if !bytes.Equal(out, stream) {
		t.Fatalf("re-framed % X", out)
	}
}

// roundTrip encodes v, decodes the bytes into a new value, and wants the two equal and
// the bytes the same when encoded again.
func roundTrip[M any, P interface {
	*M
	bijoubuf.Message
}](t *testing.T, v P) []byte {
	t.Helper()
	b, err := v.Marshal()
	if err != nil {
		t.Fatalf("%T: %v", v, err)
	}
	back := P(new(M))
	if err := back.Unmarshal(b); err != nil {
		t.Fatalf("%T: % X: %v", v, b, err)
	}
	if !reflect.DeepEqual(back, v) {
		t.Fatalf("%T: decoded %+v, want %+v", v, back, v)
	}
	again, err := back.Marshal()
	if err != nil || !bytes.Equal(again, b) {
		t.Fatalf("%T: encoded again % X, first % X", v, again, b)
	}
	return b
}

func TestRoundTripsOfEveryShape(t *testing.T) {
	roundTrip(t, &Scalars{I32: -1, I64: math.MinInt64, U32: math.MaxUint32, U64: math.MaxUint64, S32: math.MinInt32, S64: 7, Flag: true,
		Color: Color(99), F32: 1, F64: 2, Sf32: -3, Sf64: -4, Fl: float32(math.Copysign(0, -1)), Db: math.Inf(-1), Str: "é😀", By: []byte{0}})
	roundTrip(t, &Scalars{})
	// Explicit presence: every field set to its default is still written.
	b := roundTrip(t, &Optionals{I32: ptr(int32(0)), I64: ptr(int64(0)), U32: ptr(uint32(0)), U64: ptr(uint64(0)), S32: ptr(int32(0)),
		S64: ptr(int64(0)), Flag: ptr(false), Color: ptr(Color_COLOR_UNSPECIFIED), F32: ptr(uint32(0)), F64: ptr(uint64(0)),
		Sf32: ptr(int32(0)), Sf64: ptr(int64(0)), Fl: ptr(float32(0)), Db: ptr(0.0), Str: ptr(""), By: []byte{}, Leaf: &Leaf{}})
	// 17 keys; varints, bools, strings and bytes 1 byte each (10), fixed 4+8+4+8+4+8, the leaf 1.
	if len(b) != 17+10+36+1 {
		t.Fatalf("all defaults set: % X", b)
	}
	roundTrip(t, &Repeats{I32: []int32{0, -1}, I64: []int64{1}, U32: []uint32{0}, U64: []uint64{math.MaxUint64}, S32: []int32{-5},
		S64: []int64{5}, Flag: []bool{true, false}, Color: []Color{Color_NEG, 7}, F32: []uint32{1, 2}, F64: []uint64{3}, Sf32: []int32{-1},
		Sf64: []int64{-2}, Fl: []float32{1.5}, Db: []float64{2.5}, Str: []string{"", "a"}, By: [][]byte{{}, {1}},
		Leaf: []*Leaf{{}, {A: 1, S: "x"}}})
	roundTrip(t, &Maps{I32: map[int32]uint32{-1: 0, 1: 1}, I64: map[int64]uint32{math.MinInt64: 1}, U32: map[uint32]uint32{0: 0},
		U64: map[uint64]uint32{math.MaxUint64: 1}, S32: map[int32]uint32{-2: 1, 1: 2}, S64: map[int64]uint32{-1: 1},
		F32: map[uint32]uint32{5: 5}, F64: map[uint64]uint32{6: 6}, Sf32: map[int32]uint32{-1: 1, 0: 0}, Sf64: map[int64]uint32{-1: 1},
		Flag: map[bool]uint32{true: 1, false: 0}, Str: map[string]uint32{"Ａ": 1, "😀": 2, "": 0}, VStr: map[uint32]string{1: ""},
		VBy: map[uint32][]byte{1: {}}, VDb: map[uint32]float64{1: 0}, VFl: map[uint32]float32{1: 0}, VFlag: map[uint32]bool{1: false},
		VColor: map[uint32]Color{1: 0}, VLeaf: map[uint32]*Leaf{1: {}, 2: {A: 3}}, VS64: map[string]int64{"a": 0}, VI32: map[uint32]int32{1: -1},
		VF64: map[uint32]uint64{1: 0}})
	for _, c := range []*Choice{
		{First: &Choice_A{A: 0}}, {First: &Choice_B{B: ""}}, {First: &Choice_C{C: &Leaf{}}}, {First: &Choice_D{D: 0}},
		{First: &Choice_A{A: 1}, After: 2, Second: &Choice_Y{Y: []byte{}}}, {Second: &Choice_X{X: false}},
	} {
		roundTrip(t, c)
	}
	roundTrip(t, &Node{Child: &Node{Val: 1}, Kids: []*Node{{}, {Kids: []*Node{{Val: 2}}}}, Named: map[uint32]*Node{3: {Child: &Node{}}}})
	roundTrip(t, &Keys{K62: 1, K63: 1, K126: 1, K127: 1, K16510: 1, K16511: 1, K4210814: 1, K4210815: 1, Top: true})
	roundTrip(t, &Keys{K16511: 1, Top: true})
	roundTrip(t, &Required{A: ptr(uint32(0)), C: ptr(""), B: ptr(uint32(7)), Inner: &Inner{X: ptr(int32(-1))},
		Inners: []*Inner{{X: ptr(int32(0)), Y: ptr(true)}}, ById: map[uint32]*Inner{0: {X: ptr(int32(1))}}})
	roundTrip(t, &Editions{A: 1, B: ptr(int32(0))})
	roundTrip(t, &Wkt{Ts: &wkt.Timestamp{Seconds: 1, Nanos: 2}, I32: &wkt.Int32Value{}, Empty: &wkt.Empty{},
		St:  &wkt.Struct{Fields: map[string]*wkt.Value{"k": {Kind: &wkt.Value_StringValue{StringValue: "v"}}}},
		Any: &wkt.Any{TypeUrl: "type.googleapis.com/conformance.Leaf", Value: []byte{0, 1}}})
}

func TestMapsAreWrittenInKeyOrder(t *testing.T) {
	// SPEC §6.4: strings by their UTF-8 bytes, signed keys by value.
	for i := 0; i < 20; i++ {
		m := &Maps{Str: map[string]uint32{"😀": 2, "Ａ": 1}}
		if out, err := m.Marshal(); err != nil || !bytes.Equal(out, unhex(t, "2E 0B 03 EF BC A1 01 04 F0 9F 98 80 02")) {
			t.Fatalf("str: % X %v", out, err)
		}
		m = &Maps{S32: map[int32]uint32{1: 2, -2: 1}}
		if out, err := m.Marshal(); err != nil || !bytes.Equal(out, unhex(t, "12 04 03 01 02 02")) {
			t.Fatalf("s32: % X %v", out, err)
		}
		m = &Maps{Flag: map[bool]uint32{true: 1, false: 0}}
		if out, err := m.Marshal(); err != nil || !bytes.Equal(out, unhex(t, "2A 04 00 00 01 01")) {
			t.Fatalf("flag: % X %v", out, err)
		}
	}
}

func TestEncoderRefusals(t *testing.T) {
	// A string that is not UTF-8 has no spelling.
	_, err := (&Middle{ByName: map[string]*Leaf{"k": {S: "\xff"}}}).Marshal()
	wantEncodeError(t, err, bijoubuf.EncodeInvalidUTF8, "Middle.by_name.s")
	_, err = (&Scalars{Str: "a\xc0"}).Marshal()
	wantEncodeError(t, err, bijoubuf.EncodeInvalidUTF8, "Scalars.str")
	// A required field unset deep inside.
	_, err = (&Required{A: ptr(uint32(1)), C: ptr(""), Inners: []*Inner{{}}}).Marshal()
	wantEncodeError(t, err, bijoubuf.EncodeMissingRequiredField, "Required.inners.x")
	// Depth: 3 levels pass a limit of 3, 4 do not; the default is 100.
	n := &Node{Child: &Node{Child: &Node{}}}
	if _, err := n.MarshalOptions(bijoubuf.EncodeOptions{}.WithMaxDepth(3)); err != nil {
		t.Fatal(err)
	}
	_, err = (&Node{Child: n}).MarshalOptions(bijoubuf.EncodeOptions{}.WithMaxDepth(3))
	wantEncodeError(t, err, bijoubuf.EncodeDepthLimitExceeded, "Node.child.child.child")
	_, err = (&Node{Kids: []*Node{n}}).MarshalOptions(bijoubuf.EncodeOptions{}.WithMaxDepth(3))
	wantEncodeError(t, err, bijoubuf.EncodeDepthLimitExceeded, "Node.kids.child.child")
	deep := &Node{}
	for i := 1; i < 100; i++ {
		deep = &Node{Child: deep}
	}
	if _, err := deep.Marshal(); err != nil {
		t.Fatalf("100 levels: %v", err)
	}
	_, err = (&Node{Child: deep}).Marshal()
	if e, ok := err.(*bijoubuf.EncodeError); !ok || e.Code() != bijoubuf.EncodeDepthLimitExceeded {
		t.Fatalf("101 levels: %v", err)
	}
	// The size limit, before any output.
	if _, err := (&Leaf{S: "abc"}).MarshalOptions(bijoubuf.EncodeOptions{}.WithMaxSize(5)); err != nil {
		t.Fatal(err)
	}
	_, err = (&Leaf{S: "abcd"}).MarshalOptions(bijoubuf.EncodeOptions{}.WithMaxSize(5))
	wantEncodeError(t, err, bijoubuf.EncodeSizeLimitExceeded, "Leaf")
}

func TestPreservedRecordsThatCouldNotBeDecodedAreRefused(t *testing.T) {
	// Leaf {a = 1} with an unknown field 3 kept.
	var l Leaf
	if _, err := l.BijoubufUnmarshal(unhex(t, "00 01 04 07"), bijoubuf.DecodeOptions{}.Preserving(true)); err != nil {
		t.Fatal(err)
	}
	if out, err := l.Marshal(); err != nil || !bytes.Equal(out, unhex(t, "00 01 04 07")) {
		t.Fatalf("kept: % X %v", out, err)
	}
	for _, u := range [][]bijoubuf.UnknownRecord{
		{{Number: 2, Wire: bijoubuf.WireVarint}},                                         // declared by Leaf
		{{Number: 4, Wire: bijoubuf.WireVarint}, {Number: 3, Wire: bijoubuf.WireVarint}}, // out of order
		{{Number: 3, Wire: bijoubuf.WireVarint}, {Number: 3, Wire: bijoubuf.WireVarint}}, // twice
		{{Number: bijoubuf.MaxFieldNumber + 1, Wire: bijoubuf.WireVarint}},
	} {
		var m Leaf
		m.unknown = &u
		_, err := m.Marshal()
		wantEncodeError(t, err, bijoubuf.EncodeUnknownFieldOrder, "Leaf")
	}
}

func TestAllocations(t *testing.T) {
	p := &Person{Name: "Ada", Age: 36, Score: ptr(int32(0))}
	// An encode allocates its output and nothing else.
	if n := testing.AllocsPerRun(100, func() { _, _ = p.Marshal() }); n != 1 {
		t.Errorf("Person.Marshal: %v allocations", n)
	}
	o := &Order{Id: 1001, Customer: &Customer{Name: "Bo"}, Lines: []*Line{{Sku: "A1", Qty: 2}, {Sku: "B7"}}, Tags: map[string]int64{"gift": -1}}
	// Its nested lengths fit in the size pass's own slots and the map's keys are sorted
	// in an array on the stack: still one allocation.
	if n := testing.AllocsPerRun(100, func() { _, _ = o.Marshal() }); n != 1 {
		t.Errorf("Order.Marshal: %v allocations", n)
	}
	// A decode allocates what the value holds: here the name and the score's pointer.
	in := unhex(t, a1)
	var q Person
	if n := testing.AllocsPerRun(100, func() { _ = q.Unmarshal(in) }); n != 2 {
		t.Errorf("Person.Unmarshal: %v allocations", n)
	}
	// A oneof's message and its wrapper are one allocation.
	c, err := (&Choice{First: &Choice_C{C: &Leaf{A: 7}}, After: 1}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var d Choice
	if n := testing.AllocsPerRun(100, func() { _ = d.Unmarshal(c) }); n != 1 {
		t.Errorf("Choice.Unmarshal: %v allocations", n)
	}
	if w, ok := d.First.(*Choice_C); !ok || w.C.A != 7 || d.After != 1 {
		t.Errorf("Choice decoded as %+v", d)
	}
}

// A decode of a large input copies its strings, nested ones too, one after another
// into shared chunks, in the order they were read (not a copy of the input with the
// keys and lengths between them), and they do not change when the input does.
func TestStringsAreCopiedBackToBack(t *testing.T) {
	o := &Order{Id: 1, Customer: &Customer{Name: "Bo"}}
	for i := range 1000 {
		o.Lines = append(o.Lines, &Line{Sku: string(rune('A' + i%26)), Qty: uint32(i)})
	}
	in, err := o.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var back Order
	if err := back.Unmarshal(in); err != nil {
		t.Fatal(err)
	}
	clear(in)
	if back.Customer.Name != "Bo" || len(back.Lines) != 1000 || back.Lines[0].Sku != "A" || back.Lines[999].Sku != "L" {
		t.Fatalf("decoded %q, %d lines", back.Customer.Name, len(back.Lines))
	}
	at := func(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }
	if at(back.Lines[0].Sku) != at(back.Customer.Name)+2 || at(back.Lines[1].Sku) != at(back.Customer.Name)+3 {
		t.Errorf("the strings are not one run of their bytes: %#x %#x %#x", at(back.Customer.Name), at(back.Lines[0].Sku), at(back.Lines[1].Sku))
	}
}

// A nil element of a repeated message field (a Go value with no wire form of its own) is
// written as the empty message and read back as one: the bytes are those of &Line{}.
func TestNilRepeatedMessageElementIsTheEmptyMessage(t *testing.T) {
	withNil, err := (&Order{Id: 7, Lines: []*Line{{Sku: "A1"}, nil}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	withEmpty, err := (&Order{Id: 7, Lines: []*Line{{Sku: "A1"}, {}}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(withNil, withEmpty) {
		t.Fatalf("nil element %x, empty element %x", withNil, withEmpty)
	}
	var back Order
	if err := back.Unmarshal(withNil); err != nil {
		t.Fatal(err)
	}
	if len(back.Lines) != 2 || back.Lines[1] == nil || back.Lines[1].Sku != "" {
		t.Fatalf("decoded %+v", back.Lines)
	}
}

// The same for a nil message value of a map: written as the empty message.
func TestNilMapMessageValueIsTheEmptyMessage(t *testing.T) {
	withNil, err := (&Maps{VLeaf: map[uint32]*Leaf{1: nil}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	withEmpty, err := (&Maps{VLeaf: map[uint32]*Leaf{1: {}}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(withNil, withEmpty) {
		t.Fatalf("nil value %x, empty value %x", withNil, withEmpty)
	}
	var back Maps
	if err := back.Unmarshal(withNil); err != nil {
		t.Fatal(err)
	}
	if v, ok := back.VLeaf[1]; !ok || v == nil {
		t.Fatalf("decoded %+v", back.VLeaf)
	}
}

// TestStructsHaveNoPadding: every generated message struct (the conformance schemas',
// the evolution schemas' and the well-known types') is as small as its fields allow:
// the fields are declared widest alignment first, so no padding lies between them, and
// the unknown records cost a pointer. A decode allocates these structs, and in a
// program with a live heap the collector's work grows with the bytes allocated.
func TestStructsHaveNoPadding(t *testing.T) {
	checked := map[string]bool{}
	bijoubuf.RangeMessages(func(d *bijoubuf.MessageDesc) bool {
		typ := reflect.TypeOf(d.New()).Elem()
		sum := uintptr(0)
		for i := range typ.NumField() {
			sum += typ.Field(i).Type.Size()
		}
		align := uintptr(typ.Align())
		if want := (sum + align - 1) / align * align; typ.Size() != want {
			t.Errorf("%s: %d bytes, its fields %d (%d with the tail padding)", d.FullName, typ.Size(), sum, want)
		}
		if f, ok := typ.FieldByName("unknown"); !ok || f.Type.Size() != unsafe.Sizeof(uintptr(0)) {
			t.Errorf("%s: the unknown records are not behind a pointer: %v", d.FullName, f.Type)
		}
		checked[d.FullName] = true
		return true
	})
	for _, name := range []string{"conformance.Person", "google.protobuf.Timestamp", "evolution.v2.Record"} {
		if !checked[name] {
			t.Errorf("%s was not checked (%d types were)", name, len(checked))
		}
	}
}
