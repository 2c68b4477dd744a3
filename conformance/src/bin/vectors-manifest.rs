//! Writes or checks `conformance/vectors/MANIFEST` (see `bijoubuf_conformance::manifest`).
//!
//! ```text
//! vectors-manifest [--dir CONFORMANCE-DIR] --version NEW   # after changing the set
//! vectors-manifest [--dir CONFORMANCE-DIR] --check
//! ```
//!
//! A changed set needs a new version: writing it under the version already in the
//! manifest is refused, so a pack version always names one set of vectors.

use std::path::PathBuf;
use std::process::ExitCode;

use bijoubuf_conformance::manifest::Manifest;

fn main() -> ExitCode {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut version = None;
    let mut check = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), args.next()) {
            ("--check", next) => {
                check = true;
                if let Some(n) = next {
                    return usage(&format!("unexpected argument {n:?}"));
                }
            }
            ("--dir", Some(d)) => dir = PathBuf::from(d),
            ("--version", Some(v)) => version = Some(v),
            _ => return usage(&format!("unexpected argument {a:?}")),
        }
    }
    if check {
        return match Manifest::check(&dir) {
            Ok(m) => {
                println!("vectors/MANIFEST: pack version {}, up to date", m.version);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("vectors-manifest: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let path = dir.join("vectors/MANIFEST");
    let old = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| Manifest::parse(&t).ok());
    let Some(version) = version.or_else(|| old.as_ref().map(|m| m.version.clone())) else {
        return usage("no manifest yet: give --version");
    };
    let new = match Manifest::compute(&dir, &version) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("vectors-manifest: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(old) = &old
        && old.version == new.version
        && (old.sha256 != new.sha256 || old.cases != new.cases || old.spec != new.spec)
    {
        eprintln!(
            "vectors-manifest: the set changed but the version is still {}; give a new one with --version",
            old.version
        );
        return ExitCode::FAILURE;
    }
    if !new.version.starts_with(&format!("{}.", new.spec)) {
        return usage(&format!(
            "the version starts with the SPEC version {} and a dot (e.g. {}.0)",
            new.spec, new.spec
        ));
    }
    if let Err(e) = std::fs::write(&path, new.render()) {
        eprintln!("vectors-manifest: {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!(
        "vectors/MANIFEST: pack version {}, {} vectors in {} files, sha256 {}",
        new.version,
        new.cases.iter().map(|c| c.1).sum::<usize>(),
        new.cases.len(),
        new.sha256
    );
    ExitCode::SUCCESS
}

fn usage(why: &str) -> ExitCode {
    eprintln!("vectors-manifest: {why}");
    eprintln!("usage: vectors-manifest [--dir CONFORMANCE-DIR] (--version NEW | --check)");
    ExitCode::from(2)
}
