//! One named snapshot of generated code per schema in `schemas/`.

use std::path::{Path, PathBuf};

use bijoubuf_codegen::{GeneratedFile, Options, generate};
use bijoubuf_schema::Compiler;

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

fn generate_file(name: &str, opts: &Options) -> Vec<GeneratedFile> {
    let compiled = Compiler::new()
        .include(schemas_dir())
        .compile(&[name])
        .unwrap_or_else(|e| panic!("{name} does not compile: {e}"));
    generate(&compiled.schema, opts).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn joined(files: &[GeneratedFile]) -> String {
    files
        .iter()
        .map(|f| format!("==> {} <==\n{}", f.name, f.content))
        .collect()
}

#[test]
fn kitchen_sink() {
    let mut opts = Options::new();
    opts.preserve_unknown_fields([".kitchen.Tree"]);
    insta::assert_snapshot!(
        "kitchen_sink",
        joined(&generate_file("kitchen/sink.proto", &opts))
    );
}

#[test]
fn kitchen_extra() {
    let files = generate_file("kitchen/extra.proto", &Options::new());
    // The packages whose types it uses come along (their snapshots are their own).
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["kitchen.rs", "kitchen.extra.rs", "legacy.rs"]);
    insta::assert_snapshot!("kitchen_extra", joined(&files[1..2]));
}

#[test]
fn legacy_proto2() {
    insta::assert_snapshot!(
        "legacy_proto2",
        joined(&generate_file("legacy/legacy.proto", &Options::new()))
    );
}

#[test]
fn keywords() {
    insta::assert_snapshot!(
        "keywords",
        joined(&generate_file("keywords/keywords.proto", &Options::new()))
    );
}

#[test]
fn example_envelope() {
    let mut opts = Options::new();
    opts.preserve_unknown_fields([".example.v1.Envelope"]);
    insta::assert_snapshot!(
        "example_envelope",
        joined(&generate_file("example/v1/envelope.proto", &opts))
    );
}

#[test]
fn kitchen_borrowed() {
    // Borrowed twins: a oneof with borrowing and non-borrowing members (Choice, which
    // reaches Scalars), and recursion through singular, repeated, map and oneof fields
    // with preserved unknown fields (Tree, which reaches Tree.Leaf).
    let mut opts = Options::new();
    opts.preserve_unknown_fields([".kitchen.Tree"])
        .borrowed([".kitchen.Choice", ".kitchen.Tree"]);
    insta::assert_snapshot!(
        "kitchen_borrowed",
        joined(&generate_file("kitchen/sink.proto", &opts))
    );
}

#[test]
fn kitchen_dispatch() {
    // Every message decoded by dispatch, owned types and twins: every field shape's arm
    // (implicit, optional, repeated, fixed-width runs and maps in twins, maps, oneofs,
    // boxed recursion) and the unknown-field member's `finish`.
    let mut opts = Options::new();
    opts.preserve_unknown_fields([".kitchen.Tree"])
        .borrowed([".kitchen.Choice", ".kitchen.Tree", ".kitchen.Repeats"])
        .decode_dispatch(["."]);
    insta::assert_snapshot!(
        "kitchen_dispatch",
        joined(&generate_file("kitchen/sink.proto", &opts))
    );
}

#[test]
fn kitchen_table() {
    // Every message decoded by a table, owned types and twins: every field shape's entry
    // (implicit, optional, repeated, fixed-width runs and sorted maps in twins, maps,
    // boxed recursion), oneof members through the arm, and the unknown-field member.
    let mut opts = Options::new();
    opts.preserve_unknown_fields([".kitchen.Tree"])
        .borrowed([".kitchen.Choice", ".kitchen.Tree", ".kitchen.Repeats"])
        .decode_table(["."]);
    insta::assert_snapshot!(
        "kitchen_table",
        joined(&generate_file("kitchen/sink.proto", &opts))
    );
}
