package bijoubuf

import (
	"strings"
	"testing"
)

// runReader is a reader whose current run is b (a repeated record's content).
func runReader(b []byte) *Reader { return newReader(b, 0, len(b), DecodeOptions{}) }

// CountVarints counts whole values by their tags and leaves out one cut by the end.
func TestCountVarints(t *testing.T) {
	cases := []struct {
		in   []byte
		want int
	}{
		{nil, 0},
		{[]byte{0x00}, 1},
		{[]byte{0xF7, 0x01, 0x02}, 3},
		{[]byte{0xF8, 0x00, 0x05}, 2},             // tier 1: tag and one byte
		{[]byte{0x05, 0xF9, 0x00}, 1},             // tier 2 needs two payload bytes: cut
		{[]byte{0xFF, 1, 2, 3, 4, 5, 6, 7, 8}, 1}, // tier 8, whole
		{[]byte{0xFF, 1, 2, 3, 4, 5, 6, 7}, 0},    // tier 8, one byte short
	}
	for _, c := range cases {
		if got := runReader(c.in).CountVarints(); got != c.want {
			t.Errorf("CountVarints(% X) = %d, want %d", c.in, got, c.want)
		}
	}
}

// CountLens counts whole length-prefixed elements and stops at a prefix that is cut
// or runs past the end.
func TestCountLens(t *testing.T) {
	cases := []struct {
		in   []byte
		want int
	}{
		{[]byte{0x00}, 1},
		{[]byte{0x01, 'a', 0x00, 0x02, 'b', 'c'}, 3},
		{[]byte{0x01, 'a', 0x05, 'b'}, 1}, // the second runs past the end
		{[]byte{0x00, 0xF9, 0x00}, 1},     // the second's prefix is cut
	}
	for _, c := range cases {
		if got := runReader(c.in).CountLens(); got != c.want {
			t.Errorf("CountLens(% X) = %d, want %d", c.in, got, c.want)
		}
	}
}

// Strings are cut from window copies: each is the bytes it was read from, however the
// windows fall, and changing the input afterwards changes none of them.
func TestStringWindows(t *testing.T) {
	var in []byte
	var want []string
	for i := 0; i < 300; i++ {
		// Lengths 0–40, one string of 5000 bytes (longer than a window) at 150.
		n := i % 41
		if i == 150 {
			n = 5000
		}
		s := strings.Repeat(string(rune('a'+i%26)), n)
		want = append(want, s)
		if n < 0xF8 {
			in = append(in, byte(n))
		} else {
			// tier 2: 0xF9, big-endian n − 504
			in = append(in, 0xF9, byte((n-504)>>8), byte(n-504))
		}
		in = append(in, s...)
	}
	r := runReader(in)
	var got []string
	for !r.AtEnd() {
		s, err := r.String()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	for i := range in {
		in[i] = 0
	}
	if len(got) != len(want) {
		t.Fatalf("%d strings, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("string %d = %q…, want %q…", i, got[i][:min(8, len(got[i]))], want[i][:min(8, len(want[i]))])
		}
	}
}

// StringTo reads what String reads, with the same errors at the same offsets; the value
// reaches its field when the decode ends, and an empty string is not held.
func TestStringToAgreesWithString(t *testing.T) {
	for l := 0; l <= 40; l++ {
		for bad := -1; bad < l; bad++ {
			for _, b := range []byte{0xC3, 0xFF, 0x80} {
				content := make([]byte, l)
				for i := range content {
					content[i] = 'a' + byte(i%26)
				}
				if bad >= 0 {
					content[bad] = b
					if b == 0xC3 && bad+1 < l {
						content[bad+1] = 0xA9 // é
					}
				}
				for _, tail := range [][]byte{nil, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}} {
					in := append(append([]byte{byte(l)}, content...), tail...)
					want, werr := newReader(in, 0, 1+l, DecodeOptions{}).String()
					wcode, wat := codeAt(t, werr)
					r := newReader(in, 0, 1+l, DecodeOptions{})
					var got string
					n, err := r.StringTo(&got)
					code, at := codeAt(t, err)
					if code != wcode || at != wat {
						t.Errorf("% x: StringTo gave %v, String %v", in, err, werr)
						continue
					}
					if err != nil {
						continue
					}
					if got != "" || n != l || r.Pos() != 1+l || (l == 0) != (r.npend == 0) {
						t.Errorf("% x: before the end: %q, length %d at %d, %d held", in, got, n, r.Pos(), r.npend)
					}
					r.flushStrings()
					if got != want {
						t.Errorf("% x: StringTo gave %q, String %q", in, got, want)
					}
				}
			}
		}
	}
}

// StringTo's values, however many and however long, are the bytes they were read from,
// written by the end of the decode, untouched by later changes to the input; the values
// of up to 16 fields share one allocation of exactly their bytes.
func TestStringToCopiesOncePerSixteen(t *testing.T) {
	var in []byte
	var want []string
	for i := 0; i < 300; i++ {
		n := i % 41
		if i == 150 {
			n = 5000
		}
		s := strings.Repeat(string(rune('a'+i%26)), n)
		want = append(want, s)
		if n < 0xF8 {
			in = append(in, byte(n))
		} else {
			in = append(in, 0xF9, byte((n-504)>>8), byte(n-504))
		}
		in = append(in, s...)
	}
	got := make([]string, len(want))
	r, err := StartDecode(in, DecodeOptions{}, "M", false)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; !r.AtEnd(); i++ {
		if _, err := r.StringTo(&got[i]); err != nil {
			t.Fatal(err)
		}
	}
	if got[len(got)-1] != "" {
		t.Fatalf("the last value was written before the decode ended")
	}
	if _, err := r.EndDecode(nil, "M"); err != nil {
		t.Fatal(err)
	}
	for i := range in {
		in[i] = 0
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("string %d = %q…, want %q…", i, got[i][:min(8, len(got[i]))], want[i][:min(8, len(want[i]))])
		}
	}

	// Allocations: one per sixteen non-empty strings, whatever their lengths.
	in = nil
	for i := 1; i <= 17; i++ {
		in = append(in, byte(i))
		in = append(in, strings.Repeat("x", i)...)
	}
	var fields [17]string
	for _, c := range []struct{ strings, allocs int }{{1, 1}, {16, 1}, {17, 2}} {
		end := 0
		for i := 1; i <= c.strings; i++ {
			end += 1 + i
		}
		allocs := testing.AllocsPerRun(20, func() {
			r, _ := StartDecode(in[:end], DecodeOptions{}, "M", false)
			for i := 0; !r.AtEnd(); i++ {
				if _, err := r.StringTo(&fields[i]); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := r.EndDecode(nil, "M"); err != nil {
				t.Fatal(err)
			}
		})
		if int(allocs) != c.allocs {
			t.Errorf("%d strings: %v allocations, want %d", c.strings, allocs, c.allocs)
		}
		if fields[c.strings-1] != strings.Repeat("x", c.strings) {
			t.Errorf("%d strings: the last is %q", c.strings, fields[c.strings-1])
		}
	}
}
