//! Our encoded descriptor set against protoc's for the fixtures under `tests/protoc`,
//! field by field and options included (custom options, standard options prost-types
//! lacks, aggregate values in text format, packed repeated scalars inside option values).
//! The reference set was written by protoc; how to regenerate it is in
//! `tests/protoc/README.md`.

mod support {
    pub(crate) mod fds_diff;
}

use std::path::{Path, PathBuf};

use support::fds_diff;

const FILES: [&str; 4] = [
    "options/kinds.proto",
    "options/proto3.proto",
    "options/packed.proto",
    "options/packed3.proto",
];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/protoc")
}

fn compiled() -> bijoubuf_schema::Compiled {
    bijoubuf_schema::Compiler::new()
        .include(dir())
        .compile(&FILES)
        .unwrap_or_else(|e| panic!("{e:?}"))
}

fn reference() -> Vec<u8> {
    std::fs::read(dir().join("options.binpb")).expect("the committed reference set")
}

#[test]
fn descriptor_set_with_options_matches_protoc() {
    let ours = compiled().schema.encode_file_descriptor_set();
    let report = fds_diff::diff(&ours, &reference()).expect("both sets decode");
    assert_eq!(report.files_compared, FILES.len(), "{report:?}");
    // protoc's set also holds the imports our set leaves out (--include_imports).
    let mut imports = report.only_in_reference.clone();
    imports.sort();
    assert_eq!(
        imports,
        [
            "google/protobuf/any.proto",
            "google/protobuf/descriptor.proto"
        ]
    );
    assert!(
        report.differences.is_empty(),
        "{} differences from protoc:\n{}",
        report.differences.len(),
        report.differences.join("\n")
    );
}

/// The comparison sees options: the prost-types view, which loses custom options,
/// differs from protoc.
#[test]
fn the_comparison_catches_a_missing_option() {
    let lossy = prost::Message::encode_to_vec(&compiled().schema.file_descriptor_set());
    let report = fds_diff::diff(&lossy, &reference()).expect("both sets decode");
    assert!(
        report
            .differences
            .iter()
            .any(|d| d.contains("(opts.kinds.field_f64)")),
        "{report:?}"
    );
}
