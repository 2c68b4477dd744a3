//! The Go implementation (`go/` at the repository root) as a testee: its conformance
//! testee (`go/cmd/bijoubuf-testee`, over the Go code generated from the conformance
//! schemas into `go/internal/schemas`) is built with `go build` into the target
//! directory (`target/go/`) once per process.
//!
//! Go 1.26 or newer is needed (`go` on the PATH, or `GO=path`). Without it a local run
//! says what to install and leaves the Go engine out; in CI (`CI` set) that is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The `go/` module directory.
pub fn module_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../go")
}

/// What a missing toolchain means here: `Err` in CI, a note and `Ok(None)` elsewhere.
fn missing(go: &Path) -> Result<Option<PathBuf>, String> {
    let msg = format!(
        "the Go implementation's tests need Go 1.26 or newer as `{}`: install it from go.dev/dl \
         (or the distribution's golang package) and put `go` on the PATH, or set GO to its path",
        go.display()
    );
    if std::env::var_os("CI").is_some() {
        Err(format!("CI: {msg}"))
    } else {
        eprintln!("note: skipping the Go engine and tests; {msg}");
        Ok(None)
    }
}

fn find_go() -> Result<Option<PathBuf>, String> {
    let go = PathBuf::from(std::env::var_os("GO").unwrap_or_else(|| "go".into()));
    let ok = Command::new(&go)
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ok { Ok(Some(go)) } else { missing(&go) }
}

/// The `go` binary: `Ok(None)` when it is missing outside CI (after a note on stderr),
/// `Err` when it is missing in CI.
///
/// # Errors
/// A message saying what to install.
pub fn go() -> Result<Option<PathBuf>, String> {
    static ONCE: OnceLock<Result<Option<PathBuf>, String>> = OnceLock::new();
    ONCE.get_or_init(find_go).clone()
}

/// The directory Go binaries are built into: `go/` under the Cargo target directory.
fn out_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    );
    target.join("go")
}

/// Build the Go package `pkg` (`./cmd/...`) of the module into `target/go/<name>`.
///
/// # Errors
/// The build's output when it fails.
pub fn build(go: &Path, pkg: &str, name: &str) -> Result<PathBuf, String> {
    let out = out_dir().join(name);
    let res = Command::new(go)
        .args(["build", "-o"])
        .arg(&out)
        .arg(pkg)
        .current_dir(module_dir())
        .output()
        .map_err(|e| format!("go build {pkg}: cannot start: {e}"))?;
    if !res.status.success() {
        return Err(format!(
            "go build {pkg} failed ({}):\n{}{}",
            res.status,
            String::from_utf8_lossy(&res.stdout),
            String::from_utf8_lossy(&res.stderr)
        ));
    }
    Ok(out)
}

fn prepare() -> Result<Option<Vec<String>>, String> {
    let Some(go) = go()? else {
        return Ok(None);
    };
    let exe = build(&go, "./cmd/bijoubuf-testee", "bijoubuf-testee")?;
    Ok(Some(vec![exe.to_string_lossy().into_owned()]))
}

/// The command line of the Go testee, built once per process: `Ok(None)` when Go is
/// missing outside CI (after a note on stderr), `Err` when it is missing in CI or the
/// build fails.
///
/// # Errors
/// A message saying what failed or what to install.
pub fn testee() -> Result<Option<Vec<String>>, String> {
    static ONCE: OnceLock<Result<Option<Vec<String>>, String>> = OnceLock::new();
    ONCE.get_or_init(prepare).clone()
}
