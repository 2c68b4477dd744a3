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
