package bijoubuf

import (
	"bytes"
	"math"
	"testing"
)

func TestKeys(t *testing.T) {
	// SPEC §4.1's table: prev, number, wire type → key bytes.
	cases := []struct {
		prev, number uint32
		wire         WireType
		bytes        string
	}{
		{0, 1, WireVarint, "00"},
		{0, 1, WireLen, "02"},
		{1, 2, WireI32, "03"},
		{2, 5, WireI64, "09"},
		{0, 15, WireVarint, "38"},
		{0, 63, WireLen, "F8 02"},
		{5, 100, WireLen, "F8 82"},
		{0, MaxFieldNumber, WireLen, "FB 7E FE FE 02"},
	}
	for _, c := range cases {
		want := unhex(t, c.bytes)
		if KeySize(c.prev, c.number) != len(want) {
			t.Errorf("KeySize(%d, %d) = %d", c.prev, c.number, KeySize(c.prev, c.number))
		}
		w := NewWriter(len(want))
		w.prev = c.prev
		w.Key(c.number, c.wire)
		if got, err := w.Bytes(); err != nil || !bytes.Equal(got, want) {
			t.Errorf("key %d after %d: % X %v, want % X", c.number, c.prev, got, err, want)
		}
		// Read back: the same number and wire type.
		r := readerOver(want)
		r.prev = c.prev
		if err := r.readKey(); err != nil || r.next != c.number || r.nextWire != c.wire {
			t.Errorf("read % X after %d: %d %d %v", want, c.prev, r.next, r.nextWire, err)
		}
	}
}

func TestWriterRefusesFieldOrder(t *testing.T) {
	for _, numbers := range [][]uint32{{2, 2}, {3, 1}, {0}, {MaxFieldNumber + 1}} {
		w := NewWriter(16)
		for _, n := range numbers {
			w.Key(n, WireVarint)
			w.Varint(1)
		}
		_, err := w.Bytes()
		if e, ok := err.(*EncodeError); !ok || e.Code() != EncodeFieldOrder {
			t.Errorf("fields %v: %v", numbers, err)
		}
	}
}

func TestWriterRefusesWrongSizes(t *testing.T) {
	// Past the announced size: stopped, no panic.
	w := NewWriter(2)
	w.Key(1, WireLen)
	w.String("abc")
	if _, err := w.Bytes(); err == nil || err.(*EncodeError).Code() != EncodeSizeMismatch {
		t.Errorf("overrun: %v", err)
	}
	// Short of it.
	w = NewWriter(3)
	w.Key(1, WireVarint)
	w.Varint(1)
	if _, err := w.Bytes(); err == nil || err.(*EncodeError).Code() != EncodeSizeMismatch {
		t.Errorf("short: %v", err)
	}
	// A nested message that wrote other than it announced.
	w = NewWriter(4)
	w.Key(1, WireLen)
	m := w.Begin(1)
	w.Key(1, WireVarint)
	w.Varint(0)
	w.End(m)
	if _, err := w.Bytes(); err == nil || err.(*EncodeError).Code() != EncodeSizeMismatch {
		t.Errorf("nested: %v", err)
	}
}

func TestWriterScalars(t *testing.T) {
	// SPEC §3's table, written.
	var out []byte
	write := func(f func(w *Writer), size int) []byte {
		w := NewWriter(size)
		f(w)
		b, err := w.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
		return b
	}
	write(func(w *Writer) { w.Zigzag(-1) }, ZigzagSize(-1))
	write(func(w *Writer) { w.Zigzag(150) }, ZigzagSize(150))
	write(func(w *Writer) { w.Zigzag(math.MinInt32) }, ZigzagSize(math.MinInt32))
	write(func(w *Writer) { w.Varint(math.MaxUint32) }, VarintSize(math.MaxUint32))
	write(func(w *Writer) { w.Bool(true) }, 1)
	write(func(w *Writer) { w.Fixed32(uint32(0xFFFFFFFE)) }, 4)
	write(func(w *Writer) { w.Float32(float32(math.Copysign(0, -1))) }, 4)
	write(func(w *Writer) { w.Float32(math.Float32frombits(0xFFC00001)) }, 4)
	write(func(w *Writer) { w.Float64(math.NaN()) }, 8)
	write(func(w *Writer) { w.String("hé") }, LenSize(3))
	write(func(w *Writer) { w.LenBytes([]byte{0xDE, 0xAD, 0xBE, 0xEF}) }, LenSize(4))
	want := unhex(t, "01 F8 34 FB FE FE FE 07 FB FE FE FE 07 01 FF FF FF FE 80 00 00 00 7F C0 00 00 7F F8 00 00 00 00 00 00 03 68 C3 A9 04 DE AD BE EF")
	if !bytes.Equal(out, want) {
		t.Errorf("got  % X\nwant % X", out, want)
	}
}

func TestEncoderChecks(t *testing.T) {
	if err := CheckString("a\xED\xA0\x80"); err == nil || err.(*EncodeError).Code() != EncodeInvalidUTF8 {
		t.Errorf("a surrogate's bytes: %v", err)
	}
	if err := CheckString("hé\u0000\uFEFF"); err != nil {
		t.Errorf("valid string: %v", err)
	}
	o := EncodeOptions{}
	if o.CheckDepth(100) != nil || o.CheckDepth(101) == nil {
		t.Error("default encode depth limit is not 100")
	}
	if o.WithMaxDepth(9999).CheckDepth(501) == nil || o.WithMaxDepth(0).CheckDepth(2) == nil {
		t.Error("encode depth limit not clamped")
	}
	if o.CheckSize(1<<40) != nil || o.WithMaxSize(4).CheckSize(5) == nil || o.WithMaxSize(4).CheckSize(4) != nil {
		t.Error("encode size limit")
	}
	e := NewEncodeError(EncodeMissingRequiredField, "is required but unset").InField("sensor").InMessage("Reading")
	if got, want := e.Error(), "missing-required-field: Reading.sensor is required but unset"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestWriterRefusesUnknownOutOfOrder(t *testing.T) {
	for _, c := range []struct {
		known   uint32 // a known field written first, 0 for none
		numbers []uint32
	}{{0, []uint32{3, 3}}, {0, []uint32{4, 2}}, {5, []uint32{5}}, {0, []uint32{0}}, {0, []uint32{MaxFieldNumber + 1}}} {
		w := NewWriter(32)
		if c.known != 0 {
			w.Key(c.known, WireVarint)
			w.Varint(1)
		}
		for _, n := range c.numbers {
			w.Unknown(UnknownRecord{Number: n, Wire: WireVarint, Value: 1})
		}
		_, err := w.Bytes()
		if e, ok := err.(*EncodeError); !ok || e.Code() != EncodeUnknownFieldOrder {
			t.Errorf("known %d, unknown %v: %v", c.known, c.numbers, err)
		}
	}
	// In order, each payload form: accepted and re-keyed.
	rs := []UnknownRecord{{Number: 2, Wire: WireVarint, Value: 300}, {Number: 3, Wire: WireI64, Value: 1}, {Number: 9, Wire: WireLen, Bytes: []byte("x")}, {Number: 10, Wire: WireI32, Value: 2}}
	size, prev := 0, uint32(0)
	for _, r := range rs {
		size += UnknownSize(prev, r)
		prev = r.Number
	}
	w := NewWriter(size)
	for _, r := range rs {
		w.Unknown(r)
	}
	got, err := w.Bytes()
	want := unhex(t, "04 F8 34 01 00 00 00 00 00 00 00 01 16 01 78 03 00 00 00 02")
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("got % X %v, want % X", got, err, want)
	}
}

func TestWriterStringFitsExactlyOrNot(t *testing.T) {
	// The one-byte-prefix path: a string that ends exactly at the buffer's end is written;
	// one byte more is a size mismatch, not a panic.
	w := NewWriter(4)
	w.String("abc")
	if b, err := w.Bytes(); err != nil || string(b) != "\x03abc" {
		t.Errorf("exact: %q %v", b, err)
	}
	w = NewWriter(4)
	w.String("abcd")
	if _, err := w.Bytes(); err == nil || err.(*EncodeError).Code() != EncodeSizeMismatch {
		t.Errorf("one short: %v", err)
	}
	// A length of 248 or more takes the multi-byte prefix.
	long := string(bytes.Repeat([]byte{'x'}, 300))
	w = NewWriter(2 + 300)
	w.String(long)
	if b, err := w.Bytes(); err != nil || string(b[2:]) != long || b[0] != 0xF8 {
		t.Errorf("long: % x… %v", b[:2], err)
	}
}

func TestAppendSortedEntries(t *testing.T) {
	// Both sorts (insertion up to 12 entries, the library's past it): every entry once,
	// in key order, each with its own value, after what dst held.
	for n := range 40 {
		m := make(map[string]int, n)
		for i := range n {
			m[string(rune('a'+(i*7)%26))+itoa(i)] = i
		}
		pre := []Entry[string, int]{{"zz", -1}}
		got := AppendSortedEntries(pre, m)
		if len(got) != n+1 || got[0] != (Entry[string, int]{"zz", -1}) {
			t.Fatalf("n=%d: %d entries, first %v", n, len(got), got[0])
		}
		for i, e := range got[1:] {
			if m[e.Key] != e.Value {
				t.Fatalf("n=%d: %q holds %d, the map %d", n, e.Key, e.Value, m[e.Key])
			}
			if i > 0 && got[i].Key >= e.Key {
				t.Fatalf("n=%d: %q before %q", n, got[i].Key, e.Key)
			}
		}
	}
	ints := AppendSortedEntries(nil, map[int64]bool{3: true, -5: false, 0: true})
	if len(ints) != 3 || ints[0].Key != -5 || ints[1].Key != 0 || ints[2].Key != 3 || ints[0].Value {
		t.Errorf("signed keys: %v", ints)
	}
}
