//! The TypeScript implementation (`typescript/` at the repository root) as a testee:
//! its code is generated from the conformance schemas by `bijoubuf-codegen-ts`, compiled
//! with the package's pinned TypeScript, and run with Node. The same build compiles the
//! package's signed-envelope example (`typescript/examples/signed.ts`).
//!
//! Node 20 and npm are needed. Without them a local run says what to install and leaves
//! the TypeScript engine out; in CI (`CI` set) that is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The `typescript/` package directory.
pub fn package_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../typescript")
}

/// What a missing toolchain means here: fail in CI, skip with a note elsewhere.
fn missing(what: &str) -> Result<Option<Vec<String>>, String> {
    let msg = format!(
        "the TypeScript implementation's tests need {what}: install Node.js 20 or newer with npm \
         (e.g. `apt-get install nodejs npm`, or from nodejs.org), then run `npm ci` in typescript/"
    );
    if std::env::var_os("CI").is_some() {
        Err(format!("CI: {msg}"))
    } else {
        eprintln!("note: skipping the TypeScript engine; {msg}");
        Ok(None)
    }
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Write the TypeScript of `schema` to `typescript/<sub>`, importing the runtime from `runtime`.
fn write(schema: &bijoubuf_schema::Schema, out: &Path, runtime: &str) -> Result<(), String> {
    let mut options = bijoubuf_codegen_ts::Options::new();
    options.runtime_import(runtime);
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for f in bijoubuf_codegen_ts::generate(schema, &options) {
        let path = out.join(&f.name);
        // Unchanged files are left alone, so their timestamps do not trigger rebuilds.
        if std::fs::read_to_string(&path).ok().as_deref() != Some(f.content.as_str()) {
            std::fs::write(&path, f.content).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Generate the TypeScript the testee and the examples import: the conformance schemas
/// to `typescript/gen/conformance`, the signed-envelope example's to `typescript/gen/examples`.
fn generate(dir: &Path) -> Result<(), String> {
    let compiled = bijoubuf_schema::compile_sources(crate::SCHEMA_SOURCES)
        .map_err(|d| format!("conformance schemas do not compile: {d:?}"))?;
    write(
        &compiled.schema,
        &dir.join("gen/conformance"),
        "../../src/index.js",
    )?;
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let examples = bijoubuf_schema::Compiler::new()
        .include(&schemas)
        .compile(&["examples/signed.proto", "examples/ledger.proto"])
        .map_err(|e| format!("example schemas do not compile: {e}"))?;
    write(
        &examples.schema,
        &dir.join("gen/examples"),
        "../../src/index.js",
    )
}

fn prepare() -> Result<Option<Vec<String>>, String> {
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node_ok {
        return missing("`node`, which was not found");
    }
    let dir = package_dir();
    if !dir.join("node_modules/typescript").is_dir() {
        let npm_ok = Command::new("npm")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !npm_ok {
            return missing("`npm`, which was not found");
        }
        run(
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&dir),
            "npm ci in typescript/",
        )?;
    }
    generate(&dir)?;
    run(
        Command::new("node")
            .args([
                "node_modules/typescript/bin/tsc",
                "-p",
                "tsconfig.testee.json",
            ])
            .current_dir(&dir),
        "compiling the TypeScript testee (tsc -p typescript/tsconfig.testee.json)",
    )?;
    let testee = dir.join("dist/testee/testee.js");
    Ok(Some(vec![
        "node".to_string(),
        testee.to_string_lossy().into_owned(),
    ]))
}

/// The command line of the TypeScript testee, built once per process: `Ok(None)` when
/// Node is missing outside CI (after a note on stderr), `Err` when it is missing in CI or
/// the build fails.
///
/// # Errors
/// A message saying what failed or what to install.
pub fn testee() -> Result<Option<Vec<String>>, String> {
    static ONCE: OnceLock<Result<Option<Vec<String>>, String>> = OnceLock::new();
    ONCE.get_or_init(prepare).clone()
}
