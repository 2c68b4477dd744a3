//! Regenerate `benches/RESULTS.md` from criterion's output for the varint shootout.
//!
//! ```text
//! varint-results [--criterion DIR] [--out FILE] [--notes FILE] [--run-info FILE]
//! ```
//! `DIR` defaults to `$CARGO_TARGET_DIR/criterion` (or `target/criterion`). The tables
//! list criterion's median time per batch of 4096 values; the bar table is computed from
//! the same medians. `--notes` (default `benches/results-notes.md`) is appended verbatim:
//! the hand-written explanation of the numbers. `--run-info` (default
//! `DIR/varint-run.txt`, written by `benches/scripts/varint.sh`) says how the run went.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bijoubuf_benches::data::{BATCH, Dist, values};
use bijoubuf_benches::peers::{
    Family, Format, canonical_decoders, decoders, encoders, packed_decoders,
};

type Medians = BTreeMap<(String, String, String), f64>; // (group, peer, dist) -> ns

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut criterion = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../target"))
        .join("criterion");
    let mut out = manifest.join("RESULTS.md");
    let mut notes = manifest.join("results-notes.md");
    let mut run_info = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().ok_or_else(|| format!("{a} needs a value"))?;
        match a.as_str() {
            "--criterion" => criterion = v.into(),
            "--out" => out = v.into(),
            "--notes" => notes = v.into(),
            "--run-info" => run_info = Some(PathBuf::from(v)),
            _ => return Err(format!("unknown option {a}").into()),
        }
    }
    let run_info = run_info.unwrap_or_else(|| criterion.join("varint-run.txt"));

    let medians = read_medians(&criterion)?;
    if medians.is_empty() {
        return Err(format!("no criterion results under {}", criterion.display()).into());
    }
    let mut page = render(&medians, &notes, &run_info)?;
    // The message sections below the marker belong to `messages-results`: keep them.
    if let Ok(old) = std::fs::read_to_string(&out)
        && let Some(at) = old.find(bijoubuf_benches::msg::RESULTS_MARKER)
    {
        page = format!("{}\n\n{}", page.trim_end(), &old[at..]);
    }
    std::fs::write(&out, page)?;
    eprintln!("wrote {}", out.display());
    Ok(())
}

/// Every `new/benchmark.json` + `new/estimates.json` pair under `dir`.
fn read_medians(dir: &Path) -> Result<Medians, Box<dyn std::error::Error>> {
    let mut found = Medians::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let p = e?.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "new") {
                    let (b, est) = (p.join("benchmark.json"), p.join("estimates.json"));
                    if b.exists() && est.exists() {
                        let b: serde_json::Value = serde_json::from_slice(&std::fs::read(b)?)?;
                        let est: serde_json::Value = serde_json::from_slice(&std::fs::read(est)?)?;
                        let s = |k: &str| b[k].as_str().unwrap_or_default().to_string();
                        let median = est["median"]["point_estimate"]
                            .as_f64()
                            .ok_or("estimates.json without a median")?;
                        found.insert((s("group_id"), s("function_id"), s("value_str")), median);
                    }
                } else {
                    stack.push(p);
                }
            }
        }
    }
    Ok(found)
}

struct Op {
    group: &'static str,
    title: &'static str,
    peers: Vec<(&'static str, Family)>,
}

fn ops() -> Vec<Op> {
    let names = |v: Vec<(&'static str, Family)>| v;
    vec![
        Op {
            group: "encode",
            title: "Encode a batch",
            peers: names(encoders().iter().map(|p| (p.name, p.family)).collect()),
        },
        Op {
            group: "decode",
            title: "Decode one value at a time",
            peers: names(decoders().iter().map(|p| (p.name, p.family)).collect()),
        },
        Op {
            group: "decode-canonical",
            title: "Decode one value at a time, refusing non-canonical spellings",
            peers: names(
                canonical_decoders()
                    .iter()
                    .map(|p| (p.name, p.family))
                    .collect(),
            ),
        },
        Op {
            group: "decode-packed",
            title: "Decode a packed run into a Vec<u64>",
            peers: names(
                packed_decoders()
                    .iter()
                    .map(|p| (p.name, p.family))
                    .collect(),
            ),
        },
    ]
}

fn get(m: &Medians, group: &str, peer: &str, dist: Dist) -> Option<f64> {
    m.get(&(group.to_string(), peer.to_string(), dist.name().to_string()))
        .copied()
}

/// The fastest LEB128 peer of an operation on a distribution: (name, ns).
fn fastest_leb(m: &Medians, op: &Op, dist: Dist) -> Option<(&'static str, f64)> {
    op.peers
        .iter()
        .filter(|(_, f)| *f == Family::Leb128)
        .filter_map(|&(n, _)| get(m, op.group, n, dist).map(|t| (n, t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

fn micros(ns: f64) -> String {
    format!("{:.2} µs", ns / 1000.0)
}

fn render(
    m: &Medians,
    notes: &Path,
    run_info: &Path,
) -> Result<String, Box<dyn std::error::Error>> {
    let mut s = String::new();
    writeln!(s, "# Varint shootout results\n")?;
    writeln!(
        s,
        "Generated by `cargo run -p bijoubuf-benches --bin varint-results` from criterion's \
         output; do not edit by hand (the notes at the end come from \
         `benches/results-notes.md`).\n"
    )?;
    writeln!(s, "## Machine and run\n")?;
    writeln!(s, "- CPU: {}", cpu_model())?;
    writeln!(
        s,
        "- cores: {}",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    )?;
    writeln!(s, "- report generated: {} (UTC)", utc_now())?;
    match std::fs::read_to_string(run_info) {
        Ok(info) => {
            for line in info.lines().filter(|l| !l.trim().is_empty()) {
                writeln!(s, "- {line}")?;
            }
        }
        Err(_) => writeln!(
            s,
            "- run details: not recorded (run `benches/scripts/varint.sh`)"
        )?,
    }
    writeln!(s)?;
    writeln!(s, "## Workloads\n")?;
    writeln!(
        s,
        "Batches of {BATCH} values, seeded (the same values every run):\n"
    )?;
    for d in Dist::ALL {
        writeln!(s, "- **{}**: {}", d.name(), d.describe())?;
    }
    writeln!(
        s,
        "\nEach cell is criterion's median time for the whole batch, then the speed-up \
         against the fastest LEB128 peer (prost, integer-encoding, leb128, unsigned-varint) \
         and against bijoux, the reference bijou64: `time · ×LEB · ×bijoux`, where a \
         speed-up above 1 means faster than that peer.\n"
    )?;

    for op in ops() {
        writeln!(s, "## {} (`{}`)\n", op.title, op.group)?;
        write!(s, "| peer |")?;
        for d in Dist::ALL {
            write!(s, " {} |", d.name())?;
        }
        writeln!(s)?;
        writeln!(s, "|---|{}", "---|".repeat(Dist::ALL.len()))?;
        for &(peer, _) in &op.peers {
            write!(s, "| {peer} |")?;
            for d in Dist::ALL {
                match get(m, op.group, peer, d) {
                    Some(t) => {
                        let leb = fastest_leb(m, &op, d).map(|(_, l)| l / t);
                        let bx = get(m, op.group, "bijoux", d).map(|b| b / t);
                        let r = |x: Option<f64>| x.map_or("–".to_string(), |x| format!("{x:.2}"));
                        write!(s, " {} · {} · {} |", micros(t), r(leb), r(bx))?;
                    }
                    None => write!(s, " – |")?,
                }
            }
            writeln!(s)?;
        }
        write!(s, "| *fastest LEB128* |")?;
        for d in Dist::ALL {
            match fastest_leb(m, &op, d) {
                Some((n, _)) => write!(s, " {n} |")?,
                None => write!(s, " – |")?,
            }
        }
        writeln!(s, "\n")?;
    }

    writeln!(
        s,
        "## Control: one batch decoded over and over (`decode-same-batch`)\n"
    )?;
    writeln!(
        s,
        "The same decoders on the first mixed batch only, repeated every iteration, next to \
         their time on the rotating pool above. A shorter time here is the branch predictor \
         having learned the batch, which real inputs do not allow.\n"
    )?;
    writeln!(
        s,
        "| peer | one batch repeated | rotating pool | pool / repeated |"
    )?;
    writeln!(s, "|---|---|---|---|")?;
    for p in decoders() {
        let one = get(m, "decode-same-batch", p.name, Dist::Mixed);
        let rot = get(m, "decode", p.name, Dist::Mixed);
        let cell = |x: Option<f64>| x.map_or("–".to_string(), micros);
        let ratio = match (one, rot) {
            (Some(o), Some(r)) => format!("{:.2}", r / o),
            _ => "–".to_string(),
        };
        writeln!(
            s,
            "| {} | {} | {} | {ratio} |",
            p.name,
            cell(one),
            cell(rot)
        )?;
    }
    writeln!(s)?;

    writeln!(
        s,
        "## Encoded size (bytes per value, from the batches above)\n"
    )?;
    write!(s, "| format |")?;
    for d in Dist::ALL {
        write!(s, " {} |", d.name())?;
    }
    writeln!(s)?;
    writeln!(s, "|---|{}", "---|".repeat(Dist::ALL.len()))?;
    for (name, f, pad) in [
        ("bijou64", Format::Bijou64, 0),
        ("LEB128 (protobuf)", Format::Leb128, 0),
        ("vu128", Format::Vu128Padded, 8),
    ] {
        write!(s, "| {name} |")?;
        for d in Dist::ALL {
            let bytes = f.bytes(&values(d)).len() - pad;
            write!(s, " {:.3} |", bytes as f64 / BATCH as f64)?;
        }
        writeln!(s)?;
    }
    writeln!(s)?;

    writeln!(s, "## Bars\n")?;
    writeln!(
        s,
        "Speed-up of bijou64 over the named peer (its time / ours); met when at least the \
         target.\n"
    )?;
    writeln!(s, "| bar | {} |", Dist::ALL.map(|d| d.name()).join(" | "))?;
    writeln!(s, "|---|{}", "---|".repeat(Dist::ALL.len()))?;
    let ops = ops();
    let op = |g: &str| ops.iter().find(|o| o.group == g).expect("an operation");
    let mut bar = |label: &str,
                   group: &str,
                   ours: &str,
                   against: Against,
                   target: &dyn Fn(Dist) -> Option<f64>|
     -> Result<(), std::fmt::Error> {
        write!(s, "| {label} |")?;
        for d in Dist::ALL {
            let Some(want) = target(d) else {
                write!(s, " n/a |")?;
                continue;
            };
            let theirs = match against {
                Against::Bijoux => get(m, group, "bijoux", d),
                Against::FastestLeb => fastest_leb(m, op(group), d).map(|(_, t)| t),
            };
            match (get(m, group, ours, d), theirs) {
                (Some(o), Some(t)) => {
                    let x = t / o;
                    let verdict = if x >= want { "met" } else { "**missed**" };
                    // Three decimals where two would round across the target.
                    if (x - want).abs() < 0.005 {
                        write!(s, " {x:.3}× {verdict} |")?;
                    } else {
                        write!(s, " {x:.2}× {verdict} |")?;
                    }
                }
                _ => write!(s, " no data |")?,
            }
        }
        writeln!(s)
    };
    let every = |x: f64| move |_: Dist| Some(x);
    bar(
        "decode ≥ 1× bijoux",
        "decode",
        "bijou64",
        Against::Bijoux,
        &every(1.0),
    )?;
    bar(
        "decode ≥ 1.5× fastest LEB128 (3× on large, uniform)",
        "decode",
        "bijou64",
        Against::FastestLeb,
        &|d| {
            Some(if matches!(d, Dist::Large | Dist::Uniform) {
                3.0
            } else {
                1.5
            })
        },
    )?;
    bar(
        "decode (branchless) ≥ 1× bijoux",
        "decode",
        "bijou64 (branchless)",
        Against::Bijoux,
        &every(1.0),
    )?;
    bar(
        "decode (branchless) ≥ 1.5× / 3× fastest LEB128",
        "decode",
        "bijou64 (branchless)",
        Against::FastestLeb,
        &|d| {
            Some(if matches!(d, Dist::Large | Dist::Uniform) {
                3.0
            } else {
                1.5
            })
        },
    )?;
    bar(
        "packed ≥ 2× fastest LEB128",
        "decode-packed",
        "bijou64",
        Against::FastestLeb,
        &every(2.0),
    )?;
    bar(
        "encode (append) ≥ 1× fastest LEB128",
        "encode",
        "bijou64 (append)",
        Against::FastestLeb,
        &every(1.0),
    )?;
    bar(
        "encode (slice) ≥ 1× fastest LEB128",
        "encode",
        "bijou64 (slice)",
        Against::FastestLeb,
        &every(1.0),
    )?;
    bar(
        "canonical decode ≥ 2× fastest canonical LEB128 (multi-byte distributions)",
        "decode-canonical",
        "bijou64",
        Against::FastestLeb,
        &|d| (d != Dist::Tiny).then_some(2.0),
    )?;
    writeln!(s)?;

    if let Ok(text) = std::fs::read_to_string(notes) {
        writeln!(s, "{}", text.trim_end())?;
    }
    Ok(s)
}

#[derive(Clone, Copy)]
enum Against {
    Bijoux,
    FastestLeb,
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// The current UTC date and time, `YYYY-MM-DD HH:MM`, from the system clock.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}
