package bijoubuf

import (
	"math"
	"testing"
)

// Schemas of SPEC's vector cards.
var (
	mUint32  = &msgT{"M", []field{{num: 1, name: "a", kind: kUint32, implicit: true}}}
	mUint64  = &msgT{"M", []field{{num: 1, name: "a", kind: kUint64, implicit: true}}}
	mInt32   = &msgT{"M", []field{{num: 1, name: "a", kind: kInt32, implicit: true}}}
	mString  = &msgT{"M", []field{{num: 1, name: "s", kind: kString, implicit: true}}}
	nA       = &msgT{"N", []field{{num: 1, name: "a", kind: kUint32, implicit: true}}}
	mNested  = &msgT{"M", []field{{num: 1, name: "n", kind: kMsg, msg: nA}, {num: 2, name: "b", kind: kUint32, implicit: true}}}
	mMapUU   = &msgT{"M", []field{{num: 1, name: "m", mapKey: kUint32, kind: kUint32}}}
	mSfixRun = &msgT{"M", []field{{num: 1, name: "v", kind: kSfixed64, repeated: true}, {num: 2, name: "d", kind: kDouble, implicit: true}}}
	mBoolMax = &msgT{"M", []field{{num: MaxFieldNumber, name: "z", kind: kBool, implicit: true}}}
	mOnlyN   = &msgT{"M", []field{{num: 1, name: "n", kind: kMsg, msg: nA}}}
	mRepU32  = &msgT{"M", []field{{num: 1, name: "v", kind: kUint32, repeated: true}}}
	mOneof   = &msgT{"M", []field{{num: 1, name: "a", kind: kUint32, oneof: "v"}, {num: 2, name: "b", kind: kString, oneof: "v"}}}
	mBool    = &msgT{"M", []field{{num: 1, name: "b", kind: kBool, implicit: true}}}
	mFloat   = &msgT{"M", []field{{num: 1, name: "f", kind: kFloat, implicit: true}}}
	mMapUD   = &msgT{"M", []field{{num: 1, name: "m", mapKey: kUint32, kind: kDouble}}}
	mUS      = &msgT{"M", []field{{num: 1, name: "a", kind: kUint32, implicit: true}, {num: 2, name: "s", kind: kString, implicit: true}}}
	mURep    = &msgT{"M", []field{{num: 1, name: "a", kind: kUint32, implicit: true}, {num: 2, name: "v", kind: kUint32, repeated: true}}}
	mRepF32  = &msgT{"M", []field{{num: 1, name: "v", kind: kFixed32, repeated: true}}}
	mMapSU   = &msgT{"M", []field{{num: 1, name: "m", mapKey: kString, kind: kUint32}}}
	mMapZU   = &msgT{"M", []field{{num: 1, name: "m", mapKey: kInt32, kind: kUint32}}}
	mMapFB   = &msgT{"M", []field{{num: 1, name: "m", mapKey: kSfixed32, kind: kBool}}}
	mReq     = &msgT{"M", []field{{num: 1, name: "a", kind: kUint32, required: true}, {num: 2, name: "b", kind: kUint32}}}
	nReq     = &msgT{"N", []field{{num: 1, name: "a", kind: kUint32, required: true}}}
	mOptN    = &msgT{"M", []field{{num: 1, name: "n", kind: kMsg, msg: nReq}, {num: 2, name: "c", kind: kUint32}}}
	mAC      = &msgT{"M", []field{{num: 1, name: "a", kind: kUint32, implicit: true}, {num: 3, name: "c", kind: kUint32, implicit: true}}}
	node     = &msgT{name: "Node"}
)

func init() {
	node.fields = []field{{num: 1, name: "child", kind: kMsg, msg: node}}
}

// The vector cards of SPEC §2.4, §6.4, §8.2 and §10.2 (O1–O17), each through the
// primitives: the verdict, the code, the offset and the path.
func TestSpecCards(t *testing.T) {
	strict := DecodeOptions{}
	cases := []struct {
		name   string
		m      *msgT
		opts   DecodeOptions
		in     string
		code   Code // 0: ok, and re-encoding gives the input
		offset int
		path   string
	}{
		{"2.4 u64max", mUint64, strict, "00 FF FE FE FE FE FE FE FE 07", 0, 0, ""},
		{"2.4 overflow", mUint64, strict, "00 FF FE FE FE FE FE FE FE 08", VarintOverflow, 1, "M.a"},
		{"O1 value", mUint32, strict, "00 F9 01", Truncated, 1, "M.a"},
		{"O1 length", mString, strict, "02 05 68 69", Truncated, 1, "M.s"},
		{"O1 nested bound", mNested, strict, "02 01 00 00 05", Truncated, 3, "M.n.a"},
		{"O1 map value", mMapUU, strict, "02 01 05", Truncated, 3, "M.m[5]"},
		{"O1 after a run", mSfixRun, strict, "02 08 FF FF FF FF FF FF FF FE 01 00 00 00", Truncated, 11, "M.d"},
		{"O1 value missing", mUint32, strict, "00", Truncated, 1, "M.a"},
		{"O2 key", mUint32, strict, "FF FF FF FF FF FF FF FF FF", VarintOverflow, 0, "M"},
		{"O3 one delta", mUint32, strict, "FB 7E FE FE 04 01", FieldNumberOverflow, 0, "M"},
		{"O3 after nmax", mBoolMax, strict, "FB 7E FE FE 00 01 00", FieldNumberOverflow, 6, "M"},
		{"O4", mOnlyN, strict, "02 02 04 07", UnknownField, 2, "M.n.2"},
		{"O5", mString, strict, "00 05", WireTypeMismatch, 0, "M.s"},
		{"O5 repeated", mRepU32, strict, "00 05", WireTypeMismatch, 0, "M.v"},
		{"O6", mOneof, strict, "00 00 02 00", OneofConflict, 2, "M.b"},
		{"O7 at the limit", node, strict.WithMaxDepth(3), "02 02 02 00", 0, 0, ""},
		{"O7", node, strict.WithMaxDepth(3), "02 04 02 02 02 00", DepthLimitExceeded, 4, "Node.child.child.child"},
		{"O8", mInt32, strict, "00 FB FE FE FE 08", IntegerOutOfRange, 1, "M.a"},
		{"O8 element", mRepU32, strict, "02 06 01 FB FE FE FE 08", IntegerOutOfRange, 3, "M.v[1]"},
		{"O9", mBool, strict, "00 02", InvalidBool, 1, "M.b"},
		{"O9 other tier", mBool, strict, "00 F8 00", InvalidBool, 1, "M.b"},
		{"O10", mFloat, strict, "03 7F C0 00 01", NonCanonicalNaN, 1, "M.f"},
		{"O10 map value", mMapUD, strict, "02 09 05 FF F8 00 00 00 00 00 00", NonCanonicalNaN, 3, "M.m[5]"},
		{"O11", mString, strict, "02 05 61 62 C0 AF 63", InvalidUTF8, 4, "M.s"},
		{"O11 surrogate", mString, strict, "02 04 61 ED A0 80", InvalidUTF8, 3, "M.s"},
		{"O11 above U+10FFFF", mString, strict, "02 04 F4 90 80 80", InvalidUTF8, 2, "M.s"},
		{"O11 cut sequence", mString, strict, "02 03 61 E2 82", InvalidUTF8, 3, "M.s"},
		{"O12", mUS, strict, "00 07 02 00", DefaultValuePresent, 2, "M.s"},
		{"O12 -0.0 is not the default", mFloat, strict, "03 80 00 00 00", 0, 0, ""},
		{"O13", mURep, strict, "00 01 02 00", EmptyRepeated, 2, "M.v"},
		{"O14", mRepF32, strict, "02 06 00 00 00 01 00 00", PackedLengthMismatch, 1, "M.v"},
		{"O15 string", mMapSU, strict, "02 06 01 62 01 01 61 02", MapKeyOrder, 5, `M.m["a"]`},
		{"O15 equal", mMapUU, strict, "02 04 07 01 07 02", MapKeyOrder, 4, "M.m[7]"},
		{"6.4 code point order", mMapSU, strict, "02 0B 03 EF BC A1 01 04 F0 9F 98 80 02", 0, 0, ""},
		{"6.4 not UTF-16 order", mMapSU, strict, "02 0B 04 F0 9F 98 80 02 03 EF BC A1 01", MapKeyOrder, 8, `M.m["Ａ"]`},
		{"6.4 signed order", mMapZU, strict, "02 04 03 01 02 02", 0, 0, ""},
		{"6.4 sfixed32", mMapFB, strict, "02 0A 00 00 00 01 01 FF FF FF FF 00", MapKeyOrder, 7, "M.m[-1]"},
		{"O16", mReq, strict, "04 07", MissingRequiredField, 2, "M.a"},
		{"O16 nested", mOptN, strict, "02 00 00 05", MissingRequiredField, 2, "M.n.a"},
		{"O17", mString, strict.WithMaxSize(4), "02 03 61 62 63", SizeLimitExceeded, 0, "M"},
		{"O17 at the limit", mString, strict.WithMaxSize(5), "02 03 61 62 63", 0, 0, ""},
		{"8.2 preserving", mAC, strict.Preserving(true), "00 01 00 02 00 03", 0, 0, ""},
		{"8.1 strict", mAC, strict, "00 01 00 02 00 03", UnknownField, 2, "M.2"},
		{"8.2 truncated unknown", mAC, strict.Preserving(true), "00 01 02 05 61", Truncated, 3, "M.2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := unhex(t, c.in)
			if c.code == 0 {
				wantRoundTrip(t, c.m, c.opts, in)
				return
			}
			_, _, err := c.m.decodeAll(in, c.opts)
			wantError(t, err, c.code, c.offset, c.path)
		})
	}
}

func TestDepthLimitClamped(t *testing.T) {
	// SPEC §9.3: 0 is 1, above 500 is 500.
	if got := (DecodeOptions{}).WithMaxDepth(0).MaxDepth(); got != 1 {
		t.Errorf("depth 0 → %d", got)
	}
	if got := (DecodeOptions{}).WithMaxDepth(100000).MaxDepth(); got != MaxDepthLimit {
		t.Errorf("depth 100000 → %d", got)
	}
	if got := (DecodeOptions{}).MaxDepth(); got != DefaultMaxDepth {
		t.Errorf("default depth %d", got)
	}
	// Depth 1: the top-level message is read, its first nested one is refused.
	_, _, err := node.decodeAll(unhex(t, "02 00"), DecodeOptions{}.WithMaxDepth(0))
	wantError(t, err, DepthLimitExceeded, 0, "Node.child")
	// 501 levels: refused at the 501st with any larger limit asked for.
	in := nestChain(500)
	_, _, err = node.decodeAll(in, DecodeOptions{}.WithMaxDepth(1<<30))
	d, ok := AsDecodeError(err)
	if !ok || d.Code() != DepthLimitExceeded {
		t.Fatalf("501 levels with a limit of 2^30: %v", err)
	}
	if _, _, err := node.decodeAll(nestChain(499), DecodeOptions{}.WithMaxDepth(1<<30)); err != nil {
		t.Fatalf("500 levels: %v", err)
	}
}

// nestChain is a Node with n nested children (n + 1 levels).
func nestChain(n int) []byte {
	var b []byte
	for i := 0; i < n; i++ {
		w := NewWriter(KeySize(0, 1) + LenSize(len(b)))
		w.Key(1, WireLen)
		w.LenBytes(b)
		b, _ = w.Bytes()
	}
	return b
}

func TestScalarReads(t *testing.T) {
	// SPEC §3's table, as element reads.
	r := readerOver(unhex(t, "01 F8 34 FB FE FE FE 07 FF FE FE FE FE FE FE FE 07 FB FE FE FE 06 03 01 04"))
	if v, err := r.Int32(); v != -1 || err != nil {
		t.Errorf("int32 -1: %d %v", v, err)
	}
	if v, err := r.Int32(); v != 150 || err != nil {
		t.Errorf("int32 150: %d %v", v, err)
	}
	if v, err := r.Int32(); v != math.MinInt32 || err != nil {
		t.Errorf("int32 min: %d %v", v, err)
	}
	if v, err := r.Int64(); v != math.MinInt64 || err != nil {
		t.Errorf("int64 min: %d %v", v, err)
	}
	if v, err := r.Int32(); v != math.MaxInt32 || err != nil {
		t.Errorf("sint32 max: %d %v", v, err)
	}
	if v, err := r.Int64(); v != -2 || err != nil {
		t.Errorf("sint64 -2: %d %v", v, err)
	}
	if v, err := r.Bool(); !v || err != nil {
		t.Errorf("bool: %v %v", v, err)
	}
	if v, err := r.Int32(); v != 2 || err != nil {
		t.Errorf("enum 2: %d %v", v, err)
	}
	r = readerOver(unhex(t, "FF FF FF FE 3F 80 00 00 7F C0 00 00 FF FF FF FF FF FF FF FF 3F F8 00 00 00 00 00 00 03 68 C3 A9"))
	if v, err := r.Sfixed32(); v != -2 || err != nil {
		t.Errorf("sfixed32 -2: %d %v", v, err)
	}
	if v, err := r.Float32(); v != 1 || err != nil {
		t.Errorf("float 1: %v %v", v, err)
	}
	if v, err := r.Float32(); v == v || err != nil {
		t.Errorf("float NaN: %v %v", v, err)
	}
	if v, err := r.Sfixed64(); v != -1 || err != nil {
		t.Errorf("sfixed64 -1: %d %v", v, err)
	}
	if v, err := r.Float64(); v != 1.5 || err != nil {
		t.Errorf("double 1.5: %v %v", v, err)
	}
	if v, err := r.String(); v != "hé" || err != nil || !r.AtEnd() {
		t.Errorf("string: %q %v", v, err)
	}
	// uint32 above u32max; a non-canonical double NaN; a fixed value cut by the bound.
	r = readerOver(unhex(t, "FB FE FE FE 08 FF F8 00 00 00 00 00 00 00 00 00"))
	if _, err := r.Uint32(); err == nil {
		t.Error("uint32 2^32 accepted")
	} else {
		wantError(t, err, IntegerOutOfRange, 0, "")
	}
	r.pos = 5
	_, err := r.Float64()
	wantError(t, err, NonCanonicalNaN, 5, "")
	r.pos = 13
	_, err = r.Fixed32()
	wantError(t, err, Truncated, 13, "")
}

func TestLengthCheckedBeforeAllocation(t *testing.T) {
	// SPEC §9.4: a declared length past the bound is truncated at the prefix, whatever
	// its size, before anything is read or allocated.
	in := unhex(t, "02 FE 00 00 10 00 00 00 00 61")
	_, _, err := mString.decodeAll(in, DecodeOptions{})
	wantError(t, err, Truncated, 1, "M.s")
	r := newReader(in, 1, len(in), DecodeOptions{})
	if _, err := r.LenBytes(); err == nil {
		t.Fatal("a 2^52-byte length accepted")
	}
}

func TestErrorText(t *testing.T) {
	// SPEC §11.4, the Rust and TypeScript runtimes' words.
	e := NewDecodeError(DefaultValuePresent, 17).InField("age").InMessage("Person")
	if got, want := e.Error(), "default-value-present: Person.age holds its default at byte 17"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := NewDecodeError(SizeLimitExceeded, 0).Error(), "size-limit-exceeded: input is longer than the size limit at byte 0"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	e = NewDecodeError(MapKeyOrder, 5).InKey(StringKey("a\"\\\x01\x7fＡ")).InField("m").InMessage("M")
	if got, want := e.Error(), `map-key-order: M.m["a\"\\\u{1}\u{7f}Ａ"] has a key not above the previous key at byte 5`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	e = NewDecodeError(UnknownField, 24).InUnknown(6).InMessage("Order")
	if got, want := e.Error(), "unknown-field: Order.6 is not in the schema at byte 24"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	e = NewDecodeError(IntegerOutOfRange, 3).InIndex(1).InField("v").InMessage("M")
	if e.Path() != "M.v[1]" {
		t.Errorf("path %q", e.Path())
	}
	if IntKey(-1) != "[-1]" || UintKey(5) != "[5]" || BoolKey(true) != "[true]" {
		t.Error("key segments")
	}
	// Every code has its SPEC §11.1 name and a phrase.
	want := []string{"truncated", "varint-overflow", "field-number-overflow", "unknown-field", "wire-type-mismatch", "oneof-conflict", "depth-limit-exceeded", "integer-out-of-range", "invalid-bool", "non-canonical-nan", "invalid-utf8", "default-value-present", "empty-repeated", "packed-length-mismatch", "map-key-order", "missing-required-field", "size-limit-exceeded"}
	for i, w := range want {
		c := Code(i + 1)
		if c.String() != w || c.What() == "" {
			t.Errorf("code %d: %q %q", i+1, c.String(), c.What())
		}
	}
}

// readerOver is a reader over all of b.
func readerOver(b []byte) *Reader { return newReader(b, 0, len(b), DecodeOptions{}) }

func TestRecordsLeftUnreadAreRefused(t *testing.T) {
	// A decode that forgets Finish must not accept bytes it never looked at: the first
	// record left is unknown-field, in preserving mode too.
	in := unhex(t, "00 01 00 02")
	forgetful := func(r *Reader) error {
		_, err := r.Field(1, WireVarint, "a")
		if err != nil {
			return err
		}
		_, err = r.Uint32()
		return err
	}
	for _, opts := range []DecodeOptions{{}, DecodeOptions{}.Preserving(true)} {
		_, err := Decode(in, opts, "M", true, forgetful)
		wantError(t, err, UnknownField, 2, "M.2")
	}
	// The same in a nested message.
	_, err := Decode(unhex(t, "02 04 00 01 00 02"), DecodeOptions{}, "M", false, func(r *Reader) error {
		if _, err := r.Field(1, WireLen, "n"); err != nil {
			return err
		}
		if err := r.Message("n", false, forgetful); err != nil {
			return err
		}
		_, err := r.Finish()
		return err
	})
	wantError(t, err, UnknownField, 4, "M.n.2")
}
