//! A small driver for counting instructions and cache misses of one varint decoder, for
//! `valgrind --tool=cachegrind` (this kind of machine has no hardware counters to read).
//!
//! ```text
//! varint-count PEER DIST ROUNDS
//! ```
//! Decodes the [`POOL`] batches of distribution `DIST` (see `data::Dist`) `ROUNDS` times
//! with the one-value-at-a-time decoder named `PEER` (a name from `peers::decoders`, e.g.
//! `bijou64` or `prost`). The inputs are built before the rounds, so the decoder's own
//! cost per value is `(count at ROUNDS − count at 0) / (ROUNDS · POOL · BATCH)`:
//!
//! ```text
//! valgrind --tool=cachegrind --cache-sim=yes target/release/varint-count bijou64 uniform 0
//! valgrind --tool=cachegrind --cache-sim=yes target/release/varint-count bijou64 uniform 4
//! ```

use std::hint::black_box;

use bijoubuf_benches::data::{BATCH, Dist, POOL, pool};
use bijoubuf_benches::peers::decoders;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [peer, dist, rounds] = &args[..] else {
        return Err("usage: varint-count PEER DIST ROUNDS".into());
    };
    let peer = decoders()
        .into_iter()
        .find(|p| p.name == peer)
        .ok_or_else(|| format!("no decoder named {peer:?}"))?;
    let dist = Dist::ALL
        .into_iter()
        .find(|d| d.name() == dist)
        .ok_or_else(|| format!("no distribution named {dist:?}"))?;
    let rounds: usize = rounds.parse().map_err(|e| format!("ROUNDS: {e}"))?;

    let inputs: Vec<Vec<u8>> = pool(dist).iter().map(|b| peer.format.bytes(b)).collect();
    let mut out = vec![0u64; BATCH];
    let mut decoded = 0;
    for _ in 0..rounds {
        for input in &inputs {
            decoded += (peer.run)(black_box(input), black_box(&mut out))
                .ok_or_else(|| format!("{} refused its own batch", peer.name))?;
            black_box(&out);
        }
    }
    assert_eq!(decoded, rounds * POOL * BATCH);
    println!("{} on {}: {decoded} values", peer.name, dist.name());
    Ok(())
}
