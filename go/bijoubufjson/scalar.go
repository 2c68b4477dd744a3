package bijoubufjson

import (
	"encoding/base64"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// integer is an integer given as a JSON number or a decimal string, exactly: a float (or
// a numeric string such as "1e3" or "5.0") must have no fractional part. ok is false for
// anything else; the caller checks the range.
func integer(j *Value) (n *big.Int, why string) {
	switch j.Kind {
	case Number:
		switch j.form {
		case numU:
			return new(big.Int).SetUint64(j.u), ""
		case numI:
			return big.NewInt(j.i), ""
		}
		if n := floatToInt(j.f); n != nil {
			return n, ""
		}
		return nil, "expected an integer"
	case String:
		t := j.Str
		if isDecimal(t) {
			n, ok := new(big.Int).SetString(strings.TrimPrefix(t, "+"), 10)
			if ok {
				return n, ""
			}
		}
		// "1e3" and "5.0" are integers too; "inf" and "nan" are not.
		if f, ok := parseRustFloat(t); ok {
			if n := floatToInt(f); n != nil {
				return n, ""
			}
		}
		return nil, "expected an integer"
	}
	return nil, "expected an integer, found " + j.Kind.What()
}

// plainInt64 is j's value where it is an integer written plainly (a JSON integer, or a
// decimal string) that fits an int64; otherwise integer reads it, with its errors. It
// spares the common case integer's big.Int.
func plainInt64(j *Value) (int64, bool) {
	switch {
	case j.Kind == Number && j.form == numI:
		return j.i, true
	case j.Kind == Number && j.form == numU:
		return int64(j.u), j.u <= math.MaxInt64
	case j.Kind == String && isDecimal(j.Str):
		n, err := strconv.ParseInt(j.Str, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// plainUint64 is plainInt64 for a uint64.
func plainUint64(j *Value) (uint64, bool) {
	switch {
	case j.Kind == Number && j.form == numU:
		return j.u, true
	case j.Kind == String && isDecimal(j.Str):
		n, err := strconv.ParseUint(j.Str, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// isDecimal: [+-]?[0-9]+.
func isDecimal(t string) bool {
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// parseRustFloat reads a finite decimal float in the grammar Rust's f64 parser reads,
// less its "inf" and "nan": [+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?. Go's own
// parser also reads hexadecimal floats and underscores, which are refused here.
func parseRustFloat(t string) (float64, bool) {
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	n := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
		n++
	}
	if i < len(t) && t[i] == '.' {
		i++
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		e := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			e++
		}
		if e == 0 {
			return 0, false
		}
	}
	if i != len(t) {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	if err != nil && !isRange(err) {
		return 0, false
	}
	return f, true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// floatToInt is f as an integer if it is finite, integral and below 1e30 in magnitude
// (beyond that it is out of every integer range anyway).
func floatToInt(f float64) *big.Int {
	if math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) || math.Abs(f) >= 1e30 {
		return nil
	}
	n, _ := big.NewFloat(f).Int(nil)
	return n
}

// toFloat is a float given as a JSON number, a numeric string, or "NaN" / "Infinity" /
// "-Infinity".
func toFloat(j *Value) (float64, string) {
	switch j.Kind {
	case Number:
		return j.float(), ""
	case String:
		switch j.Str {
		case "NaN":
			return math.NaN(), ""
		case "Infinity":
			return math.Inf(1), ""
		case "-Infinity":
			return math.Inf(-1), ""
		}
		if f, ok := parseRustFloat(j.Str); ok {
			return f, ""
		}
		return 0, quote(j.Str) + " is not a number"
	}
	return 0, "expected a number, found " + j.Kind.What()
}

// f32Overflow is the smallest magnitude that rounds to an infinite float32: halfway
// between MaxFloat32 and 2^128 (MaxFloat32's last mantissa bit is odd, so the tie goes up).
var f32Overflow = math.Ldexp(1, 128) - math.Ldexp(1, 103)

// toFloat32 is toFloat for a float field: a finite value must round to a finite float32
// (the shortest decimal of MaxFloat32, 3.4028235e38, lies just above it and reads as it).
func toFloat32(j *Value) (float32, string) {
	x, why := toFloat(j)
	if why != "" {
		return 0, why
	}
	if !math.IsInf(x, 0) && !math.IsNaN(x) && math.Abs(x) >= f32Overflow {
		return 0, strconv.FormatFloat(x, 'g', -1, 64) + " is out of range for float"
	}
	return float32(x), ""
}

// decodeBase64 reads standard or URL-safe base64 (the URL alphabet when the text holds
// '-' or '_'), padded canonically or not at all, with no bits set past the last byte.
func decodeBase64(s string) ([]byte, bool) {
	// Go's decoders skip '\r' and '\n'; base64 text here has no line breaks.
	if strings.ContainsAny(s, "\r\n") {
		return nil, false
	}
	url := strings.ContainsAny(s, "-_")
	padded := strings.HasSuffix(s, "=")
	var enc *base64.Encoding
	switch {
	case !url && padded:
		enc = base64.StdEncoding
	case !url:
		enc = base64.RawStdEncoding
	case padded:
		enc = base64.URLEncoding
	default:
		enc = base64.RawURLEncoding
	}
	b, err := enc.Strict().DecodeString(s)
	if err != nil {
		return nil, false
	}
	return b, true
}

// formatDouble is a finite float64 as serde_json writes it (Rust's writer): the shortest
// digits that read back, positional for decimal exponents −5 to 15 (with `.0` on an
// integral value: `1.0`, `1000000000000000.0`, `0.00001`), otherwise with a signed
// exponent (`1e+16`, `1.5e-7`, `-3.2e+178`).
func formatDouble(x float64) string {
	if x == 0 {
		if math.Signbit(x) {
			return "-0.0"
		}
		return "0.0"
	}
	var b strings.Builder
	if x < 0 {
		b.WriteByte('-')
		x = -x
	}
	digits, e := shortest(strconv.FormatFloat(x, 'e', -1, 64))
	n := len(digits)
	switch {
	case e >= -5 && e <= 15 && n <= e+1:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", e+1-n))
		b.WriteString(".0")
	case e >= 0 && e <= 15:
		b.WriteString(digits[:e+1])
		b.WriteByte('.')
		b.WriteString(digits[e+1:])
	case e >= -5 && e < 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -e-1))
		b.WriteString(digits)
	default:
		b.WriteByte(digits[0])
		if n > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		if e >= 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(e))
	}
	return b.String()
}

// formatFloat32 is a finite float32 as protobuf's JSON writes it (Python json_format,
// and Rust's and TypeScript's writers): the value rounded to the fewest significant
// digits that read back as the same float32, a tie rounded to the even digit
// (`0.29101562` for 0.291015625, where strconv's shortest digits end in 3;
// `1.26217745e-29` for 2^-96, whose eight-digit rounding reads back as another
// float32, where strconv keeps eight digits from above; `7.0385307e-26` where the
// shortest, `7.038531e-26`, reads as the next float32 through a float64, as readers
// read it), positional for decimal
// exponents −4 to 15 (`1.0`, `0.0001`, `16777216.0`), otherwise with a signed exponent
// of at least two digits (`1e+20`, `3.4028235e+38`, `1.5e-07`).
func formatFloat32(x float32) string {
	var b strings.Builder
	if math.Signbit(float64(x)) {
		b.WriteByte('-')
	}
	if x == 0 {
		b.WriteString("0.0")
		return b.String()
	}
	ax := float64(x)
	if ax < 0 {
		ax = -ax
	}
	// FormatFloat with a precision rounds the exact value, ties to even. "Reads back" is
	// as JSON readers read a float, this one (toFloat32) and Python's among them: to the
	// nearest float64, then to the nearest float32. That rounds twice, so a shortest
	// spelling may read back as the float32 next to x (`7.038531e-26`) and one more digit
	// is needed. Nine digits always read back.
	var sci string
	for p := 1; p <= 9; p++ {
		sci = strconv.FormatFloat(ax, 'e', p-1, 64)
		if y, err := strconv.ParseFloat(sci, 64); p == 9 || err == nil && float32(y) == float32(ax) {
			break
		}
	}
	digits, e := shortest(sci)
	n := len(digits)
	if e >= -4 && e < 16 {
		switch {
		case e < 0:
			b.WriteString("0.")
			b.WriteString(strings.Repeat("0", -e-1))
			b.WriteString(digits)
		case n <= e+1:
			b.WriteString(digits)
			b.WriteString(strings.Repeat("0", e+1-n))
			b.WriteString(".0")
		default:
			b.WriteString(digits[:e+1])
			b.WriteByte('.')
			b.WriteString(digits[e+1:])
		}
		return b.String()
	}
	b.WriteByte(digits[0])
	if n > 1 {
		b.WriteByte('.')
		b.WriteString(digits[1:])
	}
	b.WriteByte('e')
	if e < 0 {
		b.WriteByte('-')
		e = -e
	} else {
		b.WriteByte('+')
	}
	if e < 10 {
		b.WriteByte('0')
	}
	b.WriteString(strconv.Itoa(e))
	return b.String()
}

// shortest splits strconv's 'e' form ("1.2345e+06") into its digits without trailing
// zeros ("12345") and the decimal exponent of the first digit (6).
func shortest(sci string) (string, int) {
	m, exp, _ := strings.Cut(sci, "e")
	e, _ := strconv.Atoi(exp)
	d := strings.TrimRight(strings.Replace(m, ".", "", 1), "0")
	if d == "" {
		d = "0"
	}
	return d, e
}
