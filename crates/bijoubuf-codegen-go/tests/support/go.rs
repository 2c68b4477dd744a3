//! The Go toolchain for the tests that compile generated Go (`snapshots.rs`,
//! `services.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `go` binary, or `None` (after a note) when it is missing outside CI.
pub(crate) fn go() -> Option<PathBuf> {
    let go = PathBuf::from(std::env::var_os("GO").unwrap_or_else(|| "go".into()));
    if Command::new(&go)
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return Some(go);
    }
    let msg = "the generated Go is checked with Go 1.26 or newer (`go` on the PATH, or GO)";
    assert!(std::env::var_os("CI").is_none(), "CI: {msg}");
    eprintln!("note: skipping; {msg}");
    None
}

/// `go args…` in `dir`, its output; a failure panics with it. Modules a scratch module
/// requires (grpc-go, as go/grpc/go.sum pins it) come from the module cache or the Go
/// module proxy.
pub(crate) fn run(go: &Path, dir: &Path, args: &[&str]) -> String {
    let out = Command::new(go)
        .args(args)
        .current_dir(dir)
        .env("GOFLAGS", "-mod=mod")
        .output()
        .unwrap_or_else(|e| panic!("go {args:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "go {args:?} failed:\n{text}");
    text
}
