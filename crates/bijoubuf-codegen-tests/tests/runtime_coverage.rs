//! Every test file of the runtime (`crates/bijoubuf/tests/*.rs`) either runs against
//! generated types here (`tests/runtime_<name>.rs`) or is listed below with the reason
//! it cannot, so a new runtime test file is not silently left out.

use std::path::Path;

/// Runtime test files that define their own `Message` impls instead of using `common`:
/// they test the runtime against those deliberately odd impls, so there is nothing for
/// generated code to replace. (Also listed in this crate's README.)
const EXCLUDED: &[(&str, &str)] = &[
    (
        "inconsistent_impl",
        "its impl lies on purpose (size and write passes disagree); generated code cannot",
    ),
    (
        "strict_types",
        "defines its own storage-less type; tests/rejects.rs covers generated strict types",
    ),
];

#[test]
fn every_runtime_test_file_runs_here_or_is_excluded_with_a_reason() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runtime = here.join("../bijoubuf/tests");
    let mut missing = Vec::new();
    let mut seen = 0;
    for e in std::fs::read_dir(&runtime).expect("the runtime's tests directory") {
        let path = e.expect("a directory entry").path();
        if path.extension().and_then(|s| s.to_str()) != Some("rs") {
            continue;
        }
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a UTF-8 name");
        seen += 1;
        let wrapper = here.join(format!("tests/runtime_{stem}.rs"));
        let excluded = EXCLUDED.iter().any(|(name, _)| *name == stem);
        assert!(
            !(wrapper.exists() && excluded),
            "{stem} is both run and excluded"
        );
        if !wrapper.exists() && !excluded {
            missing.push(stem.to_string());
        }
    }
    assert!(
        seen > EXCLUDED.len(),
        "found only {seen} runtime test files"
    );
    assert!(
        missing.is_empty(),
        "runtime test files neither run against generated types nor excluded: {missing:?} \
         (add tests/runtime_<name>.rs, or an entry in EXCLUDED and the README)"
    );
}
