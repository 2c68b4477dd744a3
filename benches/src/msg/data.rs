//! Seeded generators for the message datasets, built as bijoubuf values; [`super::convert`]
//! turns each into the prost and bilrost value holding the same logical data.
//!
//! The distributions follow what such data looks like in practice: most integers are
//! small (counts, codes, lengths), a few are large (ids, sizes, hashes read as numbers);
//! strings are built from words to realistic lengths; optional parts are usually absent.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bijou::{cas, nest, numeric, telemetry, wide};

/// The seeded generator every dataset starts from.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A dataset: a name for tables and ids, and how to build it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dataset {
    /// 64 spans of a traced service with attributes, events and links.
    Telemetry,
    /// 64 commits and 256 blobs of a content-addressed store.
    Cas,
    /// 128 wide records with every scalar type.
    Wide,
    /// 16 numeric series of 256 points each.
    Numeric,
    /// protobuf's benchmark message GoogleMessage1, proto3: one message per value.
    Gm1Proto3,
    /// protobuf's benchmark message GoogleMessage1, proto2: one message per value.
    Gm1Proto2,
}

impl Dataset {
    /// Every dataset, in table order.
    pub const ALL: [Dataset; 6] = [
        Dataset::Telemetry,
        Dataset::Cas,
        Dataset::Wide,
        Dataset::Numeric,
        Dataset::Gm1Proto3,
        Dataset::Gm1Proto2,
    ];

    /// Name used in benchmark ids and tables.
    pub const fn name(self) -> &'static str {
        match self {
            Dataset::Telemetry => "telemetry",
            Dataset::Cas => "cas",
            Dataset::Wide => "wide",
            Dataset::Numeric => "numeric",
            Dataset::Gm1Proto3 => "gm1-proto3",
            Dataset::Gm1Proto2 => "gm1-proto2",
        }
    }

    /// One line for the results page.
    pub const fn describe(self) -> &'static str {
        match self {
            Dataset::Telemetry => {
                "`SpanBatch`: 64 spans, 16/8-byte ids, fixed64 times, 3–10 attributes each \
                 (map<string, AnyValue>), events on 30 %, links on 10 %"
            }
            Dataset::Cas => {
                "`Index`: 64 commits (32-byte hashes, 1–2 parents, messages of 20–200 \
                 chars, metadata maps) and 256 blobs (log-distributed sizes, paths)"
            }
            Dataset::Wide => {
                "`WideBatch`: 128 records with every scalar type, about 70 % of fields set, \
                 a nested group, optional members"
            }
            Dataset::Numeric => {
                "`SeriesBatch`: 16 series × 256 points of packed uint64, sint64, double and \
                 fixed32"
            }
            Dataset::Gm1Proto3 => {
                "`benchmarks.proto3.GoogleMessage1`, protobuf's benchmark message: 41 \
                 fields up to 280 and a 20-field sub-message up to 300, about half set, \
                 small integers, short strings; one message per value"
            }
            Dataset::Gm1Proto2 => {
                "`benchmarks.proto2.GoogleMessage1`: the same data with proto2's explicit \
                 presence, three required fields and defaults"
            }
        }
    }

    /// How many values (seeds) a benchmark cycles through: the batches are large enough
    /// that 8 keep the branch predictor from learning them; single GoogleMessage1 values
    /// are not, so they take 64.
    pub const fn variants(self) -> u64 {
        match self {
            Dataset::Gm1Proto3 | Dataset::Gm1Proto2 => 64,
            _ => 8,
        }
    }

    /// The generator seed of the dataset.
    pub const fn seed(self) -> u64 {
        0x5EED_0000 + self as u64
    }
}

const WORDS: &[&str] = &[
    "request", "user", "cache", "index", "query", "retry", "the", "of", "service", "handler",
    "timeout", "commit", "merge", "fix", "update", "add", "remove", "build", "test", "error",
    "client", "server", "store", "blob", "tree", "read", "write", "batch", "span", "trace",
    "payment", "order", "session", "token", "refresh", "account", "region", "a", "to", "in",
];

/// A string of about `len` characters made of words.
pub fn words(r: &mut impl Rng, len: usize, sep: char) -> String {
    let mut s = String::with_capacity(len + 12);
    while s.len() < len {
        if !s.is_empty() {
            s.push(sep);
        }
        s.push_str(WORDS[r.random_range(0..WORDS.len())]);
    }
    s
}

/// Random bytes.
pub fn bytes(r: &mut impl Rng, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    r.fill(&mut v[..]);
    v
}

/// An unsigned value: 70 % below 128, 20 % below 2^16, 8 % below 2^32, 2 % any width.
pub fn mostly_small(r: &mut impl Rng) -> u64 {
    let p = r.random_range(0..100u32);
    let bits = match p {
        0..70 => 7,
        70..90 => r.random_range(8..=16),
        90..98 => r.random_range(17..=32),
        _ => r.random_range(33..=64),
    };
    let v: u64 = r.random();
    if bits == 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// A signed value of the same magnitudes, either sign.
pub fn mostly_small_signed(r: &mut impl Rng) -> i64 {
    let m = (mostly_small(r) >> 1) as i64;
    if r.random_bool(0.5) { m } else { -m }
}

/// A byte count: log-uniform between 10 B and 100 MB.
pub fn log_size(r: &mut impl Rng) -> u64 {
    let e: f64 = r.random_range(1.0..8.0);
    10f64.powf(e) as u64
}

/// 2026-01-01 in nanoseconds since the Unix epoch.
const EPOCH_NS: u64 = 1_767_225_600_000_000_000;

const SPAN_NAMES: &[&str] = &[
    "GET /api/v1/users/{id}",
    "POST /api/v1/orders",
    "db.query",
    "cache.get",
    "http.client.request",
    "grpc.payments.Charge",
    "render",
    "kafka.produce",
];

const ATTR_KEYS: &[&str] = &[
    "http.method",
    "http.status_code",
    "http.url",
    "net.peer.name",
    "net.peer.port",
    "db.system",
    "db.statement",
    "user.id",
    "cache.hit",
    "retry.count",
    "thread.name",
    "request.size",
    "sampling.ratio",
    "payload.digest",
];

fn any_value(r: &mut impl Rng, key: &str) -> telemetry::AnyValue {
    use telemetry::any_value::Value;
    let value = match key {
        "http.status_code" => Value::IntValue(
            *[200, 200, 200, 201, 204, 404, 500]
                .get(r.random_range(0..7))
                .unwrap_or(&200),
        ),
        "net.peer.port" => Value::IntValue(r.random_range(1024..65536)),
        "retry.count" => Value::IntValue(r.random_range(0..4)),
        "request.size" => Value::IntValue(log_size(r) as i64),
        "user.id" => Value::IntValue(r.random_range(1..1i64 << 40)),
        "cache.hit" => Value::BoolValue(r.random_bool(0.7)),
        "sampling.ratio" => {
            Value::DoubleValue(*[0.1, 0.25, 1.0].get(r.random_range(0..3)).unwrap_or(&1.0))
        }
        "payload.digest" => Value::BytesValue(bytes(r, 32)),
        "http.url" | "db.statement" => {
            let n = r.random_range(20..80);
            Value::StringValue(words(r, n, '/'))
        }
        _ => {
            let n = r.random_range(3..16);
            Value::StringValue(words(r, n, '-'))
        }
    };
    telemetry::AnyValue {
        value: Some(value),
        ..Default::default()
    }
}

fn attributes(r: &mut impl Rng, n: usize) -> BTreeMap<String, telemetry::AnyValue> {
    let mut m = BTreeMap::new();
    for _ in 0..n {
        let k = ATTR_KEYS[r.random_range(0..ATTR_KEYS.len())];
        let v = any_value(r, k);
        m.insert(k.to_owned(), v);
    }
    m
}

fn span(r: &mut impl Rng, trace_id: &[u8], parent: Option<&[u8]>) -> telemetry::Span {
    let start = EPOCH_NS + r.random_range(0..3_600_000_000_000);
    // Durations from 1 µs to 10 s, log-uniform.
    let dur = 10f64.powf(r.random_range(3.0..10.0)) as u64;
    let n_attr = r.random_range(3..=10);
    let events = if r.random_bool(0.3) {
        (0..r.random_range(1..=3))
            .map(|i| {
                let n = r.random_range(0..=3);
                telemetry::Event {
                    time_unix_nano: start + dur / 4 * (i + 1),
                    name: ["exception", "retry", "cache.miss", "message"][r.random_range(0..4)]
                        .to_owned(),
                    attributes: attributes(r, n),
                    ..Default::default()
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let links = if r.random_bool(0.1) {
        let n = r.random_range(0..=2);
        vec![telemetry::Link {
            trace_id: bytes(r, 16),
            span_id: bytes(r, 8),
            attributes: attributes(r, n),
            ..Default::default()
        }]
    } else {
        Vec::new()
    };
    let failed = r.random_bool(0.05);
    telemetry::Span {
        trace_id: trace_id.to_vec(),
        span_id: bytes(r, 8),
        parent_span_id: parent.map(<[u8]>::to_vec).unwrap_or_default(),
        name: SPAN_NAMES[r.random_range(0..SPAN_NAMES.len())].to_owned(),
        kind: r.random_range(1..=5),
        start_time_unix_nano: start,
        end_time_unix_nano: start + dur,
        attributes: attributes(r, n_attr),
        events,
        links,
        status: failed.then(|| telemetry::Status {
            message: words(r, 24, ' '),
            code: 2,
            ..Default::default()
        }),
        dropped_attributes_count: if r.random_bool(0.05) {
            r.random_range(1..40)
        } else {
            0
        },
        ..Default::default()
    }
}

/// A telemetry batch of `spans` spans (traces of about 8 spans each).
pub fn telemetry(seed: u64, spans: usize) -> telemetry::SpanBatch {
    let r = &mut rng(seed);
    let mut out = Vec::with_capacity(spans);
    let mut trace = bytes(r, 16);
    let mut root: Option<Vec<u8>> = None;
    for i in 0..spans {
        if i % 8 == 0 {
            trace = bytes(r, 16);
            root = None;
        }
        let s = span(r, &trace, root.as_deref());
        if root.is_none() {
            root = Some(s.span_id.clone());
        }
        out.push(s);
    }
    let mut resource = BTreeMap::new();
    for (k, v) in [
        ("service.name", "checkout"),
        ("service.version", "1.42.7"),
        ("host.name", "ip-10-0-12-34.eu-west-1.compute.internal"),
        ("telemetry.sdk.language", "rust"),
    ] {
        resource.insert(
            k.to_owned(),
            telemetry::AnyValue {
                value: Some(telemetry::any_value::Value::StringValue(v.to_owned())),
                ..Default::default()
            },
        );
    }
    telemetry::SpanBatch {
        service_name: "checkout".to_owned(),
        resource,
        spans: out,
        ..Default::default()
    }
}

const META_KEYS: &[&str] = &[
    "signed-off-by",
    "change-id",
    "reviewed-on",
    "origin",
    "encoding",
];

fn metadata(r: &mut impl Rng, max: usize) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for _ in 0..r.random_range(0..=max) {
        let n = r.random_range(6..40);
        m.insert(
            META_KEYS[r.random_range(0..META_KEYS.len())].to_owned(),
            words(r, n, '-'),
        );
    }
    m
}

/// A content-addressed index slice: `commits` commits and `blobs` blobs.
pub fn cas(seed: u64, commits: usize, blobs: usize) -> cas::Index {
    let r = &mut rng(seed);
    let mut prev: Vec<Vec<u8>> = Vec::new();
    let commits = (0..commits)
        .map(|_| {
            let id = bytes(r, 32);
            let p = r.random_range(0..100u32);
            let parents = match (p, prev.len()) {
                (_, 0) | (0..2, _) => Vec::new(),
                (2..10, n) if n >= 2 => vec![prev[n - 1].clone(), prev[n - 2].clone()],
                (_, n) => vec![prev[n - 1].clone()],
            };
            prev.push(id.clone());
            let msg_len = r.random_range(20..200);
            cas::Commit {
                id,
                tree: bytes(r, 32),
                parents,
                author: format!("{} <{}@example.org>", words(r, 10, ' '), words(r, 6, '.')),
                message: words(r, msg_len, ' '),
                timestamp: 1_767_225_600 + r.random_range(0..31_536_000),
                metadata: metadata(r, 3),
                ..Default::default()
            }
        })
        .collect();
    let blobs = (0..blobs)
        .map(|_| {
            let plen = r.random_range(10..60);
            cas::Blob {
                id: bytes(r, 32),
                size: log_size(r),
                path: words(r, plen, '/') + ".rs",
                mode: match r.random_range(0..100u32) {
                    0..90 => 0o100644,
                    90..99 => 0o100755,
                    _ => 0o120000,
                },
                metadata: metadata(r, 1),
                ..Default::default()
            }
        })
        .collect();
    cas::Index {
        commits,
        blobs,
        ..Default::default()
    }
}

/// Each field set with probability 0.7, else the default.
fn maybe<T: Default>(r: &mut impl Rng, f: impl FnOnce(&mut dyn FnMut() -> u64) -> T) -> T {
    if r.random_bool(0.7) {
        let mut draw = || mostly_small(r);
        f(&mut draw)
    } else {
        T::default()
    }
}

fn wide_one(r: &mut impl Rng) -> wide::Wide {
    let name_len = r.random_range(8..20);
    let t2 = r.random_range(0..40);
    let blob_len = r.random_range(0..24);
    let text2 = words(r, t2, ' ');
    let group = r.random_bool(0.6).then(|| {
        let n = r.random_range(4..24);
        wide::Group {
            field5: r.random_range(0..100),
            field13: words(r, n, ' '),
            field14: mostly_small(r),
            field15: r.random_bool(0.5),
            field16: r.random_range(0..1u32 << 20),
            field22: r.random_bool(0.2).then(|| words(r, 12, ' ')),
            ..Default::default()
        }
    });
    wide::Wide {
        name: words(r, name_len, '_'),
        i32: maybe(r, |d| d() as u32 as i32),
        i64: maybe(r, |d| d() as i64),
        u32: maybe(r, |d| d() as u32),
        u64: maybe(r, |d| d()),
        s32: maybe(r, |d| (d() as i32).wrapping_sub(1 << 6)),
        s64: maybe(r, |d| (d() as i64).wrapping_sub(1 << 6)),
        flag: r.random_bool(0.5),
        level: r.random_range(0..=3),
        f32: maybe(r, |d| d() as u32),
        f64: maybe(r, |d| d()),
        sf32: maybe(r, |d| d() as i32 - 64),
        sf64: maybe(r, |d| d() as i64 - 64),
        fl: maybe(r, |d| d() as f32 / 8.0),
        db: maybe(r, |d| d() as f64 / 1024.0),
        blob: bytes(r, blob_len),
        opt_i32: r.random_bool(0.3).then(|| r.random_range(-5..1000)),
        opt_u64: r.random_bool(0.3).then(|| mostly_small(r)),
        opt_flag: r.random_bool(0.3).then(|| r.random_bool(0.5)),
        opt_text: r.random_bool(0.3).then(|| words(r, 16, ' ')),
        text2,
        small1: r.random_range(0..3),
        small2: r.random_range(0..16),
        small3: r.random_range(0..100),
        flag2: r.random_bool(0.2),
        flag3: r.random_bool(0.8),
        group,
        ..Default::default()
    }
}

/// `n` wide records.
pub fn wide(seed: u64, n: usize) -> wide::WideBatch {
    let r = &mut rng(seed);
    wide::WideBatch {
        items: (0..n).map(|_| wide_one(r)).collect(),
        ..Default::default()
    }
}

/// `series` numeric series of `points` points each.
pub fn numeric(seed: u64, series: usize, points: usize) -> numeric::SeriesBatch {
    let r = &mut rng(seed);
    let series = (0..series)
        .map(|i| {
            let mut level = r.random_range(0.0..1000.0f64);
            numeric::Series {
                name: format!("{}.{}", words(r, 12, '.'), i),
                counts: (0..points).map(|_| mostly_small(r)).collect(),
                deltas: (0..points).map(|_| mostly_small_signed(r)).collect(),
                values: (0..points)
                    .map(|_| {
                        level += r.random_range(-1.0..1.0f64);
                        // Two decimals, as a gauge would report.
                        (level * 100.0).round() / 100.0
                    })
                    .collect(),
                flags: (0..points).map(|_| r.random_range(0..16u32)).collect(),
                ..Default::default()
            }
        })
        .collect();
    numeric::SeriesBatch {
        series,
        ..Default::default()
    }
}

/// A chain of `depth` nested messages (the top level counts as one).
pub fn nest(depth: usize) -> nest::Nest {
    let mut m: Option<Box<nest::Nest>> = None;
    for i in (0..depth).rev() {
        let n = nest::Nest {
            value: i as u64 * 7 + 1,
            label: format!("level{i}"),
            child: m,
            ..Default::default()
        };
        m = Some(Box::new(n));
    }
    m.map(|b| *b).unwrap_or_default()
}
