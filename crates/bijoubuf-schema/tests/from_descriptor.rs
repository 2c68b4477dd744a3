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
