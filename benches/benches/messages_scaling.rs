//! Scaling: encode and decode time against nesting depth (1..=100 levels, the default
//! limit) and against message size (telemetry batches of 1 to 1024 spans).
//!
//! Ids are `scaling-depth/<peer-op>/<depth>` with throughput in elements (levels), and
//! `scaling-size/<peer-op>/<spans>` with throughput in bytes of the peer's encoding, so
//! criterion reports time per level and per byte; `benches/scripts/messages.sh` turns
//! them into the linearity table of `benches/RESULTS.md`.

use std::hint::black_box;

use bijoubuf_benches::msg::ops::{bijou_encode, prost_encode};
use bijoubuf_benches::msg::{convert, data};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Nesting depths timed.
const DEPTHS: [usize; 6] = [1, 10, 25, 50, 75, 100];
/// Batch sizes (spans) timed.
const SPANS: [usize; 6] = [1, 4, 16, 64, 256, 1024];

fn depth(c: &mut Criterion) {
    let mut g = c.benchmark_group("scaling-depth");
    let mut buf = Vec::with_capacity(1 << 16);
    for d in DEPTHS {
        let b = data::nest(d);
        let p = convert::nest::to_prost(&b);
        let bb = bijoubuf::Message::encode_to_vec(&b).expect("within the limit");
        let pb = prost::Message::encode_to_vec(&p);
        g.throughput(Throughput::Elements(d as u64));
        g.bench_with_input(BenchmarkId::new("bijou-encode", d), &b, |z, m| {
            z.iter(|| bijou_encode(black_box(m), &mut buf));
        });
        g.bench_with_input(BenchmarkId::new("bijou-decode", d), &bb, |z, x| {
            z.iter(|| {
                <data_nest::B as bijoubuf::Message>::decode(black_box(x)).expect("canonical")
            });
        });
        g.bench_with_input(BenchmarkId::new("prost-encode", d), &p, |z, m| {
            z.iter(|| prost_encode(black_box(m), &mut buf));
        });
        g.bench_with_input(BenchmarkId::new("prost-decode", d), &pb, |z, x| {
            z.iter(|| <data_nest::P as prost::Message>::decode(black_box(&x[..])).expect("valid"));
        });
    }
    g.finish();
}

mod data_nest {
    pub(crate) type B = bijoubuf_benches::msg::bijou::nest::Nest;
    pub(crate) type P = bijoubuf_benches::msg::pb::nest::Nest;
}

fn size(c: &mut Criterion) {
    type B = bijoubuf_benches::msg::bijou::telemetry::SpanBatch;
    type P = bijoubuf_benches::msg::pb::telemetry::SpanBatch;
    let mut g = c.benchmark_group("scaling-size");
    let mut buf = Vec::with_capacity(1 << 22);
    for n in SPANS {
        let b = data::telemetry(data::Dataset::Telemetry.seed(), n);
        let p = convert::telemetry::to_prost(&b);
        let bb = bijoubuf::Message::encode_to_vec(&b).expect("within the limit");
        let pb = prost::Message::encode_to_vec(&p);
        g.throughput(Throughput::Bytes(bb.len() as u64));
        g.bench_with_input(BenchmarkId::new("bijou-encode", n), &b, |z, m| {
            z.iter(|| bijou_encode(black_box(m), &mut buf));
        });
        g.bench_with_input(BenchmarkId::new("bijou-decode", n), &bb, |z, x| {
            z.iter(|| <B as bijoubuf::Message>::decode(black_box(x)).expect("canonical"));
        });
        g.throughput(Throughput::Bytes(pb.len() as u64));
        g.bench_with_input(BenchmarkId::new("prost-encode", n), &p, |z, m| {
            z.iter(|| prost_encode(black_box(m), &mut buf));
        });
        g.bench_with_input(BenchmarkId::new("prost-decode", n), &pb, |z, x| {
            z.iter(|| <P as prost::Message>::decode(black_box(&x[..])).expect("valid"));
        });
    }
    g.finish();
}

criterion_group!(benches, depth, size);
criterion_main!(benches);
