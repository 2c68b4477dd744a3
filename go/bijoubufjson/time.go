package bijoubufjson

import (
	"strconv"
	"strings"
)

// The Timestamp range (0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z) and the Duration
// range (±10000 years), in seconds.
const (
	tsMin  int64 = -62_135_596_800
	tsMax  int64 = 253_402_300_799
	durMax int64 = 315_576_000_000
)

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// daysFromCivil is the days since 1970-01-01 in the proleptic Gregorian calendar.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146_097 + doe - 719_468
}

func civilFromDays(z int64) (int64, int64, int64) {
	z += 719_468
	era := floorDiv(z, 146_097)
	doe := z - era*146_097
	yoe := (doe - doe/1460 + doe/36_524 - doe/146_096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	y := yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// fraction is 0, 3, 6 or 9 fractional digits, as proto3 JSON writes them.
func fraction(nanos int64) string {
	switch {
	case nanos == 0:
		return ""
	case nanos%1_000_000 == 0:
		return "." + pad(nanos/1_000_000, 3)
	case nanos%1000 == 0:
		return "." + pad(nanos/1000, 6)
	}
	return "." + pad(nanos, 9)
}

func pad(n int64, width int) string {
	s := strconv.FormatInt(n, 10)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

// timestampText is a Timestamp as RFC 3339 text in UTC, or false when it is out of range.
func timestampText(seconds, nanos int64) (string, bool) {
	if seconds < tsMin || seconds > tsMax || nanos < 0 || nanos >= 1_000_000_000 {
		return "", false
	}
	y, mo, d := civilFromDays(floorDiv(seconds, 86_400))
	t := seconds - floorDiv(seconds, 86_400)*86_400
	return pad(y, 4) + "-" + pad(mo, 2) + "-" + pad(d, 2) + "T" + pad(t/3600, 2) + ":" +
		pad(t/60%60, 2) + ":" + pad(t%60, 2) + fraction(nanos) + "Z", true
}

func digits(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// parseFraction reads `.123` (1 to 9 digits) as nanoseconds, returning the rest.
func parseFraction(s string) (int64, string, bool) {
	if !strings.HasPrefix(s, ".") {
		return 0, s, true
	}
	rest := s[1:]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 {
		return 0, "", false
	}
	v, _ := digits(rest[:n])
	for i := n; i < 9; i++ {
		v *= 10
	}
	return v, rest[n:], true
}

// parseTimestamp reads RFC 3339 (`T` or `t`, `Z`, `z` or an offset, up to nine
// fractional digits) within years 1 to 9999 after the offset is applied.
func parseTimestamp(text string) (int64, int32, bool) {
	b := text
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != 't') ||
		b[13] != ':' || b[16] != ':' {
		return 0, 0, false
	}
	var f [6]int64
	for i, r := range [6][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}} {
		v, ok := digits(b[r[0]:r[1]])
		if !ok {
			return 0, 0, false
		}
		f[i] = v
	}
	y, mo, d, h, mi, s := f[0], f[1], f[2], f[3], f[4], f[5]
	leap := y%4 == 0 && (y%100 != 0 || y%400 == 0)
	monthDays := [12]int64{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if leap {
		monthDays[1] = 29
	}
	if y < 1 || mo < 1 || mo > 12 || d < 1 || d > monthDays[mo-1] || h > 23 || mi > 59 || s > 59 {
		return 0, 0, false
	}
	nanos, rest, ok := parseFraction(b[19:])
	if !ok {
		return 0, 0, false
	}
	var offset int64
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3])
		om, ok2 := digits(rest[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return 0, 0, false
		}
		offset = oh*3600 + om*60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return 0, 0, false
	}
	seconds := daysFromCivil(y, mo, d)*86_400 + h*3600 + mi*60 + s - offset
	if seconds < tsMin || seconds > tsMax {
		return 0, 0, false
	}
	return seconds, int32(nanos), true
}

// durationText is a Duration as proto3 JSON writes it ("-1.5s"), or false when it is out
// of range or its two parts have different signs.
func durationText(seconds, nanos int64) (string, bool) {
	sameSign := seconds == 0 || nanos == 0 || (seconds < 0) == (nanos < 0)
	if seconds > durMax || seconds < -durMax || nanos >= 1_000_000_000 || nanos <= -1_000_000_000 || !sameSign {
		return "", false
	}
	sign := ""
	if seconds < 0 || nanos < 0 {
		sign = "-"
	}
	if seconds < 0 {
		seconds = -seconds
	}
	if nanos < 0 {
		nanos = -nanos
	}
	return sign + strconv.FormatInt(seconds, 10) + fraction(nanos) + "s", true
}

// parseDuration reads "-?digits(.digits{1,9})?s" within ±10000 years.
func parseDuration(text string) (int64, int32, bool) {
	neg := strings.HasPrefix(text, "-")
	b := strings.TrimPrefix(text, "-")
	b, ok := strings.CutSuffix(b, "s")
	if !ok {
		return 0, 0, false
	}
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	secs, ok := digits(b[:n])
	if !ok {
		return 0, 0, false
	}
	nanos, rest, ok := parseFraction(b[n:])
	if !ok || rest != "" || secs > durMax {
		return 0, 0, false
	}
	if neg {
		return -secs, -int32(nanos), true
	}
	return secs, int32(nanos), true
}

// camel is a FieldMask path in lowerCamelCase: `foo_bar.baz` → `fooBar.baz`.
func camel(path string) string {
	var b strings.Builder
	up := false
	for _, c := range path {
		switch {
		case c == '_':
			up = true
		case up:
			b.WriteString(strings.ToUpper(string(c)))
			up = false
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// snake is a lowerCamelCase path in snake case: `fooBar.baz` → `foo_bar.baz`.
func snake(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c >= 'A' && c <= 'Z' {
			b.WriteByte('_')
			b.WriteByte(c + 'a' - 'A')
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// maskPathJSON is one FieldMask path as its JSON spelling, or false when no spelling
// reads back as it (`""`, `"a,b"`, `"fooBar"`, `"a__b"`, `"a_1"`).
func maskPathJSON(p string) (string, bool) {
	c := camel(p)
	if p == "" || strings.Contains(p, ",") || snake(c) != p {
		return "", false
	}
	return c, true
}
