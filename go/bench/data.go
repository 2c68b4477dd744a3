// Package bench compares the generated bijoubuf Go code with google.golang.org/protobuf
// on the message datasets of benches/ (telemetry and cas, built here with the
// distributions of benches/src/msg/data.rs; Go's seeded generator, so not the Rust
// values byte for byte), GoogleMessage1 (data_gm1.go), the OpenTelemetry traces,
// metrics and logs (data_otlp.go) and a page of a wide analytics report (data_report.go).
// Run by hand:
//
//	go test -run '^$' -bench . -benchmem -count 10 -cpu 1
package bench

import (
	"math"
	"math/rand/v2"
	"strings"

	bbcas "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/cas"
	bbtel "github.com/bijoubuf/bijoubuf/go/bench/internal/bb/telemetry"
)

var words = []string{
	"request", "user", "cache", "index", "query", "retry", "the", "of", "service", "handler",
	"timeout", "commit", "merge", "fix", "update", "add", "remove", "build", "test", "error",
	"client", "server", "store", "blob", "tree", "read", "write", "batch", "span", "trace",
	"payment", "order", "session", "token", "refresh", "account", "region", "a", "to", "in",
}

type gen struct{ r *rand.Rand }

func newGen(seed uint64) *gen { return &gen{rand.New(rand.NewPCG(seed, 0x5EED))} }

// between is uniform in lo..hi-1.
func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo) }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) words(n int, sep string) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(words[g.r.IntN(len(words))])
	}
	return b.String()
}

func (g *gen) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.r.UintN(256))
	}
	return b
}

// logSize is a byte count, log-uniform between 10 B and 100 MB.
func (g *gen) logSize() uint64 { return uint64(math.Pow(10, 1+7*g.r.Float64())) }

const epochNs = 1_767_225_600_000_000_000

var spanNames = []string{"GET /api/v1/users/{id}", "POST /api/v1/orders", "db.query", "cache.get",
	"http.client.request", "grpc.payments.Charge", "render", "kafka.produce"}

var attrKeys = []string{"http.method", "http.status_code", "http.url", "net.peer.name", "net.peer.port",
	"db.system", "db.statement", "user.id", "cache.hit", "retry.count", "thread.name", "request.size",
	"sampling.ratio", "payload.digest"}

func (g *gen) anyValue(key string) *bbtel.AnyValue {
	v := &bbtel.AnyValue{}
	switch key {
	case "http.status_code":
		v.Value = &bbtel.AnyValue_IntValue{IntValue: []int64{200, 200, 200, 201, 204, 404, 500}[g.r.IntN(7)]}
	case "net.peer.port":
		v.Value = &bbtel.AnyValue_IntValue{IntValue: int64(g.between(1024, 65536))}
	case "retry.count":
		v.Value = &bbtel.AnyValue_IntValue{IntValue: int64(g.r.IntN(4))}
	case "request.size":
		v.Value = &bbtel.AnyValue_IntValue{IntValue: int64(g.logSize())}
	case "user.id":
		v.Value = &bbtel.AnyValue_IntValue{IntValue: 1 + g.r.Int64N(1<<40-1)}
	case "cache.hit":
		v.Value = &bbtel.AnyValue_BoolValue{BoolValue: g.chance(0.7)}
	case "sampling.ratio":
		v.Value = &bbtel.AnyValue_DoubleValue{DoubleValue: []float64{0.1, 0.25, 1}[g.r.IntN(3)]}
	case "payload.digest":
		v.Value = &bbtel.AnyValue_BytesValue{BytesValue: g.bytes(32)}
	case "http.url", "db.statement":
		v.Value = &bbtel.AnyValue_StringValue{StringValue: g.words(g.between(20, 80), "/")}
	default:
		v.Value = &bbtel.AnyValue_StringValue{StringValue: g.words(g.between(3, 16), "-")}
	}
	return v
}

func (g *gen) attributes(n int) map[string]*bbtel.AnyValue {
	if n == 0 {
		return nil
	}
	m := make(map[string]*bbtel.AnyValue, n)
	for range n {
		k := attrKeys[g.r.IntN(len(attrKeys))]
		m[k] = g.anyValue(k)
	}
	return m
}

func (g *gen) span(traceID, parent []byte) *bbtel.Span {
	start := uint64(epochNs) + g.r.Uint64N(3_600_000_000_000)
	dur := uint64(math.Pow(10, 3+7*g.r.Float64()))
	s := &bbtel.Span{
		TraceId:           traceID,
		SpanId:            g.bytes(8),
		ParentSpanId:      parent,
		StartTimeUnixNano: start,
		EndTimeUnixNano:   start + dur,
	}
	nAttr := g.between(3, 11)
	if g.chance(0.3) {
		for i := range g.between(1, 4) {
			s.Events = append(s.Events, &bbtel.Event{
				TimeUnixNano: start + dur/4*uint64(i+1),
				Name:         []string{"exception", "retry", "cache.miss", "message"}[g.r.IntN(4)],
				Attributes:   g.attributes(g.r.IntN(4)),
			})
		}
	}
	if g.chance(0.1) {
		s.Links = []*bbtel.Link{{TraceId: g.bytes(16), SpanId: g.bytes(8), Attributes: g.attributes(g.r.IntN(3))}}
	}
	s.Name = spanNames[g.r.IntN(len(spanNames))]
	s.Kind = bbtel.SpanKind(g.between(1, 6))
	s.Attributes = g.attributes(nAttr)
	if g.chance(0.05) {
		s.Status = &bbtel.Status{Message: g.words(24, " "), Code: 2}
	}
	if g.chance(0.05) {
		s.DroppedAttributesCount = uint32(g.between(1, 40))
	}
	return s
}

// telemetry is a SpanBatch of 64 spans in traces of 8.
func telemetry(seed uint64) *bbtel.SpanBatch {
	g := newGen(seed)
	b := &bbtel.SpanBatch{ServiceName: "checkout", Resource: map[string]*bbtel.AnyValue{}}
	var trace, root []byte
	for i := range 64 {
		if i%8 == 0 {
			trace, root = g.bytes(16), nil
		}
		s := g.span(trace, root)
		if root == nil {
			root = s.SpanId
		}
		b.Spans = append(b.Spans, s)
	}
	for _, kv := range [][2]string{{"service.name", "checkout"}, {"service.version", "1.42.7"},
		{"host.name", "ip-10-0-12-34.eu-west-1.compute.internal"}, {"telemetry.sdk.language", "go"}} {
		b.Resource[kv[0]] = &bbtel.AnyValue{Value: &bbtel.AnyValue_StringValue{StringValue: kv[1]}}
	}
	return b
}

var metaKeys = []string{"signed-off-by", "change-id", "reviewed-on", "origin", "encoding"}

func (g *gen) metadata(maxN int) map[string]string {
	n := g.r.IntN(maxN + 1)
	if n == 0 {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		m[metaKeys[g.r.IntN(len(metaKeys))]] = g.words(g.between(6, 40), "-")
	}
	return m
}

// cas is an Index of 64 commits and 256 blobs.
func cas(seed uint64) *bbcas.Index {
	g := newGen(seed)
	idx := &bbcas.Index{}
	var prev [][]byte
	for range 64 {
		id := g.bytes(32)
		p := g.r.IntN(100)
		var parents [][]byte
		switch n := len(prev); {
		case n == 0 || p < 2:
		case p < 10 && n >= 2:
			parents = [][]byte{prev[n-1], prev[n-2]}
		default:
			parents = [][]byte{prev[n-1]}
		}
		prev = append(prev, id)
		msgLen := g.between(20, 200)
		idx.Commits = append(idx.Commits, &bbcas.Commit{
			Id:        id,
			Tree:      g.bytes(32),
			Parents:   parents,
			Author:    g.words(10, " ") + " <" + g.words(6, ".") + "@example.org>",
			Message:   g.words(msgLen, " "),
			Timestamp: 1_767_225_600 + g.r.Int64N(31_536_000),
			Metadata:  g.metadata(3),
		})
	}
	for range 256 {
		plen := g.between(10, 60)
		mode := uint32(0o100644)
		switch p := g.r.IntN(100); {
		case p >= 99:
			mode = 0o120000
		case p >= 90:
			mode = 0o100755
		}
		idx.Blobs = append(idx.Blobs, &bbcas.Blob{
			Id:       g.bytes(32),
			Size:     g.logSize(),
			Path:     g.words(plen, "/") + ".rs",
			Mode:     mode,
			Metadata: g.metadata(1),
		})
	}
	return idx
}
