//! The varint shootout: bijou64 against the reference implementation and LEB128 varints.
//!
//! Four timed operations on batches of 4096 values from six seeded distributions; the
//! encoded sizes are a table made by `varint-results`, not a timing. Each iteration takes
//! the next of [`POOL`] distinct batches, so the branch predictor cannot learn the batch
//! (see `data::POOL`); one control group repeats a single batch to show that effect.
//! Inputs and outputs go through `black_box`. `benches/RESULTS.md` has the numbers and how
//! to regenerate them.

use std::hint::black_box;

use bijoubuf_benches::cpu::ThreadTime;
use bijoubuf_benches::data::{BATCH, Dist, POOL, pool, values};
use bijoubuf_benches::peers::{
    DecodeFn, Peer, canonical_decoders, decoders, encoders, packed_decoders,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn encode(c: &mut Criterion<ThreadTime>) {
    let mut group = c.benchmark_group("encode");
    group.throughput(Throughput::Elements(BATCH as u64));
    for dist in Dist::ALL {
        let batches = pool(dist);
        for peer in encoders() {
            let mut out = Vec::with_capacity(BATCH * 10 + 16);
            let mut k = 0;
            group.bench_function(BenchmarkId::new(peer.name, dist.name()), |b| {
                b.iter(|| {
                    k = (k + 1) % POOL;
                    let n = (peer.run)(black_box(&batches[k]), black_box(&mut out));
                    black_box(&out);
                    n
                })
            });
        }
    }
    group.finish();
}

fn decode_group(c: &mut Criterion<ThreadTime>, name: &str, peers: &[Peer<DecodeFn>]) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(BATCH as u64));
    for dist in Dist::ALL {
        let batches = pool(dist);
        for peer in peers {
            let inputs: Vec<Vec<u8>> = batches.iter().map(|b| peer.format.bytes(b)).collect();
            let mut out = vec![0u64; BATCH];
            let mut k = 0;
            group.bench_function(BenchmarkId::new(peer.name, dist.name()), |b| {
                b.iter(|| {
                    k = (k + 1) % POOL;
                    let n = (peer.run)(black_box(&inputs[k]), black_box(&mut out));
                    black_box(&out);
                    n
                })
            });
        }
    }
    group.finish();
}

fn decode(c: &mut Criterion<ThreadTime>) {
    decode_group(c, "decode", &decoders());
}

fn decode_canonical(c: &mut Criterion<ThreadTime>) {
    decode_group(c, "decode-canonical", &canonical_decoders());
}

fn decode_packed(c: &mut Criterion<ThreadTime>) {
    let mut group = c.benchmark_group("decode-packed");
    group.throughput(Throughput::Elements(BATCH as u64));
    for dist in Dist::ALL {
        let batches = pool(dist);
        for peer in packed_decoders() {
            let inputs: Vec<Vec<u8>> = batches.iter().map(|b| peer.format.bytes(b)).collect();
            let mut out = Vec::with_capacity(BATCH);
            let mut k = 0;
            group.bench_function(BenchmarkId::new(peer.name, dist.name()), |b| {
                b.iter(|| {
                    k = (k + 1) % POOL;
                    let n = (peer.run)(black_box(&inputs[k]), black_box(&mut out));
                    black_box(&out);
                    n
                })
            });
        }
    }
    group.finish();
}

/// The control: one mixed batch decoded over and over, which the branch predictor learns.
fn decode_same_batch(c: &mut Criterion<ThreadTime>) {
    let mut group = c.benchmark_group("decode-same-batch");
    group.throughput(Throughput::Elements(BATCH as u64));
    let dist = Dist::Mixed;
    let vals = values(dist);
    for peer in decoders() {
        let input = peer.format.bytes(&vals);
        let mut out = vec![0u64; BATCH];
        group.bench_function(BenchmarkId::new(peer.name, dist.name()), |b| {
            b.iter(|| {
                let n = (peer.run)(black_box(&input), black_box(&mut out));
                black_box(&out);
                n
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // The thread's CPU clock, not wall time: the machine is shared (see `cpu`).
    config = Criterion::default().with_measurement(ThreadTime);
    targets = encode, decode, decode_canonical, decode_packed, decode_same_batch
}
criterion_main!(benches);
