package bijoubuf

import (
	"bytes"
	"testing"
)

// FuzzCanonical decodes arbitrary bytes as the Appendix A schemas and the recursive
// Node, strict and preserving, through the primitives: no input may panic, every
// refusal is a *DecodeError inside the input, and every accepted input re-encodes to
// exactly itself (one value, one byte string).
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{a1, a2, a3, "02 02 02 00", "00 01 00 02 00 03", "02 0B 03 EF BC A1 01 04 F0 9F 98 80 02"} {
		f.Add(unhex(f, s))
	}
	schemas := []*msgT{person, order, reading, node, mMapSU, mMapFB, mSfixRun, mAC}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, m := range schemas {
			for _, opts := range []DecodeOptions{{}, DecodeOptions{}.Preserving(true).WithMaxDepth(8)} {
				v, _, err := m.decodeAll(in, opts)
				if err != nil {
					d, ok := AsDecodeError(err)
					if !ok || d.Offset() < 0 || d.Offset() > len(in) || d.Code() < Truncated || d.Code() > SizeLimitExceeded {
						t.Fatalf("%s: % X: %v", m.name, in, err)
					}
					continue
				}
				out, err := m.encode(v)
				if err != nil || !bytes.Equal(out, in) {
					t.Fatalf("%s: % X accepted, re-encoded as % X (%v)", m.name, in, out, err)
				}
			}
		}
	})
}
