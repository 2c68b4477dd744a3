//! OpenTelemetry traces, metrics and logs, and GoogleMessage1 in batches of 64: bijoubuf's
//! strict owned decode, borrowed decode and encode against prost and buffa (owned and
//! views), in one process.
//!
//! Not criterion: on a machine shared with other work the neighbours' load drifts over a
//! run, so the libraries are alternated round by round. Each round runs every operation
//! of a workload for about `--slot-ms` of CPU time (the starting operation rotating from
//! round to round), timed by the thread's CPU clock (`otlp::alternate`); the median of
//! the rounds' per-input times is reported, with ratios peer ÷ bijoubuf (above 1 =
//! bijoubuf faster) and, across rounds, the spread of each ratio (the rounds' 25th and
//! 75th percentiles of the same-round ratio).
//!
//! ```text
//! cargo bench -p bijoubuf-benches --bench otlp -- [--rounds N] [--slot-ms MS] [WORKLOAD...]
//! ```
//! WORKLOAD is any of `otlp-traces`, `otlp-metrics`, `otlp-logs`, `gm1-batch64` (all by
//! default). `benches/scripts/otlp.sh` runs it with the instruction counts and code sizes.

use bijoubuf::Message as _;
use prost::Message as _;

use bijoubuf_benches::msg::otlp::{
    self, OPS, Pb as _, Signal, Workload, alternate, named_workloads, quantile, round_args,
};
use bijoubuf_benches::msg::{data::Dataset, gm1};

/// Different inputs (seeds) per workload, cycled through. Sixteen, not four: a decoder
/// runs faster on inputs it has decoded just before (the CPU's branch predictors learn
/// them), bijoubuf's more than its peers', so fewer inputs flatter it (benches/RESULTS.md,
/// "Decode when the inputs differ: the shared reader's branches": owned metrics ÷ buffa
/// owned 1.25× on one input, 1.12× on four, 1.08× on sixteen).
const VARIANTS: u64 = 16;

/// (ratio name, peer operation, bijoubuf operation).
const RATIOS: [(&str, &str, &str); 5] = [
    ("owned decode ÷ prost", "prost-decode", "bijou-decode"),
    ("÷ buffa owned", "buffa-decode", "bijou-decode"),
    (
        "borrowed ÷ buffa views",
        "buffa-view-decode",
        "bijou-borrowed-decode",
    ),
    ("encode ÷ prost", "prost-encode", "bijou-encode"),
    ("÷ buffa", "buffa-encode", "bijou-encode"),
];

/// Encoded bytes of the first input, bijoubuf and protobuf (prost's
/// bytes; buffa writes the same).
fn sizes(w: Workload) -> (usize, usize) {
    let s = |v: Signal| v.seed(0);
    match w {
        Workload::Otlp(v @ Signal::Traces) => {
            let x = otlp::traces(s(v));
            (
                x.encode_to_vec().expect("encodes").len(),
                x.pb().encoded_len(),
            )
        }
        Workload::Otlp(v @ Signal::Metrics) => {
            let x = otlp::metrics(s(v));
            (
                x.encode_to_vec().expect("encodes").len(),
                x.pb().encoded_len(),
            )
        }
        Workload::Otlp(v @ Signal::Logs) => {
            let x = otlp::logs(s(v));
            (
                x.encode_to_vec().expect("encodes").len(),
                x.pb().encoded_len(),
            )
        }
        Workload::Gm1Batch => (0..64).fold((0, 0), |(b, p), j| {
            let x = gm1::proto3(Dataset::Gm1Proto3.seed() + j);
            (
                b + x.encode_to_vec().expect("encodes").len(),
                p + gm1::proto3_to_prost(&x).encoded_len(),
            )
        }),
    }
}

fn main() {
    let (rounds, slot_ms, rest) = round_args(std::env::args().skip(1));
    // criterion's filters do not apply here: every other argument names a workload.
    let only = named_workloads(&rest);
    let index = |name: &str| OPS.iter().position(|o| *o == name).expect("known op");

    println!("rounds: {rounds}, slot: {slot_ms} ms of thread CPU time per operation and round");
    println!();
    println!("| workload | {} |", OPS.join(" | "));
    println!("|---|{}", "---:|".repeat(OPS.len()));
    let mut ratio_rows = Vec::new();
    let mut otlp_logs = vec![0.0; RATIOS.len()];
    let mut otlp_n = 0;
    for w in only {
        let mut times = alternate(w, &OPS, VARIANTS, rounds, slot_ms * 1e6);
        let medians: Vec<f64> = times
            .iter_mut()
            .map(|t| quantile(&mut t.clone(), 0.5))
            .collect();
        println!(
            "| {} | {} |",
            w.name(),
            medians
                .iter()
                .map(|m| format!("{:.1}", m / 1e3))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        let mut cells = Vec::new();
        for (i, (_, peer, ours)) in RATIOS.iter().enumerate() {
            let (p, o) = (index(peer), index(ours));
            let ratio = medians[p] / medians[o];
            let mut per_round: Vec<f64> =
                times[p].iter().zip(&times[o]).map(|(a, b)| a / b).collect();
            let lo = quantile(&mut per_round, 0.25);
            let hi = quantile(&mut per_round, 0.75);
            cells.push(format!("{ratio:.2}× ({lo:.2}–{hi:.2})"));
            if matches!(w, Workload::Otlp(_)) {
                otlp_logs[i] += ratio.ln();
            }
        }
        if matches!(w, Workload::Otlp(_)) {
            otlp_n += 1;
        }
        ratio_rows.push(format!("| {} | {} |", w.name(), cells.join(" | ")));
    }
    println!();
    println!("(medians in µs of thread CPU time per input: one export request, or 64 messages)");
    println!();
    println!(
        "| workload | {} |",
        RATIOS.iter().map(|r| r.0).collect::<Vec<_>>().join(" | ")
    );
    println!("|---|{}", "---:|".repeat(RATIOS.len()));
    for r in ratio_rows {
        println!("{r}");
    }
    if otlp_n > 1 {
        println!(
            "| OTLP geomean | {} |",
            otlp_logs
                .iter()
                .map(|l| format!("{:.2}×", (l / otlp_n as f64).exp()))
                .collect::<Vec<_>>()
                .join(" | ")
        );
    }
    println!();
    println!(
        "(peer time ÷ bijoubuf time, above 1 = bijoubuf faster; in brackets the 25th–75th percentile of the same-round ratios)"
    );
    println!();
    println!("| workload | bijoubuf bytes per input | protobuf bytes per input |");
    println!("|---|---:|---:|");
    for w in Workload::ALL {
        let (b, p) = sizes(w);
        println!("| {} | {b} | {p} |", w.name());
    }
}
