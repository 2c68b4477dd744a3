//! The table-driven decoder prototype (`bijoubuf_benches::msg::table`) against the
//! generated decoders, prost and buffa, on GoogleMessage1 in batches of 64: borrowed
//! (twin) and owned strict decode, in one process; against the generated
//! `KeyValueListRef` decoder on OpenTelemetry span attribute lists; and on whole
//! OpenTelemetry logs requests, borrowed and owned, against the same peers.
//!
//! As `benches/otlp.rs` (both time through `otlp::alternate`): the operations run in
//! turn, each for about `--slot-ms` of thread CPU time per round, the starting operation
//! rotating; medians of the rounds' per-input times, and ratios of medians with the
//! 25th–75th percentile of the same-round ratios.
//!
//! ```text
//! cargo bench -p bijoubuf-benches --bench table -- [--rounds N] [--slot-ms MS]
//! ```

use bijoubuf_benches::msg::otlp::{Signal, Workload, alternate, quantile, round_args};

/// Different inputs (seeds), cycled through.
const VARIANTS: u64 = 4;

/// The operations timed, in table order.
const OPS: [&str; 9] = [
    "bijou-borrowed-decode",
    "bijou-table-decode",
    "buffa-view-decode",
    "bijou-decode",
    "bijou-table-owned-decode",
    "prost-decode",
    "buffa-decode",
    "bijou-walk-decode",
    "bijou-walk-borrowed-decode",
];

/// The operations of the logs workload (GoogleMessage1's without the walk copy, which
/// only GoogleMessage1 has).
const LOGS_OPS: [&str; 7] = [
    "bijou-borrowed-decode",
    "bijou-table-decode",
    "buffa-view-decode",
    "bijou-decode",
    "bijou-table-owned-decode",
    "prost-decode",
    "buffa-decode",
];

/// (ratio name, numerator operation, denominator operation).
const RATIOS: [(&str, &str, &str); 10] = [
    (
        "owned: walk copy ÷ generated (the default: dispatch)",
        "bijou-walk-decode",
        "bijou-decode",
    ),
    (
        "borrowed: walk copy ÷ generated (the default: walk)",
        "bijou-walk-borrowed-decode",
        "bijou-borrowed-decode",
    ),
    (
        "borrowed: generated ÷ table",
        "bijou-borrowed-decode",
        "bijou-table-decode",
    ),
    (
        "buffa views ÷ generated",
        "buffa-view-decode",
        "bijou-borrowed-decode",
    ),
    (
        "buffa views ÷ table",
        "buffa-view-decode",
        "bijou-table-decode",
    ),
    (
        "owned: generated ÷ table",
        "bijou-decode",
        "bijou-table-owned-decode",
    ),
    ("prost ÷ generated", "prost-decode", "bijou-decode"),
    ("prost ÷ table", "prost-decode", "bijou-table-owned-decode"),
    ("buffa owned ÷ generated", "buffa-decode", "bijou-decode"),
    (
        "buffa owned ÷ table",
        "buffa-decode",
        "bijou-table-owned-decode",
    ),
];

/// The attribute workload: every span's attribute list of an OpenTelemetry traces
/// input as one `KeyValueList` (450 lists per input), the generated `KeyValueListRef`
/// decoder against the table's, alternated as above.
fn attributes(rounds: usize, slot_ns: f64) {
    let names = ["bijou-kvl-decode", "bijou-table-kvl-decode"];
    let w = Workload::Otlp(Signal::Traces);
    let times = alternate(w, &names, VARIANTS, rounds, slot_ns);
    let m: Vec<f64> = times
        .iter()
        .map(|t| quantile(&mut t.clone(), 0.5))
        .collect();
    let mut per_round: Vec<f64> = times[0].iter().zip(&times[1]).map(|(x, y)| x / y).collect();
    let lo = quantile(&mut per_round, 0.25);
    let hi = quantile(&mut per_round, 0.75);
    println!("attribute lists of one traces input (450 KeyValueList), µs of thread CPU time:");
    println!();
    println!("| generated | table | generated ÷ table | 25th–75th |");
    println!("|---:|---:|---:|---:|");
    println!(
        "| {:.2} | {:.2} | {:.3}× | {lo:.3}–{hi:.3} |",
        m[0] / 1e3,
        m[1] / 1e3,
        m[0] / m[1]
    );
    println!();
}

/// Whole logs requests (`otlp-logs`: 300 records each), the seven operations of
/// GoogleMessage1's table alternated as above.
fn logs(rounds: usize, slot_ns: f64) {
    let names = LOGS_OPS;
    let times = alternate(
        Workload::Otlp(Signal::Logs),
        &names,
        VARIANTS,
        rounds,
        slot_ns,
    );
    let m: Vec<f64> = times
        .iter()
        .map(|t| quantile(&mut t.clone(), 0.5))
        .collect();
    println!("otlp-logs, µs of thread CPU time per request:");
    println!();
    println!("| {} |", names.join(" | "));
    println!("|{}", "---:|".repeat(names.len()));
    println!(
        "| {} |",
        m.iter()
            .map(|x| format!("{:.2}", x / 1e3))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!();
    println!("| ratio | median | 25th–75th |");
    println!("|---|---:|---:|");
    for (name, a, b) in RATIOS {
        let index = |name: &str| names.iter().position(|o| *o == name);
        let (Some(a), Some(b)) = (index(a), index(b)) else {
            continue;
        };
        let mut per_round: Vec<f64> = times[a].iter().zip(&times[b]).map(|(x, y)| x / y).collect();
        let lo = quantile(&mut per_round, 0.25);
        let hi = quantile(&mut per_round, 0.75);
        println!("| {name} | {:.3}× | {lo:.3}–{hi:.3} |", m[a] / m[b]);
    }
    println!();
}

fn main() {
    let (rounds, slot_ms, rest) = round_args(std::env::args().skip(1));
    if let Some(a) = rest.first() {
        panic!("unknown argument {a}");
    }
    let w = Workload::Gm1Batch;
    let slot_ns = slot_ms * 1e6;
    let times = alternate(w, &OPS, VARIANTS, rounds, slot_ns);
    attributes(rounds, slot_ns);
    logs(rounds, slot_ns);
    let index = |name: &str| OPS.iter().position(|o| *o == name).expect("known op");
    let medians: Vec<f64> = times
        .iter()
        .map(|t| quantile(&mut t.clone(), 0.5))
        .collect();
    println!("rounds: {rounds}, slot: {slot_ms} ms of thread CPU time per operation and round");
    println!();
    println!("| workload | {} |", OPS.join(" | "));
    println!("|---|{}", "---:|".repeat(OPS.len()));
    println!(
        "| {} | {} |",
        w.name(),
        medians
            .iter()
            .map(|m| format!("{:.2}", m / 1e3))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!();
    println!("(medians in µs of thread CPU time per input: 64 messages)");
    println!();
    println!("| ratio | median | 25th–75th |");
    println!("|---|---:|---:|");
    for (name, a, b) in RATIOS {
        let (a, b) = (index(a), index(b));
        let mut per_round: Vec<f64> = times[a].iter().zip(&times[b]).map(|(x, y)| x / y).collect();
        let lo = quantile(&mut per_round, 0.25);
        let hi = quantile(&mut per_round, 0.75);
        println!(
            "| {name} | {:.3}× | {lo:.3}–{hi:.3} |",
            medians[a] / medians[b]
        );
    }
}
