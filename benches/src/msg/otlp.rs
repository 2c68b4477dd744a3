//! OpenTelemetry's traces, metrics and logs (`opentelemetry-proto`'s public schemas,
//! vendored in `benches/schemas/opentelemetry/`): seeded data shaped like a real export
//! request, as bijoubuf values, and the same data as prost's and buffa's values.
//!
//! The shape, per request (the `…Data` messages, which carry what the collector's
//! `Export…ServiceRequest` carries, field for field):
//!
//! - **Resources**: [`RESOURCES`] services, each with 8 attributes of the usual
//!   semantic-convention keys (`service.name`, `service.version`, `host.name`,
//!   `telemetry.sdk.*`, `deployment.environment`, `process.pid` as an int), each with
//!   [`SCOPES`] instrumentation scopes (`io.opentelemetry.http`, … with a version and a
//!   schema URL); the resource and scope are repeated as an SDK repeats them.
//! - **Traces**: [`SPANS`] spans per scope, in traces of 2–12 spans sharing a 16-byte
//!   trace id, each with an 8-byte span id and its parent's (none for the root), a name
//!   from a small vocabulary (`GET /api/orders`, `SELECT orders`, …), a kind, start and
//!   end times in nanoseconds a few micro- to milliseconds apart, 3–8 attributes of mixed
//!   types (`http.method` string, `http.status_code` int, `error` bool, a double), a
//!   status; an event (`exception` with its attributes) on 15 % and a link on 5 %.
//! - **Metrics**: [`METRICS`] metrics per scope: gauges and sums (int and double,
//!   monotonic or not) and histograms with 15 buckets (14 explicit bounds), 1–4 data
//!   points each with 1–3 attributes, exemplars (trace and span id) on 10 % of histogram
//!   points.
//! - **Logs**: [`LOGS`] records per scope: times in nanoseconds, a severity number and
//!   its text (mostly INFO, some DEBUG/WARN/ERROR), a body of 30–160 characters,
//!   1–4 attributes, a trace and span id on 60 %.
//!
//! prost's value is converted field by field ([`Pb`]); buffa's is read from prost's
//! bytes, since both write protobuf (the tests check that it reads back the same).

use rand::Rng;
use rand_chacha::ChaCha8Rng as R;

use super::bijou::opentelemetry::proto as b;
use super::buffa_types::opentelemetry::proto as f;
use super::data::{bytes, rng, words};
use super::pb::opentelemetry::proto as p;

/// Resources (services) per request.
pub const RESOURCES: usize = 3;
/// Instrumentation scopes per resource.
pub const SCOPES: usize = 2;
/// Spans per scope: 3 × 2 × 75 = 450 spans per trace request.
pub const SPANS: usize = 75;
/// Metrics per scope.
pub const METRICS: usize = 20;
/// Log records per scope.
pub const LOGS: usize = 50;

/// One of the three OpenTelemetry signals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// `TracesData`.
    Traces,
    /// `MetricsData`.
    Metrics,
    /// `LogsData`.
    Logs,
}

impl Signal {
    /// Every signal, in table order.
    pub const ALL: [Signal; 3] = [Signal::Traces, Signal::Metrics, Signal::Logs];

    /// Name used in benchmark ids and tables.
    pub const fn name(self) -> &'static str {
        match self {
            Signal::Traces => "otlp-traces",
            Signal::Metrics => "otlp-metrics",
            Signal::Logs => "otlp-logs",
        }
    }

    /// The generator seed of the `i`-th variant.
    pub const fn seed(self, i: u64) -> u64 {
        0x07E1_0000 + ((self as u64) << 8) + (i << 32)
    }
}

const SPAN_NAMES: &[&str] = &[
    "GET /api/orders",
    "GET /api/orders/{id}",
    "POST /api/checkout",
    "SELECT orders",
    "INSERT order_items",
    "redis GET",
    "redis SETEX",
    "payment.Charge",
    "inventory.Reserve",
    "kafka publish orders",
    "render template",
    "HTTP GET",
];

const SERVICES: &[&str] = &[
    "checkout",
    "frontend",
    "payment",
    "inventory",
    "cart",
    "shipping",
];

const SCOPE_NAMES: &[&str] = &[
    "io.opentelemetry.http",
    "io.opentelemetry.jdbc",
    "io.opentelemetry.grpc",
    "io.opentelemetry.redis",
];

const ROUTES: &[&str] = &[
    "/api/orders",
    "/api/orders/{id}",
    "/api/checkout",
    "/health",
];

fn pick<'a>(r: &mut R, from: &[&'a str]) -> &'a str {
    from[r.random_range(0..from.len())]
}

fn kv(key: &str, value: b::common::v1::any_value::Value) -> b::common::v1::KeyValue {
    b::common::v1::KeyValue {
        key: key.to_owned(),
        value: Some(b::common::v1::AnyValue {
            value: Some(value),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn s(v: &str) -> b::common::v1::any_value::Value {
    b::common::v1::any_value::Value::StringValue(v.to_owned())
}

fn int(v: i64) -> b::common::v1::any_value::Value {
    b::common::v1::any_value::Value::IntValue(v)
}

fn resource(r: &mut R, i: usize) -> b::resource::v1::Resource {
    let service = SERVICES[i % SERVICES.len()];
    b::resource::v1::Resource {
        attributes: vec![
            kv("service.name", s(service)),
            kv(
                "service.version",
                s(&format!(
                    "1.{}.{}",
                    r.random_range(0..20),
                    r.random_range(0..10)
                )),
            ),
            kv(
                "service.instance.id",
                s(&format!("{service}-{:08x}", r.random::<u32>())),
            ),
            kv(
                "host.name",
                s(&format!(
                    "ip-10-0-{}-{}",
                    r.random_range(0..256),
                    r.random_range(0..256)
                )),
            ),
            kv("telemetry.sdk.name", s("opentelemetry")),
            kv(
                "telemetry.sdk.language",
                s(pick(r, &["java", "go", "rust", "python"])),
            ),
            kv("deployment.environment", s("production")),
            kv("process.pid", int(r.random_range(1..65536))),
        ],
        ..Default::default()
    }
}

fn scope(i: usize) -> b::common::v1::InstrumentationScope {
    b::common::v1::InstrumentationScope {
        name: SCOPE_NAMES[i % SCOPE_NAMES.len()].to_owned(),
        version: "2.10.0".to_owned(),
        ..Default::default()
    }
}

const SCHEMA_URL: &str = "https://opentelemetry.io/schemas/1.27.0";

/// Nanoseconds since the epoch, late 2026.
const EPOCH_NS: u64 = 1_795_000_000_000_000_000;

/// Span attributes: 3–8 of the usual keys, mixed value types.
fn span_attributes(r: &mut R, name: &str) -> Vec<b::common::v1::KeyValue> {
    use b::common::v1::any_value::Value as V;
    let mut a = Vec::new();
    if name.starts_with("GET") || name.starts_with("POST") || name.starts_with("HTTP") {
        a.push(kv(
            "http.method",
            s(if name.starts_with("POST") {
                "POST"
            } else {
                "GET"
            }),
        ));
        a.push(kv("http.route", s(pick(r, ROUTES))));
        let code = *[200, 200, 200, 200, 201, 404, 500]
            .get(r.random_range(0..7))
            .unwrap_or(&200);
        a.push(kv("http.status_code", int(code)));
        if r.random_bool(0.5) {
            a.push(kv(
                "http.response_content_length",
                int(r.random_range(0..100_000)),
            ));
        }
        if r.random_bool(0.5) {
            a.push(kv("net.peer.port", int(r.random_range(1024..65536))));
        }
    } else if name.starts_with("SELECT") || name.starts_with("INSERT") {
        a.push(kv("db.system", s("postgresql")));
        a.push(kv("db.name", s("orders")));
        let statement = format!("{name} WHERE {} = $1", words(r, 8, '_'));
        a.push(kv("db.statement", s(&statement)));
    } else {
        a.push(kv("rpc.system", s("grpc")));
        a.push(kv("rpc.service", s(name)));
        a.push(kv("net.peer.name", s(pick(r, SERVICES))));
    }
    if r.random_bool(0.3) {
        a.push(kv("thread.id", int(r.random_range(1..200))));
    }
    if r.random_bool(0.2) {
        a.push(kv("sampling.ratio", V::DoubleValue(0.25)));
    }
    if r.random_bool(0.1) {
        a.push(kv("error", V::BoolValue(true)));
    }
    a
}

fn span(r: &mut R, trace_id: &[u8], parent: &[u8], start: u64) -> b::trace::v1::Span {
    use b::trace::v1::{Span, Status, span};
    let name = pick(r, SPAN_NAMES);
    let attributes = span_attributes(r, name);
    let failed = attributes.iter().any(|a| a.key == "error");
    let duration = r.random_range(20_000..200_000_000u64);
    let events = if r.random_bool(0.15) {
        vec![span::Event {
            time_unix_nano: start + duration / 2,
            name: "exception".to_owned(),
            attributes: vec![
                kv(
                    "exception.type",
                    s(pick(r, &["java.io.IOException", "TimeoutError"])),
                ),
                kv("exception.message", s(&words(r, 40, ' '))),
            ],
            ..Default::default()
        }]
    } else {
        Vec::new()
    };
    let links = if r.random_bool(0.05) {
        vec![span::Link {
            trace_id: bytes(r, 16),
            span_id: bytes(r, 8),
            flags: 0x101,
            ..Default::default()
        }]
    } else {
        Vec::new()
    };
    Span {
        trace_id: trace_id.to_vec(),
        span_id: bytes(r, 8),
        parent_span_id: parent.to_vec(),
        flags: 0x101,
        name: name.to_owned(),
        kind: r.random_range(1..=5),
        start_time_unix_nano: start,
        end_time_unix_nano: start + duration,
        attributes,
        events,
        links,
        status: Some(Status {
            code: if failed { 2 } else { 0 },
            message: if failed {
                "internal error".to_owned()
            } else {
                String::new()
            },
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// A trace export request: [`RESOURCES`] × [`SCOPES`] × [`SPANS`] spans.
pub fn traces(seed: u64) -> b::trace::v1::TracesData {
    use b::trace::v1::{ResourceSpans, ScopeSpans, TracesData};
    let r = &mut rng(seed);
    let mut t = EPOCH_NS + r.random_range(0..1_000_000_000_000);
    let resource_spans = (0..RESOURCES)
        .map(|i| ResourceSpans {
            resource: Some(resource(r, i)),
            scope_spans: (0..SCOPES)
                .map(|j| {
                    let mut spans = Vec::with_capacity(SPANS);
                    while spans.len() < SPANS {
                        let trace_id = bytes(r, 16);
                        let n = r.random_range(2..=12).min(SPANS - spans.len());
                        let mut parent = Vec::new();
                        for _ in 0..n {
                            t += r.random_range(1_000..2_000_000);
                            let sp = span(r, &trace_id, &parent, t);
                            parent = sp.span_id.clone();
                            spans.push(sp);
                        }
                    }
                    ScopeSpans {
                        scope: Some(scope(i + j)),
                        spans,
                        schema_url: SCHEMA_URL.to_owned(),
                        ..Default::default()
                    }
                })
                .collect(),
            schema_url: SCHEMA_URL.to_owned(),
            ..Default::default()
        })
        .collect();
    TracesData {
        resource_spans,
        ..Default::default()
    }
}

/// Histogram bounds in seconds, as the HTTP duration histograms have them.
const BOUNDS: [f64; 14] = [
    0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
];

fn point_attributes(r: &mut R) -> Vec<b::common::v1::KeyValue> {
    let n = r.random_range(1..=3);
    let mut a = vec![kv("http.route", s(pick(r, ROUTES)))];
    if n > 1 {
        a.push(kv(
            "http.response.status_code",
            int(*[200i64, 404, 500].get(r.random_range(0..3)).unwrap_or(&200)),
        ));
    }
    if n > 2 {
        a.push(kv("http.request.method", s(pick(r, &["GET", "POST"]))));
    }
    a
}

fn metric(r: &mut R, k: usize, start: u64, now: u64) -> b::metrics::v1::Metric {
    use b::metrics::v1::metric::Data;
    use b::metrics::v1::number_data_point::Value as N;
    use b::metrics::v1::{
        Exemplar, Gauge, Histogram, HistogramDataPoint, Metric, NumberDataPoint, Sum, exemplar,
    };
    let points = r.random_range(1..=4);
    let number = |r: &mut R, as_int: bool| NumberDataPoint {
        attributes: point_attributes(r),
        start_time_unix_nano: start,
        time_unix_nano: now,
        value: Some(if as_int {
            N::AsInt(r.random_range(0..1_000_000))
        } else {
            N::AsDouble(r.random_range(0.0..10_000.0))
        }),
        ..Default::default()
    };
    let (name, unit, data) = match k % 5 {
        0 | 1 => {
            let data_points = (0..points)
                .map(|_| {
                    let counts: Vec<u64> = (0..=BOUNDS.len())
                        .map(|_| {
                            if r.random_bool(0.3) {
                                0
                            } else {
                                r.random_range(0..5_000)
                            }
                        })
                        .collect();
                    let count = counts.iter().sum();
                    HistogramDataPoint {
                        attributes: point_attributes(r),
                        start_time_unix_nano: start,
                        time_unix_nano: now,
                        count,
                        sum: Some(count as f64 * r.random_range(0.01..0.5)),
                        bucket_counts: counts,
                        explicit_bounds: BOUNDS.to_vec(),
                        exemplars: if r.random_bool(0.1) {
                            vec![Exemplar {
                                time_unix_nano: now - r.random_range(0..1_000_000_000),
                                span_id: bytes(r, 8),
                                trace_id: bytes(r, 16),
                                value: Some(exemplar::Value::AsDouble(r.random_range(0.0..10.0))),
                                ..Default::default()
                            }]
                        } else {
                            Vec::new()
                        },
                        min: Some(0.001),
                        max: Some(r.random_range(1.0..12.0)),
                        ..Default::default()
                    }
                })
                .collect();
            // Two of five metrics are histograms: k % 5 is 0 or 1 here.
            let name = [
                "http.server.request.duration",
                "db.client.operation.duration",
            ][k % 5];
            (
                name,
                "s",
                Data::Histogram(Histogram {
                    data_points,
                    aggregation_temporality: 2,
                    ..Default::default()
                }),
            )
        }
        2 => {
            let data_points = (0..points).map(|_| number(r, true)).collect();
            (
                "http.server.active_requests",
                "{request}",
                Data::Sum(Sum {
                    data_points,
                    aggregation_temporality: 2,
                    is_monotonic: false,
                    ..Default::default()
                }),
            )
        }
        3 => {
            let data_points = (0..points).map(|_| number(r, false)).collect();
            (
                "process.cpu.time",
                "s",
                Data::Sum(Sum {
                    data_points,
                    aggregation_temporality: 2,
                    is_monotonic: true,
                    ..Default::default()
                }),
            )
        }
        _ => {
            let data_points = (0..points).map(|_| number(r, true)).collect();
            (
                "system.memory.usage",
                "By",
                Data::Gauge(Gauge {
                    data_points,
                    ..Default::default()
                }),
            )
        }
    };
    Metric {
        name: name.to_owned(),
        description: words(r, 24, ' '),
        unit: unit.to_owned(),
        data: Some(data),
        ..Default::default()
    }
}

/// A metrics export request: [`RESOURCES`] × [`SCOPES`] × [`METRICS`] metrics.
pub fn metrics(seed: u64) -> b::metrics::v1::MetricsData {
    use b::metrics::v1::{MetricsData, ResourceMetrics, ScopeMetrics};
    let r = &mut rng(seed);
    let now = EPOCH_NS + r.random_range(0..1_000_000_000_000);
    let start = now - 60_000_000_000;
    MetricsData {
        resource_metrics: (0..RESOURCES)
            .map(|i| ResourceMetrics {
                resource: Some(resource(r, i)),
                scope_metrics: (0..SCOPES)
                    .map(|j| ScopeMetrics {
                        scope: Some(scope(i + j)),
                        metrics: (0..METRICS).map(|k| metric(r, k, start, now)).collect(),
                        schema_url: SCHEMA_URL.to_owned(),
                        ..Default::default()
                    })
                    .collect(),
                schema_url: SCHEMA_URL.to_owned(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

fn log_record(r: &mut R, t: u64) -> b::logs::v1::LogRecord {
    let (severity_number, severity_text) = match r.random_range(0..100) {
        0..70 => (9, "INFO"),
        70..85 => (5, "DEBUG"),
        85..95 => (13, "WARN"),
        _ => (17, "ERROR"),
    };
    let n = r.random_range(1..=4);
    let mut attributes = vec![kv(
        "code.function",
        s(pick(r, &["handle", "process_order", "charge", "reserve"])),
    )];
    if n > 1 {
        attributes.push(kv(
            "thread.name",
            s(&format!("worker-{}", r.random_range(0..16))),
        ));
    }
    if n > 2 {
        attributes.push(kv(
            "log.logger",
            s(pick(r, &["com.shop.OrderService", "com.shop.Payment"])),
        ));
    }
    if n > 3 {
        attributes.push(kv("http.route", s(pick(r, ROUTES))));
    }
    let traced = r.random_bool(0.6);
    let len = r.random_range(30..160);
    b::logs::v1::LogRecord {
        time_unix_nano: t,
        observed_time_unix_nano: t + r.random_range(10_000..5_000_000),
        severity_number,
        severity_text: severity_text.to_owned(),
        body: Some(b::common::v1::AnyValue {
            value: Some(s(&words(r, len, ' '))),
            ..Default::default()
        }),
        attributes,
        flags: u32::from(traced),
        trace_id: if traced { bytes(r, 16) } else { Vec::new() },
        span_id: if traced { bytes(r, 8) } else { Vec::new() },
        ..Default::default()
    }
}

/// A logs export request: [`RESOURCES`] × [`SCOPES`] × [`LOGS`] records.
pub fn logs(seed: u64) -> b::logs::v1::LogsData {
    use b::logs::v1::{LogsData, ResourceLogs, ScopeLogs};
    let r = &mut rng(seed);
    let mut t = EPOCH_NS + r.random_range(0..1_000_000_000_000);
    LogsData {
        resource_logs: (0..RESOURCES)
            .map(|i| ResourceLogs {
                resource: Some(resource(r, i)),
                scope_logs: (0..SCOPES)
                    .map(|j| ScopeLogs {
                        scope: Some(scope(i + j)),
                        log_records: (0..LOGS)
                            .map(|_| {
                                t += r.random_range(1_000..50_000_000);
                                log_record(r, t)
                            })
                            .collect(),
                        schema_url: SCHEMA_URL.to_owned(),
                        ..Default::default()
                    })
                    .collect(),
                schema_url: SCHEMA_URL.to_owned(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

/// A bijoubuf value as prost's value holding the same data, field by field (every field
/// of prost's struct is named, so a field the conversion forgot does not compile).
pub trait Pb {
    /// prost's type.
    type P;
    /// The conversion.
    fn pb(&self) -> Self::P;
}

macro_rules! same {
    ($($t:ty),*) => {
        $(impl Pb for $t {
            type P = $t;
            fn pb(&self) -> $t {
                self.clone()
            }
        })*
    };
}
same!(u32, u64, i32, i64, f64, bool, String, Vec<u8>);

impl<T: Pb> Pb for Vec<T> {
    type P = Vec<T::P>;
    fn pb(&self) -> Vec<T::P> {
        self.iter().map(Pb::pb).collect()
    }
}

impl<T: Pb> Pb for Option<T> {
    type P = Option<T::P>;
    fn pb(&self) -> Option<T::P> {
        self.as_ref().map(Pb::pb)
    }
}

/// `impl Pb` for a message: `bijoubuf type => prost type { fields }`.
macro_rules! msg {
    ($($b:ty => $($p:ident)::+ { $($f:ident),* $(,)? })*) => {
        $(impl Pb for $b {
            type P = $($p)::+;
            fn pb(&self) -> Self::P {
                $($p)::+ { $($f: self.$f.pb(),)* }
            }
        })*
    };
}

msg! {
    b::common::v1::AnyValue => p::common::v1::AnyValue { value }
    b::common::v1::ArrayValue => p::common::v1::ArrayValue { values }
    b::common::v1::KeyValueList => p::common::v1::KeyValueList { values }
    b::common::v1::KeyValue => p::common::v1::KeyValue { key, value, key_strindex }
    b::common::v1::InstrumentationScope => p::common::v1::InstrumentationScope {
        name, version, attributes, dropped_attributes_count
    }
    b::common::v1::EntityRef => p::common::v1::EntityRef {
        schema_url, r#type, id_keys, description_keys
    }
    b::resource::v1::Resource => p::resource::v1::Resource {
        attributes, dropped_attributes_count, entity_refs
    }
    b::trace::v1::TracesData => p::trace::v1::TracesData { resource_spans }
    b::trace::v1::ResourceSpans => p::trace::v1::ResourceSpans {
        resource, scope_spans, schema_url
    }
    b::trace::v1::ScopeSpans => p::trace::v1::ScopeSpans { scope, spans, schema_url }
    b::trace::v1::Span => p::trace::v1::Span {
        trace_id, span_id, trace_state, parent_span_id, flags, name, kind,
        start_time_unix_nano, end_time_unix_nano, attributes, dropped_attributes_count,
        events, dropped_events_count, links, dropped_links_count, status
    }
    b::trace::v1::span::Event => p::trace::v1::span::Event {
        time_unix_nano, name, attributes, dropped_attributes_count
    }
    b::trace::v1::span::Link => p::trace::v1::span::Link {
        trace_id, span_id, trace_state, attributes, dropped_attributes_count, flags
    }
    b::trace::v1::Status => p::trace::v1::Status { message, code }
    b::metrics::v1::MetricsData => p::metrics::v1::MetricsData { resource_metrics }
    b::metrics::v1::ResourceMetrics => p::metrics::v1::ResourceMetrics {
        resource, scope_metrics, schema_url
    }
    b::metrics::v1::ScopeMetrics => p::metrics::v1::ScopeMetrics { scope, metrics, schema_url }
    b::metrics::v1::Metric => p::metrics::v1::Metric {
        name, description, unit, metadata, data
    }
    b::metrics::v1::Gauge => p::metrics::v1::Gauge { data_points }
    b::metrics::v1::Sum => p::metrics::v1::Sum {
        data_points, aggregation_temporality, is_monotonic
    }
    b::metrics::v1::Histogram => p::metrics::v1::Histogram {
        data_points, aggregation_temporality
    }
    b::metrics::v1::ExponentialHistogram => p::metrics::v1::ExponentialHistogram {
        data_points, aggregation_temporality
    }
    b::metrics::v1::Summary => p::metrics::v1::Summary { data_points }
    b::metrics::v1::NumberDataPoint => p::metrics::v1::NumberDataPoint {
        attributes, start_time_unix_nano, time_unix_nano, exemplars, flags, value
    }
    b::metrics::v1::HistogramDataPoint => p::metrics::v1::HistogramDataPoint {
        attributes, start_time_unix_nano, time_unix_nano, count, sum, bucket_counts,
        explicit_bounds, exemplars, flags, min, max
    }
    b::metrics::v1::ExponentialHistogramDataPoint => p::metrics::v1::ExponentialHistogramDataPoint {
        attributes, start_time_unix_nano, time_unix_nano, count, sum, scale, zero_count,
        positive, negative, flags, exemplars, min, max, zero_threshold
    }
    b::metrics::v1::exponential_histogram_data_point::Buckets =>
        p::metrics::v1::exponential_histogram_data_point::Buckets { offset, bucket_counts }
    b::metrics::v1::SummaryDataPoint => p::metrics::v1::SummaryDataPoint {
        attributes, start_time_unix_nano, time_unix_nano, count, sum, quantile_values, flags
    }
    b::metrics::v1::summary_data_point::ValueAtQuantile =>
        p::metrics::v1::summary_data_point::ValueAtQuantile { quantile, value }
    b::metrics::v1::Exemplar => p::metrics::v1::Exemplar {
        filtered_attributes, time_unix_nano, span_id, trace_id, value
    }
    b::logs::v1::LogsData => p::logs::v1::LogsData { resource_logs }
    b::logs::v1::ResourceLogs => p::logs::v1::ResourceLogs { resource, scope_logs, schema_url }
    b::logs::v1::ScopeLogs => p::logs::v1::ScopeLogs { scope, log_records, schema_url }
    b::logs::v1::LogRecord => p::logs::v1::LogRecord {
        time_unix_nano, observed_time_unix_nano, severity_number, severity_text, body,
        attributes, dropped_attributes_count, flags, trace_id, span_id, event_name
    }
}

impl Pb for b::common::v1::any_value::Value {
    type P = p::common::v1::any_value::Value;
    fn pb(&self) -> Self::P {
        use b::common::v1::any_value::Value as B;
        use p::common::v1::any_value::Value as P;
        match self {
            B::StringValue(x) => P::StringValue(x.clone()),
            B::BoolValue(x) => P::BoolValue(*x),
            B::IntValue(x) => P::IntValue(*x),
            B::DoubleValue(x) => P::DoubleValue(*x),
            B::ArrayValue(x) => P::ArrayValue(x.pb()),
            B::KvlistValue(x) => P::KvlistValue(x.pb()),
            B::BytesValue(x) => P::BytesValue(x.clone()),
            B::StringValueStrindex(x) => P::StringValueStrindex(*x),
        }
    }
}

impl Pb for b::metrics::v1::metric::Data {
    type P = p::metrics::v1::metric::Data;
    fn pb(&self) -> Self::P {
        use b::metrics::v1::metric::Data as B;
        use p::metrics::v1::metric::Data as P;
        match self {
            B::Gauge(x) => P::Gauge(x.pb()),
            B::Sum(x) => P::Sum(x.pb()),
            B::Histogram(x) => P::Histogram(x.pb()),
            B::ExponentialHistogram(x) => P::ExponentialHistogram(x.pb()),
            B::Summary(x) => P::Summary(x.pb()),
        }
    }
}

impl Pb for b::metrics::v1::number_data_point::Value {
    type P = p::metrics::v1::number_data_point::Value;
    fn pb(&self) -> Self::P {
        use b::metrics::v1::number_data_point::Value as B;
        use p::metrics::v1::number_data_point::Value as P;
        match *self {
            B::AsDouble(x) => P::AsDouble(x),
            B::AsInt(x) => P::AsInt(x),
        }
    }
}

impl Pb for b::metrics::v1::exemplar::Value {
    type P = p::metrics::v1::exemplar::Value;
    fn pb(&self) -> Self::P {
        use b::metrics::v1::exemplar::Value as B;
        use p::metrics::v1::exemplar::Value as P;
        match *self {
            B::AsDouble(x) => P::AsDouble(x),
            B::AsInt(x) => P::AsInt(x),
        }
    }
}

/// buffa's owned value for prost's value: read from prost's protobuf bytes.
///
/// # Panics
/// If buffa refuses what prost wrote (the tests check it does not).
pub fn to_buffa<M: buffa::Message>(prost_value: &impl prost::Message) -> M {
    M::decode_from_slice(&prost_value.encode_to_vec()).expect("buffa reads prost's bytes")
}

/// A workload of the OpenTelemetry benchmarks: one of the signals, or GoogleMessage1 in
/// batches of 64 beside them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// One signal's export request per input.
    Otlp(Signal),
    /// 64 `benchmarks.proto3.GoogleMessage1` values per input, decoded or encoded one by
    /// one.
    Gm1Batch,
}

impl Workload {
    /// Every workload, in table order.
    pub const ALL: [Workload; 4] = [
        Workload::Otlp(Signal::Traces),
        Workload::Otlp(Signal::Metrics),
        Workload::Otlp(Signal::Logs),
        Workload::Gm1Batch,
    ];

    /// Name used in benchmark ids and tables.
    pub const fn name(self) -> &'static str {
        match self {
            Workload::Otlp(s) => s.name(),
            Workload::Gm1Batch => "gm1-batch64",
        }
    }

    /// The workload named `name`.
    pub fn from_name(name: &str) -> Option<Workload> {
        Self::ALL.into_iter().find(|w| w.name() == name)
    }
}

/// The timed operations, libraries side by side: strict owned decode against prost's and
/// buffa's owned decode, the borrowed twin's strict decode against buffa's view, encode
/// into a reused buffer against both.
pub const OPS: [&str; 8] = [
    "bijou-decode",
    "prost-decode",
    "buffa-decode",
    "bijou-borrowed-decode",
    "buffa-view-decode",
    "bijou-encode",
    "prost-encode",
    "buffa-encode",
];

/// One operation over a workload's inputs, ready to run: each call takes the next input
/// (cycling through `variants` values built from different seeds).
pub type Op = Box<dyn FnMut()>;

/// Thread CPU time, in ns, of `iters` calls of `f`.
fn cpu_ns(f: &mut Op, iters: u64) -> f64 {
    use criterion::measurement::Measurement as _;
    let m = crate::cpu::ThreadTime;
    let start = m.start();
    for _ in 0..iters {
        f();
    }
    m.to_f64(&m.end(start))
}

/// The operations `names` of workload `w` (each over `variants` inputs) run in turn,
/// `rounds` times, each for about `slot_ns` of thread CPU time per round, the starting
/// operation rotating from round to round: per operation, each round's time per input
/// in ns. The benchmarks that compare libraries in one process (`benches/otlp.rs`,
/// `benches/table.rs`) time through this, so a slow patch of the machine falls on
/// every operation alike.
///
/// # Panics
/// If a name is not an operation of `w` (see [`op`]).
pub fn alternate(
    w: Workload,
    names: &[&str],
    variants: u64,
    rounds: usize,
    slot_ns: f64,
) -> Vec<Vec<f64>> {
    let mut ops: Vec<Op> = names
        .iter()
        .map(|name| op(w, name, variants).unwrap_or_else(|| panic!("no operation {name}")))
        .collect();
    // Warm up and calibrate: enough inputs per slot to fill about `slot_ns`.
    let iters: Vec<u64> = ops
        .iter_mut()
        .map(|f| {
            cpu_ns(f, variants);
            let one = cpu_ns(f, variants) / variants as f64;
            ((slot_ns / one.max(1.0)) as u64).max(1)
        })
        .collect();
    let mut times = vec![Vec::with_capacity(rounds); ops.len()];
    for r in 0..rounds {
        for j in 0..ops.len() {
            let k = (j + r) % ops.len();
            let ns = cpu_ns(&mut ops[k], iters[k]);
            times[k].push(ns / iters[k] as f64);
        }
    }
    times
}

/// The workloads named on a bench's command line (what [`round_args`] leaves), every
/// workload when none is named.
///
/// # Panics
/// On a name that is no workload's.
pub fn named_workloads(names: &[String]) -> Vec<Workload> {
    if names.is_empty() {
        return Workload::ALL.to_vec();
    }
    names
        .iter()
        .map(|w| Workload::from_name(w).unwrap_or_else(|| panic!("unknown workload {w}")))
        .collect()
}

/// The arguments of the benchmarks that time through [`alternate`]: `--rounds N`
/// (default 15) and `--slot-ms MS` (default 20); `--bench`, which `cargo bench` passes,
/// is skipped; the rest are returned in order.
///
/// # Panics
/// If `--rounds` or `--slot-ms` lacks a number.
pub fn round_args(args: impl IntoIterator<Item = String>) -> (usize, f64, Vec<String>) {
    let (mut rounds, mut slot_ms, mut rest) = (15, 20.0, Vec::new());
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--rounds N")
            }
            "--slot-ms" => {
                slot_ms = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--slot-ms MS")
            }
            "--bench" => {}
            _ => rest.push(a),
        }
    }
    (rounds, slot_ms, rest)
}

/// The `q` quantile (0 to 1, nearest rank) of `v`, which it sorts.
///
/// # Panics
/// If `v` is empty.
pub fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let at = ((v.len() - 1) as f64 * q).round() as usize;
    v[at]
}

/// Each library's inputs: `variants` inputs, each a list of messages.
struct Inputs<B, P, F> {
    bijou: Vec<Vec<B>>,
    prost: Vec<Vec<P>>,
    buffa: Vec<Vec<F>>,
}

fn cycle<T: 'static>(inputs: Vec<T>, mut f: impl FnMut(&T) + 'static) -> Op {
    let mut i = 0;
    Box::new(move || {
        f(&inputs[i]);
        i = (i + 1) % inputs.len();
    })
}

fn encoded<T>(inputs: &[Vec<T>], enc: impl Fn(&T) -> Vec<u8>) -> Vec<Vec<Vec<u8>>> {
    inputs
        .iter()
        .map(|v| v.iter().map(&enc).collect())
        .collect()
}

impl<B, P, F> Inputs<B, P, F>
where
    B: bijoubuf::Message + 'static,
    P: prost::Message + Default + 'static,
    F: buffa::Message + 'static,
{
    /// The operation `name`; `borrowed` and `view` decode one input into bijoubuf's
    /// borrowed twin and buffa's view.
    fn op(self, name: &str, borrowed: fn(&[u8]) -> bool, view: fn(&[u8]) -> bool) -> Option<Op> {
        use super::ops::{bijou_encode, buffa_encode, prost_encode};
        use std::hint::black_box;
        let bb = || encoded(&self.bijou, |m| m.encode_to_vec().expect("encodes"));
        let pb = || encoded(&self.prost, prost::Message::encode_to_vec);
        let fb = || encoded(&self.buffa, buffa::Message::encode_to_vec);
        let mut buf = Vec::with_capacity(1 << 20);
        Some(match name {
            "bijou-decode" => cycle(bb(), |v| {
                for x in v {
                    black_box(B::decode(black_box(x)).expect("canonical"));
                }
            }),
            "bijou-borrowed-decode" => cycle(bb(), move |v| {
                for x in v {
                    assert!(borrowed(black_box(x)));
                }
            }),
            "bijou-encode" => cycle(self.bijou, move |v| {
                for m in v {
                    bijou_encode(black_box(m), &mut buf);
                    black_box(buf.len());
                }
            }),
            // Not in `OPS` (the benchmark does not time it), for counting by hand: a new
            // `Vec` each time, so the encode has no room of its own to write into.
            "bijou-encode-to-vec" => cycle(self.bijou, |v| {
                for m in v {
                    black_box(black_box(m).encode_to_vec().expect("encodes"));
                }
            }),
            "bijou-encode-two-passes" => cycle(self.bijou, |v| {
                for m in v {
                    black_box(
                        bijoubuf::__private::encode_two_passes(
                            black_box(m),
                            false,
                            &bijoubuf::EncodeOptions::new(),
                        )
                        .expect("encodes"),
                    );
                }
            }),
            "prost-encode-to-vec" => cycle(self.prost, |v| {
                for m in v {
                    black_box(prost::Message::encode_to_vec(black_box(m)));
                }
            }),
            "prost-decode" => cycle(pb(), |v| {
                for x in v {
                    black_box(P::decode(black_box(&x[..])).expect("valid"));
                }
            }),
            "prost-encode" => cycle(self.prost, move |v| {
                for m in v {
                    prost_encode(black_box(m), &mut buf);
                    black_box(buf.len());
                }
            }),
            "buffa-decode" => cycle(fb(), |v| {
                for x in v {
                    black_box(F::decode_from_slice(black_box(x)).expect("valid"));
                }
            }),
            "buffa-view-decode" => cycle(fb(), move |v| {
                for x in v {
                    assert!(view(black_box(x)));
                }
            }),
            "buffa-encode" => cycle(self.buffa, move |v| {
                for m in v {
                    buffa_encode(black_box(m), &mut buf);
                    black_box(buf.len());
                }
            }),
            _ => return None,
        })
    }
}

/// A decode into buffa's view type `V`, the view dropped.
fn buffa_view<'a, V: buffa::MessageView<'a>>(bytes: &'a [u8]) -> bool {
    std::hint::black_box(V::decode_view(bytes).ok()).is_some()
}

fn otlp_inputs<B: Pb<P = P>, P: prost::Message, F: buffa::Message>(
    values: Vec<B>,
) -> Inputs<B, P, F> {
    Inputs {
        prost: values.iter().map(|v| vec![v.pb()]).collect(),
        buffa: values.iter().map(|v| vec![to_buffa(&v.pb())]).collect(),
        bijou: values.into_iter().map(|v| vec![v]).collect(),
    }
}

/// A strict decode of each input into `M`.
fn walk_decode<M: bijoubuf::Message + 'static>(inputs: Vec<Vec<u8>>) -> Op {
    cycle(inputs, |x| {
        std::hint::black_box(M::decode(std::hint::black_box(x)).expect("canonical"));
    })
}

/// The operation `op` (one of [`OPS`]) on `variants` inputs of workload `w`, or `None`
/// for an unknown operation.
pub fn op(w: Workload, op: &str, variants: u64) -> Option<Op> {
    op_seeded(w, op, Seeds::first(variants))
}

/// Which inputs of a workload an operation cycles through: `count` of them, made from
/// seeds `first`, `first + 1`, … — or, when `repeat`, `count` separate copies of seed
/// `first`'s input (the same bytes in different buffers, for telling what a decoder
/// learns from one input decoded again apart from where its inputs lie).
#[derive(Clone, Copy, Debug)]
pub struct Seeds {
    /// How many inputs.
    pub count: u64,
    /// The first input's seed index.
    pub first: u64,
    /// Every input made from seed `first`.
    pub repeat: bool,
}

impl Seeds {
    /// Seeds 0 to `count - 1`, as the timing benches use.
    pub const fn first(count: u64) -> Self {
        Seeds {
            count,
            first: 0,
            repeat: false,
        }
    }

    /// The seed index of the `i`th input.
    const fn index(self, i: u64) -> u64 {
        if self.repeat {
            self.first
        } else {
            self.first + i
        }
    }
}

/// [`op`] on the inputs `seeds` names. The table prototype's attribute lists take the
/// count only.
pub fn op_seeded(w: Workload, op: &str, seeds_of: Seeds) -> Option<Op> {
    use super::ops::bijou_borrowed_decode as twin;
    let variants = seeds_of.count;
    // The table-driven prototype's attribute lists (`super::table`), not in `OPS`.
    if w == Workload::Otlp(Signal::Traces)
        && let Some(f) = super::table::attribute_op(op, variants)
    {
        return Some(f);
    }
    let seeds = |s: Signal| (0..variants).map(move |i| s.seed(seeds_of.index(i)));
    // The same requests decoded by the walk copy (`super::bijou::walk_otlp`), not in
    // `OPS`: the default's choice against the walk, in one process.
    if let (Workload::Otlp(s), "bijou-walk-decode") = (w, op) {
        use super::bijou::walk_otlp::opentelemetry::proto as wk;
        use bijoubuf::Message as _;
        let bytes = |m: &dyn Fn(u64) -> Vec<u8>| seeds(s).map(m).collect::<Vec<_>>();
        return Some(match s {
            Signal::Traces => walk_decode::<wk::trace::v1::TracesData>(bytes(&|x| {
                traces(x).encode_to_vec().expect("encodes")
            })),
            Signal::Metrics => walk_decode::<wk::metrics::v1::MetricsData>(bytes(&|x| {
                metrics(x).encode_to_vec().expect("encodes")
            })),
            Signal::Logs => walk_decode::<wk::logs::v1::LogsData>(bytes(&|x| {
                logs(x).encode_to_vec().expect("encodes")
            })),
        });
    }
    // The same requests decoded by the table copy (`super::bijou::table`), owned and
    // borrowed, not in `OPS`: the table shape against the default's choice.
    if let (Workload::Otlp(s), "bijou-gtable-decode" | "bijou-gtable-borrowed-decode") = (w, op) {
        use super::bijou::table::opentelemetry::proto as tb;
        use bijoubuf::Message as _;
        let bytes: Vec<Vec<u8>> = seeds(s)
            .map(|x| match s {
                Signal::Traces => traces(x).encode_to_vec(),
                Signal::Metrics => metrics(x).encode_to_vec(),
                Signal::Logs => logs(x).encode_to_vec(),
            })
            .map(|b| b.expect("encodes"))
            .collect();
        return Some(match (s, op) {
            (Signal::Traces, "bijou-gtable-decode") => {
                walk_decode::<tb::trace::v1::TracesData>(bytes)
            }
            (Signal::Metrics, "bijou-gtable-decode") => {
                walk_decode::<tb::metrics::v1::MetricsData>(bytes)
            }
            (Signal::Logs, "bijou-gtable-decode") => walk_decode::<tb::logs::v1::LogsData>(bytes),
            (Signal::Traces, _) => cycle(bytes, |x| {
                assert!(twin::<tb::trace::v1::TracesDataRef<'_>>(
                    std::hint::black_box(x)
                ));
            }),
            (Signal::Metrics, _) => cycle(bytes, |x| {
                assert!(twin::<tb::metrics::v1::MetricsDataRef<'_>>(
                    std::hint::black_box(x)
                ));
            }),
            (Signal::Logs, _) => cycle(bytes, |x| {
                assert!(twin::<tb::logs::v1::LogsDataRef<'_>>(std::hint::black_box(
                    x
                )));
            }),
        });
    }
    match w {
        Workload::Otlp(s @ Signal::Traces) => {
            otlp_inputs::<_, _, buffa_types::TracesData>(seeds(s).map(traces).collect()).op(
                op,
                |x: &[u8]| twin::<b::trace::v1::TracesDataRef<'_>>(x),
                |x: &[u8]| buffa_view::<buffa_types::TracesDataView<'_>>(x),
            )
        }
        Workload::Otlp(s @ Signal::Metrics) => {
            otlp_inputs::<_, _, buffa_types::MetricsData>(seeds(s).map(metrics).collect()).op(
                op,
                |x: &[u8]| twin::<b::metrics::v1::MetricsDataRef<'_>>(x),
                |x: &[u8]| buffa_view::<buffa_types::MetricsDataView<'_>>(x),
            )
        }
        Workload::Otlp(s @ Signal::Logs) => {
            // The table-driven prototype's decodes (`super::table`), not in `OPS`.
            let table: Option<fn(&[u8]) -> bool> = match op {
                "bijou-table-decode" => Some(super::table::table_logs_ref_decode),
                "bijou-table-owned-decode" => Some(super::table::table_logs_decode),
                _ => None,
            };
            if let Some(decode) = table {
                use bijoubuf::Message as _;
                let inputs: Vec<Vec<u8>> = seeds(s)
                    .map(|seed| logs(seed).encode_to_vec().expect("encodes"))
                    .collect();
                return Some(cycle(inputs, move |x| {
                    assert!(decode(std::hint::black_box(x)));
                }));
            }
            otlp_inputs::<_, _, buffa_types::LogsData>(seeds(s).map(logs).collect()).op(
                op,
                |x: &[u8]| twin::<b::logs::v1::LogsDataRef<'_>>(x),
                |x: &[u8]| buffa_view::<buffa_types::LogsDataView<'_>>(x),
            )
        }
        Workload::Gm1Batch => {
            use super::bijou::benchmarks::proto3 as b3;
            use super::buffa_types::benchmarks::proto3 as f3;
            use super::gm1;
            let base = super::data::Dataset::Gm1Proto3.seed();
            let bijou: Vec<Vec<_>> = (0..variants)
                .map(|i| seeds_of.index(i))
                .map(|i| (0..64).map(|j| gm1::proto3(base + (i << 32) + j)).collect())
                .collect();
            // The table-driven prototype (`super::table`), not in `OPS`: its borrowed
            // decode is the borrowed operation with the table's decoder, its owned decode
            // an operation of its own.
            let (op, borrowed): (&str, fn(&[u8]) -> bool) = match op {
                "bijou-table-decode" => {
                    ("bijou-borrowed-decode", super::table::table_borrowed_decode)
                }
                // The safe decoder choosing the field by data (`super::kindsel`).
                "bijou-kindsel-decode" => (
                    "bijou-borrowed-decode",
                    super::kindsel::kindsel_borrowed_decode,
                ),
                "bijou-kindsel-fn-decode" => (
                    "bijou-borrowed-decode",
                    super::kindsel::kindsel_accessors_borrowed_decode,
                ),
                "bijou-kindsel-owned-decode" => {
                    use bijoubuf::Message as _;
                    let inputs = encoded(&bijou, |m| m.encode_to_vec().expect("encodes"));
                    return Some(cycle(inputs, |v| {
                        for x in v {
                            std::hint::black_box(
                                super::kindsel::decode_owned(std::hint::black_box(x))
                                    .expect("canonical"),
                            );
                        }
                    }));
                }
                "bijou-table-owned-decode" => {
                    use bijoubuf::Message as _;
                    let inputs = encoded(&bijou, |m| m.encode_to_vec().expect("encodes"));
                    return Some(cycle(inputs, |v| {
                        for x in v {
                            std::hint::black_box(
                                super::table::decode::<b3::GoogleMessage1>(std::hint::black_box(x))
                                    .expect("canonical"),
                            );
                        }
                    }));
                }
                // The same messages' walk decoders (`super::bijou::walk`), not in `OPS`.
                "bijou-walk-decode" => {
                    use bijoubuf::Message as _;
                    let inputs = encoded(&bijou, |m| m.encode_to_vec().expect("encodes"));
                    return Some(cycle(inputs, |v| {
                        for x in v {
                            std::hint::black_box(
                                super::bijou::walk::GoogleMessage1::decode(std::hint::black_box(x))
                                    .expect("canonical"),
                            );
                        }
                    }));
                }
                "bijou-walk-borrowed-decode" => (
                    "bijou-borrowed-decode",
                    (|x: &[u8]| twin::<super::bijou::walk::GoogleMessage1Ref<'_>>(x))
                        as fn(&[u8]) -> bool,
                ),
                // The same messages' table decoders (`super::bijou::table`), not in `OPS`.
                "bijou-gtable-decode" => {
                    use super::bijou::table::benchmarks::proto3::GoogleMessage1 as T;
                    use bijoubuf::Message as _;
                    let inputs = encoded(&bijou, |m| m.encode_to_vec().expect("encodes"));
                    return Some(cycle(inputs, |v| {
                        for x in v {
                            std::hint::black_box(
                                T::decode(std::hint::black_box(x)).expect("canonical"),
                            );
                        }
                    }));
                }
                "bijou-gtable-borrowed-decode" => (
                    "bijou-borrowed-decode",
                    (|x: &[u8]| {
                        twin::<super::bijou::table::benchmarks::proto3::GoogleMessage1Ref<'_>>(x)
                    }) as fn(&[u8]) -> bool,
                ),
                _ => (op, |x: &[u8]| twin::<b3::GoogleMessage1Ref<'_>>(x)),
            };
            Inputs {
                prost: encoded_map(&bijou, gm1::proto3_to_prost),
                buffa: encoded_map(&bijou, gm1::proto3_to_buffa),
                bijou,
            }
            .op(op, borrowed, |x: &[u8]| {
                buffa_view::<f3::GoogleMessage1View<'_>>(x)
            })
        }
    }
}

fn encoded_map<T, U>(v: &[Vec<T>], f: impl Fn(&T) -> U) -> Vec<Vec<U>> {
    v.iter().map(|b| b.iter().map(&f).collect()).collect()
}

/// The three requests' buffa types, named for the benchmarks.
pub mod buffa_types {
    pub use super::f::logs::v1::{LogsData, LogsDataView};
    pub use super::f::metrics::v1::{MetricsData, MetricsDataView};
    pub use super::f::trace::v1::{TracesData, TracesDataView};
}

/// The operation `op` (one of [`OPS`]) cycling through the given metrics requests, for
/// experiments that make their own inputs (`otlp-vary`: inputs differing in one
/// dimension only).
pub fn metrics_op(values: Vec<b::metrics::v1::MetricsData>, op: &str) -> Option<Op> {
    use super::ops::bijou_borrowed_decode as twin;
    otlp_inputs::<_, _, buffa_types::MetricsData>(values).op(
        op,
        |x: &[u8]| twin::<b::metrics::v1::MetricsDataRef<'_>>(x),
        |x: &[u8]| buffa_view::<buffa_types::MetricsDataView<'_>>(x),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use bijoubuf::MessageRef as _;
    use buffa::MessageView as _;

    /// Each peer round-trips its own encoding, and the decoded values agree: bijoubuf's
    /// (owned and borrowed) converted to prost's equals prost's decode, and buffa's
    /// re-encoding reads in prost as the same value.
    fn agree<BV, PV, FV>(v: &BV, borrowed: impl Fn(&[u8]) -> BV) -> (Vec<u8>, Vec<u8>)
    where
        BV: bijoubuf::Message + Pb<P = PV> + PartialEq + std::fmt::Debug,
        PV: prost::Message + Default + PartialEq + std::fmt::Debug,
        FV: buffa::Message + PartialEq + std::fmt::Debug,
    {
        let bb = v.encode_to_vec().expect("encodes");
        assert_eq!(bb.len(), v.encoded_len());
        let owned = BV::decode(&bb).expect("strict decode");
        assert_eq!(&owned, v);
        assert_eq!(&borrowed(&bb), v);

        let pv = v.pb();
        let pb = pv.encode_to_vec();
        let again = PV::decode(&pb[..]).expect("prost decode");
        assert_eq!(again, pv);
        assert_eq!(owned.pb(), again);

        let fv: FV = to_buffa(&pv);
        let fb = fv.encode_to_vec();
        assert_eq!(fb.len(), fv.encoded_len() as usize);
        assert_eq!(FV::decode_from_slice(&fb).expect("buffa decode"), fv);
        assert_eq!(PV::decode(&fb[..]).expect("prost reads buffa"), pv);
        (bb, fb)
    }

    /// The table copy (`bijou::table`) decodes each workload's inputs, owned and borrowed,
    /// to values that re-encode to the same bytes, and its operations run.
    #[test]
    fn the_table_copy_reads_every_workload_back() {
        use crate::msg::bijou::table::opentelemetry::proto as tb;
        use bijoubuf::Message as _;
        for i in 0..2 {
            let traces_in = traces(Signal::Traces.seed(i))
                .encode_to_vec()
                .expect("encodes");
            let metrics_in = metrics(Signal::Metrics.seed(i))
                .encode_to_vec()
                .expect("encodes");
            let logs_in = logs(Signal::Logs.seed(i)).encode_to_vec().expect("encodes");
            let owned = [
                tb::trace::v1::TracesData::decode(&traces_in)
                    .expect("table decode")
                    .encode_to_vec(),
                tb::metrics::v1::MetricsData::decode(&metrics_in)
                    .expect("table decode")
                    .encode_to_vec(),
                tb::logs::v1::LogsData::decode(&logs_in)
                    .expect("table decode")
                    .encode_to_vec(),
            ];
            let borrowed = [
                tb::trace::v1::TracesDataRef::decode(&traces_in)
                    .expect("table decode")
                    .encode_to_vec(),
                tb::metrics::v1::MetricsDataRef::decode(&metrics_in)
                    .expect("table decode")
                    .encode_to_vec(),
                tb::logs::v1::LogsDataRef::decode(&logs_in)
                    .expect("table decode")
                    .encode_to_vec(),
            ];
            for (input, (o, b)) in [&traces_in, &metrics_in, &logs_in]
                .into_iter()
                .zip(owned.into_iter().zip(borrowed))
            {
                assert_eq!(&o.expect("encodes"), input);
                assert_eq!(&b.expect("encodes"), input);
            }
        }
        for w in Workload::ALL {
            for name in ["bijou-gtable-decode", "bijou-gtable-borrowed-decode"] {
                let mut f = op(w, name, 2).expect("an operation");
                f();
                f();
            }
        }
    }

    #[test]
    fn traces_agree_across_peers() {
        use b::trace::v1 as t;
        for i in 0..2 {
            let v = traces(Signal::Traces.seed(i));
            let (bb, fb) = agree::<_, _, buffa_types::TracesData>(&v, |b| {
                t::TracesDataRef::decode(b)
                    .expect("borrowed decode")
                    .to_owned()
            });
            // The borrowed twin and buffa's view hold the same fields on a sample.
            let r = t::TracesDataRef::decode(&bb).unwrap();
            let w = buffa_types::TracesDataView::decode_view(&fb).unwrap();
            let (rs, ws) = (
                &r.resource_spans[2].scope_spans[1],
                &w.resource_spans[2].scope_spans[1],
            );
            assert_eq!(rs.spans.len(), ws.spans.len());
            for (a, b) in rs.spans.iter().zip(ws.spans.iter()) {
                assert_eq!(a.name, b.name);
                assert_eq!(a.trace_id, b.trace_id);
                assert_eq!(a.parent_span_id, b.parent_span_id);
                assert_eq!(a.end_time_unix_nano, b.end_time_unix_nano);
                assert_eq!(a.attributes.len(), b.attributes.len());
                assert_eq!(
                    a.attributes.last().map(|k| k.key),
                    b.attributes.last().map(|k| k.key)
                );
            }
            // The shape the module documents.
            let spans: Vec<_> = v
                .resource_spans
                .iter()
                .flat_map(|r| &r.scope_spans)
                .flat_map(|s| &s.spans)
                .collect();
            assert_eq!(spans.len(), RESOURCES * SCOPES * SPANS);
            assert!(
                spans
                    .iter()
                    .all(|s| s.trace_id.len() == 16 && s.span_id.len() == 8)
            );
            let roots = spans.iter().filter(|s| s.parent_span_id.is_empty()).count();
            assert!((30..250).contains(&roots), "{roots} roots");
            let with_events = spans.iter().filter(|s| !s.events.is_empty()).count();
            assert!(
                (20..130).contains(&with_events),
                "{with_events} with events"
            );
            assert!(spans.iter().any(|s| !s.links.is_empty()));
            assert!(spans.iter().all(|s| (3..=8).contains(&s.attributes.len())));
        }
        assert_ne!(
            traces(Signal::Traces.seed(0)),
            traces(Signal::Traces.seed(1))
        );
    }

    #[test]
    fn metrics_agree_across_peers() {
        use b::metrics::v1 as m;
        let v = metrics(Signal::Metrics.seed(0));
        let (bb, fb) = agree::<_, _, buffa_types::MetricsData>(&v, |b| {
            m::MetricsDataRef::decode(b)
                .expect("borrowed decode")
                .to_owned()
        });
        let r = m::MetricsDataRef::decode(&bb).unwrap();
        let w = buffa_types::MetricsDataView::decode_view(&fb).unwrap();
        let (rm, wm) = (
            &r.resource_metrics[1].scope_metrics[0],
            &w.resource_metrics[1].scope_metrics[0],
        );
        for (a, b) in rm.metrics.iter().zip(wm.metrics.iter()) {
            assert_eq!(a.name, b.name);
            assert_eq!(a.unit, b.unit);
        }
        let all: Vec<_> = v
            .resource_metrics
            .iter()
            .flat_map(|r| &r.scope_metrics)
            .flat_map(|s| &s.metrics)
            .collect();
        assert_eq!(all.len(), RESOURCES * SCOPES * METRICS);
        let histograms = all
            .iter()
            .filter_map(|m| match &m.data {
                Some(m::metric::Data::Histogram(h)) => Some(h),
                _ => None,
            })
            .collect::<Vec<_>>();
        assert!(!histograms.is_empty());
        assert!(
            histograms
                .iter()
                .flat_map(|h| &h.data_points)
                .all(|p| p.bucket_counts.len() == 15
                    && p.count == p.bucket_counts.iter().sum::<u64>())
        );
        assert!(
            all.iter()
                .any(|m| matches!(m.data, Some(m::metric::Data::Gauge(_))))
        );
    }

    #[test]
    fn logs_agree_across_peers() {
        use b::logs::v1 as l;
        let v = logs(Signal::Logs.seed(0));
        let (bb, fb) = agree::<_, _, buffa_types::LogsData>(&v, |b| {
            l::LogsDataRef::decode(b)
                .expect("borrowed decode")
                .to_owned()
        });
        let r = l::LogsDataRef::decode(&bb).unwrap();
        let w = buffa_types::LogsDataView::decode_view(&fb).unwrap();
        let (rl, wl) = (
            &r.resource_logs[0].scope_logs[1],
            &w.resource_logs[0].scope_logs[1],
        );
        assert_eq!(rl.log_records.len(), LOGS);
        for (a, b) in rl.log_records.iter().zip(wl.log_records.iter()) {
            assert_eq!(a.time_unix_nano, b.time_unix_nano);
            assert_eq!(a.severity_text, b.severity_text);
            assert_eq!(a.trace_id, b.trace_id);
        }
        let records: Vec<_> = v
            .resource_logs
            .iter()
            .flat_map(|r| &r.scope_logs)
            .flat_map(|s| &s.log_records)
            .collect();
        let info = records.iter().filter(|r| r.severity_number == 9).count();
        assert!(info > records.len() / 2, "{info} INFO of {}", records.len());
        assert!(records.iter().any(|r| r.trace_id.is_empty()));
        assert!(records.iter().all(|r| r.body.is_some()));
    }

    #[test]
    fn every_operation_runs_on_every_workload() {
        for w in Workload::ALL {
            assert_eq!(Workload::from_name(w.name()), Some(w));
            for name in OPS {
                let mut f = op(w, name, 2).unwrap_or_else(|| panic!("{name} missing"));
                // Both variants, and the first again.
                f();
                f();
                f();
            }
            assert!(op(w, "bijou-frobnicate", 1).is_none());
        }
        assert!(Workload::from_name("otlp-profiles").is_none());
    }

    #[test]
    fn seeds_name_their_inputs() {
        let idx = |s: Seeds| (0..s.count).map(|i| s.index(i)).collect::<Vec<_>>();
        assert_eq!(idx(Seeds::first(3)), [0, 1, 2]);
        let from = Seeds {
            count: 3,
            first: 5,
            repeat: false,
        };
        assert_eq!(idx(from), [5, 6, 7]);
        assert_eq!(
            idx(Seeds {
                repeat: true,
                ..from
            }),
            [5, 5, 5]
        );
        let mut f = op_seeded(
            Workload::Gm1Batch,
            "bijou-decode",
            Seeds {
                repeat: true,
                ..from
            },
        )
        .expect("an operation");
        f();
    }

    #[test]
    fn a_forgotten_field_would_show() {
        // The comparison above sees every field: a value that differs in one field
        // converts to a different prost value.
        let mut v = logs(Signal::Logs.seed(0));
        let before = v.pb();
        v.resource_logs[2].scope_logs[1].log_records[49].dropped_attributes_count = 1;
        assert_ne!(v.pb(), before);
    }
}
