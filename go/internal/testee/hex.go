package testee

import (
	"errors"
	"strconv"
	"strings"
)

// maxHexBytes bounds what a request's hex may expand to: `XX{n}` lets a few characters
// ask for any length, and a testee should not be made to allocate past what the runner
// ever sends (its largest input is 16 MiB).
const maxHexBytes = 1 << 30

// ParseHex reads the vector notation: pairs of hex digits separated by whitespace, and
// `XX{n}` for the byte XX written n times.
func ParseHex(text string) ([]byte, error) {
	type run struct {
		b byte
		n int
	}
	var runs []run
	total := 0
	for _, tok := range strings.Fields(text) {
		if len(tok) < 2 {
			return nil, errors.New("bad hex token `" + tok + "`")
		}
		b, err := strconv.ParseUint(tok[:2], 16, 8)
		if err != nil || tok[0] == '+' || tok[0] == '-' {
			return nil, errors.New("bad hex token `" + tok + "`")
		}
		n := 1
		if rest := tok[2:]; rest != "" {
			inner, ok := strings.CutPrefix(rest, "{")
			if ok {
				inner, ok = strings.CutSuffix(inner, "}")
			}
			c, err := strconv.ParseUint(inner, 10, 31)
			if !ok || err != nil || inner == "" || inner[0] == '+' {
				return nil, errors.New("bad hex token `" + tok + "`")
			}
			n = int(c)
		}
		total += n
		if total > maxHexBytes {
			return nil, errors.New("hex input longer than " + strconv.Itoa(maxHexBytes) + " bytes")
		}
		runs = append(runs, run{byte(b), n})
	}
	out := make([]byte, 0, total)
	for _, r := range runs {
		for i := 0; i < r.n; i++ {
			out = append(out, r.b)
		}
	}
	return out, nil
}

const upperHex = "0123456789ABCDEF"

// FormatHex writes bytes in the vector notation, every run of 8 or more equal bytes as
// `XX{n}`.
func FormatHex(b []byte) string {
	var s strings.Builder
	for i := 0; i < len(b); {
		j := i + 1
		for j < len(b) && b[j] == b[i] {
			j++
		}
		pair := string([]byte{upperHex[b[i]>>4], upperHex[b[i]&15]})
		if j-i >= 8 {
			if s.Len() > 0 {
				s.WriteByte(' ')
			}
			s.WriteString(pair + "{" + strconv.Itoa(j-i) + "}")
		} else {
			for k := i; k < j; k++ {
				if s.Len() > 0 {
					s.WriteByte(' ')
				}
				s.WriteString(pair)
			}
		}
		i = j
	}
	return s.String()
}
