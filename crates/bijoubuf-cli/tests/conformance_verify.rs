//! `bijoubuf verify` against every decode vector of the conformance suite: the CLI must
//! accept what the vectors accept and refuse the rest with the same error code and offset.
//! The generated code is checked against the same vectors by the conformance crate, so
//! agreement with the vectors is agreement with the generated code.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::thread;

/// One decode vector the CLI can run.
struct Vector {
    id: String,
    type_name: String,
    hex: String,
    preserving: bool,
    depth_limit: Option<i64>,
    size_limit: Option<i64>,
    stream: bool,
    /// `None`: accept; `Some((code, offset))`: reject.
    reject: Option<(String, i64)>,
}

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance")
}

/// Expands the vector hex notation (`XX{n}` repeats, `(P){n} REST` nesting groups; see
/// `bijoubuf_conformance::hex`) into the plain hex the CLI reads.
fn expand_hex(text: &str) -> String {
    let bytes = bijoubuf_conformance::hex::parse(text)
        .unwrap_or_else(|e| panic!("vector hex `{text}`: {e}"));
    let mut out = bijoubuf_conformance::hex::format(&bytes);
    out.push('\n');
    out
}

/// Maps each full message name to the schema file that defines it.
fn schema_files(root: &Path) -> HashMap<String, PathBuf> {
    let mut map = HashMap::new();
    for dir in ["conformance", "evolution"] {
        let mut entries: Vec<_> = fs::read_dir(root.join("schemas").join(dir))
            .expect("schema dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "proto"))
            .collect();
        entries.sort();
        for path in entries {
            let text = fs::read_to_string(&path).expect("read schema");
            let package = text
                .lines()
                .find_map(|l| l.strip_prefix("package "))
                .map(|p| p.trim_end_matches(';').trim().to_owned())
                .unwrap_or_default();
            for line in text.lines() {
                if let Some(rest) = line.strip_prefix("message ") {
                    let name = rest.split_whitespace().next().unwrap_or_default();
                    map.insert(format!("{package}.{name}"), path.clone());
                }
            }
        }
    }
    map
}

/// Vector ids on which the reflection engine (which the CLI uses) is known to diverge.
fn reflect_divergences(root: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(root.join("vectors/known_divergences.toml"))
        .expect("read known_divergences.toml");
    let doc: toml::Table = text.parse().expect("known_divergences.toml parses");
    doc.get("divergence")
        .and_then(|d| d.as_array())
        .map(|list| {
            list.iter()
                .filter(|d| d.get("engine").and_then(|e| e.as_str()) == Some("reflect"))
                .filter_map(|d| d.get("id").and_then(|i| i.as_str()).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Reads every vector file; returns the runnable decode vectors and how many cases were
/// skipped as encode cases and as known
/// divergences of the reflection engine.
fn load(root: &Path, divergent: &BTreeSet<String>) -> (Vec<Vector>, usize, usize) {
    let mut files: Vec<_> = fs::read_dir(root.join("vectors"))
        .expect("vectors dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "toml")
                && p.file_name().is_some_and(|n| n != "known_divergences.toml")
        })
        .collect();
    files.sort();
    let (mut vectors, mut encode, mut diverge) = (Vec::new(), 0, 0);
    for path in files {
        let text = fs::read_to_string(&path).expect("read vector file");
        let doc: toml::Table = text
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let cases = doc
            .get("case")
            .and_then(|c| c.as_array())
            .expect("vector file has [[case]]");
        for case in cases {
            let s = |k: &str| case.get(k).and_then(|v| v.as_str()).map(str::to_owned);
            let id = s("id").expect("case id");
            if case.get("encode").is_some() {
                encode += 1;
                continue;
            }
            let decoder = case.get("decoder").and_then(|d| d.as_table());
            let opt = |k: &str| decoder.and_then(|d| d.get(k));
            if divergent.contains(&id) {
                diverge += 1;
                continue;
            }
            let reject = case.get("reject").map(|r| {
                (
                    r.get("code")
                        .and_then(|c| c.as_str())
                        .expect("reject code")
                        .to_owned(),
                    r.get("offset")
                        .and_then(|o| o.as_integer())
                        .expect("reject offset"),
                )
            });
            assert!(
                reject.is_some() || case.get("accept").is_some(),
                "{id}: neither accept, reject nor encode"
            );
            vectors.push(Vector {
                id,
                type_name: s("type").expect("case type"),
                hex: expand_hex(&s("hex").expect("case hex")),
                preserving: opt("preserving").and_then(|v| v.as_bool()) == Some(true),
                depth_limit: opt("depth-limit").and_then(|v| v.as_integer()),
                size_limit: opt("size-limit").and_then(|v| v.as_integer()),
                stream: opt("stream").and_then(|v| v.as_bool()) == Some(true),
                reject,
            });
        }
    }
    (vectors, encode, diverge)
}

/// `--max-depth` outside 1..=500 is a usage error (exit 2) that names the flag.
fn flag_refused(v: &Vector, schema: &Path, depth: i64) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_bijoubuf"))
        .arg("verify")
        .arg("--schema")
        .arg(schema)
        .args(["--type", &v.type_name, "--max-depth", &depth.to_string()])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("spawn: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(2)
        && stderr.contains(&format!("invalid value '{depth}' for '--max-depth"))
    {
        Ok(())
    } else {
        Err(format!(
            "--max-depth {depth}: expected a usage error, got exit {:?}, stderr {stderr:?}",
            out.status.code()
        ))
    }
}

/// Runs `bijoubuf verify` on one vector; `Err` describes a disagreement.
fn check(v: &Vector, root: &Path, schemas: &HashMap<String, PathBuf>) -> Result<(), String> {
    let schema = schemas
        .get(&v.type_name)
        .ok_or_else(|| format!("no schema defines {}", v.type_name))?;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bijoubuf"));
    cmd.arg("verify")
        .arg("--schema")
        .arg(schema)
        .arg("-I")
        .arg(root.join("schemas"))
        .arg("--type")
        .arg(&v.type_name)
        .arg("--input-hex");
    if v.preserving {
        cmd.arg("--preserve-unknown");
    }
    if let Some(d) = v.depth_limit {
        // SPEC §9.3 reads a depth limit of 0 as 1 and one above 500 as 500. The CLI
        // refuses such a flag as a usage error instead (a person who typed 0 or 501 is
        // told the range); the vector's answer must then come at the limit SPEC reads.
        let read = d.clamp(1, 500);
        if read != d {
            flag_refused(v, schema, d)?;
        }
        cmd.arg("--max-depth").arg(read.to_string());
    }
    if let Some(n) = v.size_limit {
        cmd.arg("--max-size").arg(n.to_string());
    }
    if v.stream {
        cmd.arg("--stream");
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawn: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let hex = v.hex.clone();
    // Write from another thread so a large input cannot deadlock against full pipes.
    let writer = thread::spawn(move || stdin.write_all(hex.as_bytes()));
    let out = child.wait_with_output().map_err(|e| format!("wait: {e}"))?;
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let status = out.status.code();
    let len = v.hex.split_whitespace().count();
    let actual = || {
        format!(
            "exit {status:?}, stdout {:?}, stderr {:?}",
            stdout.lines().next().unwrap_or(""),
            stderr.lines().take(2).collect::<Vec<_>>().join(" | ")
        )
    };
    match &v.reject {
        None => {
            let want = format!("ok {len} byte{} ", if len == 1 { "" } else { "s" });
            if status == Some(0) && stdout.starts_with(&want) {
                Ok(())
            } else {
                Err(format!("expected accept (`{want}`), got {}", actual()))
            }
        }
        Some((code, offset)) => {
            let mut lines = stderr.lines();
            let first_ok = lines
                .next()
                .is_some_and(|l| l.starts_with(&format!("error[{code}]")));
            let offset_ok = lines
                .next()
                .is_some_and(|l| l.trim_start().starts_with(&format!("offset: {offset} ")));
            if status == Some(1) && first_ok && offset_ok {
                Ok(())
            } else {
                Err(format!(
                    "expected reject {code} at byte {offset}, got {}",
                    actual()
                ))
            }
        }
    }
}

#[test]
fn verify_agrees_with_every_decode_vector() {
    let root = conformance_dir();
    let schemas = schema_files(&root);
    let divergent = reflect_divergences(&root);
    let (vectors, encode, diverge) = load(&root, &divergent);
    assert!(!vectors.is_empty(), "no decode vectors found");

    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    let workers = thread::available_parallelism().map_or(2, |n| n.get().min(4));
    thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().expect("index lock");
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some(v) = vectors.get(i) else { break };
                    if let Err(e) = check(v, &root, &schemas) {
                        failures
                            .lock()
                            .expect("failure lock")
                            .push(format!("{}: {e}", v.id));
                    }
                }
            });
        }
    });

    let mut failures = failures.into_inner().expect("failure lock");
    failures.sort();
    println!(
        "conformance verify: checked {}, skipped {} (encode {encode}, known reflect \
         divergences {diverge})",
        vectors.len(),
        encode + diverge
    );
    assert!(
        failures.is_empty(),
        "{} of {} vectors disagree with `bijoubuf verify`:\n{}",
        failures.len(),
        vectors.len(),
        failures.join("\n")
    );
}
