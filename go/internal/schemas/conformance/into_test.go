package conformance

import (
	"bytes"
	"errors"
	"testing"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	"github.com/bijoubuf/bijoubuf/go/internal/testee"
)

// TestWriteIntoAnyBuffer: the write pass into a buffer the caller owns
// (bijoubuf.NewBackWriterInto, as the gRPC codec writes into a pooled buffer that held
// an earlier payload) writes every byte of it, whatever it held, and nothing outside it:
// for arbitrary values of every registered message type, the bytes equal Marshal's over
// buffers filled with two patterns, and a buffer of the wrong length is size-mismatch,
// not a panic.
func TestWriteIntoAnyBuffer(t *testing.T) {
	encoded := 0
	bijoubuf.RangeMessages(func(d *bijoubuf.MessageDesc) bool {
		for seed := range uint64(12) {
			m := testee.Arbitrary(d, seed)
			want, err := m.Marshal()
			if err != nil {
				continue
			}
			sm := m.(bijoubuf.Sizer)
			s := bijoubuf.NewSizes(bijoubuf.EncodeOptions{})
			n := sm.BijoubufSize(&s, 1)
			if s.Failed() || n != len(want) {
				t.Fatalf("%s seed %d: size pass %d (%v), Marshal %d bytes", d.FullName, seed, n, s.Err(), len(want))
			}
			for _, fill := range []byte{0x00, 0xFF, 0xA5} {
				buf := bytes.Repeat([]byte{fill}, n+2)
				w := bijoubuf.NewBackWriterInto(buf[1 : n+1])
				sm.BijoubufWrite(&w)
				got, err := w.Bytes()
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s seed %d over %02x: % x, %v; want % x", d.FullName, seed, fill, got, err, want)
				}
				if buf[0] != fill || buf[n+1] != fill {
					t.Fatalf("%s seed %d: wrote outside its buffer", d.FullName, seed)
				}
			}
			for _, size := range []int{n - 1, n + 1} {
				if size < 0 {
					continue
				}
				w := bijoubuf.NewBackWriterInto(make([]byte, size))
				sm.BijoubufWrite(&w)
				var e *bijoubuf.EncodeError
				if _, err := w.Bytes(); !errors.As(err, &e) || e.Code() != bijoubuf.EncodeSizeMismatch {
					t.Fatalf("%s seed %d into %d bytes for %d: %v", d.FullName, seed, size, n, err)
				}
			}
			encoded++
		}
		return true
	})
	if encoded < 100 {
		t.Fatalf("only %d values encoded", encoded)
	}
	t.Logf("%d values", encoded)
}
