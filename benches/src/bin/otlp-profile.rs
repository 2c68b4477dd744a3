//! Run one (workload, operation) of the OpenTelemetry benchmarks N times, for counting
//! instructions and instruction-cache misses under `valgrind --tool=cachegrind` (this
//! machine has no hardware counters; valgrind's counts repeat where time does not).
//!
//! ```text
//! otlp-profile WORKLOAD OP ITERATIONS [VARIANTS [FIRST [repeat]]]
//! valgrind --tool=cachegrind --cache-sim=yes target/release/otlp-profile otlp-traces bijou-decode 10
//! ```
//! WORKLOAD is one of `otlp-traces`, `otlp-metrics`, `otlp-logs`, `gm1-batch64`; OP one of
//! `bijou_benches::msg::otlp::OPS`, or one of the prototypes' and copies' operations that
//! `bijoubuf_benches::msg::otlp::op_seeded` also knows (not timed by the bench):
//! `bijou-walk-decode` (the walk copy; OpenTelemetry and `gm1-batch64`),
//! `bijou-gtable-decode` and `bijou-gtable-borrowed-decode` (the generated table
//! copy, owned and twins; every workload),
//! `bijou-walk-borrowed-decode`, `bijou-table-decode`, `bijou-table-owned-decode` and
//! `bijou-kindsel-decode`, `bijou-kindsel-fn-decode`, `bijou-kindsel-owned-decode`
//! (`gm1-batch64`; the table's two also `otlp-logs`), `bijou-kvl-decode` and
//! `bijou-table-kvl-decode` (`otlp-traces`: every span's attribute list), and
//! `bijou-encode-to-vec`, `bijou-encode-two-passes` (every workload). VARIANTS (default 1) inputs are cycled through, made
//! from seeds FIRST (default 0) onwards, or, with `repeat`, VARIANTS copies of seed
//! FIRST's input (`bijoubuf_benches::msg::otlp::Seeds`). Cachegrind counts the whole process, setup included,
//! so `benches/scripts/otlp.sh` runs two iteration counts and divides the difference.
//! By default every iteration takes the same input, so the difference is steady state: the first,
//! cold run is in both counts.

use bijoubuf_benches::msg::otlp::{Seeds, Workload, op_seeded};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: otlp-profile WORKLOAD OP ITERATIONS [VARIANTS [FIRST [repeat]]]";
    let (w, o, n, rest) = match &args[..] {
        [w, o, n, rest @ ..] if rest.len() <= 3 => (w, o, n, rest),
        _ => return Err(usage.into()),
    };
    let number = |i: usize, default: u64| {
        rest.get(i)
            .map_or(Ok(default), |v| v.parse().map_err(|e| format!("{v}: {e}")))
    };
    let seeds = Seeds {
        count: number(0, 1)?.max(1),
        first: number(1, 0)?,
        repeat: match rest.get(2).map(String::as_str) {
            None => false,
            Some("repeat") => true,
            Some(_) => return Err(usage.into()),
        },
    };
    let w = Workload::from_name(w).ok_or_else(|| format!("unknown workload {w}"))?;
    let n: u64 = n.parse().map_err(|e| format!("ITERATIONS: {e}"))?;
    let mut f = op_seeded(w, o, seeds).ok_or_else(|| format!("unknown operation {o}"))?;
    for _ in 0..n {
        f();
    }
    Ok(())
}
