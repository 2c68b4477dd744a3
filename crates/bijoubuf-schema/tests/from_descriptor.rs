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

// Strings a descriptor made by another tool (or a corrupt or hostile one) carries into
// the written text: each is refused naming it, or round-trips exactly; none can make
// the text declare something the descriptor does not.

const PLAIN: &str = r#"syntax = "proto2";
package p;
option go_package = "example.com/p";
// leading of M
message M {
  optional int32 a = 1; // trailing of a
  optional bytes b = 2 [default = "x"];
  optional string s = 3 [default = "y"];
  optional E e = 4;
  oneof o {
    int32 c = 5;
    string d = 6;
  }
  optional int64 i = 7 [default = 7];
  map<string, int32> counts = 8;
  extensions 100 to 200;
  reserved 50 to 60;
  reserved "gone";
}
enum E {
  E_ZERO = 0;
  reserved 10 to 20;
}
message N {
  extensions 101 to 110;
}
extend M {
  optional int32 x = 100;
}
extend N {
  optional int32 y = 101;
}
service S {
  rpc Get(M) returns (M);
}
"#;

/// The descriptor of [`PLAIN`], with source-code info.
fn plain() -> FileDescriptorProto {
    let mut c = Compiler::new();
    c.source("p.proto", PLAIN);
    descriptor_set(&c, &["p.proto".to_string()]).file.remove(0)
}

/// The error of writing `file` back, which must say each of `needles`.
fn refused(file: &FileDescriptorProto, needles: &[&str]) {
    match descriptor_text(file) {
        Ok(text) => panic!("accepted:\n{text}"),
        Err(e) => {
            for n in needles {
                assert!(e.to_string().contains(n), "{n:?} not in: {e}");
            }
            assert_eq!(e.code(), "unsupported-descriptor");
        }
    }
}

/// `file` written back and compiled, without source-code info.
fn recompiled(file: &FileDescriptorProto) -> FileDescriptorProto {
    let text = descriptor_text(file).unwrap();
    let mut c = Compiler::new();
    c.source(file.name(), text.as_str());
    for dep in &file.dependency {
        if !bijoubuf_schema::is_builtin(dep) {
            c.source(dep.as_str(), "syntax = \"proto2\";\n");
        }
    }
    let compiled = c
        .compile(&[file.name()])
        .unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let set = compiled.schema.encode_descriptor_set(DescriptorSetOptions {
        include_imports: false,
        include_source_info: false,
        retain_options: false,
    });
    FileDescriptorSet::decode(set.as_slice())
        .unwrap()
        .file
        .remove(0)
}

fn without_source_info(f: &FileDescriptorProto) -> FileDescriptorProto {
    FileDescriptorProto {
        source_code_info: None,
        ..f.clone()
    }
}

#[test]
fn a_message_name_with_a_brace_is_refused() {
    let mut f = plain();
    f.message_type[1].name = Some("N { } message Evil".into());
    refused(
        &f,
        &["DescriptorProto.name", "\"N { } message Evil\"", "p.proto"],
    );
}

#[test]
fn a_field_name_with_a_space_is_refused() {
    let mut f = plain();
    f.message_type[0].field[0].name = Some("a b".into());
    refused(&f, &["FieldDescriptorProto.name", "\"a b\"", "message p.M"]);
}

#[test]
fn a_package_with_a_semicolon_is_refused() {
    let mut f = plain();
    f.package = Some("p; message Evil {}".into());
    refused(
        &f,
        &["FileDescriptorProto.package", "\"p; message Evil {}\""],
    );
}

#[test]
fn names_of_enums_values_oneofs_services_and_methods_are_identifiers() {
    type Change = fn(&mut FileDescriptorProto);
    let cases: [(Change, &str); 5] = [
        (
            |f| f.enum_type[0].name = Some("E{".into()),
            "EnumDescriptorProto.name",
        ),
        (
            |f| f.enum_type[0].value[0].name = Some("E_ZERO = 0; EVIL".into()),
            "EnumValueDescriptorProto.name",
        ),
        (
            |f| f.message_type[0].oneof_decl[0].name = Some("o {} int32 evil = 9; oneof q".into()),
            "OneofDescriptorProto.name",
        ),
        (
            |f| f.service[0].name = Some("S {}".into()),
            "ServiceDescriptorProto.name",
        ),
        (
            |f| f.service[0].method[0].name = Some("Get(M) returns (M); rpc Evil".into()),
            "MethodDescriptorProto.name",
        ),
    ];
    for (change, field) in cases {
        let mut f = plain();
        change(&mut f);
        refused(&f, &[field]);
    }
}

#[test]
fn an_import_path_with_a_quote_round_trips() {
    let mut f = plain();
    f.dependency.push("dir/\"evil\\.proto".into());
    f.public_dependency.push(0);
    let got = recompiled(&f);
    assert_eq!(got.dependency, f.dependency);
    assert_eq!(got.public_dependency, f.public_dependency);
    assert_eq!(got.message_type, f.message_type);
}

#[test]
fn an_import_option_path_that_is_not_utf8_is_refused() {
    let mut bytes = plain().encode_to_vec();
    // FileDescriptorProto.option_dependency (15), which prost_types does not know.
    bytes.extend([15 << 3 | 2, 3, b'a', 0xff, b'b']);
    let e = bijoubuf_schema::encoded_descriptor_text(&bytes).unwrap_err();
    assert!(
        e.to_string()
            .contains("FileDescriptorProto.option_dependency"),
        "{e}"
    );
}

#[test]
fn a_type_name_that_is_not_a_dotted_name_is_refused() {
    let mut f = plain();
    f.message_type[0].field[3].type_name = Some(".p.E e = 4; optional .p.N".into());
    refused(&f, &["FieldDescriptorProto.type_name", "field p.M.e"]);
    // A relative name whose first part is a label would read as that label.
    let mut f = plain();
    f.service[0].method[0].input_type = Some("stream.p.M".into());
    refused(&f, &["MethodDescriptorProto.input_type", "\"stream.p.M\""]);
    let mut f = plain();
    f.extension[0].extendee = Some(".p.M {} message Evil".into());
    refused(&f, &["FieldDescriptorProto.extendee", "extension p.x"]);
}

#[test]
fn a_type_the_descriptor_does_not_name_is_refused_not_read_as_double() {
    let mut f = plain();
    f.message_type[0].field[0].r#type = Some(99);
    refused(&f, &["FieldDescriptorProto.type", "field p.M.a"]);
    let mut f = plain();
    f.message_type[0].field[0].label = Some(9);
    refused(&f, &["FieldDescriptorProto.label", "field p.M.a"]);
}

#[test]
fn a_comment_holding_the_end_of_a_block_comment_is_refused() {
    let mut f = plain();
    let info = f.source_code_info.as_mut().unwrap();
    let loc = info
        .location
        .iter_mut()
        .find(|l| l.trailing_comments.is_some())
        .unwrap();
    loc.trailing_comments = Some(" x */ message Evil {} /* y ".into());
    refused(&f, &["trailing comment", "field p.M.a", "*/"]);
}

#[test]
fn a_comment_line_that_reads_as_a_declaration_stays_a_comment() {
    // A block comment's lines after the first each get a `*`; one starting with `/`
    // must not close the comment with it.
    for text in [
        " a\n/ message Evil {} /* b ",
        " a\nmessage Evil {}\n",
        " a\n*/ message Evil {}\n",
    ] {
        let mut f = plain();
        let info = f.source_code_info.as_mut().unwrap();
        let loc = info
            .location
            .iter_mut()
            .find(|l| l.leading_comments.is_some())
            .unwrap();
        loc.leading_comments = Some(text.into());
        let path = loc.path.clone();
        let got = recompiled(&f);
        assert_eq!(got.message_type, f.message_type, "{text:?}");
        let mut c = Compiler::new();
        c.descriptor(&f).unwrap();
        let again = descriptor_set(&c, &["p.proto".to_string()]).file.remove(0);
        let leading = again
            .source_code_info
            .unwrap()
            .location
            .into_iter()
            .find(|l| l.path == path)
            .and_then(|l| l.leading_comments);
        assert_eq!(leading.as_deref(), Some(text));
    }
}

#[test]
fn option_strings_and_string_defaults_with_quotes_and_backslashes_round_trip() {
    let mut f = plain();
    let tricky = "a\"b\\c\n\"; option java_package = \"evil";
    f.options.as_mut().unwrap().go_package = Some(tricky.into());
    f.message_type[0].field[2].default_value = Some(tricky.into());
    f.message_type[0].field[0].json_name = Some(tricky.into());
    assert_eq!(without_source_info(&f), recompiled(&f));
}

#[test]
fn a_bytes_default_with_a_bare_quote_stays_one_string() {
    let mut f = plain();
    f.message_type[0].field[1].default_value = Some("x\" ] message Evil {} [".into());
    let got = recompiled(&f);
    // The same bytes, escaped as protoc escapes them.
    assert_eq!(
        got.message_type[0].field[1].default_value.as_deref(),
        Some("x\\\" ] message Evil {} [")
    );
    assert_eq!(got.message_type.len(), 2);
    // An escape protoc does not know is refused.
    let mut f = plain();
    f.message_type[0].field[1].default_value = Some("\\q".into());
    refused(&f, &["FieldDescriptorProto.default_value", "field p.M.b"]);
}

#[test]
fn a_number_default_that_is_not_a_number_is_refused() {
    let mut f = plain();
    f.message_type[0].field[6].default_value = Some("7]; message Evil {} //".into());
    refused(&f, &["FieldDescriptorProto.default_value", "field p.M.i"]);
}

#[test]
fn a_reserved_name_that_is_no_identifier_round_trips_quoted() {
    let mut f = plain();
    f.message_type[0].reserved_name = vec!["a\"; int32 evil = 9; //".into()];
    assert_eq!(without_source_info(&f), recompiled(&f));
}

#[test]
fn ranges_past_the_field_maximum_are_written_as_numbers_not_max() {
    let mut f = plain();
    // An enum's reserved range may reach 2^31 − 1, a message's 2^31 − 2: neither is `max`.
    f.enum_type[0].reserved_range[0].end = Some(600_000_000);
    f.message_type[0].reserved_range[0].start = Some(600_000_000);
    f.message_type[0].reserved_range[0].end = Some(700_000_000);
    assert_eq!(without_source_info(&f), recompiled(&f));
}

#[test]
fn oneofs_maps_and_extensions_keep_their_members_and_order() {
    // A oneof whose members are apart would be written together: refused, as protoc
    // refuses it.
    let mut f = plain();
    let m = &mut f.message_type[0];
    m.field.swap(5, 6);
    refused(&f, &["oneof p.M.o", "consecutive"]);
    // A map entry no map field uses would vanish.
    let mut f = plain();
    f.message_type[0].field[7].label = Some(1);
    refused(&f, &["p.M.CountsEntry", "map"]);
    // A field naming a oneof that is not there.
    let mut f = plain();
    f.message_type[0].field[0].oneof_index = Some(7);
    refused(&f, &["FieldDescriptorProto.oneof_index", "field p.M.a"]);
    // Extensions of different messages, interleaved, keep their order.
    let mut f = plain();
    let y = f.extension.remove(1);
    f.extension.insert(0, y);
    let mut x2 = f.extension[1].clone();
    x2.name = Some("x2".into());
    x2.number = Some(102);
    x2.json_name = Some("x2".into());
    f.extension.insert(0, x2);
    assert_eq!(without_source_info(&f), recompiled(&f));
}
