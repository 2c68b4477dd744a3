//! Our encoded descriptor set against protoc's for the fixtures under `tests/protoc`,
//! field by field and options included (custom options, standard options prost-types
//! lacks, aggregate values in text format). The reference set was written by protoc; how
//! to regenerate it is in `tests/protoc/README.md`.

mod support {
    pub(crate) mod fds_diff;
}

use std::path::{Path, PathBuf};

use support::fds_diff;

const FILES: [&str; 2] = ["options/kinds.proto", "options/proto3.proto"];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/protoc")
}

fn ours() -> Vec<u8> {
    let compiled = bijoubuf_schema::Compiler::new()
        .include(dir())
        .compile(&FILES)
        .unwrap_or_else(|e| panic!("{e:?}"));
    compiled.schema.encode_file_descriptor_set()
}

fn reference() -> Vec<u8> {
    std::fs::read(dir().join("options.binpb")).expect("the committed reference set")
}

#[test]
fn descriptor_set_with_options_matches_protoc() {
    let report = fds_diff::diff(&ours(), &reference()).expect("both sets decode");
    assert_eq!(report.files_compared, FILES.len(), "{report:?}");
    assert_eq!(report.files_identical, FILES.len(), "{report:?}");
    // protoc's set also holds the imports (`--include_imports`).
    assert_eq!(
        report.only_in_reference,
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

/// The comparison sees options: dropping one value from our set is a difference.
#[test]
fn the_comparison_catches_a_missing_option() {
    let compiled = bijoubuf_schema::Compiler::new()
        .include(dir())
        .compile(&FILES)
        .expect("compiles");
    // The prost-types view loses custom options; encoded, it must differ from protoc.
    let lossy = prost::Message::encode_to_vec(&compiled.schema.file_descriptor_set());
    let report = fds_diff::diff(&lossy, &reference()).expect("both sets decode");
    assert!(
        report
            .differences
            .iter()
            .any(|d| d.contains("(opts.kinds.field_f64)")),
        "{report:?}"
    );
}

/// The `prost_types` view is the encoded set decoded by `prost_types`.
#[test]
fn prost_types_view_is_the_encoded_set_decoded() {
    let compiled = bijoubuf_schema::Compiler::new()
        .include(dir())
        .compile(&FILES)
        .expect("compiles");
    let schema = &compiled.schema;
    let decoded = <prost_types::FileDescriptorSet as prost::Message>::decode(
        schema.encode_file_descriptor_set().as_slice(),
    )
    .expect("decodes");
    assert_eq!(decoded, schema.file_descriptor_set());
    let decoded = <prost_types::FileDescriptorSet as prost::Message>::decode(
        schema.encode_file_descriptor_set_with_imports().as_slice(),
    )
    .expect("decodes");
    assert_eq!(decoded, schema.file_descriptor_set_with_imports());
    assert!(decoded.file.len() > FILES.len());
}
