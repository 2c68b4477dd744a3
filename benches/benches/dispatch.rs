//! The generator's default choice of decoder shape (walk or dispatch, per message:
//! `bijoubuf_codegen`'s `dispatch.rs`) against the walk for every message and against a
//! table for every message (`bijoubuf_codegen`'s `table.rs`, owned types and twins), on
//! strict decode of the OpenTelemetry requests and GoogleMessage1 in batches of 64, with
//! prost and buffa (owned and views), in one process.
//!
//! With today's default every OpenTelemetry message walks, so its two bijoubuf columns
//! are the same code built twice (what two copies differ by in one process); the bench
//! is for trying a rule in the generator (benches/RESULTS.md, "Which messages
//! dispatch").
//!
//! As `benches/otlp.rs` (both time through `otlp::alternate`): the operations run in
//! turn, each for about `--slot-ms` of thread CPU time per round, the starting operation
//! rotating; medians of the rounds' per-input times, and ratios of medians with the
//! 25th–75th percentile of the same-round ratios.
//!
//! ```text
//! cargo bench -p bijoubuf-benches --bench dispatch -- [--rounds N] [--slot-ms MS] [WORKLOAD...]
//! ```

use bijoubuf_benches::msg::otlp::{alternate, named_workloads, quantile, round_args};

/// Different inputs (seeds), cycled through: sixteen, as `benches/otlp.rs` (a decoder
/// runs faster on inputs it decoded just before).
const VARIANTS: u64 = 16;

/// The operations timed, in table order: the default rule's decoders, the walk copy
/// (`bijou::walk_otlp`, and `bijou::walk` for GoogleMessage1), the table copy
/// (`bijou::table`), the peers; owned, then borrowed.
const OPS: [&str; 8] = [
    "bijou-decode",
    "bijou-walk-decode",
    "bijou-gtable-decode",
    "prost-decode",
    "buffa-decode",
    "bijou-borrowed-decode",
    "bijou-gtable-borrowed-decode",
    "buffa-view-decode",
];

/// (ratio name, numerator operation, denominator operation).
const RATIOS: [(&str, &str, &str); 8] = [
    ("walk ÷ default", "bijou-walk-decode", "bijou-decode"),
    ("default ÷ table", "bijou-decode", "bijou-gtable-decode"),
    ("prost ÷ default", "prost-decode", "bijou-decode"),
    ("prost ÷ table", "prost-decode", "bijou-gtable-decode"),
    ("buffa owned ÷ default", "buffa-decode", "bijou-decode"),
    ("buffa owned ÷ table", "buffa-decode", "bijou-gtable-decode"),
    (
        "borrowed: default ÷ table",
        "bijou-borrowed-decode",
        "bijou-gtable-borrowed-decode",
    ),
    (
        "buffa views ÷ table",
        "buffa-view-decode",
        "bijou-gtable-borrowed-decode",
    ),
];

fn main() {
    let (rounds, slot_ms, rest) = round_args(std::env::args().skip(1));
    let only = named_workloads(&rest);
    let index = |name: &str| OPS.iter().position(|o| *o == name).expect("known op");
    println!("rounds: {rounds}, slot: {slot_ms} ms of thread CPU time per operation and round");
    println!();
    println!(
        "| workload | {} | {} |",
        OPS.join(" | "),
        RATIOS.map(|r| r.0).join(" | ")
    );
    println!("|---|{}", "---:|".repeat(OPS.len() + RATIOS.len()));
    for w in only {
        let times = alternate(w, &OPS, VARIANTS, rounds, slot_ms * 1e6);
        let medians: Vec<f64> = times
            .iter()
            .map(|t| quantile(&mut t.clone(), 0.5))
            .collect();
        let mut cells: Vec<String> = medians.iter().map(|m| format!("{:.1}", m / 1e3)).collect();
        for (_, a, b) in RATIOS {
            let (a, b) = (index(a), index(b));
            let mut per_round: Vec<f64> =
                times[a].iter().zip(&times[b]).map(|(x, y)| x / y).collect();
            let lo = quantile(&mut per_round, 0.25);
            let hi = quantile(&mut per_round, 0.75);
            cells.push(format!("{:.3}× ({lo:.3}–{hi:.3})", medians[a] / medians[b]));
        }
        println!("| {} | {} |", w.name(), cells.join(" | "));
    }
    println!();
    println!("(medians in µs of thread CPU time per input: one export request, or 64 messages;");
    println!("in brackets the 25th–75th percentile of the same-round ratios)");
}
