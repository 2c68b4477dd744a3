//! Regenerate the message sections of `benches/RESULTS.md` from criterion's output.
//!
//! ```text
//! messages-results [--criterion DIR] [--out FILE] [--notes FILE] [--run-info FILE]
//! ```
//! Everything from the marker line `<!-- message benchmarks -->` to the end of `FILE` is
//! replaced (the marker is appended if absent); `varint-results` keeps that part when it
//! rewrites the varint sections. `DIR` defaults to `$CARGO_TARGET_DIR/criterion`;
//! `--notes` (default `benches/results-messages-notes.md`) is appended verbatim;
//! `--run-info` (default `DIR/messages-run.txt`, written by `benches/scripts/messages.sh`)
//! says how the run went. Sizes are computed here, untimed.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bijoubuf_benches::msg::RESULTS_MARKER;
use bijoubuf_benches::msg::data::Dataset;
use bijoubuf_benches::msg::sizes;

/// (group, function, parameter) -> median ns.
type Medians = BTreeMap<(String, String, String), f64>;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut criterion = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../target"))
        .join("criterion");
    let mut out = manifest.join("RESULTS.md");
    let mut notes = manifest.join("results-messages-notes.md");
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
    let run_info = run_info.unwrap_or_else(|| criterion.join("messages-run.txt"));
    let m = read_medians(&criterion)?;
    if !m.keys().any(|(g, _, _)| g.starts_with("messages-")) {
        return Err(format!("no message results under {}", criterion.display()).into());
    }
    let section = render(&m, &notes, &run_info)?;
    let old = std::fs::read_to_string(&out).unwrap_or_default();
    let keep = old
        .find(RESULTS_MARKER)
        .map_or(old.as_str(), |at| &old[..at]);
    let mut page = keep.trim_end().to_owned();
    if !page.is_empty() {
        page.push_str("\n\n");
    }
    page.push_str(RESULTS_MARKER);
    page.push('\n');
    page.push_str(&section);
    std::fs::write(&out, page)?;
    eprintln!("wrote {}", out.display());
    Ok(())
}

fn read_medians(dir: &Path) -> Result<Medians, Box<dyn std::error::Error>> {
    let mut found = Medians::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let p = e?.path();
            if !p.is_dir() {
                continue;
            }
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
    Ok(found)
}

fn get(m: &Medians, group: &str, f: &str, v: &str) -> Option<f64> {
    m.get(&(group.to_owned(), f.to_owned(), v.to_owned()))
        .copied()
}

fn us(ns: Option<f64>) -> String {
    ns.map_or("–".to_owned(), |t| format!("{:.1}", t / 1000.0))
}

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    Some(a? / b?)
}

fn x(r: Option<f64>) -> String {
    r.map_or("–".to_owned(), |r| format!("{r:.2}×"))
}

const OPS: [(&str, &str); 10] = [
    ("bijou-encode", "bijoubuf encode"),
    ("bijou-encoded-len", "bijoubuf encoded_len"),
    ("bijou-decode", "bijoubuf strict decode"),
    ("bijou-decode-preserve", "bijoubuf decode, preserving"),
    ("prost-encode", "prost encode"),
    ("prost-encoded-len", "prost encoded_len"),
    ("prost-decode", "prost decode"),
    (
        "prost-decode-reencode-compare",
        "prost decode + re-encode + compare",
    ),
    ("bilrost-encode", "bilrost encode"),
    (
        "bilrost-decode-distinguished",
        "bilrost distinguished decode",
    ),
];

fn render(m: &Medians, notes: &Path, run_info: &Path) -> Result<String, std::fmt::Error> {
    let mut s = String::new();
    writeln!(s, "# Message benchmarks\n")?;
    writeln!(
        s,
        "Generated by `benches/scripts/messages.sh` (criterion medians; sizes computed \
         untimed by the same generator, `messages-results`; notes from \
         `benches/results-messages-notes.md`).\n"
    )?;
    writeln!(s, "## Machine and run (messages)\n")?;
    writeln!(s, "- CPU: {}", cpu_model())?;
    writeln!(
        s,
        "- cores available: {}",
        std::thread::available_parallelism().map_or(0, usize::from)
    )?;
    match std::fs::read_to_string(run_info) {
        Ok(t) => {
            for line in t.lines().filter(|l| !l.trim().is_empty()) {
                writeln!(s, "- {line}")?;
            }
        }
        Err(_) => writeln!(s, "- (no run information: the benchmarks were run by hand)")?,
    }
    writeln!(s)?;

    writeln!(s, "## Datasets\n")?;
    for d in Dataset::ALL {
        writeln!(s, "- **{}**: {}", d.name(), d.describe())?;
    }
    writeln!(
        s,
        "\nEvery peer holds the same logical data: the bijoubuf value is generated (seeded \
         ChaCha8), then converted field by field to prost's and bilrost's types. Each \
         benchmark cycles through 8 values generated with different seeds. prost's types \
         are generated by prost-build from the descriptor set bijoubuf-schema produces, \
         with `BTreeMap` maps (so its re-encoding is deterministic). bilrost's structs are \
         hand-derived for telemetry, cas and numeric (doubles carried as `u64` bits with \
         fixed encoding, as bilrost requires for distinguished decoding); wide has no \
         bilrost peer.\n"
    )?;

    writeln!(s, "## Medians (µs per value)\n")?;
    write!(s, "| operation |")?;
    for d in Dataset::ALL {
        write!(s, " {} |", d.name())?;
    }
    writeln!(s)?;
    writeln!(s, "|---|{}", "---:|".repeat(Dataset::ALL.len()))?;
    for (id, title) in OPS {
        write!(s, "| {title} |")?;
        for d in Dataset::ALL {
            write!(s, " {} |", us(get(m, &group(d), id, "")))?;
        }
        writeln!(s)?;
    }
    writeln!(s)?;

    writeln!(
        s,
        "## Ratios (peer time ÷ bijoubuf time; above 1 = bijoubuf faster)\n"
    )?;
    let pairs: [(&str, &str, &str); 6] = [
        ("encode: prost ÷ bijoubuf", "prost-encode", "bijou-encode"),
        (
            "strict decode: prost decode ÷ bijoubuf",
            "prost-decode",
            "bijou-decode",
        ),
        (
            "canonical check: prost decode+re-encode+compare ÷ bijoubuf strict decode",
            "prost-decode-reencode-compare",
            "bijou-decode",
        ),
        (
            "encoded_len: prost ÷ bijoubuf",
            "prost-encoded-len",
            "bijou-encoded-len",
        ),
        (
            "encode: bilrost ÷ bijoubuf",
            "bilrost-encode",
            "bijou-encode",
        ),
        (
            "canonical decode: bilrost distinguished ÷ bijoubuf strict",
            "bilrost-decode-distinguished",
            "bijou-decode",
        ),
    ];
    write!(s, "| ratio |")?;
    for d in Dataset::ALL {
        write!(s, " {} |", d.name())?;
    }
    writeln!(s)?;
    writeln!(s, "|---|{}", "---:|".repeat(Dataset::ALL.len()))?;
    for (title, a, b) in pairs {
        write!(s, "| {title} |")?;
        for d in Dataset::ALL {
            let g = group(d);
            write!(s, " {} |", x(ratio(get(m, &g, a, ""), get(m, &g, b, ""))))?;
        }
        writeln!(s)?;
    }
    write!(s, "| preserving ÷ strict decode (bijoubuf) |")?;
    for d in Dataset::ALL {
        let g = group(d);
        let r = ratio(
            get(m, &g, "bijou-decode-preserve", ""),
            get(m, &g, "bijou-decode", ""),
        );
        write!(s, " {} |", x(r))?;
    }
    writeln!(s, "\n")?;

    let rows = sizes::rows();
    writeln!(
        s,
        "## Sizes (bytes; compressed columns: ratio to protobuf's compressed size)\n"
    )?;
    writeln!(
        s,
        "gzip is flate2 level 6, zstd level 3, brotli quality 9 with a 4 MiB window.\n"
    )?;
    writeln!(s, "{}", sizes::markdown(&rows))?;

    writeln!(s, "## Bars\n")?;
    writeln!(
        s,
        "| dataset | strict decode ≥ 1.5× prost decode | encode ≥ 1.5× prost encode | \
         strict decode ≥ 3× prost decode+re-encode+compare | raw size ≤ protobuf + 5 % |"
    )?;
    writeln!(s, "|---|---|---|---|---|")?;
    for d in Dataset::ALL {
        let g = group(d);
        let verdict = |r: Option<f64>, bar: f64| match r {
            Some(r) => format!("{r:.2}× {}", if r >= bar { "met" } else { "**missed**" }),
            None => "no data".to_owned(),
        };
        let dec = ratio(
            get(m, &g, "prost-decode", ""),
            get(m, &g, "bijou-decode", ""),
        );
        let enc = ratio(
            get(m, &g, "prost-encode", ""),
            get(m, &g, "bijou-encode", ""),
        );
        let can = ratio(
            get(m, &g, "prost-decode-reencode-compare", ""),
            get(m, &g, "bijou-decode", ""),
        );
        let raw = |p: &str| {
            rows.iter()
                .find(|r| r.dataset == d && r.peer == p)
                .map(|r| r.raw as f64)
        };
        let size = match (raw("bijoubuf"), raw("protobuf")) {
            (Some(b), Some(p)) => {
                let pct = (b / p - 1.0) * 100.0;
                format!(
                    "{pct:+.1} % {}",
                    if pct <= 5.0 { "met" } else { "**missed**" }
                )
            }
            _ => "no data".to_owned(),
        };
        writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            d.name(),
            verdict(dec, 1.5),
            verdict(enc, 1.5),
            verdict(can, 3.0),
            size
        )?;
    }
    writeln!(s)?;

    instructions(
        &mut s,
        &run_info.with_file_name("messages-instructions.txt"),
    )?;
    scaling(&mut s, m)?;

    if let Ok(text) = std::fs::read_to_string(notes) {
        writeln!(s, "{}", text.trim_end())?;
    }
    Ok(s)
}

fn group(d: Dataset) -> String {
    format!("messages-{}", d.name())
}

/// Least-squares line through (n, t): (intercept, slope, R²).
fn fit(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    if points.len() < 3 {
        return None;
    }
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let syy: f64 = points.iter().map(|p| (p.1 - my).powi(2)).sum();
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    Some((my - slope * mx, slope, sxy * sxy / (sxx * syy)))
}

fn scaling(s: &mut String, m: &Medians) -> std::fmt::Result {
    let peers = [
        "bijou-encode",
        "bijou-decode",
        "prost-encode",
        "prost-decode",
    ];
    for (g, title, unit, size_of) in [
        (
            "scaling-depth",
            "Scaling with nesting depth (`nest.Nest`, one level = value, label, child)",
            "level",
            None,
        ),
        (
            "scaling-size",
            "Scaling with message size (telemetry batches of 1–1024 spans)",
            "byte",
            Some(()),
        ),
    ] {
        let mut params: Vec<u64> = m
            .keys()
            .filter(|k| k.0 == g)
            .filter_map(|k| k.2.parse().ok())
            .collect();
        params.sort_unstable();
        params.dedup();
        if params.is_empty() {
            continue;
        }
        // The unit count per parameter: levels, or the bijoubuf/prost encoded bytes.
        let units = |peer: &str, p: u64| -> f64 {
            if size_of.is_none() {
                return p as f64;
            }
            let v = bijoubuf_benches::msg::data::telemetry(Dataset::Telemetry.seed(), p as usize);
            if peer.starts_with("bijou") {
                bijoubuf::Message::encoded_len(&v) as f64
            } else {
                let pv = bijoubuf_benches::msg::convert::telemetry::to_prost(&v);
                prost::Message::encoded_len(&pv) as f64
            }
        };
        writeln!(s, "## {title}\n")?;
        writeln!(s, "Median µs, and ns per {unit} in parentheses.\n")?;
        write!(
            s,
            "| {} |",
            if size_of.is_some() { "spans" } else { "depth" }
        )?;
        for p in peers {
            write!(s, " {p} |")?;
        }
        writeln!(s)?;
        writeln!(s, "|---:|{}", "---:|".repeat(peers.len()))?;
        for &p in &params {
            write!(s, "| {p} |")?;
            for peer in peers {
                match get(m, g, peer, &p.to_string()) {
                    Some(t) => write!(s, " {:.2} ({:.2}) |", t / 1000.0, t / units(peer, p))?,
                    None => write!(s, " – |")?,
                }
            }
            writeln!(s)?;
        }
        writeln!(
            s,
            "\nLinear fit t = a + b·n over all points (n = {unit}s): slope b in ns per {unit}, \
             intercept a in ns, and R² (1.0 = a straight line).\n"
        )?;
        writeln!(s, "| operation | b (ns/{unit}) | a (ns) | R² |")?;
        writeln!(s, "|---|---:|---:|---:|")?;
        for peer in peers {
            let pts: Vec<(f64, f64)> = params
                .iter()
                .filter_map(|&p| get(m, g, peer, &p.to_string()).map(|t| (units(peer, p), t)))
                .collect();
            match fit(&pts) {
                Some((a, b, r2)) => writeln!(s, "| {peer} | {b:.3} | {a:.0} | {r2:.4} |")?,
                None => writeln!(s, "| {peer} | – | – | – |")?,
            }
        }
        writeln!(s)?;
    }
    Ok(())
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

/// The callgrind table, when `messages.sh --callgrind` wrote one: `dataset op count` lines.
fn instructions(s: &mut String, file: &Path) -> std::fmt::Result {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Ok(());
    };
    let mut ir: BTreeMap<(String, String), f64> = BTreeMap::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if let [d, op, n] = f[..]
            && let Ok(n) = n.parse::<f64>()
        {
            ir.insert((d.to_owned(), op.to_owned()), n);
        }
    }
    let g = |d: Dataset, op: &str| ir.get(&(d.name().to_owned(), op.to_owned())).copied();
    writeln!(
        s,
        "## Instructions per operation (callgrind)\n\n\
         Thousands of instructions per value, counted by `valgrind --tool=callgrind` over \
         the profiled loop only (`messages-profile`; repeatable where wall time on a shared \
         machine is not). Instruction counts ignore caches and branch prediction, and \
         count every byte of a `rep stosb`/`rep movsb` (glibc's memset/memcpy on large \
         blocks) as one instruction, so they overstate bulk copies and fills.\n"
    )?;
    write!(s, "| operation |")?;
    for d in Dataset::ALL {
        write!(s, " {} |", d.name())?;
    }
    writeln!(s)?;
    writeln!(s, "|---|{}", "---:|".repeat(Dataset::ALL.len()))?;
    for (id, title) in OPS {
        write!(s, "| {title} |")?;
        for d in Dataset::ALL {
            match g(d, id) {
                Some(n) => write!(s, " {:.0} |", n / 1000.0)?,
                None => write!(s, " – |")?,
            }
        }
        writeln!(s)?;
    }
    for (title, a, b) in [
        ("encode: prost ÷ bijoubuf", "prost-encode", "bijou-encode"),
        ("decode: prost ÷ bijoubuf", "prost-decode", "bijou-decode"),
        (
            "prost decode+re-encode+compare ÷ bijoubuf decode",
            "prost-decode-reencode-compare",
            "bijou-decode",
        ),
    ] {
        write!(s, "| *{title}* |")?;
        for d in Dataset::ALL {
            write!(s, " {} |", x(ratio(g(d, a), g(d, b))))?;
        }
        writeln!(s)?;
    }
    writeln!(s)
}
