package bijoubuf

import (
	"bytes"
	"math"
	"testing"
)

// SPEC Appendix A, decoded by hand with the primitives and re-encoded with the Writer.

var person = &msgT{"Person", []field{
	{num: 1, name: "name", kind: kString, implicit: true},
	{num: 2, name: "age", kind: kInt32, implicit: true},
	{num: 3, name: "active", kind: kBool, implicit: true},
	{num: 5, name: "score", kind: kInt32},
}}

const a1 = "02 03 41 64 61 00 48 08 00"

func TestAppendixA1(t *testing.T) {
	v := wantRoundTrip(t, person, DecodeOptions{}, unhex(t, a1))
	if v.fields[1] != "Ada" || v.fields[2] != int64(36) || v.fields[5] != int64(0) {
		t.Fatalf("A.1 decoded %v", v.fields)
	}
	if _, ok := v.fields[3]; ok {
		t.Fatal("active = false was present")
	}
	// With score unset: the first 7 bytes. With active = true: 00 01 before field 5,
	// whose key becomes 04.
	delete(v.fields, 5)
	if out, _ := person.encode(v); !bytes.Equal(out, unhex(t, a1)[:7]) {
		t.Errorf("without score: % X", out)
	}
	v.fields[5] = int64(0)
	v.fields[3] = true
	if out, _ := person.encode(v); !bytes.Equal(out, unhex(t, "02 03 41 64 61 00 48 00 01 04 00")) {
		t.Errorf("active = true: % X", out)
	}
}

var (
	customer = &msgT{"Customer", []field{{num: 1, name: "name", kind: kString, implicit: true}}}
	line     = &msgT{"Line", []field{
		{num: 1, name: "sku", kind: kString, implicit: true},
		{num: 2, name: "qty", kind: kUint32, implicit: true},
	}}
	order = &msgT{"Order", []field{
		{num: 1, name: "id", kind: kUint64, implicit: true},
		{num: 2, name: "customer", kind: kMsg, msg: customer},
		{num: 4, name: "lines", kind: kMsg, msg: line, repeated: true},
		{num: 7, name: "tags", mapKey: kString, kind: kInt64},
	}}
)

const a2 = "00 F9 01 F1 02 04 02 02 42 6F 06 0C 06 02 02 41 31 00 02 04 02 02 42 37 04 03 02 0C 04 67 69 66 74 01 04 72 75 73 68 0A"

func TestAppendixA2(t *testing.T) {
	in := unhex(t, a2)
	preserving := DecodeOptions{}.Preserving(true)
	v, unknown, err := order.decodeAll(in, preserving)
	if err != nil {
		t.Fatal(err)
	}
	if unknown != 1 || len(v.unknown) != 1 || (v.unknown[0].Number != 6 || v.unknown[0].Wire != WireVarint || v.unknown[0].Value != 3) {
		t.Fatalf("unknown fields: %d %+v", unknown, v.unknown)
	}
	if v.fields[1] != uint64(1001) || v.fields[2].(*val).fields[1] != "Bo" {
		t.Fatalf("A.2 decoded %v", v.fields)
	}
	lines := v.fields[4].([]any)
	if len(lines) != 2 || lines[0].(*val).fields[1] != "A1" || lines[0].(*val).fields[2] != uint64(2) || lines[1].(*val).fields[1] != "B7" {
		t.Fatalf("lines %v", lines)
	}
	tags := v.fields[7].([]entry)
	if len(tags) != 2 || tags[0] != (entry{"gift", int64(-1)}) || tags[1] != (entry{"rush", int64(5)}) {
		t.Fatalf("tags %v", tags)
	}
	wantRoundTrip(t, order, preserving, in)
	// Clearing lines: the preserved field 6 follows field 2, its key recomputed (0C).
	delete(v.fields, 4)
	out, err := order.encode(v)
	if err != nil || !bytes.Equal(out, unhex(t, "00 F9 01 F1 02 04 02 02 42 6F 0C 03 02 0C 04 67 69 66 74 01 04 72 75 73 68 0A")) {
		t.Fatalf("without lines: % X %v", out, err)
	}
	// A strict decoder refuses the original bytes.
	_, _, err = order.decodeAll(in, DecodeOptions{})
	wantError(t, err, UnknownField, 24, "Order.6")
}

var reading = &msgT{"Reading", []field{
	{num: 1, name: "sensor", kind: kFixed64, required: true},
	{num: 2, name: "value", kind: kDouble},
	{num: 3, name: "samples", kind: kFloat, repeated: true},
	{num: 4, name: "celsius", kind: kBool, oneof: "unit"},
	{num: 5, name: "other", kind: kString, oneof: "unit"},
	{num: 6, name: "offset", kind: kInt32},
}}

const a3 = "01 00 00 00 00 00 00 00 2A 01 7F F8 00 00 00 00 00 00 02 0C 3F C0 00 00 80 00 00 00 7F 80 00 00 00 00 04 05"

func TestAppendixA3(t *testing.T) {
	in := unhex(t, a3)
	v := wantRoundTrip(t, reading, DecodeOptions{}, in)
	s := v.fields[3].([]any)
	if v.fields[1] != uint64(42) || !math.IsNaN(v.fields[2].(float64)) || v.fields[4] != false || v.fields[6] != int64(-3) ||
		len(s) != 3 || s[0] != float32(1.5) || math.Float32bits(s[1].(float32)) != 0x80000000 || !math.IsInf(float64(s[2].(float32)), 1) {
		t.Fatalf("A.3 decoded %v", v.fields)
	}
	// Any NaN is written canonically.
	v.fields[2] = math.Float64frombits(0xFFF8000000000001)
	if out, err := reading.encode(v); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("another NaN: % X %v", out, err)
	}
	// Bytes 9..35 alone: 01 is sensor holding the NaN's bits, 02 then is value as LEN.
	_, _, err := reading.decodeAll(in[9:], DecodeOptions{})
	wantError(t, err, WireTypeMismatch, 9, "Reading.value")
	_, _, err = reading.decodeAll(unhex(t, "14 05"), DecodeOptions{})
	wantError(t, err, MissingRequiredField, 2, "Reading.sensor")
}

func TestAppendixA4(t *testing.T) {
	stream := unhex(t, "09 "+a1+" 00")
	// Built with AppendFrame from the two messages.
	if got := AppendFrame(AppendFrame(nil, unhex(t, a1)), nil); !bytes.Equal(got, stream) {
		t.Fatalf("AppendFrame: % X", got)
	}
	var got []*val
	decode := func(r *Reader) error {
		v, err := person.decode(r)
		got = append(got, v)
		return err
	}
	for pos := 0; pos < len(stream); {
		next, _, err := DecodeFrame(stream, pos, DecodeOptions{}, "Person", false, decode)
		if err != nil {
			t.Fatal(err)
		}
		pos = next
	}
	if len(got) != 2 || got[0].fields[1] != "Ada" || len(got[1].fields) != 0 {
		t.Fatalf("frames %v", got)
	}
	// A frame declaring 5 bytes of which 2 arrive: truncated at its prefix, 11.
	bad := append(stream, 0x05, 0x02, 0x03)
	pos := 0
	var err error
	for pos < len(bad) {
		if pos, _, err = DecodeFrame(bad, pos, DecodeOptions{}, "Person", false, decode); err != nil {
			break
		}
	}
	wantError(t, err, Truncated, 11, "Person")
	// Errors inside a frame count from the stream's start.
	_, _, err = DecodeFrame(unhex(t, "00 02 04 00"), 1, DecodeOptions{}, "Person", false, decode)
	wantError(t, err, DefaultValuePresent, 2, "Person.age")
	// The size limit is per frame, at the prefix, before the bytes are awaited.
	_, _, err = DecodeFrame(unhex(t, "F8 00"), 0, DecodeOptions{}.WithMaxSize(100), "Person", false, decode)
	wantError(t, err, SizeLimitExceeded, 0, "Person")
	_, _, err = DecodeFrame(unhex(t, "09 "+a1), 0, DecodeOptions{}.WithMaxSize(9), "Person", false, decode)
	if err != nil {
		t.Fatalf("a frame at the size limit: %v", err)
	}
	// An overflowing prefix, and an incomplete one.
	_, _, err = DecodeFrame(unhex(t, "FF FF FF FF FF FF FF FF FF"), 0, DecodeOptions{}, "Person", false, decode)
	wantError(t, err, VarintOverflow, 0, "Person")
	_, _, err = DecodeFrame(unhex(t, "F9 01"), 0, DecodeOptions{}, "Person", false, decode)
	wantError(t, err, Truncated, 0, "Person")
}
