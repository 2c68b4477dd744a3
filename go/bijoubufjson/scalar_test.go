package bijoubufjson

import (
	"math"
	"strings"
	"testing"
)

func parseOne(t *testing.T, text string) Value {
	t.Helper()
	v, err := Parse(text, 10)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v
}

func TestParseKeepsOrderAndRefusesDuplicatesAndBadText(t *testing.T) {
	v := parseOne(t, ` {"b": 1, "a": [true, null, "x\u00e9\ud83d\ude00"]} `)
	if v.Kind != Object || len(v.Members) != 2 || v.Members[0].Key != "b" || v.Members[1].Key != "a" {
		t.Fatalf("members: %+v", v)
	}
	if s := v.Members[1].Value.Items[2].Str; s != "xé😀" {
		t.Fatalf("string %q", s)
	}
	for _, bad := range []string{
		`{"a": 1, "a": 2}`, `{"x": {"k": 1, "k": 1}}`, `01`, `1.`, `.5`, `-`, `1e`, `+1`,
		`"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, "\"a\nb\"", `"\x"`, `tru`, `[1,]`, `{"a":1,}`,
		`{} {}`, `1e400`, `-1e400`, `[1 2]`, `{"a" 1}`, ``, `NaN`,
	} {
		if _, err := Parse(bad, 10); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	// Many members: the duplicate is found through the set too.
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 40; i++ {
		b.WriteString(`"k` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":1,`)
	}
	b.WriteString(`"kab":2}`)
	if _, err := Parse(b.String(), 10); err == nil || !strings.Contains(err.Error(), `duplicate key "kab"`) {
		t.Errorf("late duplicate: %v", err)
	}
	_, err := Parse(`{"a": [{"b": {"c": 1, "c": 2}}]}`, 10)
	if err == nil || !strings.Contains(err.Error(), "in the object at $.a[0].b") {
		t.Errorf("duplicate's path: %v", err)
	}
}

func TestParseNestingLimit(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	if _, err := Parse(deep(10), 10); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(deep(11), 10); err == nil || !strings.Contains(err.Error(), "nest deeper than 10") {
		t.Fatalf("11 levels: %v", err)
	}
	// A million levels are refused at the limit, not by the stack.
	if _, err := Parse(deep(1_000_000), 1000); err == nil {
		t.Fatal("a million levels parsed")
	}
}

func TestNumbersAsSerdeJSONReadsThem(t *testing.T) {
	for _, c := range []struct {
		text string
		form numForm
	}{
		{"0", numU}, {"18446744073709551615", numU}, {"18446744073709551616", numF},
		{"-1", numI}, {"-9223372036854775808", numI}, {"-9223372036854775809", numF},
		{"-0", numF}, {"1.0", numF}, {"1e2", numF},
	} {
		v := parseOne(t, c.text)
		if v.form != c.form {
			t.Errorf("%s: form %d, want %d", c.text, v.form, c.form)
		}
	}
	if f := ptr(parseOne(t, "-0")).float(); f != 0 || !math.Signbit(f) {
		t.Errorf("-0 is %v", f)
	}
}

func TestIntegers(t *testing.T) {
	for text, want := range map[string]string{
		`5`: "5", `-5`: "-5", `"5"`: "5", `"+5"`: "5", `"-0"`: "0", `1e2`: "100", `"1e2"`: "100",
		`"5.0"`: "5", `5.0`: "5", `"1."`: "1", `18446744073709551616`: "18446744073709551616",
		`"123456789012345678901234567890123"`: "123456789012345678901234567890123",
	} {
		n, why := integer(ptr(parseOne(t, text)))
		if why != "" || n.String() != want {
			t.Errorf("%s: %v %q, want %s", text, n, why, want)
		}
	}
	for _, bad := range []string{`1.5`, `"1.5"`, `" 5"`, `"5 "`, `"0x10"`, `"1_000"`, `"inf"`,
		`"NaN"`, `""`, `"e5"`, `true`, `null`, `[]`, `1e30`, `"1e30"`, `".5"`} {
		if n, why := integer(ptr(parseOne(t, bad))); why == "" {
			t.Errorf("%s read as %v", bad, n)
		}
	}
}

func ptr(v Value) *Value { return &v }

func TestFloats(t *testing.T) {
	for text, want := range map[string]float64{
		`1.5`: 1.5, `"1.5"`: 1.5, `"-Infinity"`: math.Inf(-1), `"Infinity"`: math.Inf(1),
		`"1e-400"`: 0, `"+2"`: 2, `".5"`: 0.5, `"5."`: 5, `3`: 3,
	} {
		f, why := toFloat(ptr(parseOne(t, text)))
		if why != "" || f != want {
			t.Errorf("%s: %v %q", text, f, why)
		}
	}
	if f, _ := toFloat(ptr(parseOne(t, `"NaN"`))); !math.IsNaN(f) {
		t.Error("NaN")
	}
	for _, bad := range []string{`"nan"`, `"inf"`, `"infinity"`, `"1e400"`, `"0x1p3"`, `"1_0"`,
		`" 1"`, `""`, `true`, `null`, `{}`} {
		if f, why := toFloat(ptr(parseOne(t, bad))); why == "" {
			t.Errorf("%s read as %v", bad, f)
		}
	}
	// float: in range means "rounds to a finite float32".
	if f, why := toFloat32(ptr(parseOne(t, "3.4028235e38"))); why != "" || f != math.MaxFloat32 {
		t.Errorf("max float: %v %q", f, why)
	}
	for _, bad := range []string{"3.4028236e38", "1e39", "-1e39"} {
		if f, why := toFloat32(ptr(parseOne(t, bad))); why == "" {
			t.Errorf("%s read as float %v", bad, f)
		}
	}
}

func TestBase64(t *testing.T) {
	for text, want := range map[string]string{
		"3q2+7w==": "\xde\xad\xbe\xef", "3q2+7w": "\xde\xad\xbe\xef", "3q2-7w": "\xde\xad\xbe\xef",
		"3q2-7w==": "\xde\xad\xbe\xef", "": "", "QQ==": "A",
	} {
		b, ok := decodeBase64(text)
		if !ok || string(b) != want {
			t.Errorf("%q: %x %v", text, b, ok)
		}
	}
	for _, bad := range []string{"QR==", "QQ=", "Q", "3q2+7w\n==", "3q2-7w+=", "QQ==QQ==", "Q Q=", "QQ===",
		"3q\r2+7w=="} {
		if b, ok := decodeBase64(bad); ok {
			t.Errorf("%q read as %x", bad, b)
		}
	}
}

func TestNumberText(t *testing.T) {
	for x, want := range map[float64]string{
		1: "1.0", 0.1: "0.1", 1e20: "1e+20", 1e16: "1e+16", 1e15: "1000000000000000.0",
		0.00001: "0.00001", 1.5e-5: "0.000015", 1e-6: "1e-6", 1.5e-7: "1.5e-7", -2.5: "-2.5",
		123.456: "123.456", math.MaxFloat64: "1.7976931348623157e+308", 5e-324: "5e-324", 0: "0.0",
		-3.241809038188276e+178: "-3.241809038188276e+178", 1234567890123456: "1234567890123456.0",
		12345678901234567:    "1.2345678901234568e+16",
		math.Copysign(0, -1): "-0.0",
	} {
		if got := formatDouble(x); got != want {
			t.Errorf("double %v: %s, want %s", x, got, want)
		}
	}
	for x, want := range map[float32]string{
		1: "1.0", 0.0001: "0.0001", 16777216: "16777216.0", 1e20: "1e+20",
		math.MaxFloat32: "3.4028235e+38", 1.5e-7: "1.5e-07", 1e-45: "1e-45", 0.1: "0.1",
		-0.5: "-0.5", 1e16: "1e+16", 123456789: "123456790.0",
	} {
		if got := formatFloat32(x); got != want {
			t.Errorf("float %v: %s, want %s", x, got, want)
		}
	}
	if got := formatFloat32(float32(math.Copysign(0, -1))); got != "-0.0" {
		t.Errorf("float -0: %s", got)
	}
	// As Python json_format prints them (the Rust and TypeScript tests hold the same
	// table): halfway between two shortest spellings, the even one (strconv's shortest
	// ends in 3: 0.29101563); powers of two whose eight-digit rounding reads back as
	// another float32, nine digits (strconv's shortest: 1.2621775e-29).
	for bits, want := range map[uint32]string{
		0x3e950000: "0.29101562", 0x4980002a: "1048581.2", 0x431c5400: "156.32812",
		0x3c880000: "0.016601562", 0x39800000: "0.00024414062", 0x3b200000: "0.0024414062",
		0x0f800000: "1.26217745e-29", 0x6b000000: "1.54742505e+26",
		0x6c800000: "1.23794004e+27", 0x50000000: "8589935000.0", 0x3f000001: "0.50000006",
		0x15ae43fd: "7.0385307e-26",
	} {
		if got := formatFloat32(math.Float32frombits(bits)); got != want {
			t.Errorf("float %#08x: %s, want %s", bits, got, want)
		}
	}
}

func TestTimestampsAndDurations(t *testing.T) {
	for _, c := range []struct {
		s, n int64
		text string
	}{
		{0, 0, "1970-01-01T00:00:00Z"}, {1_700_000_000, 500_000_000, "2023-11-14T22:13:20.500Z"},
		{-1, 1000, "1969-12-31T23:59:59.000001Z"}, {tsMin, 0, "0001-01-01T00:00:00Z"},
		{tsMax, 999_999_999, "9999-12-31T23:59:59.999999999Z"},
	} {
		text, ok := timestampText(c.s, c.n)
		if !ok || text != c.text {
			t.Errorf("%d %d: %s", c.s, c.n, text)
		}
		s, n, ok := parseTimestamp(c.text)
		if !ok || s != c.s || int64(n) != c.n {
			t.Errorf("%s: %d %d %v", c.text, s, n, ok)
		}
	}
	if _, ok := timestampText(tsMax+1, 0); ok {
		t.Error("past 9999")
	}
	if _, ok := timestampText(0, -1); ok {
		t.Error("negative nanos")
	}
	if s, n, ok := parseTimestamp("2023-11-14T23:13:20+01:00"); !ok || s != 1_700_000_000 || n != 0 {
		t.Error("offset")
	}
	if s, _, ok := parseTimestamp("2023-11-14t22:13:20.5z"); !ok || s != 1_700_000_000 {
		t.Error("lower case t and z")
	}
	for _, bad := range []string{"2023-02-29T00:00:00Z", "2023-11-14 22:13:20Z", "2023-11-14T22:13:20",
		"2023-11-14T22:13:20.Z", "2023-11-14T22:13:20.1234567890Z", "0000-12-31T00:00:00Z",
		"0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01", "2023-11-14T24:00:00Z",
		"2023-11-14T22:13:60Z", "2023-11-14T22:13:20+24:00", "+023-11-14T22:13:20Z"} {
		if _, _, ok := parseTimestamp(bad); ok {
			t.Errorf("%s read", bad)
		}
	}
	for _, c := range []struct {
		s, n int64
		text string
	}{{1, 500_000_000, "1.500s"}, {0, -1, "-0.000000001s"}, {-3, 0, "-3s"}, {durMax, 0, "315576000000s"}} {
		text, ok := durationText(c.s, c.n)
		if !ok || text != c.text {
			t.Errorf("%d %d: %s", c.s, c.n, text)
		}
		s, n, ok := parseDuration(c.text)
		if !ok || s != c.s || int64(n) != c.n {
			t.Errorf("%s: %d %d", c.text, s, n)
		}
	}
	for _, bad := range [][2]int64{{1, -1}, {math.MinInt64, 0}, {-durMax - 1, 0}, {0, math.MinInt64}, {0, 1_000_000_000}} {
		if text, ok := durationText(bad[0], bad[1]); ok {
			t.Errorf("%v written as %s", bad, text)
		}
	}
	if s, n, ok := parseDuration("1.5s"); !ok || s != 1 || n != 500_000_000 {
		t.Error("1.5s")
	}
	for _, bad := range []string{"1.5", "s", "-s", "1.s", "+1s", "315576000001s", ".5s", "1.0000000001s", "--1s", "1 s"} {
		if _, _, ok := parseDuration(bad); ok {
			t.Errorf("%s read", bad)
		}
	}
}

func TestFieldMaskPaths(t *testing.T) {
	if camel("user.display_name") != "user.displayName" || snake("user.displayName") != "user.display_name" {
		t.Error("camel/snake")
	}
	if c, ok := maskPathJSON("user.display_name"); !ok || c != "user.displayName" {
		t.Error("mask path")
	}
	for _, bad := range []string{"", "fooBar", "a,b", "a__b", "a_1", "a_", "a_\u00e9"} {
		if _, ok := maskPathJSON(bad); ok {
			t.Errorf("%q spelled", bad)
		}
	}
}
