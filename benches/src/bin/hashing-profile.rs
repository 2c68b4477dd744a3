//! Hash one dataset's value in a loop, each way `benches/hashing.rs` times, for
//! instruction counts: on a shared machine `valgrind --tool=callgrind` counts are
//! repeatable where time is not.
//!
//! ```text
//! hashing-profile DATASET WAY [ITERATIONS]
//! valgrind --tool=callgrind --toggle-collect='*timed*' \
//!     target/release/hashing-profile numeric blake3-sink 20
//! ```
//! Only `timed` (the loop) is collected with that option, so setup is excluded; divide
//! the total by ITERATIONS (default 20) for instructions per hash. DATASET is one of
//! telemetry, cas, wide, numeric, gm1-proto3, gm1-proto2; WAY one of `blake3-sink`,
//! `blake3-vec`, `blake3-reused-buf`, `sha256-sink`, `sha256-vec` (as in the benchmark),
//! and, to split the cost, `encode-vec` (the encode alone) and `blake3-only` (BLAKE3 of
//! the bytes encoded before the loop).

use std::hint::black_box;

use bijoubuf::Message;
use bijoubuf_benches::msg::data::{self, Dataset};
use bijoubuf_benches::msg::gm1;
use sha2::Digest as _;

/// The loop callgrind collects.
#[inline(never)]
fn timed(iters: usize, mut f: impl FnMut()) {
    for _ in 0..iters {
        f();
    }
}

fn run<M: Message>(way: &str, iters: usize, m: &M) -> Result<(), String> {
    let bytes = m.encode_to_vec().map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    match way {
        "blake3-sink" => timed(iters, || {
            black_box(black_box(m).content_id().ok());
        }),
        "blake3-vec" => timed(iters, || {
            black_box(black_box(m).encode_to_vec().ok().map(|v| blake3::hash(&v)));
        }),
        "blake3-reused-buf" => timed(iters, || {
            buf.clear();
            black_box(black_box(m).encode(&mut buf).ok());
            black_box(blake3::hash(&buf));
        }),
        "sha256-sink" => timed(iters, || {
            let mut h = sha2::Sha256::new();
            black_box(black_box(m).encode_to_digest(&mut h).ok());
            black_box(h.finalize());
        }),
        "sha256-vec" => timed(iters, || {
            black_box(black_box(m).encode_to_vec().ok().map(sha2::Sha256::digest));
        }),
        "encode-vec" => timed(iters, || {
            black_box(black_box(m).encode_to_vec().ok());
        }),
        "blake3-only" => timed(iters, || {
            black_box(blake3::hash(black_box(&bytes)));
        }),
        _ => return Err(format!("unknown way {way}")),
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(ds), Some(way)) = (args.first(), args.get(1)) else {
        return Err("usage: hashing-profile DATASET WAY [ITERATIONS]".into());
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
    match d {
        Dataset::Telemetry => run(way, iters, &data::telemetry(s, 64)),
        Dataset::Cas => run(way, iters, &data::cas(s, 64, 256)),
        Dataset::Wide => run(way, iters, &data::wide(s, 128)),
        Dataset::Numeric => run(way, iters, &data::numeric(s, 16, 256)),
        Dataset::Gm1Proto3 => run(way, iters, &gm1::proto3(s)),
        Dataset::Gm1Proto2 => run(way, iters, &gm1::proto2(s)),
    }
}
