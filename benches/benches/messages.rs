//! Message benchmarks: bijoubuf's generated code against prost (types generated from the
//! same descriptor set), bilrost (hand-derived equivalents) and, on protobuf's benchmark
//! message GoogleMessage1, buffa (owned types and zero-copy views), on six datasets.
//!
//! Ids are `messages-<dataset>/<peer-op>`; the throughput is the peer's own encoded size,
//! so criterion's bytes per second compare like with like. Every iteration takes the next
//! of the dataset's values generated with different seeds (`Dataset::variants`), so no
//! peer is timed on one input its branch predictor has learned by heart.
//!
//! Run: `cargo bench -p bijoubuf-benches --bench messages`; the numbers go into
//! `benches/RESULTS.md` through `benches/scripts/messages.sh`.

use std::hint::black_box;

use buffa::MessageView as _;

use bijoubuf_benches::msg::bijou::{benchmarks, cas, numeric, telemetry, wide};
use bijoubuf_benches::msg::ops::{
    PRESERVE, bijou_borrowed_decode, bijou_encode, bilrost_encode, buffa_encode,
    prost_decode_canonical, prost_encode,
};
use bijoubuf_benches::msg::{buffa_types, convert, data, gm1};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

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

/// bijoubuf's and prost's operations; `borrowed`, when the dataset's types have borrowed
/// twins, is a strict decode into the twin (`bijou-borrowed-decode`).
fn bijou_and_prost<B, P>(
    g: &mut Group<'_>,
    bij: &[B],
    pro: &[P],
    borrowed: Option<fn(&[u8]) -> bool>,
) where
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
    if let Some(f) = borrowed {
        cycle(g, "bijou-borrowed-decode", &bb, |x| f(x));
    }

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

/// buffa's owned encode and decode, and its zero-copy view decode (`view` decodes one
/// input into a `…View<'a>` borrowing from it; not strict: protobuf's wire format has no
/// canonical form to check).
fn buffa_ops<O: buffa::Message>(g: &mut Group<'_>, owned: &[O], view: impl Fn(&[u8])) {
    let fb: Vec<Vec<u8>> = owned.iter().map(buffa::Message::encode_to_vec).collect();
    let mut buf = Vec::with_capacity(1 << 20);
    g.throughput(Throughput::Bytes(mean_len(&fb)));
    cycle(g, "buffa-encode", owned, |m| {
        buffa_encode(m, &mut buf);
        buf.len()
    });
    cycle(g, "buffa-encoded-len", owned, |m| m.encoded_len());
    cycle(g, "buffa-decode", &fb, |x| {
        O::decode_from_slice(x).expect("valid")
    });
    cycle(g, "buffa-view-decode", &fb, |x| view(x));
}

fn seeds(d: data::Dataset) -> impl Iterator<Item = u64> {
    (0..d.variants()).map(move |i| d.seed() + (i << 32))
}

fn messages(c: &mut Criterion) {
    use data::Dataset as D;

    let d = D::Telemetry;
    let v: Vec<_> = seeds(d).map(|s| data::telemetry(s, 64)).collect();
    let mut g = c.benchmark_group(format!("messages-{}", d.name()));
    let p: Vec<_> = v.iter().map(convert::telemetry::to_prost).collect();
    let twin = |b: &[u8]| bijou_borrowed_decode::<telemetry::SpanBatchRef<'_>>(b);
    bijou_and_prost(&mut g, &v, &p, Some(twin));
    let l: Vec<_> = v.iter().map(convert::telemetry::to_bilrost).collect();
    bilrost_ops(&mut g, &l);
    g.finish();

    let d = D::Cas;
    let v: Vec<_> = seeds(d).map(|s| data::cas(s, 64, 256)).collect();
    let mut g = c.benchmark_group(format!("messages-{}", d.name()));
    let p: Vec<_> = v.iter().map(convert::cas::to_prost).collect();
    let twin = |b: &[u8]| bijou_borrowed_decode::<cas::IndexRef<'_>>(b);
    bijou_and_prost(&mut g, &v, &p, Some(twin));
    let l: Vec<_> = v.iter().map(convert::cas::to_bilrost).collect();
    bilrost_ops(&mut g, &l);
    g.finish();

    let d = D::Wide;
    let v: Vec<_> = seeds(d).map(|s| data::wide(s, 128)).collect();
    let mut g = c.benchmark_group(format!("messages-{}", d.name()));
    let p: Vec<_> = v.iter().map(convert::wide::to_prost).collect();
    let twin = |b: &[u8]| bijou_borrowed_decode::<wide::WideBatchRef<'_>>(b);
    bijou_and_prost(&mut g, &v, &p, Some(twin));
    g.finish();

    let d = D::Numeric;
    let v: Vec<_> = seeds(d).map(|s| data::numeric(s, 16, 256)).collect();
    let mut g = c.benchmark_group(format!("messages-{}", d.name()));
    let p: Vec<_> = v.iter().map(convert::numeric::to_prost).collect();
    let twin = |b: &[u8]| bijou_borrowed_decode::<numeric::SeriesBatchRef<'_>>(b);
    bijou_and_prost(&mut g, &v, &p, Some(twin));
    let l: Vec<_> = v.iter().map(convert::numeric::to_bilrost).collect();
    bilrost_ops(&mut g, &l);
    g.finish();

    use buffa_types::benchmarks::{proto2 as f2, proto3 as f3};
    let d = D::Gm1Proto3;
    let v: Vec<_> = seeds(d).map(gm1::proto3).collect();
    let mut g = c.benchmark_group(format!("messages-{}", d.name()));
    let p: Vec<_> = v.iter().map(gm1::proto3_to_prost).collect();
    let twin = |b: &[u8]| bijou_borrowed_decode::<benchmarks::proto3::GoogleMessage1Ref<'_>>(b);
    bijou_and_prost(&mut g, &v, &p, Some(twin));
    let o: Vec<_> = v.iter().map(gm1::proto3_to_buffa).collect();
    buffa_ops(&mut g, &o, |x| {
        black_box(&f3::GoogleMessage1View::decode_view(x).expect("valid"));
    });
    g.finish();

    let d = D::Gm1Proto2;
    let v: Vec<_> = seeds(d).map(gm1::proto2).collect();
    let mut g = c.benchmark_group(format!("messages-{}", d.name()));
    let p: Vec<_> = v.iter().map(gm1::proto2_to_prost).collect();
    let twin = |b: &[u8]| bijou_borrowed_decode::<benchmarks::proto2::GoogleMessage1Ref<'_>>(b);
    bijou_and_prost(&mut g, &v, &p, Some(twin));
    let o: Vec<_> = v.iter().map(gm1::proto2_to_buffa).collect();
    buffa_ops(&mut g, &o, |x| {
        black_box(&f2::GoogleMessage1View::decode_view(x).expect("valid"));
    });
    g.finish();
}

criterion_group!(benches, messages);
criterion_main!(benches);
