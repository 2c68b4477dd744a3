package bijoubuf_test

import (
	"fmt"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
)

// Person is message Person { string name = 1; int32 age = 2; } (proto3, implicit
// presence), decoded and encoded by hand the way generated code will.
type Person struct {
	Name string
	Age  int32
}

func (p *Person) decode(r *bijoubuf.Reader) error {
	if ok, err := r.Field(1, bijoubuf.WireLen, "name"); err != nil {
		return err
	} else if ok {
		if p.Name, err = r.String(); err != nil {
			return bijoubuf.InField(err, "name")
		}
		if p.Name == "" {
			return r.DefaultValuePresent("name")
		}
	}
	if ok, err := r.Field(2, bijoubuf.WireVarint, "age"); err != nil {
		return err
	} else if ok {
		if p.Age, err = r.Int32(); err != nil {
			return bijoubuf.InField(err, "age")
		}
		if p.Age == 0 {
			return r.DefaultValuePresent("age")
		}
	}
	_, err := r.Finish()
	return err
}

func (p *Person) encode() ([]byte, error) {
	size, prev := 0, uint32(0)
	if p.Name != "" {
		size += bijoubuf.KeySize(prev, 1) + bijoubuf.LenSize(len(p.Name))
		prev = 1
	}
	if p.Age != 0 {
		size += bijoubuf.KeySize(prev, 2) + bijoubuf.ZigzagSize(int64(p.Age))
	}
	w := bijoubuf.NewWriter(size)
	if p.Name != "" {
		w.Key(1, bijoubuf.WireLen)
		w.String(p.Name)
	}
	if p.Age != 0 {
		w.Key(2, bijoubuf.WireVarint)
		w.Zigzag(int64(p.Age))
	}
	return w.Bytes()
}

func Example() {
	b, err := (&Person{Name: "Ada", Age: 36}).encode()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("% X\n", b)

	var p Person
	if _, err := bijoubuf.Decode(b, bijoubuf.DecodeOptions{}, "Person", false, p.decode); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Name, p.Age)

	// The age record holding its default: refused, with code, path and offset.
	_, err = bijoubuf.Decode([]byte{0x04, 0x00}, bijoubuf.DecodeOptions{}, "Person", false, new(Person).decode)
	fmt.Println(err)
	// Output:
	// 02 03 41 64 61 00 48
	// Ada 36
	// default-value-present: Person.age holds its default at byte 0
}
