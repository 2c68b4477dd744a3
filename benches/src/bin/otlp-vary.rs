//! Which of the data's differences make a decoder slower on inputs that differ than on
//! one input decoded again: four metrics requests made from seed 0's request, differing
//! in ONE dimension only, cycled through (`vary`), against four copies of the first of
//! them (`repeat`). The ratio vary ÷ repeat per dimension, bijoubuf against buffa, says
//! which data-dependent branches the CPU's predictor learns on one input and not on four
//! (benches/RESULTS.md, "Decode when the inputs differ").
//!
//! ```text
//! otlp-vary DIMENSION OP ITERATIONS vary|repeat
//! /usr/bin/time -f %U target/release/otlp-vary points bijou-borrowed-decode 3000 vary
//! ```
//! DIMENSION is one of [`DIMENSIONS`]; OP one of `bijoubuf_benches::msg::otlp::OPS`.

use bijoubuf_benches::msg::bijou::opentelemetry::proto::{common::v1 as c, metrics::v1 as m};
use bijoubuf_benches::msg::otlp::{metrics, metrics_op};

/// The dimensions, each changed alone (variant 0 of most is seed 0's request as made).
const DIMENSIONS: [&str; 8] = [
    // Fixed-width values only (timestamps, bucket counts, doubles): the control.
    "none",
    // The number of data points of each metric (1 to 4).
    "points",
    // The number of attributes of each data point (1 to 3).
    "attrs",
    // The route string of each data point's first attribute (7 to 16 bytes).
    "routes",
    // Whether each data point has an exemplar.
    "exemplars",
    // Each metric's description length (1 to 40 bytes).
    "desc",
    // Each number data point's value: as_int or as_double.
    "numkind",
    // Each histogram point's optional sum, min and max: present or absent.
    "optional",
];

/// A well-mixed number from a variant and a position.
fn h(i: u64, j: u64) -> u64 {
    let mut x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ j.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 31;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 29)
}

fn kv(key: &str, v: c::any_value::Value) -> c::KeyValue {
    c::KeyValue {
        key: key.to_owned(),
        value: Some(c::AnyValue {
            value: Some(v),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn attrs(n: u64, route: &str) -> Vec<c::KeyValue> {
    use c::any_value::Value as V;
    let all = [
        kv("http.route", V::StringValue(route.to_owned())),
        kv("http.response.status_code", V::IntValue(200)),
        kv("http.request.method", V::StringValue("GET".to_owned())),
    ];
    all.into_iter().take(n as usize).collect()
}

const ROUTES: [&str; 4] = [
    "/api/orders",
    "/api/orders/{id}",
    "/api/checkout",
    "/health",
];

/// `f` on every metric of `d`, with its index in the request.
fn for_metrics(d: &mut m::MetricsData, mut f: impl FnMut(u64, &mut m::Metric)) {
    let metrics = d
        .resource_metrics
        .iter_mut()
        .flat_map(|rm| &mut rm.scope_metrics)
        .flat_map(|sm| &mut sm.metrics);
    for (k, metric) in (0..).zip(metrics) {
        f(k, metric);
    }
}

/// Each data point of `d`, with its index over the whole request.
fn for_points(d: &mut m::MetricsData, mut f: impl FnMut(u64, Point<'_>)) {
    let mut j = 0;
    let mut each = |p: Point<'_>| {
        f(j, p);
        j += 1;
    };
    for_metrics(d, |_, metric| match &mut metric.data {
        Some(m::metric::Data::Histogram(x)) => {
            x.data_points.iter_mut().for_each(|p| each(Point::Hist(p)))
        }
        Some(m::metric::Data::Sum(x)) => x.data_points.iter_mut().for_each(|p| each(Point::Num(p))),
        Some(m::metric::Data::Gauge(x)) => {
            x.data_points.iter_mut().for_each(|p| each(Point::Num(p)))
        }
        _ => {}
    });
}

enum Point<'a> {
    Num(&'a mut m::NumberDataPoint),
    Hist(&'a mut m::HistogramDataPoint),
}

impl Point<'_> {
    fn attributes(&mut self) -> &mut Vec<c::KeyValue> {
        match self {
            Point::Num(p) => &mut p.attributes,
            Point::Hist(p) => &mut p.attributes,
        }
    }
    fn exemplars(&mut self) -> &mut Vec<m::Exemplar> {
        match self {
            Point::Num(p) => &mut p.exemplars,
            Point::Hist(p) => &mut p.exemplars,
        }
    }
}

fn resize<T: Clone>(v: &mut Vec<T>, n: usize) {
    let first = v[0].clone();
    v.resize(n, first);
}

/// Seed 0's request with dimension `dim` set by variant `i`.
fn variant(dim: &str, i: u64) -> m::MetricsData {
    let mut d = metrics(0);
    match dim {
        "none" => for_points(&mut d, |_, p| match p {
            Point::Num(p) => p.time_unix_nano += i,
            Point::Hist(p) => {
                p.time_unix_nano += i;
                for c in &mut p.bucket_counts {
                    *c ^= i;
                }
            }
        }),
        "points" => for_metrics(&mut d, |k, metric| {
            let n = (h(i, k) % 4 + 1) as usize;
            match &mut metric.data {
                Some(m::metric::Data::Histogram(x)) => resize(&mut x.data_points, n),
                Some(m::metric::Data::Sum(x)) => resize(&mut x.data_points, n),
                Some(m::metric::Data::Gauge(x)) => resize(&mut x.data_points, n),
                _ => {}
            }
        }),
        "attrs" => for_points(&mut d, |j, mut p| {
            *p.attributes() = attrs(h(i, j) % 3 + 1, ROUTES[0]);
        }),
        "routes" => for_points(&mut d, |j, mut p| {
            *p.attributes() = attrs(3, ROUTES[(h(i, j) % 4) as usize]);
        }),
        "exemplars" => for_points(&mut d, |j, mut p| {
            let e = p.exemplars();
            e.clear();
            if h(i, j).is_multiple_of(3) {
                e.push(m::Exemplar {
                    time_unix_nano: 1_700_000_000_000_000_000,
                    span_id: vec![7; 8],
                    trace_id: vec![9; 16],
                    value: Some(m::exemplar::Value::AsDouble(1.5)),
                    ..Default::default()
                });
            }
        }),
        "desc" => for_metrics(&mut d, |k, metric| {
            let n = (h(i, k) % 40 + 1) as usize;
            metric.description = "abcdefghij".repeat(4)[..n].to_owned();
        }),
        "numkind" => for_points(&mut d, |j, p| {
            if let Point::Num(p) = p {
                p.value = Some(if h(i, j).is_multiple_of(2) {
                    m::number_data_point::Value::AsInt(123_456)
                } else {
                    m::number_data_point::Value::AsDouble(123.5)
                });
            }
        }),
        "optional" => for_points(&mut d, |j, p| {
            if let Point::Hist(p) = p {
                let x = h(i, j);
                p.sum = (x & 1 == 0).then_some(12.5);
                p.min = (x & 2 == 0).then_some(0.001);
                p.max = (x & 4 == 0).then_some(11.0);
            }
        }),
        _ => unreachable!("checked by main"),
    }
    d
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = format!(
        "usage: otlp-vary DIMENSION OP ITERATIONS vary|repeat (DIMENSION: {})",
        DIMENSIONS.join(", ")
    );
    let [dim, op, n, mode] = &args[..] else {
        return Err(usage);
    };
    if !DIMENSIONS.contains(&dim.as_str()) {
        return Err(usage);
    }
    let n: u64 = n.parse().map_err(|e| format!("ITERATIONS: {e}"))?;
    let values: Vec<m::MetricsData> = match mode.as_str() {
        "vary" => (0..4).map(|i| variant(dim, i)).collect(),
        "repeat" => (0..4).map(|_| variant(dim, 0)).collect(),
        _ => return Err(usage),
    };
    let mut f = metrics_op(values, op).ok_or_else(|| format!("unknown operation {op}"))?;
    for _ in 0..n {
        f();
    }
    Ok(())
}
