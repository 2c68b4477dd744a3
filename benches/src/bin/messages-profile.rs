//! Run one message operation in a loop, for instruction-count profiling; on a shared,
//! noisy machine `valgrind --tool=callgrind` counts are repeatable where wall time is not.
//!
//! ```text
//! messages-profile DATASET OP [ITERATIONS]
//! valgrind --tool=callgrind --toggle-collect='*timed*' \
//!     target/release/messages-profile telemetry bijou-decode 20
//! ```
//! Only `timed` (the loop) is collected with that option, so setup is excluded; divide
//! the total by ITERATIONS (default 20) for instructions per operation. DATASET is one of
//! telemetry, cas, wide, numeric, gm1-proto3, gm1-proto2; OP one of the ids of
//! `benches/messages.rs`.

use std::hint::black_box;

use bijoubuf_benches::msg::bijou::{benchmarks, cas, numeric, telemetry, wide};
use bijoubuf_benches::msg::data::{self, Dataset};
use bijoubuf_benches::msg::ops::{
    PRESERVE, bijou_borrowed_decode, bijou_encode, bilrost_encode, buffa_encode,
    prost_decode_canonical, prost_encode,
};
use bijoubuf_benches::msg::{convert, gm1};

/// A strict decode into the dataset's borrowed twin type.
type Borrowed = fn(&[u8]) -> bool;

/// The loop callgrind collects.
#[inline(never)]
fn timed(iters: usize, mut f: impl FnMut()) {
    for _ in 0..iters {
        f();
    }
}

fn run_common<B, P>(
    op: &str,
    iters: usize,
    b: &B,
    p: &P,
    borrowed: Option<Borrowed>,
) -> Result<(), String>
where
    B: bijoubuf::Message,
    P: prost::Message + Default,
{
    let bb = b.encode_to_vec().map_err(|e| e.to_string())?;
    let pb = p.encode_to_vec();
    let mut buf = Vec::with_capacity(1 << 20);
    match op {
        "bijou-encode" => timed(iters, || bijou_encode(black_box(b), &mut buf)),
        "bijou-encoded-len" => timed(iters, || {
            black_box(black_box(b).encoded_len());
        }),
        "bijou-decode" => timed(iters, || {
            black_box(B::decode(black_box(&bb)).ok());
        }),
        "bijou-decode-preserve" => timed(iters, || {
            black_box(B::decode_with(black_box(&bb), &PRESERVE).ok());
        }),
        "bijou-borrowed-decode" => {
            let f = borrowed.ok_or("this dataset has no borrowed twin")?;
            timed(iters, || {
                black_box(f(black_box(&bb)));
            })
        }
        "prost-encode" => timed(iters, || prost_encode(black_box(p), &mut buf)),
        "prost-encoded-len" => timed(iters, || {
            black_box(black_box(p).encoded_len());
        }),
        "prost-decode" => timed(iters, || {
            black_box(P::decode(black_box(&pb[..])).ok());
        }),
        "prost-decode-reencode-compare" => timed(iters, || {
            black_box(prost_decode_canonical::<P>(black_box(&pb), &mut buf));
        }),
        _ => return Err(format!("unknown operation {op}")),
    }
    Ok(())
}

fn run_bilrost<L>(op: &str, iters: usize, l: &L) -> Result<(), String>
where
    L: bilrost::Message + bilrost::DistinguishedOwnedMessage,
{
    let lb = l.encode_to_vec();
    let mut buf = Vec::with_capacity(1 << 20);
    match op {
        "bilrost-encode" => timed(iters, || bilrost_encode(black_box(l), &mut buf)),
        "bilrost-decode-distinguished" => timed(iters, || {
            black_box(L::decode_canonical(black_box(&lb[..])).ok());
        }),
        _ => return Err(format!("unknown operation {op}")),
    }
    Ok(())
}

fn run_buffa<'a, O, V>(op: &str, iters: usize, o: &O, bytes: &'a [u8]) -> Result<(), String>
where
    O: buffa::Message,
    V: buffa::MessageView<'a>,
{
    let mut buf = Vec::with_capacity(1 << 20);
    match op {
        "buffa-encode" => timed(iters, || buffa_encode(black_box(o), &mut buf)),
        "buffa-encoded-len" => timed(iters, || {
            black_box(black_box(o).encoded_len());
        }),
        "buffa-decode" => timed(iters, || {
            black_box(O::decode_from_slice(black_box(bytes)).ok());
        }),
        "buffa-view-decode" => timed(iters, || {
            black_box(V::decode_view(black_box(bytes)).ok());
        }),
        _ => return Err(format!("unknown operation {op}")),
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(ds), Some(op)) = (args.first(), args.get(1)) else {
        return Err("usage: messages-profile DATASET OP [ITERATIONS]".into());
    };
    let iters = match args.get(2) {
        Some(n) => n.parse().map_err(|e| format!("ITERATIONS: {e}"))?,
        None => 20,
    };
    let d = Dataset::ALL
        .into_iter()
        .find(|d| d.name() == ds)
        .ok_or_else(|| format!("unknown dataset {ds}"))?;
    let s = d.seed();
    let bil = op.starts_with("bilrost");
    match d {
        Dataset::Telemetry => {
            let v = data::telemetry(s, 64);
            if bil {
                run_bilrost(op, iters, &convert::telemetry::to_bilrost(&v))
            } else {
                run_common(
                    op,
                    iters,
                    &v,
                    &convert::telemetry::to_prost(&v),
                    Some(|b: &[u8]| bijou_borrowed_decode::<telemetry::SpanBatchRef<'_>>(b)),
                )
            }
        }
        Dataset::Cas => {
            let v = data::cas(s, 64, 256);
            if bil {
                run_bilrost(op, iters, &convert::cas::to_bilrost(&v))
            } else {
                run_common(
                    op,
                    iters,
                    &v,
                    &convert::cas::to_prost(&v),
                    Some(|b: &[u8]| bijou_borrowed_decode::<cas::IndexRef<'_>>(b)),
                )
            }
        }
        Dataset::Wide => {
            let v = data::wide(s, 128);
            if bil {
                Err("wide has no bilrost peer".into())
            } else {
                run_common(
                    op,
                    iters,
                    &v,
                    &convert::wide::to_prost(&v),
                    Some(|b: &[u8]| bijou_borrowed_decode::<wide::WideBatchRef<'_>>(b)),
                )
            }
        }
        Dataset::Numeric => {
            let v = data::numeric(s, 16, 256);
            if bil {
                run_bilrost(op, iters, &convert::numeric::to_bilrost(&v))
            } else {
                run_common(
                    op,
                    iters,
                    &v,
                    &convert::numeric::to_prost(&v),
                    Some(|b: &[u8]| bijou_borrowed_decode::<numeric::SeriesBatchRef<'_>>(b)),
                )
            }
        }
        Dataset::Gm1Proto3 => {
            use bijoubuf_benches::msg::buffa_types::benchmarks::proto3 as f;
            let v = gm1::proto3(s);
            if op.starts_with("buffa") {
                let o = gm1::proto3_to_buffa(&v);
                let bytes = buffa::Message::encode_to_vec(&o);
                run_buffa::<_, f::GoogleMessage1View<'_>>(op, iters, &o, &bytes)
            } else if bil {
                Err("GoogleMessage1 has no bilrost peer".into())
            } else {
                run_common(
                    op,
                    iters,
                    &v,
                    &gm1::proto3_to_prost(&v),
                    Some(|b: &[u8]| {
                        bijou_borrowed_decode::<benchmarks::proto3::GoogleMessage1Ref<'_>>(b)
                    }),
                )
            }
        }
        Dataset::Gm1Proto2 => {
            use bijoubuf_benches::msg::buffa_types::benchmarks::proto2 as f;
            let v = gm1::proto2(s);
            if op.starts_with("buffa") {
                let o = gm1::proto2_to_buffa(&v);
                let bytes = buffa::Message::encode_to_vec(&o);
                run_buffa::<_, f::GoogleMessage1View<'_>>(op, iters, &o, &bytes)
            } else if bil {
                Err("GoogleMessage1 has no bilrost peer".into())
            } else {
                run_common(
                    op,
                    iters,
                    &v,
                    &gm1::proto2_to_prost(&v),
                    Some(|b: &[u8]| {
                        bijou_borrowed_decode::<benchmarks::proto2::GoogleMessage1Ref<'_>>(b)
                    }),
                )
            }
        }
    }
}
