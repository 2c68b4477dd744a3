//! A real crate with a build.rs, built by cargo again and again: an edit of a `.proto`
//! outside the crate regenerates the code, an edit of the crate's Rust source does not
//! rerun the build script, and lint warnings reach cargo's output.
//!
//! The crate is built offline against the workspace's lock file into a target
//! directory of its own under this crate's test scratch space (kept between runs, so
//! only the first run compiles the dependencies).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Rewrites `path` with `text` and moves its modification time clearly past anything
/// cargo recorded, so the change is seen whatever the file system's time resolution.
fn edit(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    let later = SystemTime::now() + Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(later)
        .unwrap();
}

/// `cargo build` of the crate; returns cargo's stderr.
fn build(app: &Path, target: &Path) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["build", "--offline", "--color", "never"])
        .current_dir(app)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "cargo build failed:\n{stderr}");
    stderr
}

/// One line per run of the build script: the generated file's path.
fn runs(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("runs.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

const ORDER_V1: &str = "syntax = \"proto3\";\npackage shop.v1;\n\
import \"shop/v1/money.proto\";\n\
message Order {\n  string id = 1;\n  int64 totalCents = 2;\n}\n";

const ORDER_V2: &str = "syntax = \"proto3\";\npackage shop.v1;\n\
import \"shop/v1/money.proto\";\n\
message Order {\n  string id = 1;\n  int64 totalCents = 2;\n  string note = 3;\n}\n";

const MONEY_V1: &str =
    "syntax = \"proto3\";\npackage shop.v1;\nmessage Money { int64 units = 1; }\n";

const MONEY_V2: &str = "syntax = \"proto3\";\npackage shop.v1;\nmessage Money { int64 units = 1; string currency = 2; }\n";

const BUILD_RS: &str = r#"
use std::io::Write;

fn main() -> Result<(), bijoubuf_build::Error> {
    bijoubuf_build::Config::new()
        .compile_protos(&["../protos/shop/v1/order.proto"], &["../protos"])?;
    // Test bookkeeping: say that the script ran and where it wrote.
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("shop.v1.rs");
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open("../runs.log")
        .unwrap();
    writeln!(log, "{}", out.display()).unwrap();
    Ok(())
}
"#;

const LIB_RS: &str = "pub mod shop {\n    bijoubuf::include_proto!(\"shop.v1\");\n}\n";

#[test]
fn a_build_script_reruns_for_its_protos_and_only_for_them() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rerun");
    let app = dir.join("app");
    let _ = std::fs::remove_dir_all(dir.join("protos"));
    let _ = std::fs::remove_dir_all(&app);
    let _ = std::fs::remove_file(dir.join("runs.log"));
    std::fs::create_dir_all(dir.join("protos/shop/v1")).unwrap();
    std::fs::create_dir_all(app.join("src")).unwrap();
    let root = root().canonicalize().unwrap();
    std::fs::write(
        app.join("Cargo.toml"),
        format!(
            "[package]\nname = \"rerun-app\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n[workspace]\n\n[dependencies]\n\
             bijoubuf = {{ path = {:?} }}\n\n[build-dependencies]\n\
             bijoubuf-build = {{ path = {:?} }}\n",
            root.join("crates/bijoubuf"),
            root.join("crates/bijoubuf-build"),
        ),
    )
    .unwrap();
    // The workspace's versions, so the build needs no network.
    std::fs::copy(root.join("Cargo.lock"), app.join("Cargo.lock")).unwrap();
    std::fs::write(app.join("build.rs"), BUILD_RS).unwrap();
    std::fs::write(app.join("src/lib.rs"), LIB_RS).unwrap();
    let proto = dir.join("protos/shop/v1/order.proto");
    std::fs::write(&proto, ORDER_V1).unwrap();
    let money = dir.join("protos/shop/v1/money.proto");
    std::fs::write(&money, MONEY_V1).unwrap();
    let target = dir.join("target");

    // First build: the script runs, and the lint warning (`totalCents` is not
    // lower_snake_case) is shown by cargo.
    let stderr = build(&app, &target);
    assert_eq!(runs(&dir).len(), 1);
    assert!(
        stderr.contains("shop/v1/order.proto:6:")
            && stderr.contains("warning[lint-field-name]")
            && stderr.contains("totalCents"),
        "no lint warning in cargo's output:\n{stderr}"
    );
    let generated = PathBuf::from(&runs(&dir)[0]);
    assert!(
        !std::fs::read_to_string(&generated)
            .unwrap()
            .contains("note")
    );

    // Nothing changed: nothing reruns.
    build(&app, &target);
    assert_eq!(runs(&dir).len(), 1, "the build script reran with no change");

    // An edit of the crate's Rust source recompiles the crate but does not rerun the
    // script (without rerun-if-changed lines cargo reruns it on any file of the package).
    edit(&app.join("src/lib.rs"), &format!("{LIB_RS}// an edit\n"));
    build(&app, &target);
    assert_eq!(
        runs(&dir).len(),
        1,
        "the build script reran for an edit of src/lib.rs"
    );

    // An edit of the .proto outside the crate regenerates the code.
    edit(&proto, ORDER_V2);
    build(&app, &target);
    assert_eq!(
        runs(&dir).len(),
        2,
        "the build script did not rerun for an edit of the .proto outside the crate"
    );
    let text = std::fs::read_to_string(&generated).unwrap();
    assert!(text.contains("pub note:"), "{text}");

    // So does an edit of a file it only imports (nothing is generated from it here,
    // but its types could change the importer's code).
    edit(&money, MONEY_V2);
    build(&app, &target);
    assert_eq!(
        runs(&dir).len(),
        3,
        "no rerun for an edit of an imported .proto"
    );

    // A new file in the include directory reruns it too (it could shadow an import).
    edit(&dir.join("protos/other.proto"), "syntax = \"proto3\";\n");
    build(&app, &target);
    assert_eq!(
        runs(&dir).len(),
        4,
        "no rerun for a new file in the include folder"
    );
}
