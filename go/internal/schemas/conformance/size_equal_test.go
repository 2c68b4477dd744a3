package conformance

import (
	"errors"
	"math"
	"testing"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
)

// TestSizeIsTheEncodingsLength: bijoubuf.Size and Encoder.Size give the length of
// Marshal's bytes for arbitrary values of every registered type, and an encode's
// refusal (with its code) for a value that cannot be encoded.
func TestSizeIsTheEncodingsLength(t *testing.T) {
	var e bijoubuf.Encoder
	eachArbitrary(t, func(d *bijoubuf.MessageDesc, seed uint64, m bijoubuf.Message, want []byte) {
		n, err := bijoubuf.Size(m)
		if err != nil || n != len(want) {
			t.Errorf("%s seed %d: Size %d, %v; Marshal wrote %d bytes", d.FullName, seed, n, err, len(want))
		}
		if n, err := e.Size(m); err != nil || n != len(want) {
			t.Errorf("%s seed %d: Encoder.Size %d, %v", d.FullName, seed, n, err)
		}
	})
	bad := &Customer{Name: "\xff"}
	_, merr := bad.Marshal()
	n, err := bijoubuf.Size(bad)
	var me, se *bijoubuf.EncodeError
	if !errors.As(merr, &me) || !errors.As(err, &se) || n != 0 || me.Code() != se.Code() || me.Error() != se.Error() {
		t.Errorf("Size of a bad string: %d, %v; Marshal: %v", n, err, merr)
	}
	big := &Customer{Name: "a long enough name"}
	e.Options = bijoubuf.EncodeOptions{}.WithMaxSize(4)
	if _, err := e.Size(big); !errors.As(err, &se) || se.Code() != bijoubuf.EncodeSizeLimitExceeded {
		t.Errorf("Encoder.Size past its size limit: %v", err)
	}
	e.Options = bijoubuf.EncodeOptions{}
	if a := testing.AllocsPerRun(100, func() { _, _ = e.Size(big) }); a != 0 {
		t.Errorf("Encoder.Size allocates %v times", a)
	}
}

// TestEqualIsEqualEncodings: a value equals itself and its decoded copy, and equals
// another value exactly when their encodings are the same bytes and their types the
// same; NaNs of any bits are equal, −0 and +0 are not, a nil message equals its type's
// empty one, and a value that cannot be encoded equals nothing.
func TestEqualIsEqualEncodings(t *testing.T) {
	prev := map[string][]byte{}
	prevMsg := map[string]bijoubuf.Message{}
	eachArbitrary(t, func(d *bijoubuf.MessageDesc, seed uint64, m bijoubuf.Message, want []byte) {
		back := d.New()
		if _, err := back.BijoubufUnmarshal(want, bijoubuf.DecodeOptions{}.Preserving(true)); err != nil {
			t.Fatalf("%s seed %d: %v", d.FullName, seed, err)
		}
		if !bijoubuf.Equal(m, m) || !bijoubuf.Equal(m, back) || !bijoubuf.Equal(back, m) {
			t.Errorf("%s seed %d: not equal to itself or its decoded copy", d.FullName, seed)
		}
		if p, ok := prevMsg[d.FullName]; ok {
			if got, bytesSame := bijoubuf.Equal(m, p), string(want) == string(prev[d.FullName]); got != bytesSame {
				t.Errorf("%s seed %d: Equal %v with encodings equal %v", d.FullName, seed, got, bytesSame)
			}
		}
		prev[d.FullName], prevMsg[d.FullName] = want, m
	})
	// Two types whose empty messages have the same (empty) encoding.
	if bijoubuf.Equal(&Customer{}, &Leaf{}) || !bijoubuf.Equal(&Customer{}, &Customer{}) {
		t.Errorf("empty messages of two types equal, or of one type not")
	}
	if !bijoubuf.Equal((*Customer)(nil), &Customer{}) || bijoubuf.Equal((*Customer)(nil), &Customer{Name: "a"}) {
		t.Errorf("a nil message against the empty one and a set one")
	}
	if !bijoubuf.Equal(nil, nil) || bijoubuf.Equal(nil, &Customer{}) {
		t.Errorf("nil interfaces")
	}
	nan1, nan2 := math.Float64frombits(0x7FF8000000000001), math.Float64frombits(0xFFF0000000000002)
	if !bijoubuf.Equal(&Scalars{Db: nan1}, &Scalars{Db: nan2}) {
		t.Errorf("NaNs of different bits not equal")
	}
	if bijoubuf.Equal(&Scalars{Db: math.Copysign(0, -1)}, &Scalars{Db: 0}) {
		t.Errorf("-0 equal to +0")
	}
	bad := &Customer{Name: "\xff"}
	if bijoubuf.Equal(bad, bad) {
		t.Errorf("a value that cannot be encoded equals itself")
	}
}
