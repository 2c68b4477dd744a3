//! Generated encode and decode against the runtime's hand-written impls of the same
//! messages (`crates/bijoubuf/tests/common`): the code generator's bar is "generated
//! code is as fast as hand-written". Both sides build the same values with the same
//! field syntax, and the benchmark first checks they encode to the same bytes.
//!
//! `cargo bench -p bijoubuf-codegen-tests --bench generated_vs_handwritten`

use std::collections::BTreeMap;
use std::hint::black_box;

use bijoubuf::Message;
use bijoubuf_codegen_tests::runtime_shapes as generated;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "../../bijoubuf/tests/common/mod.rs"]
mod handwritten;

/// The same constructors on both types, so the values cannot drift apart.
macro_rules! impl_builders {
    ($m:ident) => {
        impl Build for $m::Scalars {
            fn from_fields(i: i64) -> Self {
                $m::Scalars {
                    i32: -5 * i as i32,
                    i64: i64::MIN + i,
                    u32: 70_000 + i as u32,
                    u64: 300 * i as u64,
                    s32: -(i as i32),
                    s64: 1 << 40,
                    flag: true,
                    color: 1,
                    f32: 7,
                    f64: u64::MAX - i as u64,
                    sf32: -2,
                    sf64: 9,
                    fl: 1.5,
                    db: -2.25,
                    text: format!("text {i}"),
                    data: vec![i as u8; 12],
                    ..Default::default()
                }
            }
        }

        impl BuildRest for $m::Repeats {
            fn build(n: i64) -> Self {
                $m::Repeats {
                    i32: (0..n).map(|i| i as i32 - 8).collect(),
                    u64: (0..n).map(|i| (i as u64) << 20).collect(),
                    s64: (0..n).map(|i| -i).collect(),
                    flag: (0..n).map(|i| i % 2 == 0).collect(),
                    f64: (0..n).map(|i| i as u64).collect(),
                    db: (0..n).map(|i| i as f64 / 3.0).collect(),
                    text: (0..n).map(|i| format!("item {i}")).collect(),
                    data: (0..n).map(|i| vec![i as u8; 8]).collect(),
                    msgs: (0..4).map(<$m::Scalars as Build>::from_fields).collect(),
                    ..Default::default()
                }
            }
        }

        impl BuildRest for $m::Maps {
            fn build(n: i64) -> Self {
                $m::Maps {
                    i32: (0..n).map(|i| (i as i32, format!("v{i}"))).collect(),
                    u64: (0..n).map(|i| (i as u64 * 1000, i as f64)).collect(),
                    text: (0..n).map(|i| (format!("key {i:03}"), i as i32)).collect(),
                    msgs: (0..4)
                        .map(|i| (format!("m{i}"), <$m::Scalars as Build>::from_fields(i)))
                        .collect::<BTreeMap<_, _>>(),
                    ..Default::default()
                }
            }
        }

        impl BuildRest for $m::Tree {
            fn build(depth: i64) -> Self {
                let mut t = $m::Tree {
                    value: 1,
                    ..Default::default()
                };
                for d in 1..depth {
                    t = $m::Tree {
                        value: d as i32,
                        children: vec![t.clone(), t.clone()],
                        named: BTreeMap::from([("x".to_string(), t.clone())]),
                        child: Some(Box::new(t)),
                        ..Default::default()
                    };
                }
                t
            }
        }
    };
}

trait Build {
    fn from_fields(i: i64) -> Self;
}

trait BuildRest {
    fn build(n: i64) -> Self;
}

impl_builders!(handwritten);
impl_builders!(generated);

/// Encode and decode `H` and `G` built from `n`, after checking equal bytes.
fn pair<H, G>(c: &mut Criterion, name: &str, h: H, g: G)
where
    H: Message + PartialEq + std::fmt::Debug,
    G: Message + PartialEq + std::fmt::Debug,
{
    let hb = h.encode_to_vec().expect("hand-written encodes");
    let gb = g.encode_to_vec().expect("generated encodes");
    assert_eq!(hb, gb, "{name}: both sides must encode to the same bytes");
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(hb.len() as u64));
    let mut buf = Vec::with_capacity(hb.len());
    group.bench_function("encode/handwritten", |b| {
        b.iter(|| {
            buf.clear();
            black_box(&h).encode(&mut buf).expect("encodes");
            black_box(buf.len())
        })
    });
    group.bench_function("encode/generated", |b| {
        b.iter(|| {
            buf.clear();
            black_box(&g).encode(&mut buf).expect("encodes");
            black_box(buf.len())
        })
    });
    group.bench_function("decode/handwritten", |b| {
        b.iter(|| H::decode(black_box(&hb)).expect("decodes"))
    });
    group.bench_function("decode/generated", |b| {
        b.iter(|| G::decode(black_box(&gb)).expect("decodes"))
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    pair(
        c,
        "scalars",
        handwritten::Scalars::from_fields(3),
        generated::Scalars::from_fields(3),
    );
    pair(
        c,
        "repeats",
        handwritten::Repeats::build(64),
        generated::Repeats::build(64),
    );
    pair(
        c,
        "maps",
        handwritten::Maps::build(64),
        generated::Maps::build(64),
    );
    pair(
        c,
        "tree",
        handwritten::Tree::build(6),
        generated::Tree::build(6),
    );
}

criterion_group!(group, benches);
criterion_main!(group);
