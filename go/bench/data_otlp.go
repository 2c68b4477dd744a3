package bench

import (
	"fmt"
	"strings"

	pbcommon "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/opentelemetry/proto/common/v1"
	pblogs "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/opentelemetry/proto/logs/v1"
	pbmetrics "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/opentelemetry/proto/metrics/v1"
	pbres "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/opentelemetry/proto/resource/v1"
	pbtrace "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/opentelemetry/proto/trace/v1"
)

// The OpenTelemetry export requests, shaped as benches/src/msg/otlp.rs builds them:
// otlpResources services, each with otlpScopes instrumentation scopes, each with
// otlpSpans spans, otlpMetrics metrics or otlpLogs log records.
const (
	otlpResources = 3
	otlpScopes    = 2
	otlpSpans     = 75
	otlpMetrics   = 20
	otlpLogs      = 50
	otlpSchemaURL = "https://opentelemetry.io/schemas/1.27.0"
	// otlpEpochNs: nanoseconds since the epoch, late 2026.
	otlpEpochNs = 1_795_000_000_000_000_000
)

var (
	otlpSpanNames = []string{"GET /api/orders", "GET /api/orders/{id}", "POST /api/checkout",
		"SELECT orders", "INSERT order_items", "redis GET", "redis SETEX", "payment.Charge",
		"inventory.Reserve", "kafka publish orders", "render template", "HTTP GET"}
	otlpServices   = []string{"checkout", "frontend", "payment", "inventory", "cart", "shipping"}
	otlpScopeNames = []string{"io.opentelemetry.http", "io.opentelemetry.jdbc",
		"io.opentelemetry.grpc", "io.opentelemetry.redis"}
	otlpRoutes = []string{"/api/orders", "/api/orders/{id}", "/api/checkout", "/health"}
	// otlpBounds: histogram bounds in seconds, as HTTP duration histograms have them.
	otlpBounds = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5,
		5.0, 7.5, 10.0}
)

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

func (g *gen) pointAttributes() []*pbcommon.KeyValue {
	n := g.between(1, 4)
	a := []*pbcommon.KeyValue{kvS("http.route", g.pick(otlpRoutes))}
	if n > 1 {
		a = append(a, kvI("http.response.status_code", []int64{200, 404, 500}[g.r.IntN(3)]))
	}
	if n > 2 {
		a = append(a, kvS("http.request.method", g.pick([]string{"GET", "POST"})))
	}
	return a
}

func (g *gen) uniform(lo, hi float64) float64 { return lo + (hi-lo)*g.r.Float64() }

func (g *gen) otlpMetric(k int, start, now uint64) *pbmetrics.Metric {
	points := g.between(1, 5)
	number := func(asInt bool) *pbmetrics.NumberDataPoint {
		p := &pbmetrics.NumberDataPoint{Attributes: g.pointAttributes(),
			StartTimeUnixNano: start, TimeUnixNano: now}
		if asInt {
			p.Value = &pbmetrics.NumberDataPoint_AsInt{AsInt: g.r.Int64N(1_000_000)}
		} else {
			p.Value = &pbmetrics.NumberDataPoint_AsDouble{AsDouble: g.uniform(0, 10_000)}
		}
		return p
	}
	numbers := func(asInt bool) []*pbmetrics.NumberDataPoint {
		var ps []*pbmetrics.NumberDataPoint
		for range points {
			ps = append(ps, number(asInt))
		}
		return ps
	}
	m := &pbmetrics.Metric{}
	switch k % 5 {
	case 0, 1:
		h := &pbmetrics.Histogram{
			AggregationTemporality: pbmetrics.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE}
		for range points {
			counts := make([]uint64, len(otlpBounds)+1)
			var count uint64
			for c := range counts {
				if !g.chance(0.3) {
					counts[c] = uint64(g.r.IntN(5_000))
				}
				count += counts[c]
			}
			sum := float64(count) * g.uniform(0.01, 0.5)
			p := &pbmetrics.HistogramDataPoint{Attributes: g.pointAttributes(),
				StartTimeUnixNano: start, TimeUnixNano: now, Count: count, Sum: &sum,
				BucketCounts: counts, ExplicitBounds: append([]float64(nil), otlpBounds...)}
			if g.chance(0.1) {
				p.Exemplars = []*pbmetrics.Exemplar{{
					TimeUnixNano: now - uint64(g.r.Int64N(1_000_000_000)),
					SpanId:       g.bytes(8), TraceId: g.bytes(16),
					Value: &pbmetrics.Exemplar_AsDouble{AsDouble: g.uniform(0, 10)}}}
			}
			lo, hi := 0.001, g.uniform(1, 12)
			p.Min, p.Max = &lo, &hi
			h.DataPoints = append(h.DataPoints, p)
		}
		m.Name = []string{"http.server.request.duration", "db.client.operation.duration"}[k%5]
		m.Unit, m.Data = "s", &pbmetrics.Metric_Histogram{Histogram: h}
	case 2:
		m.Name, m.Unit = "http.server.active_requests", "{request}"
		m.Data = &pbmetrics.Metric_Sum{Sum: &pbmetrics.Sum{DataPoints: numbers(true),
			AggregationTemporality: pbmetrics.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE}}
	case 3:
		m.Name, m.Unit = "process.cpu.time", "s"
		m.Data = &pbmetrics.Metric_Sum{Sum: &pbmetrics.Sum{DataPoints: numbers(false),
			AggregationTemporality: pbmetrics.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE,
			IsMonotonic:            true}}
	default:
		m.Name, m.Unit = "system.memory.usage", "By"
		m.Data = &pbmetrics.Metric_Gauge{Gauge: &pbmetrics.Gauge{DataPoints: numbers(true)}}
	}
	m.Description = g.words(24, " ")
	return m
}

func otlpMetricsData(seed uint64) *pbmetrics.MetricsData {
	g := newGen(seed)
	now := uint64(otlpEpochNs + g.r.Int64N(1_000_000_000_000))
	start := now - 60_000_000_000
	out := &pbmetrics.MetricsData{}
	for i := range otlpResources {
		rm := &pbmetrics.ResourceMetrics{Resource: g.otlpResource(i), SchemaUrl: otlpSchemaURL}
		for j := range otlpScopes {
			sm := &pbmetrics.ScopeMetrics{Scope: otlpScope(i + j), SchemaUrl: otlpSchemaURL}
			for k := range otlpMetrics {
				sm.Metrics = append(sm.Metrics, g.otlpMetric(k, start, now))
			}
			rm.ScopeMetrics = append(rm.ScopeMetrics, sm)
		}
		out.ResourceMetrics = append(out.ResourceMetrics, rm)
	}
	return out
}

func (g *gen) otlpLogRecord(t uint64) *pblogs.LogRecord {
	var number pblogs.SeverityNumber
	var text string
	switch p := g.r.IntN(100); {
	case p < 70:
		number, text = 9, "INFO"
	case p < 85:
		number, text = 5, "DEBUG"
	case p < 95:
		number, text = 13, "WARN"
	default:
		number, text = 17, "ERROR"
	}
	n := g.between(1, 5)
	a := []*pbcommon.KeyValue{kvS("code.function",
		g.pick([]string{"handle", "process_order", "charge", "reserve"}))}
	if n > 1 {
		a = append(a, kvS("thread.name", fmt.Sprintf("worker-%d", g.r.IntN(16))))
	}
	if n > 2 {
		a = append(a, kvS("log.logger", g.pick([]string{"com.shop.OrderService", "com.shop.Payment"})))
	}
	if n > 3 {
		a = append(a, kvS("http.route", g.pick(otlpRoutes)))
	}
	traced := g.chance(0.6)
	body := g.words(g.between(30, 160), " ")
	r := &pblogs.LogRecord{TimeUnixNano: t,
		ObservedTimeUnixNano: t + uint64(g.between(10_000, 5_000_000)),
		SeverityNumber:       number, SeverityText: text,
		Body:       &pbcommon.AnyValue{Value: &pbcommon.AnyValue_StringValue{StringValue: body}},
		Attributes: a}
	if traced {
		r.Flags, r.TraceId, r.SpanId = 1, g.bytes(16), g.bytes(8)
	}
	return r
}

func otlpLogsData(seed uint64) *pblogs.LogsData {
	g := newGen(seed)
	t := uint64(otlpEpochNs + g.r.Int64N(1_000_000_000_000))
	out := &pblogs.LogsData{}
	for i := range otlpResources {
		rl := &pblogs.ResourceLogs{Resource: g.otlpResource(i), SchemaUrl: otlpSchemaURL}
		for j := range otlpScopes {
			sl := &pblogs.ScopeLogs{Scope: otlpScope(i + j), SchemaUrl: otlpSchemaURL}
			for range otlpLogs {
				t += uint64(g.between(1_000, 50_000_000))
				sl.LogRecords = append(sl.LogRecords, g.otlpLogRecord(t))
			}
			rl.ScopeLogs = append(rl.ScopeLogs, sl)
		}
		out.ResourceLogs = append(out.ResourceLogs, rl)
	}
	return out
}
