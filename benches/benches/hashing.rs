//! Content addressing: hashing a message's canonical bytes as they are encoded
//! (`encode_to_sink`: one pass into a frame, without a size pass, for an encoding of up
//! to 64 KiB; the two passes through a chunk past that) against encoding into a buffer and
//! hashing that, on the message benchmarks' datasets, in one process.
//!
//! Ids are `hashing-<dataset>/<way>`:
//! - `blake3-sink`: `m.content_id()` (BLAKE3 fed by `encode_to_sink`);
//! - `blake3-vec`: `blake3::hash(&m.encode_to_vec()?)`, what a user writes without a sink;
//! - `blake3-reused-buf`: the same into one cleared `Vec` kept across iterations (no
//!   allocation; the buffer's memory is written and read again);
//! - `sha256-sink` and `sha256-vec`: the same with SHA-256 through the `digest` traits.
//!
//! Measured by the thread's CPU time ([`ThreadTime`]), not wall time: the machine is
//! shared, and the figure of merit is the ratio of ways run in this one process.
//!
//! Run: `cargo bench -p bijoubuf-benches --bench hashing` (add `-- --quick` on a busy
//! machine); results in `benches/RESULTS.md`. Instruction counts of the same ways come
//! from `hashing-profile` (`benches/src/bin/hashing-profile.rs`) under callgrind.

use std::hint::black_box;

use bijoubuf::Message;
use bijoubuf_benches::cpu::ThreadTime;
use bijoubuf_benches::msg::{data, gm1};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use sha2::Digest as _;

type Group<'a> = BenchmarkGroup<'a, ThreadTime>;

/// Cycle through `inputs`, calling `f` on the next one per iteration.
fn cycle<'a, T, R>(g: &mut Group<'_>, id: &str, inputs: &'a [T], mut f: impl FnMut(&'a T) -> R) {
    g.bench_function(id, |b| {
        let mut i = 0;
        b.iter(|| {
            let x = &inputs[i];
            i = (i + 1) % inputs.len();
            black_box(f(black_box(x)))
        });
    });
}

fn ways<M: Message>(c: &mut Criterion<ThreadTime>, name: &str, values: &[M]) {
    let mut g = c.benchmark_group(format!("hashing-{name}"));
    let total: usize = values.iter().map(Message::encoded_len).sum();
    g.throughput(Throughput::Bytes((total / values.len()) as u64));
    // The ways agree before any is timed.
    for m in values {
        let bytes = m.encode_to_vec().expect("encodes");
        assert_eq!(m.content_id().expect("encodes"), blake3::hash(&bytes));
    }
    cycle(&mut g, "blake3-sink", values, |m| {
        m.content_id().expect("encodes")
    });
    cycle(&mut g, "blake3-vec", values, |m| {
        blake3::hash(&m.encode_to_vec().expect("encodes"))
    });
    let mut buf = Vec::new();
    cycle(&mut g, "blake3-reused-buf", values, |m| {
        buf.clear();
        m.encode(&mut buf).expect("encodes");
        blake3::hash(&buf)
    });
    cycle(&mut g, "sha256-sink", values, |m| {
        let mut h = sha2::Sha256::new();
        m.encode_to_digest(&mut h).expect("encodes");
        h.finalize()
    });
    cycle(&mut g, "sha256-vec", values, |m| {
        sha2::Sha256::digest(m.encode_to_vec().expect("encodes"))
    });
    g.finish();
}

fn seeds(d: data::Dataset) -> impl Iterator<Item = u64> {
    (0..d.variants()).map(move |i| d.seed() + (i << 32))
}

fn hashing(c: &mut Criterion<ThreadTime>) {
    use data::Dataset as D;
    // The message benchmarks' datasets, built as `benches/messages.rs` builds them.
    let v: Vec<_> = seeds(D::Telemetry)
        .map(|s| data::telemetry(s, 64))
        .collect();
    ways(c, D::Telemetry.name(), &v);
    let v: Vec<_> = seeds(D::Cas).map(|s| data::cas(s, 64, 256)).collect();
    ways(c, D::Cas.name(), &v);
    let v: Vec<_> = seeds(D::Wide).map(|s| data::wide(s, 128)).collect();
    ways(c, D::Wide.name(), &v);
    let v: Vec<_> = seeds(D::Numeric)
        .map(|s| data::numeric(s, 16, 256))
        .collect();
    ways(c, D::Numeric.name(), &v);
    let v: Vec<_> = seeds(D::Gm1Proto3).map(gm1::proto3).collect();
    ways(c, D::Gm1Proto3.name(), &v);
    let v: Vec<_> = seeds(D::Gm1Proto2).map(gm1::proto2).collect();
    ways(c, D::Gm1Proto2.name(), &v);
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadTime);
    targets = hashing
}
criterion_main!(benches);
