//! Message benchmarks: bijoubuf's generated code against prost (types generated from the
//! same descriptor set) and bilrost (hand-derived equivalents), on four datasets.
//!
//! Ids are `messages-<dataset>/<peer-op>`; the throughput is the peer's own encoded size,
//! so criterion's bytes per second compare like with like. Every iteration takes the next
//! of [`VARIANTS`] values generated with different seeds, so no peer is timed on one
//! input its branch predictor has learned by heart.
//!
//! Run: `cargo bench -p bijoubuf-benches --bench messages`; the numbers go into
//! `benches/RESULTS.md` through `benches/scripts/messages.sh`.

use std::hint::black_box;

use bijoubuf_benches::msg::ops::{
    PRESERVE, bijou_encode, bilrost_encode, prost_decode_canonical, prost_encode,
};
use bijoubuf_benches::msg::{convert, data};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

/// Distinct values per dataset that the iterations cycle through.
const VARIANTS: u64 = 8;

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn mean_len(v: &[Vec<u8>]) -> u64 {
    (v.iter().map(Vec::len).sum::<usize>() / v.len()) as u64
}

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

fn bijou_and_prost<B, P>(g: &mut Group<'_>, bij: &[B], pro: &[P])
where
    B: bijoubuf::Message,
    P: prost::Message + Default,
{
    let bb: Vec<Vec<u8>> = bij
        .iter()
        .map(|m| m.encode_to_vec().expect("encodes"))
        .collect();
    let pb: Vec<Vec<u8>> = pro.iter().map(prost::Message::encode_to_vec).collect();
    let mut buf = Vec::with_capacity(1 << 20);

    g.throughput(Throughput::Bytes(mean_len(&bb)));
    cycle(g, "bijou-encode", bij, |m| {
        bijou_encode(m, &mut buf);
        buf.len()
    });
    cycle(g, "bijou-encoded-len", bij, |m| m.encoded_len());
    cycle(g, "bijou-decode", &bb, |x| B::decode(x).expect("canonical"));
    cycle(g, "bijou-decode-preserve", &bb, |x| {
        B::decode_with(x, &PRESERVE).expect("canonical")
    });

    g.throughput(Throughput::Bytes(mean_len(&pb)));
    cycle(g, "prost-encode", pro, |m| {
        prost_encode(m, &mut buf);
        buf.len()
    });
    cycle(g, "prost-encoded-len", pro, |m| m.encoded_len());
    cycle(g, "prost-decode", &pb, |x| {
        P::decode(&x[..]).expect("valid")
    });
    cycle(g, "prost-decode-reencode-compare", &pb, |x| {
        prost_decode_canonical::<P>(x, &mut buf).expect("canonical")
    });
}

fn bilrost_ops<L>(g: &mut Group<'_>, bil: &[L])
where
    L: bilrost::Message + bilrost::DistinguishedOwnedMessage,
{
    let lb: Vec<Vec<u8>> = bil.iter().map(bilrost::Message::encode_to_vec).collect();
    let mut buf = Vec::with_capacity(1 << 20);
    g.throughput(Throughput::Bytes(mean_len(&lb)));
    cycle(g, "bilrost-encode", bil, |m| {
        bilrost_encode(m, &mut buf);
        buf.len()
    });
    cycle(g, "bilrost-decode-distinguished", &lb, |x| {
        L::decode_canonical(&x[..]).expect("canonical")
    });
}

fn seeds(d: data::Dataset) -> impl Iterator<Item = u64> {
    (0..VARIANTS).map(move |i| d.seed() + (i << 32))
}

fn messages(c: &mut Criterion) {
    use data::Dataset as D;

    let d = D::Telemetry;
    let v: Vec<_> = seeds(d).map(|s| data::telemetry(s, 64)).collect();
    let mut g = c.benchmark_group(format!("messages-{}", d.name()));
    let p: Vec<_> = v.iter().map(convert::telemetry::to_prost).collect();
    bijou_and_prost(&mut g, &v, &p);
    let l: Vec<_> = v.iter().map(convert::telemetry::to_bilrost).collect();
    bilrost_ops(&mut g, &l);
    g.finish();

    let d = D::Cas;
    let v: Vec<_> = seeds(d).map(|s| data::cas(s, 64, 256)).collect();
    let mut g = c.benchmark_group(format!("messages-{}", d.name()));
    let p: Vec<_> = v.iter().map(convert::cas::to_prost).collect();
    bijou_and_prost(&mut g, &v, &p);
    let l: Vec<_> = v.iter().map(convert::cas::to_bilrost).collect();
    bilrost_ops(&mut g, &l);
    g.finish();

    let d = D::Wide;
    let v: Vec<_> = seeds(d).map(|s| data::wide(s, 128)).collect();
    let mut g = c.benchmark_group(format!("messages-{}", d.name()));
    let p: Vec<_> = v.iter().map(convert::wide::to_prost).collect();
    bijou_and_prost(&mut g, &v, &p);
    g.finish();

    let d = D::Numeric;
    let v: Vec<_> = seeds(d).map(|s| data::numeric(s, 16, 256)).collect();
    let mut g = c.benchmark_group(format!("messages-{}", d.name()));
    let p: Vec<_> = v.iter().map(convert::numeric::to_prost).collect();
    bijou_and_prost(&mut g, &v, &p);
    let l: Vec<_> = v.iter().map(convert::numeric::to_bilrost).collect();
    bilrost_ops(&mut g, &l);
    g.finish();
}

criterion_group!(benches, messages);
criterion_main!(benches);
