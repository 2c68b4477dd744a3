//! Every test file of the runtime (`crates/bijoubuf/tests/*.rs`) that uses the shared
//! hand-written message types (`mod common;`) runs against generated types here
//! (`tests/runtime_<name>.rs`) or is listed below with the reason it cannot, so a new
//! runtime test file is not silently left out.

use std::path::Path;

/// Runtime test files that use `common` but cannot run against generated types; an
/// entry needs a line in this crate's README too.
const EXCLUDED: &[(&str, &str)] = &[(
    "sink",
    "uses common's Repeats as a hand-written (checked) type on purpose, for the two \
     passes beside generated code's one pass; its hasher parts need the runtime's features",
)];

#[test]
fn every_runtime_test_file_using_common_runs_here_or_is_excluded_with_a_reason() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runtime = here.join("../bijoubuf/tests");
    let mut missing = Vec::new();
    let mut using_common = 0;
    for e in std::fs::read_dir(&runtime).expect("the runtime's tests directory") {
        let path = e.expect("a directory entry").path();
        if path.extension().and_then(|s| s.to_str()) != Some("rs") {
            continue;
        }
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a UTF-8 name");
        let text = std::fs::read_to_string(&path).expect("a readable test file");
        let wrapper = here.join(format!("tests/runtime_{stem}.rs")).exists();
        if !text.lines().any(|l| l.trim() == "mod common;") {
            // Its own impls or no messages at all: nothing generated code could replace.
            assert!(
                !wrapper,
                "{stem} does not use common; its wrapper runs nothing new"
            );
            continue;
        }
        using_common += 1;
        let excluded = EXCLUDED.iter().any(|(name, _)| *name == stem);
        assert!(!(wrapper && excluded), "{stem} is both run and excluded");
        if !wrapper && !excluded {
            missing.push(stem.to_string());
        }
    }
    assert!(
        using_common >= 7,
        "found only {using_common} files using common"
    );
    assert!(
        missing.is_empty(),
        "runtime test files using common neither run against generated types nor \
         excluded: {missing:?} (add tests/runtime_<name>.rs, or an entry in EXCLUDED and \
         the README)"
    );
}
