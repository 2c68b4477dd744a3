//! What `varint-results` and `messages-results` share: their command line, reading
//! criterion's medians, and splitting `RESULTS.md` into the varint part and the message
//! part (below [`RESULTS_MARKER`]) so that each binary rewrites only its own part.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::msg::RESULTS_MARKER;

/// (group, function, parameter) -> criterion's median in ns.
pub type Medians = BTreeMap<(String, String, String), f64>;

/// The error type of both binaries.
pub type Error = Box<dyn std::error::Error>;

/// Where a results binary reads and writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// criterion's output directory.
    pub criterion: PathBuf,
    /// The page to rewrite (`benches/RESULTS.md`).
    pub out: PathBuf,
    /// The hand-written notes appended verbatim.
    pub notes: PathBuf,
    /// What the run script wrote about the run.
    pub run_info: PathBuf,
}

impl Paths {
    /// Parses `[--criterion DIR] [--out FILE] [--notes FILE] [--run-info FILE]`.
    ///
    /// `DIR` defaults to `$CARGO_TARGET_DIR/criterion` (or `target/criterion`), `FILE` to
    /// `benches/RESULTS.md`, the notes to `benches/<notes>`, the run info to
    /// `DIR/<run_info>`.
    pub fn from_args(
        args: impl IntoIterator<Item = String>,
        notes: &str,
        run_info: &str,
    ) -> Result<Self, Error> {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut criterion = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| manifest.join("../target"))
            .join("criterion");
        let mut out = manifest.join("RESULTS.md");
        let mut notes = manifest.join(notes);
        let mut given_run_info = None;
        let mut args = args.into_iter();
        while let Some(a) = args.next() {
            let v = args.next().ok_or_else(|| format!("{a} needs a value"))?;
            match a.as_str() {
                "--criterion" => criterion = v.into(),
                "--out" => out = v.into(),
                "--notes" => notes = v.into(),
                "--run-info" => given_run_info = Some(PathBuf::from(v)),
                _ => return Err(format!("unknown option {a}").into()),
            }
        }
        let run_info = given_run_info.unwrap_or_else(|| criterion.join(run_info));
        Ok(Paths {
            criterion,
            out,
            notes,
            run_info,
        })
    }
}

/// Every `new/benchmark.json` + `new/estimates.json` pair under `dir`.
pub fn read_medians(dir: &Path) -> Result<Medians, Error> {
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

/// The CPU's model name from `/proc/cpuinfo`, or `unknown`.
pub fn cpu_model() -> String {
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

/// The new page when the varint part becomes `varint`: the message part of `old`, from
/// the marker on, is kept.
pub fn with_varint_part(old: &str, varint: String) -> String {
    match old.find(RESULTS_MARKER) {
        Some(at) => format!("{}\n\n{}", varint.trim_end(), &old[at..]),
        None => varint,
    }
}

/// The new page when the message part becomes `section`: everything above the marker in
/// `old` is kept, and the marker is written before `section`.
pub fn with_message_part(old: &str, section: &str) -> String {
    let keep = old.find(RESULTS_MARKER).map_or(old, |at| &old[..at]);
    let mut page = keep.trim_end().to_owned();
    if !page.is_empty() {
        page.push_str("\n\n");
    }
    page.push_str(RESULTS_MARKER);
    page.push('\n');
    page.push_str(section);
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_binary_keeps_the_other_part() {
        let page = with_message_part("", "messages\n");
        assert_eq!(page, "<!-- message benchmarks -->\nmessages\n");
        let page = with_varint_part(&page, "varint\n\n".to_owned());
        assert_eq!(page, "varint\n\n<!-- message benchmarks -->\nmessages\n");
        let page = with_message_part(&page, "new messages\n");
        assert_eq!(
            page,
            "varint\n\n<!-- message benchmarks -->\nnew messages\n"
        );
        assert_eq!(with_varint_part("old varint\n", "v\n".to_owned()), "v\n");
    }

    #[test]
    fn options_need_values_and_known_names() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let p = Paths::from_args(args(&["--criterion", "c", "--out", "o"]), "n.md", "r.txt")
            .expect("valid options");
        assert_eq!(p.criterion, PathBuf::from("c"));
        assert_eq!(p.out, PathBuf::from("o"));
        assert_eq!(p.run_info, PathBuf::from("c/r.txt"));
        assert!(p.notes.ends_with("n.md"));
        assert!(Paths::from_args(args(&["--out"]), "n", "r").is_err());
        assert!(Paths::from_args(args(&["--bogus", "x"]), "n", "r").is_err());
    }
}
