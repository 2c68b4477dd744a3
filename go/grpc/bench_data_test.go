package bijoubufgrpc_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	pbcommon "github.com/bijoubuf/bijoubuf/go/grpc/internal/pb/opentelemetry/proto/common/v1"
	pbres "github.com/bijoubuf/bijoubuf/go/grpc/internal/pb/opentelemetry/proto/resource/v1"
	pbtrace "github.com/bijoubuf/bijoubuf/go/grpc/internal/pb/opentelemetry/proto/trace/v1"
)

// The benchmark's trace export requests: go/bench's otlp-traces dataset (data_otlp.go
// there, the same generator and seeds, so the same values): otlpResources services,
// each with otlpScopes instrumentation scopes, each with otlpSpans spans.
const (
	otlpResources = 3
	otlpScopes    = 2
	otlpSpans     = 75
	otlpSchemaURL = "https://opentelemetry.io/schemas/1.27.0"
	// otlpEpochNs: nanoseconds since the epoch, late 2026.
	otlpEpochNs = 1_795_000_000_000_000_000
	// otlpSeed is the seed of the first request; go/bench's otlp-traces starts there too.
	otlpSeed = 0x5EED_0300
)

var (
	words = []string{
		"request", "user", "cache", "index", "query", "retry", "the", "of", "service", "handler",
		"timeout", "commit", "merge", "fix", "update", "add", "remove", "build", "test", "error",
		"client", "server", "store", "blob", "tree", "read", "write", "batch", "span", "trace",
		"payment", "order", "session", "token", "refresh", "account", "region", "a", "to", "in",
	}
	otlpSpanNames = []string{"GET /api/orders", "GET /api/orders/{id}", "POST /api/checkout",
		"SELECT orders", "INSERT order_items", "redis GET", "redis SETEX", "payment.Charge",
		"inventory.Reserve", "kafka publish orders", "render template", "HTTP GET"}
	otlpServices   = []string{"checkout", "frontend", "payment", "inventory", "cart", "shipping"}
	otlpScopeNames = []string{"io.opentelemetry.http", "io.opentelemetry.jdbc",
		"io.opentelemetry.grpc", "io.opentelemetry.redis"}
	otlpRoutes = []string{"/api/orders", "/api/orders/{id}", "/api/checkout", "/health"}
)

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

func (g *gen) pick(from []string) string { return from[g.r.IntN(len(from))] }

func kvS(key, v string) *pbcommon.KeyValue {
	return &pbcommon.KeyValue{Key: key,
		Value: &pbcommon.AnyValue{Value: &pbcommon.AnyValue_StringValue{StringValue: v}}}
}

func kvI(key string, v int64) *pbcommon.KeyValue {
	return &pbcommon.KeyValue{Key: key,
		Value: &pbcommon.AnyValue{Value: &pbcommon.AnyValue_IntValue{IntValue: v}}}
}

func (g *gen) otlpResource(i int) *pbres.Resource {
	service := otlpServices[i%len(otlpServices)]
	return &pbres.Resource{Attributes: []*pbcommon.KeyValue{
		kvS("service.name", service),
		kvS("service.version", fmt.Sprintf("1.%d.%d", g.r.IntN(20), g.r.IntN(10))),
		kvS("service.instance.id", fmt.Sprintf("%s-%08x", service, g.r.Uint32())),
		kvS("host.name", fmt.Sprintf("ip-10-0-%d-%d", g.r.IntN(256), g.r.IntN(256))),
		kvS("telemetry.sdk.name", "opentelemetry"),
		kvS("telemetry.sdk.language", g.pick([]string{"java", "go", "rust", "python"})),
		kvS("deployment.environment", "production"),
		kvI("process.pid", int64(g.between(1, 65536))),
	}}
}

func otlpScope(i int) *pbcommon.InstrumentationScope {
	return &pbcommon.InstrumentationScope{Name: otlpScopeNames[i%len(otlpScopeNames)],
		Version: "2.10.0"}
}

// spanAttributes: 3-8 of the usual keys, mixed value types.
func (g *gen) spanAttributes(name string) []*pbcommon.KeyValue {
	var a []*pbcommon.KeyValue
	switch {
	case strings.HasPrefix(name, "GET") || strings.HasPrefix(name, "POST") ||
		strings.HasPrefix(name, "HTTP"):
		method := "GET"
		if strings.HasPrefix(name, "POST") {
			method = "POST"
		}
		a = append(a, kvS("http.method", method), kvS("http.route", g.pick(otlpRoutes)),
			kvI("http.status_code", []int64{200, 200, 200, 200, 201, 404, 500}[g.r.IntN(7)]))
		if g.chance(0.5) {
			a = append(a, kvI("http.response_content_length", int64(g.r.IntN(100_000))))
		}
		if g.chance(0.5) {
			a = append(a, kvI("net.peer.port", int64(g.between(1024, 65536))))
		}
	case strings.HasPrefix(name, "SELECT") || strings.HasPrefix(name, "INSERT"):
		a = append(a, kvS("db.system", "postgresql"), kvS("db.name", "orders"),
			kvS("db.statement", name+" WHERE "+g.words(8, "_")+" = $1"))
	default:
		a = append(a, kvS("rpc.system", "grpc"), kvS("rpc.service", name),
			kvS("net.peer.name", g.pick(otlpServices)))
	}
	if g.chance(0.3) {
		a = append(a, kvI("thread.id", int64(g.between(1, 200))))
	}
	if g.chance(0.2) {
		a = append(a, &pbcommon.KeyValue{Key: "sampling.ratio",
			Value: &pbcommon.AnyValue{Value: &pbcommon.AnyValue_DoubleValue{DoubleValue: 0.25}}})
	}
	if g.chance(0.1) {
		a = append(a, &pbcommon.KeyValue{Key: "error",
			Value: &pbcommon.AnyValue{Value: &pbcommon.AnyValue_BoolValue{BoolValue: true}}})
	}
	return a
}

func (g *gen) otlpSpan(traceID, parent []byte, start uint64) *pbtrace.Span {
	name := g.pick(otlpSpanNames)
	attributes := g.spanAttributes(name)
	failed := false
	for _, a := range attributes {
		failed = failed || a.Key == "error"
	}
	duration := uint64(20_000 + g.r.Int64N(200_000_000-20_000))
	sp := &pbtrace.Span{TraceId: traceID, SpanId: nil, ParentSpanId: parent, Flags: 0x101,
		Name: name}
	if g.chance(0.15) {
		sp.Events = []*pbtrace.Span_Event{{TimeUnixNano: start + duration/2, Name: "exception",
			Attributes: []*pbcommon.KeyValue{
				kvS("exception.type", g.pick([]string{"java.io.IOException", "TimeoutError"})),
				kvS("exception.message", g.words(40, " ")),
			}}}
	}
	if g.chance(0.05) {
		sp.Links = []*pbtrace.Span_Link{{TraceId: g.bytes(16), SpanId: g.bytes(8), Flags: 0x101}}
	}
	sp.SpanId = g.bytes(8)
	sp.Kind = pbtrace.Span_SpanKind(g.between(1, 6))
	sp.StartTimeUnixNano, sp.EndTimeUnixNano = start, start+duration
	sp.Attributes = attributes
	sp.Status = &pbtrace.Status{}
	if failed {
		sp.Status.Code, sp.Status.Message = pbtrace.Status_STATUS_CODE_ERROR, "internal error"
	}
	return sp
}

func otlpTraces(seed uint64) *pbtrace.TracesData {
	g := newGen(seed)
	t := uint64(otlpEpochNs + g.r.Int64N(1_000_000_000_000))
	out := &pbtrace.TracesData{}
	for i := range otlpResources {
		rs := &pbtrace.ResourceSpans{Resource: g.otlpResource(i), SchemaUrl: otlpSchemaURL}
		for j := range otlpScopes {
			var spans []*pbtrace.Span
			for len(spans) < otlpSpans {
				traceID := g.bytes(16)
				n := min(g.between(2, 13), otlpSpans-len(spans))
				var parent []byte
				for range n {
					t += uint64(g.between(1_000, 2_000_000))
					sp := g.otlpSpan(traceID, parent, t)
					parent = sp.SpanId
					spans = append(spans, sp)
				}
			}
			rs.ScopeSpans = append(rs.ScopeSpans, &pbtrace.ScopeSpans{Scope: otlpScope(i + j),
				Spans: spans, SchemaUrl: otlpSchemaURL})
		}
		out.ResourceSpans = append(out.ResourceSpans, rs)
	}
	return out
}
