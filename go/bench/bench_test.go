package bench

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	bbgm1 "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/benchmarks/proto3"
	bbcas "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/cas"
	bblogs "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/opentelemetry/proto/logs/v1"
	bbmetrics "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/opentelemetry/proto/metrics/v1"
	bbtrace "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/opentelemetry/proto/trace/v1"
	bbreport "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/report"
	bbtel "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/telemetry"
	pbgm1 "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/benchmarks/proto3"
	pbcas "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/cas"
	pblogs "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/opentelemetry/proto/logs/v1"
	pbmetrics "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/opentelemetry/proto/metrics/v1"
	pbtrace "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/opentelemetry/proto/trace/v1"
	pbreport "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/report"
	pbtel "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/telemetry"
	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	"github.com/bijoubuf/bijoubuf/go/bijoubufjson"
)

// vtMessage is what protoc-gen-go-vtproto adds to the protobuf-go types (features
// marshal, unmarshal and size): generated code that does not go through protobuf-go's
// reflection-driven tables.
type vtMessage interface {
	MarshalVT() ([]byte, error)
	UnmarshalVT([]byte) error
}

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
	// toPB: a bijoubuf value as the protobuf-go value holding the same data.
	toPB func(bijoubuf.Message) proto.Message
}

// pbViaJSON is the way back: a bijoubuf value as a fresh protobuf-go value.
func pbViaJSON(newPB func() proto.Message) func(bijoubuf.Message) proto.Message {
	return func(m bijoubuf.Message) proto.Message {
		text, err := bijoubufjson.Marshal(m)
		if err != nil {
			panic(err)
		}
		out := newPB()
		if err := protojson.Unmarshal([]byte(text), out); err != nil {
			panic(err)
		}
		return out
	}
}

// jsonDataset builds a dataset from protobuf-go values made by gen (seeds seed0+i),
// both sides' values parsed from their proto3 JSON text: the protobuf-go values by
// protojson, the bijoubuf values by bijoubufjson. Each side's value is then laid out in
// memory as its own JSON parser allocates it (see README.md).
func jsonDataset(name string, seed0 uint64, gen func(uint64) proto.Message,
	newBB func() bijoubuf.Message, newPB func() proto.Message) dataset {
	d := dataset{name: name, newBB: newBB, newPB: newPB, toPB: pbViaJSON(newPB)}
	for i := range uint64(variants) {
		text, err := protojson.Marshal(gen(seed0 + i))
		if err != nil {
			panic(err)
		}
		p := newPB()
		if err := protojson.Unmarshal(text, p); err != nil {
			panic(err)
		}
		b := newBB()
		if err := bijoubufjson.Unmarshal(string(text), b); err != nil {
			panic(err)
		}
		d.pb, d.bb = append(d.pb, p), append(d.bb, b)
	}
	return d
}

func datasets() []dataset {
	tel := dataset{name: "telemetry", newBB: func() bijoubuf.Message { return new(bbtel.SpanBatch) },
		newPB: func() proto.Message { return new(pbtel.SpanBatch) },
		toPB:  func(m bijoubuf.Message) proto.Message { return pbTelemetry(m.(*bbtel.SpanBatch)) }}
	c := dataset{name: "cas", newBB: func() bijoubuf.Message { return new(bbcas.Index) },
		newPB: func() proto.Message { return new(pbcas.Index) },
		toPB:  func(m bijoubuf.Message) proto.Message { return pbCas(m.(*bbcas.Index)) }}
	for i := range uint64(variants) {
		t := telemetry(0x5EED_0000 + i)
		tel.bb, tel.pb = append(tel.bb, t), append(tel.pb, pbTelemetry(t))
		x := cas(0x5EED_0100 + i)
		c.bb, c.pb = append(c.bb, x), append(c.pb, pbCas(x))
	}
	gm1 := jsonDataset("google_message1", 0x5EED_0200,
		func(s uint64) proto.Message { return googleMessage1(s) },
		func() bijoubuf.Message { return new(bbgm1.GoogleMessage1) },
		func() proto.Message { return new(pbgm1.GoogleMessage1) })
	traces := jsonDataset("otlp-traces", 0x5EED_0300,
		func(s uint64) proto.Message { return otlpTraces(s) },
		func() bijoubuf.Message { return new(bbtrace.TracesData) },
		func() proto.Message { return new(pbtrace.TracesData) })
	metrics := jsonDataset("otlp-metrics", 0x5EED_0400,
		func(s uint64) proto.Message { return otlpMetricsData(s) },
		func() bijoubuf.Message { return new(bbmetrics.MetricsData) },
		func() proto.Message { return new(pbmetrics.MetricsData) })
	logs := jsonDataset("otlp-logs", 0x5EED_0500,
		func(s uint64) proto.Message { return otlpLogsData(s) },
		func() bijoubuf.Message { return new(bblogs.LogsData) },
		func() proto.Message { return new(pblogs.LogsData) })
	report := jsonDataset("report", 0x5EED_0600,
		func(s uint64) proto.Message { return reportPage(s) },
		func() bijoubuf.Message { return new(bbreport.ReportPage) },
		func() proto.Message { return new(pbreport.ReportPage) })
	return []dataset{tel, c, gm1, traces, metrics, logs, report}
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
			// vtprotobuf writes bytes protobuf-go reads back to the same value, and reads
			// protobuf-go's bytes to the same value.
			vt, err := d.pb[i].(vtMessage).MarshalVT()
			if err != nil {
				t.Fatal(err)
			}
			vback := d.newPB()
			if err := proto.Unmarshal(vt, vback); err != nil || !proto.Equal(vback, d.pb[i]) {
				t.Fatalf("%s[%d]: vtprotobuf encoding: %v", d.name, i, err)
			}
			vback = d.newPB()
			if err := vback.(vtMessage).UnmarshalVT(p); err != nil || !proto.Equal(vback, d.pb[i]) {
				t.Fatalf("%s[%d]: vtprotobuf decoding: %v", d.name, i, err)
			}
			// The bijoubuf value decoded back is the same data as the protobuf one.
			conv := d.toPB(back)
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
		b.Run(fmt.Sprintf("%s/vtprotobuf", d.name), func(b *testing.B) {
			measure(b, func(i int) error {
				_, err := d.pb[i].(vtMessage).MarshalVT()
				return err
			})
		})
	}
}

// BenchmarkEncodeAppend is BenchmarkEncode into one buffer reused from message to
// message, as a program writing a stream or a log does: bijoubuf's Encoder.Append
// against protobuf-go's MarshalAppend (vtprotobuf has no append form). Neither side
// allocates its output once the buffer has grown to the largest message.
func BenchmarkEncodeAppend(b *testing.B) {
	for _, d := range datasets() {
		b.Run(fmt.Sprintf("%s/bijoubuf", d.name), func(b *testing.B) {
			var e bijoubuf.Encoder
			var buf []byte
			measure(b, func(i int) (err error) {
				buf, err = e.Append(buf[:0], d.bb[i])
				return err
			})
		})
		b.Run(fmt.Sprintf("%s/protobuf-go", d.name), func(b *testing.B) {
			var buf []byte
			measure(b, func(i int) (err error) {
				buf, err = proto.MarshalOptions{}.MarshalAppend(buf[:0], d.pb[i])
				return err
			})
		})
	}
}

// BenchmarkEncodeDecoded is BenchmarkEncode on values each side decoded from its own
// encoding, as a server re-encodes what it received: both sides' values then lie in
// memory as their decoders allocate them. In BenchmarkEncode the values of
// GoogleMessage1 and OpenTelemetry were parsed from JSON on both sides (see
// jsonDataset), their small messages scattered among the parsers' garbage, and those of
// telemetry and cas built by constructor code on both sides.
func BenchmarkEncodeDecoded(b *testing.B) {
	for _, d := range datasets() {
		var bb []bijoubuf.Message
		var pb []proto.Message
		for i := range variants {
			x, err := d.bb[i].Marshal()
			if err != nil {
				b.Fatal(err)
			}
			m := d.newBB()
			if err := m.Unmarshal(x); err != nil {
				b.Fatal(err)
			}
			y, err := proto.Marshal(d.pb[i])
			if err != nil {
				b.Fatal(err)
			}
			p := d.newPB()
			if err := proto.Unmarshal(y, p); err != nil {
				b.Fatal(err)
			}
			bb, pb = append(bb, m), append(pb, p)
		}
		b.Run(fmt.Sprintf("%s/bijoubuf", d.name), func(b *testing.B) {
			measure(b, func(i int) error {
				_, err := bb[i].Marshal()
				return err
			})
		})
		b.Run(fmt.Sprintf("%s/protobuf-go", d.name), func(b *testing.B) {
			measure(b, func(i int) error {
				_, err := proto.Marshal(pb[i])
				return err
			})
		})
		b.Run(fmt.Sprintf("%s/vtprotobuf", d.name), func(b *testing.B) {
			measure(b, func(i int) error {
				_, err := pb[i].(vtMessage).MarshalVT()
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
		b.Run(fmt.Sprintf("%s/vtprotobuf", d.name), func(b *testing.B) {
			measure(b, func(i int) error { return d.newPB().(vtMessage).UnmarshalVT(pbIn[i]) })
		})
	}
}
