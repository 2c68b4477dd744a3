//! The gRPC codecs alone: bijoubuf-tonic's `StrictCodec` against tonic-prost's
//! `ProstCodec`, encoding and decoding the same messages through tonic's own buffers
//! (`EncodeBody` and `Streaming`, see `bijoubuf_benches::rpc_codec`), without HTTP/2
//! or a network. This is what the whole-RPC benchmark (`benches/rpc.rs`) cannot
//! separate from the scheduler: whether the codec costs more than prost's.
//!
//! Ids are `rpc-codec-<messages>/<way>`, each iteration one batch of messages (the
//! throughput is in messages):
//! - `order`: 64 of the order service's `Get` replies (`Order`, 13–15 bytes);
//! - `query`: 64 of its `Get` requests (`OrderQuery`, 3–4 bytes);
//! - `gm1-proto3`: 8 GoogleMessage1 (proto3) values, about 150 bytes each;
//! - `telemetry`: 8 of the telemetry dataset's span batches, about 19 KB each.
//!
//! Ways: `bijoubuf-encode` (the codec as shipped: straight into tonic's spare capacity),
//! `bijoubuf-safe-encode` (through `encode_to_buf_mut`: a stack chunk copied in, no
//! `unsafe` in the codec), `prost-encode`; `bijoubuf-decode`, `prost-decode`. Values are
//! cloned for each batch outside the timing (tonic's encoder takes them by value), and
//! decoded values are dropped outside it.
//!
//! Measured by the thread's CPU time ([`ThreadTime`]): the machine is shared. Run:
//! `cargo bench -p bijoubuf-benches --bench rpc_codec`; results in
//! `benches/RESULTS-rpc.md`, with instruction counts from `rpc-codec-profile`.

use bijoubuf_benches::cpu::ThreadTime;
use bijoubuf_benches::msg::{convert, data, gm1};
use bijoubuf_benches::rpc_codec::{
    SafeCodec, decode, encode, order_to_prost, orders, queries, query_to_prost,
};
use bijoubuf_tonic::StrictCodec;
use criterion::{
    BatchSize, BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main,
};
use tonic_prost::ProstCodec;

type Group<'a> = BenchmarkGroup<'a, ThreadTime>;

/// The five ways on one batch: `bij` and `pro` are the same values in each peer's types.
fn ways<B, P>(c: &mut Criterion<ThreadTime>, name: &str, bij: Vec<B>, pro: Vec<P>)
where
    B: bijoubuf::Message + Clone + Send + 'static,
    P: prost::Message + Default + Clone + Send + 'static,
{
    let mut g: Group<'_> = c.benchmark_group(format!("rpc-codec-{name}"));
    g.throughput(Throughput::Elements(bij.len() as u64));
    let bij_frames = encode(StrictCodec::<B, B>::default(), bij.clone());
    let pro_frames = encode(ProstCodec::<P, P>::default(), pro.clone());
    // Each reads back what it wrote, and writes it again byte for byte, before anything
    // is timed; the safe encode writes the same frames.
    let back = decode(StrictCodec::<B, B>::default(), bij_frames.clone()).expect("decodes");
    assert_eq!(encode(StrictCodec::<B, B>::default(), back), bij_frames);
    let back = decode(ProstCodec::<P, P>::default(), pro_frames.clone()).expect("decodes");
    assert_eq!(encode(ProstCodec::<P, P>::default(), back), pro_frames);
    assert_eq!(
        encode(SafeCodec::<B, B>::default(), bij.clone()),
        bij_frames
    );
    g.bench_function("bijoubuf-encode", |b| {
        b.iter_batched(
            || bij.clone(),
            |v| encode(StrictCodec::<B, B>::default(), v),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("bijoubuf-safe-encode", |b| {
        b.iter_batched(
            || bij.clone(),
            |v| encode(SafeCodec::<B, B>::default(), v),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("prost-encode", |b| {
        b.iter_batched(
            || pro.clone(),
            |v| encode(ProstCodec::<P, P>::default(), v),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("bijoubuf-decode", |b| {
        b.iter_batched(
            || bij_frames.clone(),
            |f| decode(StrictCodec::<B, B>::default(), f).expect("decodes"),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("prost-decode", |b| {
        b.iter_batched(
            || pro_frames.clone(),
            |f| decode(ProstCodec::<P, P>::default(), f).expect("decodes"),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn rpc_codec(c: &mut Criterion<ThreadTime>) {
    let o = orders(64);
    let po = o.iter().map(order_to_prost).collect();
    ways(c, "order", o, po);
    let q = queries(64);
    let pq = q.iter().map(query_to_prost).collect();
    ways(c, "query", q, pq);
    let d = data::Dataset::Gm1Proto3;
    let g: Vec<_> = (0..8).map(|i| gm1::proto3(d.seed() + (i << 32))).collect();
    let pg = g.iter().map(gm1::proto3_to_prost).collect();
    ways(c, d.name(), g, pg);
    let d = data::Dataset::Telemetry;
    let t: Vec<_> = (0..8)
        .map(|i| data::telemetry(d.seed() + (i << 32), 64))
        .collect();
    let pt = t.iter().map(convert::telemetry::to_prost).collect();
    ways(c, d.name(), t, pt);
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadTime);
    targets = rpc_codec
}
criterion_main!(benches);
