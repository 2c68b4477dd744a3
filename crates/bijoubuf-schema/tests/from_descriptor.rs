//! `descriptor_text`: a file written back from its descriptor (with source-code info)
//! compiles to the same descriptor, comments included.

use std::path::{Path, PathBuf};

use bijoubuf_schema::{Compiler, DescriptorSetOptions, descriptor_text};
use prost::Message as _;
use prost_types::{FileDescriptorProto, FileDescriptorSet};

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

/// Every bundled schema: (include directory below `schemas/`, files).
fn cases() -> Vec<(PathBuf, Vec<String>)> {
    let mut cases = vec![(
        schemas_dir(),
        vec![
            "kitchen/sink.proto".to_string(),
            "kitchen/extra.proto".to_string(),
            "legacy/legacy.proto".to_string(),
            "keywords/keywords.proto".to_string(),
            "example/v1/envelope.proto".to_string(),
        ],
    )];
    let examples = schemas_dir().join("examples");
    let mut names: Vec<String> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".proto"))
        .collect();
    names.sort();
    cases.push((examples.clone(), names));
    for v in ["v1", "v2"] {
        cases.push((
            examples.join("evolution").join(v),
            vec!["profile.proto".to_string()],
        ));
    }
    cases
}

/// The set protoc writes with `--include_imports --include_source_info`.
fn descriptor_set(compiler: &Compiler, files: &[String]) -> FileDescriptorSet {
    let compiled = compiler.compile(files).unwrap();
    let bytes = compiled.schema.encode_descriptor_set(DescriptorSetOptions {
        include_imports: true,
        include_source_info: true,
        retain_options: false,
    });
    FileDescriptorSet::decode(bytes.as_slice()).unwrap()
}

/// Whether `path` leads to a declaration whose comments the schema model keeps:
/// messages, fields, oneofs, enums, values, services, methods and extensions.
fn declaration(path: &[i32]) -> bool {
    fn message(rest: &[i32]) -> bool {
        match rest {
            [] => true,
            [2 | 6 | 8, _] => true,
            [3, _, more @ ..] => message(more),
            [4, _, more @ ..] => matches!(more, [] | [2, _]),
            _ => false,
        }
    }
    match path {
        [4, _, rest @ ..] => message(rest),
        [5, _] | [5, _, 2, _] | [6, _] | [6, _, 2, _] | [7, _] => true,
        _ => false,
    }
}

/// A declaration's path, leading, trailing and detached comments.
type Commented = (Vec<i32>, Option<String>, Option<String>, Vec<String>);

/// Every commented declaration, by path.
fn comments(f: &FileDescriptorProto) -> Vec<Commented> {
    f.source_code_info
        .iter()
        .flat_map(|s| &s.location)
        .filter(|l| declaration(&l.path))
        .filter(|l| {
            l.leading_comments.is_some()
                || l.trailing_comments.is_some()
                || !l.leading_detached_comments.is_empty()
        })
        .map(|l| {
            (
                l.path.clone(),
                l.leading_comments.clone(),
                l.trailing_comments.clone(),
                l.leading_detached_comments.clone(),
            )
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

#[test]
fn bundled_schemas_round_trip_through_descriptor_text() {
    let mut commented = 0;
    for (dir, files) in cases() {
        let mut from_source = Compiler::new();
        from_source.include(&dir);
        let want = descriptor_set(&from_source, &files);

        let mut from_text = Compiler::new();
        for f in &want.file {
            from_text.descriptor(f).unwrap();
        }
        let got = descriptor_set(&from_text, &files);
        assert_eq!(got.file.len(), want.file.len());
        for (g, w) in got.file.iter().zip(&want.file) {
            let text = descriptor_text(w).unwrap();
            let strip = |f: &FileDescriptorProto| FileDescriptorProto {
                source_code_info: None,
                ..f.clone()
            };
            assert_eq!(strip(g), strip(w), "{}:\n{text}", w.name());
            assert_eq!(comments(g), comments(w), "{}:\n{text}", w.name());
            commented += comments(w).len();
        }
    }
    // The schemas are commented: the comparison above compares something.
    assert!(commented > 50, "{commented}");
}

#[test]
fn comments_of_every_shape_are_attached_where_they_were() {
    let source = r#"syntax = "proto3";
package shapes;

// detached one

/* detached
 * block */

// leading of M
// second line
message M { // trailing of M
  /* leading of a, a block */
  int32 a = 1; // trailing of a

  // leading of the oneof
  oneof choice {
    string b = 2;
    /* trailing of b,
       over two lines */

    string c = 3;
  }
  // leading of N
  message N {}
}

enum E {
  // leading of E_ZERO
  E_ZERO = 0; /* trailing of E_ZERO */
}

// leading of S
service S {
  // leading of Get
  rpc Get(M) returns (M); // trailing of Get
}
"#;
    let compiler = {
        let mut c = Compiler::new();
        c.source("shapes.proto", source);
        c
    };
    let want = descriptor_set(&compiler, &["shapes.proto".to_string()]);
    let file = &want.file[0];
    assert!(comments(file).len() == 8, "{:?}", comments(file));
    let mut again = Compiler::new();
    again.descriptor(file).unwrap();
    let got = descriptor_set(&again, &["shapes.proto".to_string()]);
    assert_eq!(
        comments(&got.file[0]),
        comments(file),
        "{}",
        descriptor_text(file).unwrap()
    );
}

#[test]
fn editions_files_and_groups_are_refused_naming_the_file_and_field() {
    let file = FileDescriptorProto {
        name: Some("ed.proto".into()),
        syntax: Some("editions".into()),
        ..Default::default()
    };
    let e = descriptor_text(&file).unwrap_err();
    assert!(
        e.to_string().starts_with("ed.proto is an editions file"),
        "{e}"
    );
    assert_eq!(e.code(), "unsupported-descriptor");

    let compiled = bijoubuf_schema::compile_sources(&[(
        "g.proto",
        "syntax = \"proto2\"; message G { optional int32 a = 1; }",
    )])
    .unwrap();
    let mut file = compiled.schema.file_descriptor_set().file.remove(0);
    file.message_type[0].field[0].r#type =
        Some(prost_types::field_descriptor_proto::Type::Group as i32);
    let e = descriptor_text(&file).unwrap_err();
    assert_eq!(
        e.to_string(),
        "group field a is not supported by bijoubuf v1"
    );
}

/// The encoded `FileDescriptorProto`s of an encoded `FileDescriptorSet` (field 1).
fn encoded_files(mut set: &[u8]) -> Vec<&[u8]> {
    fn varint(bytes: &mut &[u8]) -> u64 {
        let mut value = 0;
        for i in 0.. {
            let (&b, rest) = bytes.split_first().unwrap();
            *bytes = rest;
            value |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                break;
            }
        }
        value
    }
    let mut files = Vec::new();
    while !set.is_empty() {
        assert_eq!(varint(&mut set), 1 << 3 | 2, "a file record");
        let len = varint(&mut set) as usize;
        files.push(&set[..len]);
        set = &set[len..];
    }
    files
}

const EDITION_2023: &str = r#"edition = "2023";
package ed.v1;
option features.field_presence = IMPLICIT;
option features.utf8_validation = NONE;

// A message with every kind of feature.
message M {
  int32 a = 1 [features.field_presence = EXPLICIT]; // trailing of a
  int32 b = 2 [features.field_presence = IMPLICIT];
  int32 c = 3 [features.field_presence = LEGACY_REQUIRED];
  repeated int32 d = 4 [features.repeated_field_encoding = EXPANDED];
  string s = 5 [features.utf8_validation = VERIFY, json_name = "S"];
  Closed e = 7 [features.field_presence = EXPLICIT];
  oneof choice { int32 o = 8; }
  reserved foo, bar;
  message Inner { int32 x = 1; }
  map<string, Inner> inners = 9;
}
enum Open { OPEN_UNSPECIFIED = 0; OPEN_A = 1; }
// Closed.
service S { rpc Get(M) returns (M); }
enum Closed { option features.enum_type = CLOSED; CLOSED_A = 1; }
"#;

const EDITION_2024_A: &str = "edition = \"2024\";\npackage a;\nexport message Top { message Nested {} export message Open {} local message Hidden {} }\nlocal message Private {}\nexport enum E { E_UNSPECIFIED = 0; }\n";

const EDITION_2024_B: &str = "edition = \"2024\";\npackage b;\nimport \"a.proto\";\nimport option \"google/protobuf/descriptor.proto\";\nmessage User { a.Top t = 1; a.Top.Open o = 2; }\n";

#[test]
fn editions_files_round_trip_through_their_encoded_descriptors() {
    let sources = [
        ("ed/v1/e.proto", EDITION_2023),
        ("a.proto", EDITION_2024_A),
        ("b.proto", EDITION_2024_B),
    ];
    let mut compiler = Compiler::new();
    for (name, text) in sources {
        compiler.source(name, text);
    }
    let names: Vec<String> = ["ed/v1/e.proto", "b.proto"].map(String::from).to_vec();
    let compiled = compiler.compile(&names).unwrap();
    let flags = |source| DescriptorSetOptions {
        include_imports: true,
        include_source_info: source,
        retain_options: false,
    };
    let with_info = compiled.schema.encode_descriptor_set(flags(true));
    let mut again = Compiler::new();
    for bytes in encoded_files(&with_info) {
        // descriptor.proto's own options (`feature_support`, …) are beyond prost_types:
        // the built-in copy is read, as a protoc plugin reads it.
        let name = FileDescriptorProto::decode(bytes)
            .unwrap()
            .name()
            .to_string();
        if !bijoubuf_schema::is_builtin(&name) {
            again.encoded_descriptor(bytes).unwrap();
        }
    }
    let recompiled = again.compile(&names).unwrap();
    // Features, visibility, `import option` and the edition are all in the bytes.
    assert_eq!(
        recompiled.schema.encode_descriptor_set(flags(false)),
        compiled.schema.encode_descriptor_set(flags(false)),
        "{}",
        encoded_files(&with_info)
            .iter()
            .map(|b| bijoubuf_schema::encoded_descriptor_text(b).unwrap())
            .collect::<Vec<_>>()
            .join("\n----\n")
    );
    let want = FileDescriptorSet::decode(with_info.as_slice()).unwrap();
    let got = FileDescriptorSet::decode(
        recompiled
            .schema
            .encode_descriptor_set(flags(true))
            .as_slice(),
    )
    .unwrap();
    for (g, w) in got.file.iter().zip(&want.file) {
        assert_eq!(comments(g), comments(w), "{}", w.name());
    }
    // The same file decoded by prost_types alone cannot say its features: refused.
    assert!(descriptor_text(&want.file[0]).is_err());
}

#[test]
fn a_map_entry_keeps_its_place_among_nested_messages() {
    // Nested types are listed in declaration order, a map's entry where the map is.
    let source = "syntax = \"proto3\";\npackage m;\nmessage M {\n  message Before {}\n  map<string, Before> items = 1;\n  message After {}\n  map<int32, After> more = 2;\n}\n";
    let compiled = bijoubuf_schema::compile_sources(&[("m.proto", source)]).unwrap();
    let want = compiled.schema.file_descriptor_set().file.remove(0);
    let names: Vec<&str> = want.message_type[0]
        .nested_type
        .iter()
        .map(|n| n.name())
        .collect();
    assert_eq!(names, ["Before", "ItemsEntry", "After", "MoreEntry"]);
    let mut again = Compiler::new();
    again.descriptor(&want).unwrap();
    let got = again.compile(&["m.proto"]).unwrap();
    let got = got.schema.file_descriptor_set().file.remove(0);
    assert_eq!(got.message_type, want.message_type);
}
