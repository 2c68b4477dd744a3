package bijou64

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// unhex reads "F8 34" as the bytes 0xF8, 0x34.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// tierEdges is SPEC §2.3: around each tier boundary, the previous tier's last value,
// the tier's first value and the next one; plus the other values §2.3 names.
var tierEdges = []struct {
	value uint64
	bytes string
}{
	{0, "00"},
	{1, "01"},
	{247, "F7"},
	{248, "F8 00"},
	{249, "F8 01"},
	{503, "F8 FF"},
	{504, "F9 00 00"},
	{505, "F9 00 01"},
	{66039, "F9 FF FF"},
	{66040, "FA 00 00 00"},
	{66041, "FA 00 00 01"},
	{16843255, "FA FF FF FF"},
	{16843256, "FB 00 00 00 00"},
	{16843257, "FB 00 00 00 01"},
	{4311810551, "FB FF FF FF FF"},
	{4311810552, "FC 00 00 00 00 00"},
	{4311810553, "FC 00 00 00 00 01"},
	{1103823438327, "FC FF FF FF FF FF"},
	{1103823438328, "FD 00 00 00 00 00 00"},
	{1103823438329, "FD 00 00 00 00 00 01"},
	{282578800148983, "FD FF FF FF FF FF FF"},
	{282578800148984, "FE 00 00 00 00 00 00 00"},
	{282578800148985, "FE 00 00 00 00 00 00 01"},
	{72340172838076919, "FE FF FF FF FF FF FF FF"},
	{72340172838076920, "FF 00 00 00 00 00 00 00 00"},
	{72340172838076921, "FF 00 00 00 00 00 00 00 01"},
	{18446744073709551614, "FF FE FE FE FE FE FE FE 06"},
	{18446744073709551615, "FF FE FE FE FE FE FE FE 07"},
	{300, "F8 34"},
	{1<<32 - 1, "FB FE FE FE 07"},
	{1 << 32, "FB FE FE FE 08"},
}

func TestTierEdgesEncode(t *testing.T) {
	for _, c := range tierEdges {
		want := unhex(t, c.bytes)
		if got := Encode(c.value); !bytes.Equal(got, want) {
			t.Errorf("Encode(%d) = % X, want % X", c.value, got, want)
		}
		if got := Size(c.value); got != len(want) {
			t.Errorf("Size(%d) = %d, want %d", c.value, got, len(want))
		}
		if got := Append([]byte{0xAA}, c.value); !bytes.Equal(got, append([]byte{0xAA}, want...)) {
			t.Errorf("Append(AA, %d) = % X", c.value, got)
		}
	}
}

func TestTierEdgesDecode(t *testing.T) {
	for _, c := range tierEdges {
		b := unhex(t, c.bytes)
		// Exactly the encoding (the byte-by-byte path for all but tier 8) and followed
		// by padding (the 9-byte window path): the same value and length.
		for _, in := range [][]byte{b, append(append([]byte{}, b...), 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)} {
			v, n, err := Decode(in)
			if err != nil || v != c.value || n != len(b) {
				t.Errorf("Decode(% X) = %d, %d, %v; want %d, %d", in, v, n, err, c.value, len(b))
			}
		}
	}
}

func TestOffsetsFollowTheRecurrence(t *testing.T) {
	// SPEC §2.2: OFFSET[t+1] = OFFSET[t] + 256^t.
	for tier := 1; tier < 8; tier++ {
		if Offsets[tier+1] != Offsets[tier]+1<<(8*tier) {
			t.Errorf("Offsets[%d] = %d", tier+1, Offsets[tier+1])
		}
	}
}

func TestTruncated(t *testing.T) {
	// SPEC §2.4: no tag, or fewer payload bytes than the tag announces.
	for _, s := range []string{"", "F8", "F9 01", "FA 00 00", "FB 00 00 00", "FC 00", "FD 00 00 00 00 00", "FE 00 00 00 00 00 00", "FF FE FE FE FE FE FE FE"} {
		in := unhex(t, s)
		if _, _, err := Decode(in); !errors.Is(err, ErrTruncated) {
			t.Errorf("Decode(% X) error = %v, want truncated", in, err)
		}
	}
}

func TestOverflow(t *testing.T) {
	// SPEC §2.4: tier-8 payloads from FE FE FE FE FE FE FE 08 up to all FF.
	for _, s := range []string{"FF FE FE FE FE FE FE FE 08", "FF FF FF FF FF FF FF FF FF", "FF FE FE FE FE FE FE FF 00"} {
		in := unhex(t, s)
		for _, b := range [][]byte{in, append(in, 0)} {
			_, _, err := Decode(b)
			if !errors.Is(err, ErrOverflow) {
				t.Errorf("Decode(% X) error = %v, want varint-overflow", b, err)
			}
		}
	}
	if ErrOverflow.Code() != "varint-overflow" || ErrTruncated.Code() != "truncated" {
		t.Errorf("codes %q %q", ErrOverflow.Code(), ErrTruncated.Code())
	}
}

func TestZigzag(t *testing.T) {
	cases := []struct {
		v int64
		u uint64
	}{{0, 0}, {-1, 1}, {1, 2}, {-2, 3}, {2, 4}, {150, 300}, {-9223372036854775808, ^uint64(0)}, {9223372036854775807, ^uint64(0) - 1}}
	for _, c := range cases {
		if got := Zigzag(c.v); got != c.u {
			t.Errorf("Zigzag(%d) = %d, want %d", c.v, got, c.u)
		}
		if got := Unzigzag(c.u); got != c.v {
			t.Errorf("Unzigzag(%d) = %d, want %d", c.u, got, c.v)
		}
	}
}

// FuzzDecode checks that every byte string that decodes is the one spelling of its
// value: re-encoding gives back exactly the bytes read, and the value's Size is their
// length. Anything that does not decode must be truncated or an overflow.
func FuzzDecode(f *testing.F) {
	for _, c := range tierEdges {
		f.Add(unhex(f, c.bytes))
	}
	f.Add([]byte{0xFF, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0x08})
	f.Add([]byte{0xFA, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, n, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrOverflow) {
				t.Fatalf("Decode(% X): unexpected error %v", b, err)
			}
			if errors.Is(err, ErrTruncated) && len(b) > 0 && len(b) >= 1+PayloadLen(b[0]) {
				t.Fatalf("Decode(% X): truncated with all bytes present", b)
			}
			return
		}
		if n < 1 || n > len(b) || n != 1+PayloadLen(b[0]) {
			t.Fatalf("Decode(% X): length %d", b, n)
		}
		if got := Encode(v); !bytes.Equal(got, b[:n]) {
			t.Fatalf("Decode(% X) = %d, which encodes as % X: a second spelling", b[:n], v, got)
		}
		if Size(v) != n {
			t.Fatalf("Size(%d) = %d, read %d bytes", v, Size(v), n)
		}
		// The fast and the byte-by-byte path agree.
		v2, n2, err2 := Decode(append(append([]byte{}, b[:n]...), make([]byte, MaxLen)...))
		v3, n3, err3 := Decode(append([]byte{}, b[:n]...))
		if v2 != v || n2 != n || err2 != nil || v3 != v || n3 != n || err3 != nil {
			t.Fatalf("paths disagree on % X", b[:n])
		}
	})
}
