package bijoubuf

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/bijoubuf/bijoubuf/go/bijou64"
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

// Strings are copied into chunks: each is the bytes it was read from, however the
// chunks fall, and changing the input afterwards changes none of them.
func TestStringCopies(t *testing.T) {
	var in []byte
	var want []string
	for i := 0; i < 300; i++ {
		// Lengths 0–40, one string of 5000 bytes (longer than a chunk) at 150.
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

// A larger input's strings are copied one after another into chunks: those of a run
// lie back to back in memory (no key or length between them), one allocation holds all
// of them while they fit in a chunk, and a string longer than a chunk is its own
// allocation without ending the chunk. An input of a chunk or less is copied once.
func TestStringChunks(t *testing.T) {
	var in []byte
	for i := 1; i <= 100; i++ {
		in = append(in, byte(i%41))
		in = append(in, strings.Repeat("s", i%41)...)
	}
	run := len(in)
	in = append(in, make([]byte, stringChunk)...) // input after the run
	at := func(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }
	var got []string
	allocs := testing.AllocsPerRun(10, func() {
		got = got[:0]
		r := runReader(in)
		r.end = run
		for !r.AtEnd() {
			s, err := r.String()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
		}
	})
	// 100 strings of 1975 bytes in all, read into a slice with room: one chunk.
	if allocs != 1 {
		t.Errorf("%v allocations, want 1", allocs)
	}
	var prev string
	for i, s := range got {
		if s == "" {
			continue
		}
		if prev != "" && at(s) != at(prev)+uintptr(len(prev)) {
			t.Fatalf("string %d does not follow the one before it", i)
		}
		prev = s
	}

	// A string longer than a chunk between short ones.
	long := strings.Repeat("L", stringChunk+1)
	in = append([]byte{3}, "abc"...)
	in = append(in, 0xF9, byte((len(long)-504)>>8), byte(len(long)-504))
	in = append(in, long...)
	in = append(in, 2, 'd', 'e')
	in = append(in, make([]byte, stringChunk)...)
	r := readerOver(in)
	r.end = len(in) - stringChunk
	var s [3]string
	for i := range s {
		var err error
		if s[i], err = r.String(); err != nil {
			t.Fatal(err)
		}
	}
	if s[0] != "abc" || s[1] != long || s[2] != "de" || at(s[2]) != at(s[0])+3 {
		t.Errorf("got %q, %d bytes, %q; the third at %+d from the first", s[0], len(s[1]), s[2], at(s[2])-at(s[0]))
	}

	// A larger input: its last 4 KiB are copied whole (the strings cut from that copy,
	// a record's stride apart) when its strings so far were at least a quarter of the
	// input, and its strings go on to chunks (back to back) when they were sparser.
	for _, c := range []struct {
		fillers, length int
		wholeRest       bool
	}{{2, 5, false}, {1, 20, true}} {
		in = nil
		for range 300 {
			for range c.fillers {
				in = bijou64.Append(in, 1<<62) // nine bytes that are not a string
			}
			in = append(in, byte(c.length))
			in = append(in, strings.Repeat("v", c.length)...)
		}
		var got []string
		allocs := testing.AllocsPerRun(10, func() {
			got = got[:0]
			r := readerOver(in)
			for !r.AtEnd() {
				for range c.fillers {
					if _, err := r.Varint(); err != nil {
						t.Fatal(err)
					}
				}
				s, err := r.String()
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, s)
			}
		})
		stride := uintptr(c.length)
		if c.wholeRest {
			stride = uintptr(len(in) / 300)
		}
		if len(got) != 300 || at(got[299])-at(got[298]) != stride || (!c.wholeRest && allocs != 1) {
			t.Errorf("%d bytes of input, strings of %d: %v allocations, the last two %d apart",
				len(in), c.length, allocs, at(got[299])-at(got[298]))
		}
	}

	// A small input: its strings are cut from one copy of it, keys and lengths included.
	in = []byte{3, 'a', 'b', 'c', 2, 'd', 'e'}
	r = readerOver(in)
	for i := range 2 {
		var err error
		if s[i], err = r.String(); err != nil {
			t.Fatal(err)
		}
	}
	clear(in)
	if s[0] != "abc" || s[1] != "de" || at(s[1]) != at(s[0])+4 {
		t.Errorf("got %q, %q; the second at %+d from the first", s[0], s[1], at(s[1])-at(s[0]))
	}
}
