//! Run one (workload, operation) of the OpenTelemetry benchmarks N times, for counting
//! instructions and instruction-cache misses under `valgrind --tool=cachegrind` (this
//! machine has no hardware counters; valgrind's counts repeat where time does not).
//!
//! ```text
//! otlp-profile WORKLOAD OP ITERATIONS
//! valgrind --tool=cachegrind --cache-sim=yes target/release/otlp-profile otlp-traces bijou-decode 10
//! ```
//! WORKLOAD is one of `otlp-traces`, `otlp-metrics`, `otlp-logs`, `gm1-batch64`; OP one of
//! `bijou_benches::msg::otlp::OPS`. Cachegrind counts the whole process, setup included,
//! so `benches/scripts/otlp.sh` runs two iteration counts and divides the difference.
//! Every iteration takes the same input, so the difference is steady state: the first,
//! cold run is in both counts.

use bijoubuf_benches::msg::otlp::{Workload, op};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [w, o, n] = &args[..] else {
        return Err("usage: otlp-profile WORKLOAD OP ITERATIONS".into());
    };
    let w = Workload::from_name(w).ok_or_else(|| format!("unknown workload {w}"))?;
    let n: u64 = n.parse().map_err(|e| format!("ITERATIONS: {e}"))?;
    let mut f = op(w, o, 1).ok_or_else(|| format!("unknown operation {o}"))?;
    for _ in 0..n {
        f();
    }
    Ok(())
}
