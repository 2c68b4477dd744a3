//! The TypeScript package in a real browser: headless Chromium (Debian's `chromium`
//! package) runs the package's own test modules (`typescript/test/*.test.ts`, compiled,
//! through the import map of `typescript/test/browser/index.html`) and the signed-envelope
//! example (`typescript/examples/signed.ts`) against an envelope, a key and tampered
//! envelopes made here by the Rust implementation: WebCrypto's Ed25519 signature must be
//! byte for byte Rust's, and each tampering refused with Rust's code, offset and path.
//! The driver is `typescript/test/browser/run.mjs` (a static server on 127.0.0.1 and the
//! browser); no browser is downloaded and no DOM is mocked.
//!
//! Without Chromium (`/usr/bin/chromium`, or `CHROMIUM=path`) or Node, a local run says
//! what to install and passes; in CI (`CI` set) it fails.

use std::path::PathBuf;
use std::process::Command;

use bijoubuf_conformance::typescript;
use bijoubuf_examples::ledger::Transfer;
use bijoubuf_examples::signing::{self, demo_key};
use bijoubuf_examples::tamper::{demo_transfer, tampered_envelopes};
use serde_json::{Value, json};

/// The Chromium binary, or `None` (after a note) when it is missing outside CI.
fn chromium() -> Option<PathBuf> {
    let path =
        PathBuf::from(std::env::var_os("CHROMIUM").unwrap_or_else(|| "/usr/bin/chromium".into()));
    if path.is_file() {
        return Some(path);
    }
    let msg = format!(
        "the browser test needs Chromium at {}: install Debian's chromium package \
         (`sudo apt-get install chromium`) or set CHROMIUM to a Chromium binary",
        path.display()
    );
    assert!(std::env::var_os("CI").is_none(), "CI: {msg}");
    eprintln!("note: skipping the browser test; {msg}");
    None
}

fn lower_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The signed example's cases, made and judged by Rust: the demo key and envelope, and
/// tampered envelopes with the refusal Rust gives each.
fn signed_cases() -> Value {
    let key = demo_key();
    let signed = signing::sign(&key, &demo_transfer()).expect("the demo transfer encodes");
    let cases = tampered_envelopes(&signed).expect("the envelope tampers");
    let tampered: Vec<Value> = cases
        .into_iter()
        .map(|(name, bytes)| {
            let e = signing::verify::<Transfer>(&key.verifying_key(), &bytes)
                .expect_err("Rust refuses the tampered envelope");
            let mut case = json!({"name": name, "hex": lower_hex(&bytes), "code": e.code()});
            if let Some(d) = e.decode_error() {
                case["offset"] = json!(d.offset());
                case["path"] = json!(d.path_string());
                case["message"] = json!(d.to_string());
            }
            case
        })
        .collect();
    json!({
        "seed": lower_hex(&key.to_bytes()),
        "public": lower_hex(key.verifying_key().as_bytes()),
        "signed": lower_hex(&signed),
        "tampered": tampered,
    })
}

#[test]
fn the_typescript_package_tests_and_the_signed_example_pass_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        return;
    };
    // Node, npm ci and the generated example code (typescript/gen/examples).
    if typescript::testee()
        .unwrap_or_else(|e| panic!("{e}"))
        .is_none()
    {
        return;
    }
    let dir = typescript::package_dir();
    let tsc = Command::new("node")
        .args([
            "node_modules/typescript/bin/tsc",
            "-p",
            "tsconfig.browser.json",
        ])
        .current_dir(&dir)
        .output()
        .expect("node runs");
    assert!(
        tsc.status.success(),
        "tsc -p tsconfig.browser.json:\n{}",
        String::from_utf8_lossy(&tsc.stdout)
    );

    let cases = json!({ "signed": signed_cases() });
    let cases_file = dir.join("dist/browser/cases.json");
    std::fs::write(&cases_file, cases.to_string()).expect("write the cases");
    let out = Command::new("node")
        .arg("test/browser/run.mjs")
        .arg("--cases")
        .arg(&cases_file)
        .arg("--chromium")
        .arg(&chromium)
        .current_dir(&dir)
        .output()
        .expect("node runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("run.mjs printed no report ({e}):\n{stderr}"));
    assert!(out.status.success(), "{stderr}\n{report:#}");
    assert!(report.get("fatal").is_none(), "{report:#}");
    assert!(
        report["userAgent"]
            .as_str()
            .is_some_and(|ua| ua.contains("Chrome/")),
        "{report:#}"
    );

    // Every check and test passed, and each part really ran.
    let checks = report["checks"].as_array().expect("checks");
    let tests = report["tests"].as_array().expect("tests");
    let failed: Vec<&Value> = checks
        .iter()
        .chain(tests)
        .filter(|t| t["ok"] != true)
        .collect();
    assert!(failed.is_empty(), "failed in the browser: {failed:#?}");
    let test_files = std::fs::read_dir(dir.join("test"))
        .expect("typescript/test")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".test.ts"))
        .count();
    let ran_files: std::collections::BTreeSet<&str> =
        tests.iter().filter_map(|t| t["file"].as_str()).collect();
    assert_eq!(
        ran_files.len(),
        test_files,
        "every test module ran: {ran_files:?}"
    );
    let signed_checks = checks
        .iter()
        .filter(|c| {
            c["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("signed example"))
        })
        .count();
    let tampered = cases["signed"]["tampered"].as_array().expect("cases").len();
    assert_eq!(signed_checks, 2 + tampered, "{checks:#?}");
    eprintln!(
        "{}: {} checks and {} package tests passed",
        report["userAgent"],
        checks.len(),
        tests.len()
    );
}
