package conformance

import (
	"bytes"
	"errors"
	"testing"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	"github.com/bijoubuf/bijoubuf/go/internal/testee"
)

// eachArbitrary calls f with 12 arbitrary values of every registered message type that
// Marshal encodes, and their encodings, and fails when fewer than 100 were.
func eachArbitrary(t *testing.T, f func(d *bijoubuf.MessageDesc, seed uint64, m bijoubuf.Message, want []byte)) {
	t.Helper()
	encoded := 0
	bijoubuf.RangeMessages(func(d *bijoubuf.MessageDesc) bool {
		for seed := range uint64(12) {
			m := testee.Arbitrary(d, seed)
			if want, err := m.Marshal(); err == nil {
				f(d, seed, m, want)
				encoded++
			}
		}
		return true
	})
	if encoded < 100 {
		t.Fatalf("only %d values encoded", encoded)
	}
}

// TestWriteIntoAnyBuffer: the write pass into a buffer the caller owns
// (bijoubuf.NewBackWriterInto, as the gRPC codec writes into a pooled buffer that held
// an earlier payload) writes every byte of it, whatever it held, and nothing outside it:
// for arbitrary values of every registered message type, the bytes equal Marshal's over
// buffers filled with 00, FF and A5 bytes, and a buffer of the wrong length is
// size-mismatch, not a panic.
func TestWriteIntoAnyBuffer(t *testing.T) {
	eachArbitrary(t, func(d *bijoubuf.MessageDesc, seed uint64, m bijoubuf.Message, want []byte) {
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
	})
}

// TestEncoderAppends: an Encoder's Append and AppendFrame give Marshal's bytes after
// what the buffer held (AppendFrame: as bijoubuf.AppendFrame frames them), for
// arbitrary values of every registered message type, into one buffer reused throughout.
func TestEncoderAppends(t *testing.T) {
	var e bijoubuf.Encoder
	buf := []byte("head")
	var frames []byte
	eachArbitrary(t, func(d *bijoubuf.MessageDesc, seed uint64, m bijoubuf.Message, want []byte) {
		got, err := e.Append(buf[:4], m)
		if err != nil || string(got[:4]) != "head" || !bytes.Equal(got[4:], want) {
			t.Fatalf("%s seed %d: Append % x, %v; want head and % x", d.FullName, seed, got, err, want)
		}
		buf = got
		wantStream := bijoubuf.AppendFrame(bytes.Clone(frames), want)
		if frames, err = e.AppendFrame(frames, m); err != nil || !bytes.Equal(frames, wantStream) {
			t.Fatalf("%s seed %d: AppendFrame, %v", d.FullName, seed, err)
		}
	})
}

// TestEncoderRefusesAsMarshalDoes: a value Marshal refuses (a string that is not UTF-8,
// the size limit), Append and AppendFrame refuse with the same error and hand the buffer
// back as it was.
func TestEncoderRefusesAsMarshalDoes(t *testing.T) {
	for _, c := range []struct {
		m    *Person
		opts bijoubuf.EncodeOptions
	}{
		{&Person{Name: "a\xffb"}, bijoubuf.EncodeOptions{}},
		{&Person{Name: "Ada", Age: 36}, bijoubuf.EncodeOptions{}.WithMaxSize(4)},
	} {
		_, want := c.m.MarshalOptions(c.opts)
		if want == nil {
			t.Fatalf("%+v was encoded", c.m)
		}
		e := bijoubuf.Encoder{Options: c.opts}
		dst := []byte{1, 2, 3}
		for _, f := range []func([]byte, bijoubuf.Message) ([]byte, error){e.Append, e.AppendFrame} {
			got, err := f(dst, c.m)
			if err == nil || err.Error() != want.Error() || !bytes.Equal(got, []byte{1, 2, 3}) {
				t.Fatalf("%+v: % x, %v; want %v", c.m, got, err, want)
			}
		}
	}
}

// TestEncoderAllocatesNothingIntoRoom: appended into a buffer with the room, an encode
// allocates nothing (Marshal allocates its output every time).
func TestEncoderAllocatesNothingIntoRoom(t *testing.T) {
	o := &Order{Id: 1001, Customer: &Customer{Name: "Bo"}, Lines: []*Line{{Sku: "A1", Qty: 2}, {Sku: "B7"}}, Tags: map[string]int64{"gift": -1}}
	e := new(bijoubuf.Encoder)
	buf := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(100, func() {
		var err error
		if buf, err = e.Append(buf[:0], o); err != nil {
			t.Fatal(err)
		}
		if buf, err = e.AppendFrame(buf, o); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("Append and AppendFrame: %v allocations", n)
	}
}

// handWritten is a bijoubuf.Message that is not generated code: no passes
// (bijoubuf.Sizer), only the Message methods, forwarded to a Person.
type handWritten struct{ p Person }

func (h *handWritten) BijoubufDesc() *bijoubuf.MessageDesc { return h.p.BijoubufDesc() }
func (h *handWritten) Marshal() ([]byte, error)            { return h.p.Marshal() }
func (h *handWritten) MarshalOptions(o bijoubuf.EncodeOptions) ([]byte, error) {
	return h.p.MarshalOptions(o)
}
func (h *handWritten) Unmarshal(b []byte) error { return h.p.Unmarshal(b) }
func (h *handWritten) UnmarshalOptions(b []byte, o bijoubuf.DecodeOptions) error {
	return h.p.UnmarshalOptions(b, o)
}
func (h *handWritten) BijoubufUnmarshal(b []byte, o bijoubuf.DecodeOptions) (int, error) {
	return h.p.BijoubufUnmarshal(b, o)
}
func (h *handWritten) BijoubufUnknown() []bijoubuf.UnknownRecord { return h.p.BijoubufUnknown() }

// TestEncoderOfAMessageWithoutPasses: a message that is not generated code is appended
// as its own MarshalOptions encodes it, framed for AppendFrame, and refused as it
// refuses.
func TestEncoderOfAMessageWithoutPasses(t *testing.T) {
	h := &handWritten{Person{Name: "Ada", Age: 36}}
	if _, ok := any(h).(bijoubuf.Sizer); ok {
		t.Fatal("handWritten has the passes")
	}
	want, _ := h.Marshal()
	var e bijoubuf.Encoder
	if got, err := e.Append([]byte{9}, h); err != nil || !bytes.Equal(got, append([]byte{9}, want...)) {
		t.Fatalf("Append: % x, %v", got, err)
	}
	if got, err := e.AppendFrame([]byte{9}, h); err != nil || !bytes.Equal(got, bijoubuf.AppendFrame([]byte{9}, want)) {
		t.Fatalf("AppendFrame: % x, %v", got, err)
	}
	e.Options = bijoubuf.EncodeOptions{}.WithMaxSize(2)
	if got, err := e.Append([]byte{9}, h); err == nil || !bytes.Equal(got, []byte{9}) {
		t.Fatalf("Append over the size limit: % x, %v", got, err)
	}
}

// TestEncodeIntoRoomOfAnotherLength: Encode given a slice of another length than the
// encoding's is size-mismatch, not a panic nor a short write, for generated code and
// for a message without the passes alike.
func TestEncodeIntoRoomOfAnotherLength(t *testing.T) {
	for _, m := range []bijoubuf.Message{&Person{Name: "Ada", Age: 36}, &handWritten{Person{Name: "Ada", Age: 36}}} {
		want, _ := m.Marshal()
		for _, size := range []int{len(want) - 1, len(want) + 1} {
			var e bijoubuf.Encoder
			var ee *bijoubuf.EncodeError
			err := e.Encode(m, func(n int) []byte {
				if n != len(want) {
					t.Fatalf("%T: room asked for %d bytes, the encoding has %d", m, n, len(want))
				}
				return make([]byte, size)
			})
			if !errors.As(err, &ee) || ee.Code() != bijoubuf.EncodeSizeMismatch {
				t.Fatalf("%T into %d bytes for %d: %v", m, size, len(want), err)
			}
		}
	}
}
