package conformance

import (
	"bytes"
	"testing"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
)

// FuzzGenerated decodes arbitrary bytes as generated messages of every shape (strings
// in every holder: implicit, explicit, required, oneof members, repeated, map keys and
// values), strict and preserving: no input may panic, every refusal is a
// *bijoubuf.DecodeError inside the input, and every accepted input re-encodes to exactly
// itself, also after the input's bytes are overwritten (the value holds copies).
func FuzzGenerated(f *testing.F) {
	for _, s := range []string{a1, a2, a3, "02 02 02 00", "02 0B 03 EF BC A1 01 04 F0 9F 98 80 02", "06 01 61"} {
		f.Add(unhex(f, s))
	}
	news := []func() bijoubuf.Message{
		func() bijoubuf.Message { return new(Person) },
		func() bijoubuf.Message { return new(Order) },
		func() bijoubuf.Message { return new(Scalars) },
		func() bijoubuf.Message { return new(Optionals) },
		func() bijoubuf.Message { return new(Repeats) },
		func() bijoubuf.Message { return new(Maps) },
		func() bijoubuf.Message { return new(Choice) },
		func() bijoubuf.Message { return new(Required) },
		func() bijoubuf.Message { return new(Node) },
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, m := range news {
			for _, opts := range []bijoubuf.DecodeOptions{{}, bijoubuf.DecodeOptions{}.Preserving(true).WithMaxDepth(8)} {
				v := m()
				buf := bytes.Clone(in)
				_, err := v.BijoubufUnmarshal(buf, opts)
				if err != nil {
					d, ok := bijoubuf.AsDecodeError(err)
					if !ok || d.Offset() < 0 || d.Offset() > len(in) {
						t.Fatalf("%s: % X: %v", v.BijoubufDesc().Name, in, err)
					}
					continue
				}
				clear(buf)
				out, err := v.MarshalOptions(bijoubuf.EncodeOptions{}.WithMaxDepth(opts.MaxDepth()))
				if err != nil || !bytes.Equal(out, in) {
					t.Fatalf("%s: % X accepted, re-encoded as % X (%v)", v.BijoubufDesc().Name, in, out, err)
				}
			}
		}
	})
}
