package bijoubufjson

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
)

// A message type written by hand in the shape generated code has (desc.go), so the
// mapping is tested without a code generator: only BijoubufDesc and New are used by it.

type tColor int32

type isChoice interface{ isChoice() }
type tMsg_Name struct{ Name string }
type tMsg_Num struct{ Num int32 }

func (*tMsg_Name) isChoice() {}
func (*tMsg_Num) isChoice()  {}

var errHand = errors.New("hand-written test type: no wire form")

type stub struct{}

func (stub) Marshal() ([]byte, error)                                      { return nil, errHand }
func (stub) MarshalOptions(bijoubuf.EncodeOptions) ([]byte, error)         { return nil, errHand }
func (stub) Unmarshal([]byte) error                                        { return errHand }
func (stub) UnmarshalOptions([]byte, bijoubuf.DecodeOptions) error         { return errHand }
func (stub) BijoubufUnknown() []bijoubuf.UnknownRecord                     { return nil }
func (stub) BijoubufUnmarshal([]byte, bijoubuf.DecodeOptions) (int, error) { return 0, errHand }

var colorDesc = bijoubuf.EnumDesc{FullName: "t.Color", Values: []bijoubuf.EnumValueDesc{
	{Name: "RED", Number: 0}, {Name: "GREEN", Number: 1}, {Name: "BLUE", Number: 2},
}}

var msgDesc, tsDesc bijoubuf.MessageDesc

func init() {
	tsDesc = bijoubuf.MessageDesc{FullName: "google.protobuf.Timestamp", Name: "Timestamp",
		Fields: []bijoubuf.FieldDesc{
			{Number: 1, Name: "seconds", JSONName: "seconds", GoName: "Seconds", Kind: bijoubuf.KindInt64},
			{Number: 2, Name: "nanos", JSONName: "nanos", GoName: "Nanos", Kind: bijoubuf.KindInt32},
		},
		New: func() bijoubuf.Message { return &tTimestampFull{} },
	}
	self := func() *bijoubuf.MessageDesc { return &msgDesc }
	f := func(n uint32, name, json, goName string, k bijoubuf.Kind) bijoubuf.FieldDesc {
		return bijoubuf.FieldDesc{Number: n, Name: name, JSONName: json, GoName: goName, Kind: k}
	}
	fields := []bijoubuf.FieldDesc{
		f(1, "i32", "i32", "I32", bijoubuf.KindSint32),
		f(2, "i64", "i64", "I64", bijoubuf.KindInt64),
		f(3, "u64", "u64", "U64", bijoubuf.KindFixed64),
		f(4, "f", "f", "F", bijoubuf.KindFloat),
		f(5, "d", "d", "D", bijoubuf.KindDouble),
		f(6, "s", "s", "S", bijoubuf.KindString),
		f(7, "b", "b", "B", bijoubuf.KindBytes),
		f(8, "flag", "flag", "Flag", bijoubuf.KindBool),
		f(9, "color", "color", "Color", bijoubuf.KindEnum),
		f(10, "opt_i", "optI", "OptI", bijoubuf.KindInt32),
		f(11, "opt_b", "optB", "OptB", bijoubuf.KindBytes),
		f(12, "child", "child", "Child", bijoubuf.KindMessage),
		f(13, "list", "list", "List", bijoubuf.KindUint32),
		f(14, "kids", "kids", "Kids", bijoubuf.KindMessage),
		f(15, "m", "m", "M", bijoubuf.KindMessage),
		f(16, "im", "im", "IM", bijoubuf.KindMessage),
		f(17, "bm", "bm", "BM", bijoubuf.KindMessage),
		f(18, "name", "name", "Name", bijoubuf.KindString),
		f(19, "num", "num", "Num", bijoubuf.KindInt32),
		f(20, "when", "when", "When", bijoubuf.KindMessage),
	}
	fields[8].Enum = &colorDesc
	fields[9].Explicit = true
	fields[10].Explicit = true
	fields[11].Message, fields[11].Explicit = self, true
	fields[12].Repeated = true
	fields[13].Message, fields[13].Repeated = self, true
	key := func(k bijoubuf.Kind) *bijoubuf.FieldDesc { return &bijoubuf.FieldDesc{Number: 1, Name: "key", Kind: k} }
	val := func(k bijoubuf.Kind) *bijoubuf.FieldDesc {
		return &bijoubuf.FieldDesc{Number: 2, Name: "value", Kind: k}
	}
	fields[14].Map, fields[14].MapKey, fields[14].MapValue = true, key(bijoubuf.KindString), val(bijoubuf.KindSint64)
	fields[15].Map, fields[15].MapKey, fields[15].MapValue = true, key(bijoubuf.KindInt32), val(bijoubuf.KindMessage)
	fields[15].MapValue.Message = self
	fields[16].Map, fields[16].MapKey, fields[16].MapValue = true, key(bijoubuf.KindBool), val(bijoubuf.KindString)
	for i, w := range []func() any{func() any { return &tMsg_Name{} }, func() any { return &tMsg_Num{} }} {
		fields[17+i].Oneof, fields[17+i].OneofGoName, fields[17+i].NewOneofWrapper = "choice", "Choice", w
		fields[17+i].Explicit = true
	}
	fields[19].Message, fields[19].Explicit = func() *bijoubuf.MessageDesc { return &tsDesc }, true
	msgDesc = bijoubuf.MessageDesc{FullName: "t.Msg", Name: "Msg", Fields: fields,
		New: func() bijoubuf.Message { return &tMsgFull{} }}
}

type tMsgFull struct {
	I32    int32
	I64    int64
	U64    uint64
	F      float32
	D      float64
	S      string
	B      []byte
	Flag   bool
	Color  tColor
	OptI   *int32
	OptB   []byte
	Child  *tMsgFull
	List   []uint32
	Kids   []*tMsgFull
	M      map[string]int64
	IM     map[int32]*tMsgFull
	BM     map[bool]string
	Choice isChoice
	When   *tTimestampFull
	stub
}

func (*tMsgFull) BijoubufDesc() *bijoubuf.MessageDesc { return &msgDesc }

type tTimestampFull struct {
	Seconds int64
	Nanos   int32
	stub
}

func (*tTimestampFull) BijoubufDesc() *bijoubuf.MessageDesc { return &tsDesc }

func read(t *testing.T, text string) *tMsgFull {
	t.Helper()
	m := &tMsgFull{}
	if err := Unmarshal(text, m); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return m
}

func TestReadsEveryShape(t *testing.T) {
	m := read(t, `{"i32": -5, "i64": "-9223372036854775808", "u64": 18446744073709551615,
		"f": "Infinity", "d": "1e-3", "s": "é", "b": "3q2-7w", "flag": true, "color": "BLUE",
		"opt_i": 0, "optB": "", "child": {"i32": "7"}, "list": [1, "2", 3.0],
		"kids": [{}, {"name": "x"}], "m": {"b": "2", "a": 1}, "im": {"-1": {}, "02": {"num": 0}},
		"bm": {"true": "t"}, "num": 0, "when": "1970-01-01T00:00:01.5Z"}`)
	want := &tMsgFull{
		I32: -5, I64: math.MinInt64, U64: math.MaxUint64, F: float32(math.Inf(1)), D: 0.001, S: "é",
		B: []byte{0xde, 0xad, 0xbe, 0xef}, Flag: true, Color: 2, OptI: new(int32), OptB: []byte{},
		Child: &tMsgFull{I32: 7}, List: []uint32{1, 2, 3},
		Kids: []*tMsgFull{{}, {Choice: &tMsg_Name{Name: "x"}}}, M: map[string]int64{"a": 1, "b": 2},
		IM: map[int32]*tMsgFull{-1: {}, 2: {Choice: &tMsg_Num{}}}, BM: map[bool]string{true: "t"},
		Choice: &tMsg_Num{}, When: &tTimestampFull{Seconds: 1, Nanos: 500_000_000},
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("read\n%+v\nwant\n%+v", m, want)
	}
	// Written back: field-number order, JSON names, the canonical spellings, map keys
	// in key order; and read again to the same value.
	text, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	const out = `{"i32":-5,"i64":"-9223372036854775808","u64":"18446744073709551615","f":"Infinity",` +
		`"d":0.001,"s":"é","b":"3q2+7w==","flag":true,"color":"BLUE","optI":0,"optB":"",` +
		`"child":{"i32":7},"list":[1,2,3],"kids":[{},{"name":"x"}],"m":{"a":"1","b":"2"},` +
		`"im":{"-1":{},"2":{"num":0}},"bm":{"true":"t"},"num":0,"when":"1970-01-01T00:00:01.500Z"}`
	if text != out {
		t.Fatalf("wrote\n%s\nwant\n%s", text, out)
	}
	if again := read(t, text); !reflect.DeepEqual(again, m) {
		t.Fatalf("read back %+v", again)
	}
	// null is absent; an empty object is the empty message; -0.0 is a value.
	if m := read(t, `{"i32": null, "child": null, "kids": null, "color": null, "d": -0}`); m.Child != nil ||
		m.Kids != nil || m.I32 != 0 || !math.Signbit(m.D) {
		t.Fatalf("nulls: %+v", m)
	}
	if text, _ := Marshal(read(t, `{"d": -0, "f": 0, "color": 7}`)); text != `{"d":-0.0,"color":7}` {
		t.Fatalf("-0.0 and an unnamed enum number: %s", text)
	}
}

func TestRefusesWhatRustRefuses(t *testing.T) {
	for _, c := range []struct{ text, path, why string }{
		{`{"nope": 1}`, "$.nope", `t.Msg has no field named "nope"`},
		{`{"opt_i": 1, "optI": 2}`, "$.optI", `field opt_i is also given as "opt_i"`},
		{`{"opt_i": null, "optI": 2}`, "$.optI", `also given`},
		{`{"name": "a", "num": 1}`, "$.num", `oneof choice already has a member set ("name")`},
		{`{"i32": 2147483648}`, "$.i32", "out of range"},
		{`{"i32": 1.5}`, "$.i32", "expected an integer"},
		{`{"u64": -1}`, "$.u64", "out of range"},
		{`{"list": [1, -1]}`, "$.list[1]", "out of range"},
		{`{"list": {}}`, "$.list", "expected an array"},
		{`{"f": 1e39}`, "$.f", "out of range for float"},
		{`{"color": "PURPLE"}`, "$.color", "is not a value of t.Color"},
		{`{"color": "1"}`, "$.color", "is not a value"},
		{`{"color": 2147483648}`, "$.color", "outside the int32 range"},
		{`{"color": true}`, "$.color", "expected an enum name or number"},
		{`{"flag": "true"}`, "$.flag", "expected true or false"},
		{`{"s": 1}`, "$.s", "expected a string"},
		{`{"b": "QR=="}`, "$.b", "base64"},
		{`{"m": {"a": 1.5}}`, "$.m.a", "expected an integer"},
		{`{"im": {"1": {}, "01": {}}}`, "$.im.01", "the same map key twice"},
		{`{"im": {"x": {}}}`, "$.im.x", "expected an integer"},
		{`{"bm": {"1": ""}}`, "$.bm.1", `"true" or "false"`},
		{`{"child": []}`, "$.child", "expected an object for t.Msg, found an array"},
		{`{"when": "1970-01-01T00:00:00"}`, "$.when", "RFC 3339"},
		{`{"when": 0}`, "$.when", "expected an RFC 3339 timestamp string"},
		{`[]`, "$", "expected an object"},
		{`{"i64": "9223372036854775808"}`, "$.i64", "out of range for int64"},
		{`{"i32": "-2147483649"}`, "$.i32", "out of range for sint32"},
		{`{"u64": "18446744073709551616"}`, "$.u64", "out of range for fixed64"},
		{`{"u64": "-1"}`, "$.u64", "out of range for fixed64"},
		// A repeated message's elements: one not an object, one with a bad field, and
		// paths spelled right after the reader has been deeper elsewhere.
		{`{"kids": [{}, null]}`, "$.kids[1]", "expected an object for t.Msg, found null"},
		{`{"kids": [{}, 5]}`, "$.kids[1]", "expected an object for t.Msg, found a number"},
		{`{"kids": [{}, {"s": 1}]}`, "$.kids[1].s", "expected a string"},
		{`{"kids": [{"child": {"kids": [{}]}}], "child": {"kids": [{}, {"list": [1, -1]}]}}`,
			"$.child.kids[1].list[1]", "out of range"},
		{`{"im": {"1": {"kids": [{"im": {}}]}, "2": {"s": 1}}}`, "$.im.2.s", "expected a string"},
		{`{"kids": [{"kids": [{"i32": 1}]}, {"kids": [{"i32": true}]}]}`, "$.kids[1].kids[0].i32",
			"expected an integer"},
	} {
		err := Unmarshal(c.text, &tMsgFull{})
		var e *Error
		if !errors.As(err, &e) || e.Path != c.path || !strings.Contains(e.Message, c.why) {
			t.Errorf("%s: %v, want %s: …%s…", c.text, err, c.path, c.why)
		}
	}
	for _, bad := range []string{`{"i32": 1, "i32": 2}`, `{"i32": 1`, `{} x`} {
		var e *Error
		if err := Unmarshal(bad, &tMsgFull{}); !errors.As(err, &e) || e.Path != "" {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	nest := func(n int) string { return strings.Repeat(`{"child":`, n-1) + "{}" + strings.Repeat("}", n-1) }
	if err := Unmarshal(nest(100), &tMsgFull{}); err != nil {
		t.Fatalf("100 levels: %v", err)
	}
	err := Unmarshal(nest(101), &tMsgFull{})
	if err == nil || !strings.Contains(err.Error(), "messages nest deeper than 100") {
		t.Fatalf("101 levels: %v", err)
	}
	// Through repeated fields the text nests twice as deep: still 100 messages.
	kids := func(n int) string { return strings.Repeat(`{"kids":[`, n-1) + "{}" + strings.Repeat("]}", n-1) }
	if err := Unmarshal(kids(100), &tMsgFull{}); err != nil {
		t.Fatalf("100 levels through lists: %v", err)
	}
	if err := Unmarshal(kids(101), &tMsgFull{}); err == nil {
		t.Fatal("101 levels through lists read")
	}
	if err := UnmarshalOptions(nest(150), &tMsgFull{}, Options{MaxDepth: 150}); err != nil {
		t.Fatalf("150 under 150: %v", err)
	}
	// 0 is 1; above 500 is 500.
	if err := UnmarshalOptions(`{"child":{}}`, &tMsgFull{}, Options{MaxDepth: -1}); err == nil {
		t.Fatal("depth 2 under limit 1")
	}
	if err := UnmarshalOptions(nest(501), &tMsgFull{}, Options{MaxDepth: 1 << 30}); err == nil {
		t.Fatal("501 levels under the cap")
	}
	m := read(t, nest(100))
	if _, err := Marshal(m); err != nil {
		t.Fatalf("writing 100 levels: %v", err)
	}
	deeper := &tMsgFull{Child: m}
	if _, err := Marshal(deeper); err == nil || !strings.Contains(err.Error(), "deeper than 100") {
		t.Fatalf("writing 101 levels: %v", err)
	}
}

func TestWriteRefusesValuesWithNoJSONForm(t *testing.T) {
	for _, m := range []*tMsgFull{
		{When: &tTimestampFull{Seconds: tsMax + 1}},
		{When: &tTimestampFull{Nanos: -1}},
		{S: "\xff"},
	} {
		if text, err := Marshal(m); err == nil {
			t.Errorf("%+v written as %s", m, text)
		}
	}
}

// The elements of a repeated message field are read into one array of structs, one
// after the other, so that a walk over them reads memory in order; elements with no
// room under the depth limit are refused as before.
func TestRepeatedMessagesLieTogether(t *testing.T) {
	m := read(t, `{"kids": [{"i32": 1}, {"name": "x"}, {"kids": [{}, {"s": "y"}]}, {}]}`)
	want := []*tMsgFull{{I32: 1}, {Choice: &tMsg_Name{Name: "x"}}, {Kids: []*tMsgFull{{}, {S: "y"}}}, {}}
	if !reflect.DeepEqual(m.Kids, want) {
		t.Fatalf("read %+v", m.Kids)
	}
	size := unsafe.Sizeof(tMsgFull{})
	together := func(kids []*tMsgFull) bool {
		for i := 1; i < len(kids); i++ {
			if uintptr(unsafe.Pointer(kids[i]))-uintptr(unsafe.Pointer(kids[i-1])) != size {
				return false
			}
		}
		return true
	}
	if !together(m.Kids) || !together(m.Kids[2].Kids) {
		t.Fatalf("elements of %d bytes at %p %p %p %p", size, m.Kids[0], m.Kids[1], m.Kids[2], m.Kids[3])
	}
	// Not read together: elements past the depth limit (which the text's nesting limit
	// refuses first, except inside Any), of a type with a special form, or not objects.
	et := reflect.TypeOf(m.Kids).Elem()
	objects := []Value{{Kind: Object}, {Kind: Object}}
	if !slabbable(&msgDesc, et, objects, depth{at: 2, max: 2}) || slabbable(&msgDesc, et, objects, depth{at: 3, max: 2}) ||
		slabbable(&tsDesc, reflect.TypeOf(m.When), objects, depth{at: 2, max: 2}) ||
		slabbable(&msgDesc, et, []Value{{Kind: Object}, {Kind: Null}}, depth{at: 2, max: 2}) {
		t.Fatal("slabbable")
	}
}

// The integers written plainly, read without a big.Int, agree with integer.
func TestPlainIntegers(t *testing.T) {
	for _, text := range []string{`0`, `5`, `-5`, `"5"`, `"+5"`, `"-0"`, `"007"`, `"-007"`,
		`9223372036854775807`, `9223372036854775808`, `-9223372036854775808`,
		`"9223372036854775807"`, `"9223372036854775808"`, `"-9223372036854775808"`,
		`"-9223372036854775809"`, `18446744073709551615`, `"18446744073709551615"`,
		`18446744073709551616`, `"18446744073709551616"`, `1e2`, `"1e2"`, `5.0`, `1.5`, `true`} {
		j := parseOne(t, text)
		n, why := integer(&j)
		if i, ok := plainInt64(&j); ok && (why != "" || !n.IsInt64() || n.Int64() != i) {
			t.Errorf("%s: plainInt64 %d, integer %v %q", text, i, n, why)
		} else if !ok && why == "" && n.IsInt64() && j.Kind == String && !strings.ContainsAny(j.Str, "e.") {
			t.Errorf("%s: plainInt64 refused %v", text, n)
		}
		if u, ok := plainUint64(&j); ok && (why != "" || !n.IsUint64() || n.Uint64() != u) {
			t.Errorf("%s: plainUint64 %d, integer %v %q", text, u, n, why)
		}
	}
}
