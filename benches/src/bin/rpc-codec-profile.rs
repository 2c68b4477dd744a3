//! Run one gRPC codec on one batch of messages in a loop, for instruction counts: the
//! ways of `benches/rpc_codec.rs` under `valgrind --tool=callgrind`, repeatable where
//! time on a shared machine is not.
//!
//! ```text
//! rpc-codec-profile MESSAGES WAY [ITERATIONS]
//! valgrind --tool=callgrind --toggle-collect='*timed*' \
//!     target/release/rpc-codec-profile order bijoubuf-encode 200
//! ```
//! Only `timed` (the loop) is collected with that option: the values each encode takes
//! are cloned before it and the decoded values dropped after it, as in the benchmark.
//! Divide the total by ITERATIONS × the batch (64 for `order` and `query`, 8 for
//! `gm1-proto3` and `telemetry`) for instructions per message. WAY is one of
//! `bijoubuf-encode`, `bijoubuf-safe-encode`, `prost-encode`, `bijoubuf-decode`,
//! `prost-decode`.

use bijoubuf_benches::msg::{convert, data, gm1};
use bijoubuf_benches::rpc_codec::{
    SafeCodec, decode, encode, order_to_prost, orders, queries, query_to_prost,
};
use bijoubuf_tonic::StrictCodec;
use bytes::Bytes;
use tonic_prost::ProstCodec;

/// The loop callgrind collects: `f` on each of `inputs`, results kept.
#[inline(never)]
fn timed<T, R>(inputs: Vec<T>, f: impl Fn(T) -> R) -> Vec<R> {
    inputs.into_iter().map(f).collect()
}

fn run<B, P>(way: &str, iters: usize, bij: Vec<B>, pro: Vec<P>) -> Result<usize, String>
where
    B: bijoubuf::Message + Clone + Send + 'static,
    P: prost::Message + Default + Clone + Send + 'static,
{
    let frames = |b: Bytes| vec![b; iters];
    let n = match way {
        "bijoubuf-encode" => timed(vec![bij; iters], |v| {
            encode(StrictCodec::<B, B>::default(), v)
        })
        .len(),
        "bijoubuf-safe-encode" => timed(vec![bij; iters], |v| {
            encode(SafeCodec::<B, B>::default(), v)
        })
        .len(),
        "prost-encode" => timed(vec![pro; iters], |v| {
            encode(ProstCodec::<P, P>::default(), v)
        })
        .len(),
        "bijoubuf-decode" => {
            let f = frames(encode(StrictCodec::<B, B>::default(), bij));
            timed(f, |f| decode(StrictCodec::<B, B>::default(), f))
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?
                .len()
        }
        "prost-decode" => {
            let f = frames(encode(ProstCodec::<P, P>::default(), pro));
            timed(f, |f| decode(ProstCodec::<P, P>::default(), f))
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?
                .len()
        }
        _ => return Err(format!("unknown way {way}")),
    };
    Ok(n)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(what), Some(way)) = (args.first(), args.get(1)) else {
        return Err("usage: rpc-codec-profile MESSAGES WAY [ITERATIONS]".into());
    };
    let iters = match args.get(2) {
        Some(n) => n.parse().map_err(|e| format!("ITERATIONS: {e}"))?,
        None => 200,
    };
    let n = match what.as_str() {
        "order" => {
            let o = orders(64);
            let p = o.iter().map(order_to_prost).collect();
            run(way, iters, o, p)?
        }
        "query" => {
            let q = queries(64);
            let p = q.iter().map(query_to_prost).collect();
            run(way, iters, q, p)?
        }
        "gm1-proto3" => {
            let s = data::Dataset::Gm1Proto3.seed();
            let g: Vec<_> = (0..8).map(|i| gm1::proto3(s + (i << 32))).collect();
            let p = g.iter().map(gm1::proto3_to_prost).collect();
            run(way, iters, g, p)?
        }
        "telemetry" => {
            let s = data::Dataset::Telemetry.seed();
            let t: Vec<_> = (0..8).map(|i| data::telemetry(s + (i << 32), 64)).collect();
            let p = t.iter().map(convert::telemetry::to_prost).collect();
            run(way, iters, t, p)?
        }
        _ => return Err(format!("unknown messages {what}")),
    };
    println!("{n} batches");
    Ok(())
}
