//! Which files `generate` writes: the requested ones and the imported files whose types
//! they use, followed through the files added, never a file only imported, nor a type
//! mapped elsewhere.

use bijoubuf_codegen::{Options, generate};
use bijoubuf_schema::Compiler;

const A: &str = r#"syntax = "proto3";
package a;
import "b.proto";
import "unused.proto";
import "opts.proto";
import "google/protobuf/timestamp.proto";
import "d.proto";
message A {
  b.B b = 1 [(opts.note) = "x"];
  google.protobuf.Timestamp at = 2;
  map<string, b.Kind> kinds = 3;
}
service S { rpc Call(A) returns (d.Reply); }
"#;

const B: &str = r#"syntax = "proto3";
package b;
import "c.proto";
message B { c.C c = 1; }
enum Kind { KIND_UNSPECIFIED = 0; }
"#;

const C: &str = r#"syntax = "proto3"; package c; message C { int32 x = 1; }"#;
const D: &str = r#"syntax = "proto3"; package d; message Reply { int32 x = 1; }"#;
const UNUSED: &str = r#"syntax = "proto3"; package unused; message U { int32 x = 1; }"#;
const OPTS: &str = r#"syntax = "proto3"; package opts;
import "google/protobuf/descriptor.proto";
extend google.protobuf.FieldOptions { string note = 50001; }
message Carried { int32 x = 1; }
"#;

/// The names of the files generated for `a.proto` alone.
fn generated(options: &Options) -> Vec<String> {
    let mut c = Compiler::new();
    for (name, text) in [
        ("a.proto", A),
        ("b.proto", B),
        ("c.proto", C),
        ("d.proto", D),
        ("unused.proto", UNUSED),
        ("opts.proto", OPTS),
    ] {
        c.source(name, text);
    }
    let compiled = c
        .compile(&["a.proto"])
        .unwrap_or_else(|e| panic!("refused: {e:?}"));
    generate(&compiled.schema, options)
        .expect("generates")
        .into_iter()
        .map(|f| f.name)
        .collect()
}

#[test]
fn imported_files_whose_types_are_used_are_generated_transitively() {
    // b.proto for the field and the map's enum, c.proto through b.proto. Not
    // unused.proto, nor opts.proto (imported for an option: neither its extension nor its
    // message is used), nor descriptor.proto behind it, nor the runtime's Timestamp,
    // nor d.proto (only a service uses it, and services are off).
    assert_eq!(generated(&Options::new()), ["a.rs", "b.rs", "c.rs"]);
}

#[test]
fn a_services_messages_are_generated_with_the_service() {
    let mut options = Options::new();
    options.services(true);
    assert_eq!(generated(&options), ["a.rs", "b.rs", "c.rs", "d.rs"]);
}

#[test]
fn an_extern_path_stops_the_walk() {
    // b's types live elsewhere: neither b.rs nor what only b uses (c.rs) is generated.
    let mut options = Options::new();
    options.extern_path(".b", "::other::b");
    assert_eq!(generated(&options), ["a.rs"]);
}

#[test]
fn a_descriptor_type_used_as_a_field_generates_google_protobuf() {
    let mut c = Compiler::new();
    c.source(
        "f.proto",
        r#"syntax = "proto3"; package f;
        import "google/protobuf/descriptor.proto";
        message F { google.protobuf.FileDescriptorProto file = 1; }"#,
    );
    let compiled = c.compile(&["f.proto"]).expect("compiles");
    let files = generate(&compiled.schema, &Options::new()).expect("generates");
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["f.rs", "google.protobuf.rs"]);
    let google = &files[1].content;
    assert!(
        google.contains("pub struct FileDescriptorProto"),
        "{google}"
    );
    // The well-known types stay in the runtime: descriptor.proto defines none.
    assert!(!google.contains("pub struct Timestamp"), "{google}");
}
