//! The Go implementation (`go/` at the repository root), from `cargo test`: `go vet`,
//! `gofmt -l` (no file may need formatting) and the module's own tests (`go test ./...`:
//! bijou64's tier edges and fuzz seeds, the runtime's wire primitives on SPEC's cards and
//! Appendix A).
//!
//! Go 1.26 or newer is needed (`go` on the PATH, or `GO=path`); without it a local run
//! says what to install and passes, while in CI (`CI` set) it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `go` binary, or `None` (after a note) when it is missing outside CI.
fn go() -> Option<PathBuf> {
    let go = PathBuf::from(std::env::var_os("GO").unwrap_or_else(|| "go".into()));
    if Command::new(&go)
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return Some(go);
    }
    let msg = format!(
        "the Go implementation's tests need Go 1.26 or newer as `{}`: install it from go.dev/dl \
         (or the distribution's golang package) and put `go` on the PATH, or set GO to its path",
        go.display()
    );
    assert!(std::env::var_os("CI").is_none(), "CI: {msg}");
    eprintln!("note: skipping the Go tests; {msg}");
    None
}

/// The `go/` module directory.
fn module_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../go")
}

/// Run `go args…` in the module; its output on failure.
fn run(go: &Path, args: &[&str]) -> String {
    let out = Command::new(go)
        .args(args)
        .current_dir(module_dir())
        .output()
        .unwrap_or_else(|e| panic!("go {}: cannot start: {e}", args.join(" ")));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "go {} failed ({}):\n{text}",
        args.join(" "),
        out.status
    );
    text
}

#[test]
fn go_module_is_vetted_formatted_and_its_tests_pass() {
    let Some(go) = go() else {
        return;
    };
    run(&go, &["vet", "./..."]);
    // gofmt ships with the toolchain (`go fmt` would rewrite files; `gofmt -l` lists them).
    let goroot = run(&go, &["env", "GOROOT"]);
    let gofmt = Path::new(goroot.trim()).join("bin").join("gofmt");
    let out = Command::new(&gofmt)
        .args(["-l", "."])
        .current_dir(module_dir())
        .output()
        .unwrap_or_else(|e| panic!("{}: cannot start: {e}", gofmt.display()));
    assert!(out.status.success(), "gofmt -l failed: {out:?}");
    let unformatted = String::from_utf8_lossy(&out.stdout);
    assert!(
        unformatted.trim().is_empty(),
        "files gofmt would change (run `gofmt -w .` in go/):\n{unformatted}"
    );
    let text = run(&go, &["test", "./..."]);
    // Both packages ran (a package without tests would print "no test files").
    for pkg in ["go/bijou64", "go/bijoubuf"] {
        assert!(
            text.lines().any(|l| l.starts_with("ok") && l.contains(pkg)),
            "go test ran no tests in {pkg}:\n{text}"
        );
    }
}
