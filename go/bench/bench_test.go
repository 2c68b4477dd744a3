package bench

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	bbcas "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/cas"
	bbtel "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/telemetry"
	pbcas "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/cas"
	pbtel "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/telemetry"
	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
)

// variants: the benchmarks cycle through 8 seeded values so that the branch predictor
// does not learn one (as benches/src/msg does).
const variants = 8

type dataset struct {
	name string
	bb   []bijoubuf.Message
	pb   []proto.Message
	// newBB, newPB: an empty value to decode into.
	newBB func() bijoubuf.Message
	newPB func() proto.Message
}

func datasets() []dataset {
	tel := dataset{name: "telemetry", newBB: func() bijoubuf.Message { return new(bbtel.SpanBatch) },
		newPB: func() proto.Message { return new(pbtel.SpanBatch) }}
	c := dataset{name: "cas", newBB: func() bijoubuf.Message { return new(bbcas.Index) },
		newPB: func() proto.Message { return new(pbcas.Index) }}
	for i := range uint64(variants) {
		t := telemetry(0x5EED_0000 + i)
		tel.bb, tel.pb = append(tel.bb, t), append(tel.pb, pbTelemetry(t))
		x := cas(0x5EED_0100 + i)
		c.bb, c.pb = append(c.bb, x), append(c.pb, pbCas(x))
	}
	return []dataset{tel, c}
}

// TestDatasetsRoundTrip: both encodings of every value decode back to it (through the
// other side's encoder too), so the benchmarks compare the same data.
func TestDatasetsRoundTrip(t *testing.T) {
	for _, d := range datasets() {
		for i := range variants {
			b, err := d.bb[i].Marshal()
			if err != nil {
				t.Fatal(err)
			}
			back := d.newBB()
			if err := back.Unmarshal(b); err != nil {
				t.Fatal(err)
			}
			again, _ := back.Marshal()
			if string(again) != string(b) {
				t.Fatalf("%s[%d]: bijoubuf round trip differs", d.name, i)
			}
			p, err := proto.Marshal(d.pb[i])
			if err != nil {
				t.Fatal(err)
			}
			pback := d.newPB()
			if err := proto.Unmarshal(p, pback); err != nil || !proto.Equal(pback, d.pb[i]) {
				t.Fatalf("%s[%d]: protobuf round trip: %v", d.name, i, err)
			}
			// The bijoubuf value decoded back is the same data as the protobuf one.
			var conv proto.Message
			switch v := back.(type) {
			case *bbtel.SpanBatch:
				conv = pbTelemetry(v)
			case *bbcas.Index:
				conv = pbCas(v)
			}
			if !proto.Equal(conv, d.pb[i]) {
				t.Fatalf("%s[%d]: decoded bijoubuf value differs from the protobuf one", d.name, i)
			}
		}
	}
}

// cpuTime is the process's CPU time (user and system): on a shared machine wall time
// counts other processes, CPU time does not. With -cpu 1 it includes the garbage
// collector's work, which each side's allocations cause.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs op in a b.Loop and reports its CPU time per operation as cpu-ns/op.
func measure(b *testing.B, op func(i int) error) {
	start := cpuTime()
	for i := 0; b.Loop(); i++ {
		if err := op(i % variants); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func BenchmarkEncode(b *testing.B) {
	for _, d := range datasets() {
		b.Run(fmt.Sprintf("%s/bijoubuf", d.name), func(b *testing.B) {
			measure(b, func(i int) error {
				_, err := d.bb[i].Marshal()
				return err
			})
		})
		b.Run(fmt.Sprintf("%s/protobuf-go", d.name), func(b *testing.B) {
			measure(b, func(i int) error {
				_, err := proto.Marshal(d.pb[i])
				return err
			})
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, d := range datasets() {
		var bbIn, pbIn [][]byte
		for i := range variants {
			x, _ := d.bb[i].Marshal()
			y, _ := proto.Marshal(d.pb[i])
			bbIn, pbIn = append(bbIn, x), append(pbIn, y)
		}
		b.Run(fmt.Sprintf("%s/bijoubuf-strict", d.name), func(b *testing.B) {
			measure(b, func(i int) error { return d.newBB().Unmarshal(bbIn[i]) })
		})
		b.Run(fmt.Sprintf("%s/protobuf-go", d.name), func(b *testing.B) {
			measure(b, func(i int) error { return proto.Unmarshal(pbIn[i], d.newPB()) })
		})
	}
}
