//! The table-driven decoder prototype (`bijoubuf_benches::msg::table`) against the
//! generated decoders, prost and buffa, on GoogleMessage1 in batches of 64: borrowed
//! (twin) and owned strict decode, in one process; against the generated
//! `KeyValueListRef` decoder on OpenTelemetry span attribute lists; and on whole
//! OpenTelemetry logs requests, borrowed and owned, against the same peers.
//!
//! As `benches/otlp.rs`: the operations run in turn, each for about `--slot-ms` of
//! thread CPU time per round ([`ThreadTime`]), the starting operation rotating; medians
//! of the rounds' per-input times, and ratios of medians with the 25th–75th percentile
//! of the same-round ratios.
//!
//! ```text
//! cargo bench -p bijoubuf-benches --bench table -- [--rounds N] [--slot-ms MS]
//! ```

use criterion::measurement::Measurement as _;

use bijoubuf_benches::cpu::ThreadTime;
use bijoubuf_benches::msg::otlp::{Op, Signal, Workload, op};

/// Different inputs (seeds), cycled through.
const VARIANTS: u64 = 4;

/// The operations timed, in table order.
const OPS: [&str; 7] = [
    "bijou-borrowed-decode",
    "bijou-table-decode",
    "buffa-view-decode",
    "bijou-decode",
    "bijou-table-owned-decode",
    "prost-decode",
    "buffa-decode",
];

/// (ratio name, numerator operation, denominator operation).
const RATIOS: [(&str, &str, &str); 8] = [
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

fn cpu_ns(f: &mut Op, iters: u64) -> f64 {
    let m = ThreadTime;
    let start = m.start();
    for _ in 0..iters {
        f();
    }
    m.to_f64(&m.end(start))
}

fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let at = ((v.len() - 1) as f64 * q).round() as usize;
    v[at]
}

/// The attribute workload: every span's attribute list of an OpenTelemetry traces
/// input as one `KeyValueList` (450 lists per input), the generated `KeyValueListRef`
/// decoder against the table's, alternated as above.
fn attributes(rounds: usize, slot_ns: f64) {
    let names = ["bijou-kvl-decode", "bijou-table-kvl-decode"];
    let w = Workload::Otlp(Signal::Traces);
    let mut ops: Vec<Op> = names
        .iter()
        .map(|name| op(w, name, VARIANTS).expect("the operation exists"))
        .collect();
    let iters: Vec<u64> = ops
        .iter_mut()
        .map(|f| {
            cpu_ns(f, VARIANTS);
            let one = cpu_ns(f, VARIANTS) / VARIANTS as f64;
            ((slot_ns / one.max(1.0)) as u64).max(1)
        })
        .collect();
    let mut times = vec![Vec::with_capacity(rounds); ops.len()];
    for r in 0..rounds {
        for j in 0..ops.len() {
            let k = (j + r) % ops.len();
            let ns = cpu_ns(&mut ops[k], iters[k]);
            times[k].push(ns / iters[k] as f64);
        }
    }
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

/// The operations `names` of workload `w` alternated as in `main`: per operation, the
/// rounds' times per input in ns.
fn timed(w: Workload, names: &[&str], rounds: usize, slot_ns: f64) -> Vec<Vec<f64>> {
    let mut ops: Vec<Op> = names
        .iter()
        .map(|name| op(w, name, VARIANTS).expect("the operation exists"))
        .collect();
    let iters: Vec<u64> = ops
        .iter_mut()
        .map(|f| {
            cpu_ns(f, VARIANTS);
            let one = cpu_ns(f, VARIANTS) / VARIANTS as f64;
            ((slot_ns / one.max(1.0)) as u64).max(1)
        })
        .collect();
    let mut times = vec![Vec::with_capacity(rounds); ops.len()];
    for r in 0..rounds {
        for j in 0..ops.len() {
            let k = (j + r) % ops.len();
            let ns = cpu_ns(&mut ops[k], iters[k]);
            times[k].push(ns / iters[k] as f64);
        }
    }
    times
}

/// Whole logs requests (`otlp-logs`: 300 records each), the seven operations of
/// GoogleMessage1's table alternated as above.
fn logs(rounds: usize, slot_ns: f64) {
    let names = OPS;
    let times = timed(Workload::Otlp(Signal::Logs), &names, rounds, slot_ns);
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
        let index = |name: &str| names.iter().position(|o| *o == name).expect("known op");
        let (a, b) = (index(a), index(b));
        let mut per_round: Vec<f64> = times[a].iter().zip(&times[b]).map(|(x, y)| x / y).collect();
        let lo = quantile(&mut per_round, 0.25);
        let hi = quantile(&mut per_round, 0.75);
        println!("| {name} | {:.3}× | {lo:.3}–{hi:.3} |", m[a] / m[b]);
    }
    println!();
}

fn main() {
    let mut rounds = 15;
    let mut slot_ms = 20.0;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--rounds N")
            }
            "--slot-ms" => {
                slot_ms = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--slot-ms MS")
            }
            // cargo bench passes --bench.
            "--bench" => {}
            a => panic!("unknown argument {a}"),
        }
    }
    let w = Workload::Gm1Batch;
    let mut ops: Vec<Op> = OPS
        .iter()
        .map(|name| op(w, name, VARIANTS).expect("every operation exists"))
        .collect();
    let slot_ns = slot_ms * 1e6;
    let iters: Vec<u64> = ops
        .iter_mut()
        .map(|f| {
            cpu_ns(f, VARIANTS);
            let one = cpu_ns(f, VARIANTS) / VARIANTS as f64;
            ((slot_ns / one.max(1.0)) as u64).max(1)
        })
        .collect();
    let mut times = vec![Vec::with_capacity(rounds); ops.len()];
    for r in 0..rounds {
        for j in 0..ops.len() {
            let k = (j + r) % ops.len();
            let ns = cpu_ns(&mut ops[k], iters[k]);
            times[k].push(ns / iters[k] as f64);
        }
    }
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
