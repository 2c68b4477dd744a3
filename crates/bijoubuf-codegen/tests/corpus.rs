//! Every schema the schema compiler accepts in its corpus generates code that parses
//! as Rust: no panic, no internal error, whatever the feature mix.

use std::path::Path;

use bijoubuf_codegen::{Options, generate};
use bijoubuf_schema::Compiler;

#[test]
fn every_accepted_corpus_schema_generates() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bijoubuf-schema/tests/corpus/pass");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the schema corpus is in the repository")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".proto"))
        .collect();
    names.sort();
    assert!(names.len() > 20, "corpus looks empty: {names:?}");
    let mut generated = 0;
    for name in &names {
        let Ok(compiled) = Compiler::new().include(&dir).compile(&[name.as_str()]) else {
            // The corpus's own tests say which files compile; this test is about codegen.
            continue;
        };
        for opts in [Options::new(), {
            let mut o = Options::new();
            o.preserve_unknown_fields(["."]).serde(["."]).no_std();
            o
        }] {
            match generate(&compiled.schema, &opts) {
                Ok(files) => generated += files.len(),
                Err(e) => panic!("{name}: {e}"),
            }
        }
    }
    assert!(generated > 20, "only {generated} files generated");
}
