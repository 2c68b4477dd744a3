//! Editions 2023 and 2024: features mapped onto the model (presence, open and closed
//! enums), inherited from file to message to field, and what is refused.

use bijoubuf_schema::{Compiled, Diagnostics, Presence, Syntax, compile_sources};

fn compile(text: &str) -> Result<Compiled, Diagnostics> {
    compile_sources(&[("ed/v1/e.proto", text)])
}

const FILE: &str = r#"edition = "2023";
package ed.v1;
option features.field_presence = IMPLICIT;
message M {
  int32 a = 1;
  int32 b = 2 [features.field_presence = EXPLICIT];
  int32 c = 3 [features.field_presence = LEGACY_REQUIRED];
  repeated int32 d = 4 [features.repeated_field_encoding = EXPANDED];
  string s = 5 [features.utf8_validation = NONE];
  M m = 6;
  Closed e = 7 [features.field_presence = EXPLICIT];
  oneof choice { int32 o = 8; }
  reserved foo, bar;
  message Inner { int32 x = 1; }
}
enum Open { OPEN_UNSPECIFIED = 0; OPEN_A = 1; }
enum Closed { option features.enum_type = CLOSED; CLOSED_A = 1; }
"#;

#[test]
fn features_map_onto_presence_and_closed_enums() {
    let c = compile(FILE).unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let file = c.schema.file("ed/v1/e.proto").expect("compiled");
    assert_eq!(file.syntax, Syntax::Edition2023);
    let m = c.schema.message("ed.v1.M").expect("M");
    let presence = |name: &str| m.field_by_name(name).expect(name).presence;
    assert_eq!(presence("a"), Presence::Implicit, "the file's feature");
    assert_eq!(presence("b"), Presence::Explicit, "the field's own feature");
    assert_eq!(presence("c"), Presence::Required);
    assert_eq!(
        presence("m"),
        Presence::Explicit,
        "messages always track presence"
    );
    assert_eq!(presence("o"), Presence::Explicit, "oneof members too");
    assert!(m.fields.iter().all(|f| !f.proto3_optional));
    assert_eq!(m.reserved_names, ["foo", "bar"]);
    let inner = c.schema.message("ed.v1.M.Inner").expect("Inner");
    assert_eq!(inner.fields[0].presence, Presence::Implicit, "inherited");
    assert!(!c.schema.enumeration("ed.v1.Open").expect("Open").closed);
    assert!(c.schema.enumeration("ed.v1.Closed").expect("Closed").closed);
    let fds = c.schema.file_descriptor_set();
    assert_eq!(fds.file[0].syntax.as_deref(), Some("editions"));
    // As protoc writes it: the label as written (none, so optional).
    let c_field = &fds.file[0].message_type[0].field[2];
    assert_eq!(
        (c_field.name(), c_field.label()),
        ("c", prost_types::field_descriptor_proto::Label::Optional)
    );
}

#[test]
fn edition_defaults_are_explicit_presence_and_open_enums() {
    for edition in ["2023", "2024"] {
        let c = compile(&format!(
            "edition = \"{edition}\";\npackage ed.v1;\nmessage M {{ int32 a = 1; }}\nenum E {{ E_UNSPECIFIED = 0; }}\n"
        ))
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
        let m = c.schema.message("ed.v1.M").expect("M");
        assert_eq!(m.fields[0].presence, Presence::Explicit);
        assert!(!c.schema.enumeration("ed.v1.E").expect("E").closed);
    }
}

#[test]
fn what_editions_refuse() {
    let codes = |text: &str| -> Vec<&'static str> {
        match compile(text) {
            Ok(_) => Vec::new(),
            Err(e) => e.errors().iter().map(|d| d.code()).collect(),
        }
    };
    assert_eq!(
        codes("edition = \"2023\";\nmessage M { optional int32 a = 1; required int32 b = 2; }"),
        ["label-in-edition", "label-in-edition"]
    );
    let err = compile(
        "edition = \"2023\";\nmessage M { M m = 1 [features.message_encoding = DELIMITED]; }",
    )
    .expect_err("delimited");
    let d = &err.errors()[0];
    assert_eq!(d.code(), "unsupported");
    assert!(
        d.message()
            .contains("features.message_encoding = DELIMITED")
    );
    assert_eq!(
        codes("edition = \"2023\";\noption features.message_encoding = DELIMITED;\nmessage M {}"),
        ["unsupported"]
    );
    // An open enum starts at zero, a closed one need not.
    assert_eq!(
        codes("edition = \"2023\";\nenum E { E_A = 1; }"),
        ["proto3-first-enum-value"]
    );
    assert_eq!(
        codes("edition = \"2023\";\nenum E { option features.enum_type = CLOSED; E_A = 1; }"),
        Vec::<&str>::new()
    );
    // protoc 36.2 knows 2023, 2024 and 2026; any other edition is refused.
    for edition in ["2022", "2025", "2027", "UNSTABLE", "99997_TEST_ONLY"] {
        assert_eq!(
            codes(&format!("edition = \"{edition}\";\nmessage M {{}}")),
            ["unsupported"],
            "{edition}"
        );
    }
}

/// The `FileDescriptorProto` records of `set` (field 1 of a `FileDescriptorSet`), each as
/// its fields `(number, wire type, payload)` at the top level.
fn file_records(set: &[u8]) -> Vec<Vec<(u32, u8, Vec<u8>)>> {
    fn varint(b: &[u8], i: &mut usize) -> u64 {
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let x = b[*i];
            *i += 1;
            v |= u64::from(x & 0x7f) << shift;
            if x < 0x80 {
                return v;
            }
            shift += 7;
        }
    }
    fn fields(b: &[u8]) -> Vec<(u32, u8, Vec<u8>)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            let key = varint(b, &mut i);
            let (n, w) = ((key >> 3) as u32, (key & 7) as u8);
            let payload = match w {
                0 => {
                    let start = i;
                    varint(b, &mut i);
                    b[start..i].to_vec()
                }
                2 => {
                    let len = varint(b, &mut i) as usize;
                    i += len;
                    b[i - len..i].to_vec()
                }
                _ => panic!("descriptor sets use varint and length-delimited fields only"),
            };
            out.push((n, w, payload));
        }
        out
    }
    fields(set)
        .into_iter()
        .filter(|(n, _, _)| *n == 1)
        .map(|(_, _, file)| fields(&file))
        .collect()
}

#[test]
fn editions_descriptors_name_the_edition_as_protoc_does() {
    // protoc writes `syntax = "editions"` and `edition` (field 14) with descriptor.proto's
    // Edition number: EDITION_2023 = 1000 (varint e8 07), EDITION_2024 = 1001 (e9 07);
    // proto3 files get neither.
    for (text, edition) in [
        (
            "edition = \"2023\";\npackage ed.v1;\nmessage M {}\n",
            Some(vec![0xe8, 0x07]),
        ),
        (
            "edition = \"2024\";\npackage ed.v1;\nmessage M {}\n",
            Some(vec![0xe9, 0x07]),
        ),
        ("syntax = \"proto3\";\npackage ed.v1;\nmessage M {}\n", None),
    ] {
        let c = compile(text).unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
        let files = file_records(&c.schema.encode_file_descriptor_set());
        assert_eq!(files.len(), 1);
        let field = |n: u32| files[0].iter().find(|f| f.0 == n).map(|f| f.2.clone());
        assert_eq!(field(14), edition, "{text}");
        let syntax = if edition.is_some() {
            "editions"
        } else {
            "proto3"
        };
        assert_eq!(field(12), Some(syntax.as_bytes().to_vec()), "{text}");
    }
}

/// The file's descriptor records without source-code info (field 9), whose spans differ
/// between two spellings of the same schema.
fn records_without_source_info(c: &Compiled) -> Vec<(u32, u8, Vec<u8>)> {
    let mut files = file_records(&c.schema.encode_file_descriptor_set());
    assert_eq!(files.len(), 1);
    let mut file = files.remove(0);
    file.retain(|(n, _, _)| *n != 9);
    file
}

/// The same features at file, message, enum, oneof, enum value and field level, once in
/// the aggregate spelling and once dotted (issue 23, item 1: the aggregate one was
/// ignored, so `a` had explicit presence and `Closed` was refused for lacking a zero).
const AGGREGATE: &str = r#"edition = "2023";
package ed.v1;
option features = { field_presence: IMPLICIT, enum_type: OPEN };
message M {
  option features = { json_format: ALLOW };
  int32 a = 1;
  int32 b = 2 [features = { field_presence: EXPLICIT }];
  repeated int32 c = 3 [features = { repeated_field_encoding: EXPANDED }];
  string s = 4 [features = { utf8_validation: NONE }];
  Closed e = 5 [features = { field_presence: EXPLICIT }];
  map<string, int32> m = 6;
  oneof o { option features = { }; int32 x = 7; }
}
enum Closed { option features = { enum_type: CLOSED }; CLOSED_A = 1 [features = { }]; }
"#;

const DOTTED: &str = r#"edition = "2023";
package ed.v1;
option features.field_presence = IMPLICIT;
option features.enum_type = OPEN;
message M {
  option features.json_format = ALLOW;
  int32 a = 1;
  int32 b = 2 [features.field_presence = EXPLICIT];
  repeated int32 c = 3 [features.repeated_field_encoding = EXPANDED];
  string s = 4 [features.utf8_validation = NONE];
  Closed e = 5 [features.field_presence = EXPLICIT];
  map<string, int32> m = 6;
  oneof o { option features = { }; int32 x = 7; }
}
enum Closed { option features.enum_type = CLOSED; CLOSED_A = 1 [features = { }]; }
"#;

#[test]
fn aggregate_and_dotted_features_are_one_resolution_step() {
    let aggregate = compile(AGGREGATE).unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let dotted = compile(DOTTED).unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    for c in [&aggregate, &dotted] {
        let m = c.schema.message("ed.v1.M").expect("M");
        let presence = |name: &str| m.field_by_name(name).expect(name).presence;
        assert_eq!(presence("a"), Presence::Implicit, "the file's feature");
        assert_eq!(presence("b"), Presence::Explicit, "the field's own feature");
        assert_eq!(presence("e"), Presence::Explicit);
        assert!(c.schema.enumeration("ed.v1.Closed").expect("Closed").closed);
    }
    // The same descriptors: the feature set bytes and the packing of option values.
    assert_eq!(
        records_without_source_info(&aggregate),
        records_without_source_info(&dotted)
    );
}

#[test]
fn delimited_is_refused_in_either_spelling() {
    for text in [
        "edition = \"2023\";\noption features = { message_encoding: DELIMITED };\nmessage M {}",
        "edition = \"2023\";\nmessage M { M m = 1 [features = { message_encoding: DELIMITED }]; }",
        "edition = \"2023\";\nmessage M { M m = 1 [features.message_encoding = DELIMITED]; }",
    ] {
        let err = compile(text).expect_err(text);
        let d = &err.errors()[0];
        assert_eq!(d.code(), "unsupported", "{text}");
        assert!(
            d.message().contains("message_encoding = DELIMITED"),
            "{text}"
        );
    }
}

#[test]
fn map_fields_compile_in_an_edition() {
    // Issue 23, item 2: the parser labels a map entry's key and value `optional`, and
    // that was refused as a label written in an edition.
    let c = compile(
        "edition = \"2023\";\npackage ed.v1;\nmessage M { map<string, M> m = 1; map<int32, int32> n = 2; }\n",
    )
    .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let entry = c.schema.message("ed.v1.M.MEntry").expect("entry");
    assert!(entry.map_entry);
    assert_eq!(entry.fields.len(), 2);
}

#[test]
fn feature_rules_follow_protoc() {
    // Each refused as protoc 36.2 refuses it, in either spelling.
    let codes = |text: &str| -> Vec<&'static str> {
        match compile(&format!("edition = \"2023\";\npackage ed.v1;\n{text}\n")) {
            Ok(_) => Vec::new(),
            Err(e) => e.errors().iter().map(|d| d.code()).collect(),
        }
    };
    for (text, expected) in [
        // Features set where descriptor.proto's `targets` do not allow them.
        (
            "message M { option features.field_presence = IMPLICIT; }",
            &["invalid-feature"][..],
        ),
        (
            "message M { option features = { field_presence: IMPLICIT }; }",
            &["invalid-feature"],
        ),
        (
            "message M { int32 a = 1 [features = { enum_type: OPEN }]; }",
            &["invalid-feature"],
        ),
        (
            "enum E { A = 0 [features.enum_type = OPEN]; }",
            &["invalid-feature"],
        ),
        (
            "message M { oneof o { option features = { field_presence: EXPLICIT }; int32 a = 1; } }",
            &["invalid-feature"],
        ),
        // Presence that cannot hold.
        (
            "message M { repeated int32 a = 1 [features = { field_presence: EXPLICIT }]; }",
            &["invalid-feature"],
        ),
        (
            "message M { oneof o { int32 a = 1 [features.field_presence = EXPLICIT]; } }",
            &["invalid-feature"],
        ),
        (
            "message M { M a = 1 [features = { field_presence: IMPLICIT }]; }",
            &["invalid-feature"],
        ),
        (
            "message M { int32 a = 1 [features = { repeated_field_encoding: EXPANDED }]; }",
            &["invalid-feature"],
        ),
        (
            "message M { repeated string a = 1 [features.repeated_field_encoding = PACKED]; }",
            &["invalid-feature"],
        ),
        (
            "message M { int32 a = 1 [features = { utf8_validation: NONE }]; }",
            &["invalid-feature"],
        ),
        (
            "option features = { field_presence: IMPLICIT };\nenum E { option features = { enum_type: CLOSED }; A = 1; }\nmessage M { E a = 1; }",
            &["implicit-closed-enum"],
        ),
        (
            "message M { int32 a = 1 [features.field_presence = IMPLICIT, default = 3]; }",
            &["invalid-default"],
        ),
        (
            "message M { repeated int32 a = 1 [packed = false]; }",
            &["packed-in-edition"],
        ),
        // Accepted: what protoc accepts.
        (
            "option features = { field_presence: IMPLICIT };\nmessage M { M m = 1; oneof o { int32 a = 2; } repeated string s = 3 [features.repeated_field_encoding = EXPANDED]; }",
            &[],
        ),
    ] {
        assert_eq!(codes(text), expected, "{text}");
    }
}

#[test]
fn packed_false_where_packing_is_impossible_is_accepted() {
    // Issue 23, item 3: protoc refuses only `packed = true` there (googleapis'
    // backstory/udm.proto writes `[packed = false]` on a repeated string).
    for text in [
        "syntax = \"proto3\";\nmessage M { repeated string a = 1 [packed = false]; }",
        "syntax = \"proto3\";\nmessage M { int32 a = 1 [packed = false]; }",
        "syntax = \"proto2\";\nmessage M { repeated M a = 1 [packed = false]; }",
    ] {
        let c = compile(text).unwrap_or_else(|e| panic!("{text}: refused: {:?}", e.errors()));
        assert_eq!(
            c.schema.files()[0].messages[0].fields[0].packed,
            Some(false)
        );
    }
    for text in [
        "syntax = \"proto3\";\nmessage M { repeated string a = 1 [packed = true]; }",
        "syntax = \"proto2\";\nmessage M { optional int32 a = 1 [packed = true]; }",
    ] {
        let err = compile(text).expect_err(text);
        assert_eq!(err.errors()[0].code(), "invalid-packed", "{text}");
    }
}

#[test]
fn a_closed_enum_map_value_needs_a_zero_first_value() {
    let err =
        compile("syntax = \"proto2\";\nenum E { A = 1; }\nmessage M { map<int32, E> m = 1; }")
            .expect_err("closed enum without zero as map value");
    assert_eq!(err.errors()[0].code(), "closed-enum-map-value");
    compile("syntax = \"proto2\";\nenum E { A = 0; }\nmessage M { map<int32, E> m = 1; }")
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
}

#[test]
fn edition_2024_refuses_what_protoc_36_2_refuses() {
    // Issue 23, item 4: edition 2024 was read as 2023. Each case as protoc 36.2 answers.
    let codes = |edition: &str, text: &str| -> Vec<&'static str> {
        match compile(&format!(
            "edition = \"{edition}\";\npackage ed.v1;\n{text}\n"
        )) {
            Ok(_) => Vec::new(),
            Err(e) => e.errors().iter().map(|d| d.code()).collect(),
        }
    };
    for (text, expected) in [
        (
            "import weak \"google/protobuf/descriptor.proto\";",
            &["weak-import"][..],
        ),
        (
            "message M { string s = 1 [ctype = CORD]; }",
            &["removed-option"],
        ),
        ("option java_multiple_files = true;", &["removed-option"]),
        // Naming style (STYLE2024, the edition's default).
        ("message bad_name {}", &["naming-style"]),
        ("message M { int32 BadField = 1; }", &["naming-style"]),
        ("message M { int32 a_1 = 1; }", &["naming-style"]),
        (
            "message M { oneof BadOneof { int32 a = 1; } }",
            &["naming-style"],
        ),
        ("enum e { E_UNSPECIFIED = 0; }", &["naming-style"]),
        ("enum E { E_b = 0; }", &["naming-style"]),
        ("service s {}", &["naming-style"]),
        (
            "message A {}\nservice S { rpc do_it(A) returns (A); }",
            &["naming-style"],
        ),
        // STYLE_LEGACY opts an element and what it holds out, in either spelling.
        (
            "option features.enforce_naming_style = STYLE_LEGACY;\nmessage bad_name { int32 BadF = 1; }",
            &[],
        ),
        (
            "message bad_name { option features = { enforce_naming_style: STYLE_LEGACY }; int32 BadF = 1; }",
            &[],
        ),
        (
            "enum E { option features.enforce_naming_style = STYLE_LEGACY; e_a = 0; }",
            &[],
        ),
        // Map entries are named by protoc, not by the user.
        ("message M { map<string, int32> my_map = 1; }", &[]),
    ] {
        assert_eq!(codes("2024", text), expected, "{text}");
    }
    // Edition 2023 keeps them.
    for text in [
        "import weak \"google/protobuf/descriptor.proto\";",
        "message bad_name { int32 BadField = 1; }",
        "message M { string s = 1 [ctype = CORD]; }",
    ] {
        assert_eq!(codes("2023", text), Vec::<&str>::new(), "{text}");
    }
    // A package name too.
    let err = compile("edition = \"2024\";\npackage Ed.V1;\nmessage M {}\n").expect_err("package");
    assert_eq!(err.errors()[0].code(), "naming-style");
}

#[test]
fn edition_2024_visibility_and_option_imports_as_protoc_36_2() {
    // `export`/`local` and `import option` were syntax errors (issue 23, item 4).
    let a = "edition = \"2024\";\npackage a;\nexport message Top { message Nested {} export message Open {} local message Hidden {} }\nlocal message Private {}\nexport enum E { E_UNSPECIFIED = 0; }\n";
    let b = "edition = \"2024\";\npackage b;\nimport \"a.proto\";\nimport option \"google/protobuf/descriptor.proto\";\nmessage User { a.Top t = 1; a.Top.Open o = 2; }\n";
    let c = bijoubuf_schema::Compiler::new()
        .source("a.proto", a)
        .source("b.proto", b)
        .compile(&["a.proto", "b.proto"])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let top = c.schema.message("a.Top").expect("Top");
    assert_eq!(top.visibility, Some(true));
    let vis = |name: &str| c.schema.message(name).expect(name).visibility;
    assert_eq!(
        (vis("a.Top.Nested"), vis("a.Top.Open"), vis("a.Top.Hidden")),
        (None, Some(true), Some(false))
    );
    let user = c.schema.file("b.proto").expect("b");
    assert_eq!(user.dependencies, ["a.proto"]);
    assert_eq!(
        user.option_dependencies,
        ["google/protobuf/descriptor.proto"]
    );
    // As protoc writes them: DescriptorProto.visibility (11) of Top = EXPORT (2), and
    // FileDescriptorProto.option_dependency (15).
    let files = file_records(&c.schema.encode_file_descriptor_set());
    let top = &files[0].iter().find(|f| f.0 == 4).expect("Top").2;
    assert!(top.ends_with(&[0x58, 0x02]), "{top:?}");
    assert!(
        files[1]
            .iter()
            .any(|f| f.0 == 15 && f.2 == b"google/protobuf/descriptor.proto")
    );
    // What other files may not use.
    for (text, code) in [
        ("message U { a.Top.Nested n = 1; }", "not-visible"),
        ("message U { a.Private p = 1; }", "not-visible"),
        ("message U { a.Top.Hidden h = 1; }", "not-visible"),
    ] {
        let user = format!("edition = \"2024\";\npackage u;\nimport \"a.proto\";\n{text}\n");
        let err = bijoubuf_schema::Compiler::new()
            .source("a.proto", a)
            .source("u.proto", user.as_str())
            .compile(&["u.proto"])
            .expect_err(text);
        assert_eq!(err.errors()[0].code(), code, "{text}");
    }
    // Only edition 2024 knows the keywords.
    let err = compile("edition = \"2023\";\nexport message M {}\n").expect_err("2023");
    assert_eq!(err.errors()[0].code(), "syntax");
}

/// `a.proto` and `u.proto` (which imports it) compiled together: the error codes.
fn codes2(a: &str, u: &str) -> Vec<&'static str> {
    match bijoubuf_schema::Compiler::new()
        .source("a.proto", a)
        .source("u.proto", u)
        .compile(&["a.proto", "u.proto"])
    {
        Ok(_) => Vec::new(),
        Err(e) => e.errors().iter().map(|d| d.code()).collect(),
    }
}

#[test]
fn strict_visibility_as_protoc_36_2() {
    // Found by the editions differential (scripts/editions-diff.sh): under
    // `default_symbol_visibility = STRICT` bijoubuf read every type as EXPORT_TOP_LEVEL
    // does, and refused no `export` of a nested type.
    let strict =
        "edition = \"2024\";\npackage a;\noption features.default_symbol_visibility = STRICT;\n";
    let user = |ty: &str| {
        format!(
            "edition = \"2024\";\npackage u;\nimport \"a.proto\";\nmessage U {{ {ty} x = 1; }}\n"
        )
    };
    // Types are local unless marked `export`, top-level ones too.
    let a = format!("{strict}message Hidden {{}}\nexport message Open {{}}\n");
    assert_eq!(codes2(&a, &user("a.Hidden")), ["not-visible"]);
    assert_eq!(codes2(&a, &user("a.Open")), Vec::<&str>::new());
    // A nested type cannot be exported...
    for text in [
        "export message O { export message N {} }",
        "export message O { export enum E { E_UNSPECIFIED = 0; } }",
        "export message O { export enum E { E_UNSPECIFIED = 0; } reserved 1 to max; }",
        "message O { export enum E { E_UNSPECIFIED = 0; } reserved 1 to 100; }",
        "message O { message I { export enum E { E_UNSPECIFIED = 0; } reserved 1 to max; } }",
    ] {
        let err = compile(&format!("{strict}{text}\n")).expect_err(text);
        assert_eq!(err.errors()[0].code(), "invalid-visibility", "{text}");
    }
    // ...but an enum in a top-level message that is not exported and reserves every
    // field number (a namespace), and it can be used from elsewhere.
    let ns = format!(
        "{strict}local message O {{ export enum E {{ E_UNSPECIFIED = 0; }} reserved 1 to max; }}\n"
    );
    assert_eq!(codes2(&ns, &user("a.O.E")), Vec::<&str>::new());
    // `local` on a nested type, and every other default, stay accepted.
    compile(&format!(
        "{strict}export message O {{ local message N {{}} }}\n"
    ))
    .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    compile("edition = \"2024\";\noption features.default_symbol_visibility = LOCAL_ALL;\nexport message O { export message N {} }\n")
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
}

#[test]
fn edition_2026_as_protoc_36_2_reads_it() {
    // protoc 36.2 accepts edition 2026 (its newest); bijoubuf refused it as unknown.
    let a = "edition = \"2026\";\npackage a;\nexport message Open { int32 a = 1; }\nmessage Hidden {}\nexport enum E { E_UNSPECIFIED = 0; }\n";
    let c = compile(a).unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    assert_eq!(c.schema.files()[0].syntax, Syntax::Edition2026);
    // FileDescriptorProto: syntax (12) "editions", edition (14) EDITION_2026 = 1002.
    let files = file_records(&c.schema.encode_file_descriptor_set());
    assert!(files[0].iter().any(|f| f.0 == 12 && f.2 == b"editions"));
    assert!(files[0].iter().any(|f| f.0 == 14 && f.2 == [0xea, 0x07]));
    // STRICT is its default: what is not exported stays in its file.
    let user = |ty: &str| {
        format!(
            "edition = \"2026\";\npackage u;\nimport \"a.proto\";\nmessage U {{ {ty} x = 1; }}\n"
        )
    };
    assert_eq!(codes2(a, &user("a.Hidden")), ["not-visible"]);
    assert_eq!(codes2(a, &user("a.Open")), Vec::<&str>::new());
    assert_eq!(codes2(a, &user("a.E")), Vec::<&str>::new());
    let err = compile("edition = \"2026\";\nexport message O { export message N {} }\n")
        .expect_err("nested export");
    assert_eq!(err.errors()[0].code(), "invalid-visibility");
    // 2024's rules hold, and 2026 removes cc_enable_arenas.
    for (text, code) in [
        ("option cc_enable_arenas = true;", "removed-option"),
        ("option java_multiple_files = true;", "removed-option"),
        ("message bad_name {}", "naming-style"),
        (
            "import weak \"google/protobuf/descriptor.proto\";",
            "weak-import",
        ),
    ] {
        let err = compile(&format!("edition = \"2026\";\npackage a;\n{text}\n")).expect_err(text);
        assert_eq!(err.errors()[0].code(), code, "{text}");
    }
    compile("edition = \"2024\";\noption cc_enable_arenas = true;\n")
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    // `import option` and the proto-limits feature (of source retention: not written).
    let limits = compile("edition = \"2026\";\npackage a;\nimport option \"google/protobuf/descriptor.proto\";\nmessage M { int32 a = 1 [features.enforce_proto_limits = PROTO_LIMITS2026]; }\n")
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let plain = compile("edition = \"2026\";\npackage a;\nimport option \"google/protobuf/descriptor.proto\";\nmessage M { int32 a = 1; }\n")
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    // protoc's defaults drop it (the built-in descriptor.proto lacked the feature, so
    // it was written); `--retain_options` keeps it.
    let set = |c: &Compiled, retain_options| {
        c.schema
            .encode_descriptor_set(bijoubuf_schema::DescriptorSetOptions {
                retain_options,
                ..Default::default()
            })
    };
    // As protoc 36.2 writes the field's options: FieldOptions (8) { features (21) { } },
    // or with enforce_proto_limits (9) = PROTO_LIMITS2026 (2) kept.
    let has = |set: &[u8], bytes: &[u8]| set.windows(bytes.len()).any(|w| w == bytes);
    assert!(has(&set(&limits, false), &[0x42, 0x03, 0xaa, 0x01, 0x00]));
    assert!(has(
        &set(&limits, true),
        &[0x42, 0x05, 0xaa, 0x01, 0x02, 0x48, 0x02]
    ));
    assert!(!has(&set(&plain, false), &[0x42]));
}

#[test]
fn features_where_and_since_protoc_36_2_allows_them() {
    // Found by the editions differential: each was accepted.
    let codes = |text: &str| match compile(text) {
        Ok(_) => Vec::new(),
        Err(e) => e.errors().iter().map(|d| d.code()).collect(),
    };
    for (text, expected) in [
        // Not before the edition that introduced them.
        (
            "edition = \"2023\";\noption features.enforce_naming_style = STYLE_LEGACY;",
            &["invalid-feature"][..],
        ),
        (
            "edition = \"2023\";\noption features = { default_symbol_visibility: EXPORT_ALL };",
            &["invalid-feature"],
        ),
        (
            "edition = \"2024\";\nmessage M { option features.enforce_proto_limits = PROTO_LIMITS2026; }",
            &["invalid-feature"],
        ),
        // enforce_proto_limits is not a file's feature.
        (
            "edition = \"2026\";\noption features.enforce_proto_limits = PROTO_LIMITS2026;",
            &["invalid-feature"],
        ),
        // An extension range takes only the naming style.
        (
            "edition = \"2023\";\nmessage M { extensions 10 to 20 [features.field_presence = IMPLICIT]; }",
            &["invalid-feature"],
        ),
        (
            "edition = \"2023\";\nmessage M { extensions 10 to 20 [features = { utf8_validation: NONE }]; }",
            &["invalid-feature"],
        ),
        (
            "edition = \"2024\";\nmessage M { extensions 10 to 20 [features.enforce_naming_style = STYLE_LEGACY]; }",
            &[],
        ),
        // Required is no file's default.
        (
            "edition = \"2023\";\noption features.field_presence = LEGACY_REQUIRED;",
            &["invalid-feature"],
        ),
        // message_encoding is a message field's feature.
        (
            "edition = \"2023\";\nmessage M { int32 a = 1 [features.message_encoding = LENGTH_PREFIXED]; }",
            &["invalid-feature"],
        ),
        (
            "edition = \"2023\";\nmessage M { M m = 1 [features.message_encoding = LENGTH_PREFIXED]; }",
            &[],
        ),
        // Reserved names are identifiers in an edition.
        (
            "edition = \"2023\";\nmessage M { reserved \"a\"; }",
            &["syntax"],
        ),
        (
            "edition = \"2023\";\nenum E { E_UNSPECIFIED = 0; reserved \"X\"; }",
            &["syntax"],
        ),
        ("edition = \"2023\";\nmessage M { reserved a; }", &[]),
        // A oneof's features reach its fields.
        (
            "edition = \"2024\";\nmessage M { oneof o { option features.enforce_naming_style = STYLE_LEGACY; int32 bad_1 = 1; } }",
            &[],
        ),
        (
            "edition = \"2024\";\nmessage M { oneof o { int32 bad_1 = 1; } }",
            &["naming-style"],
        ),
    ] {
        assert_eq!(codes(text), expected, "{text}");
    }
}

#[test]
fn a_map_fields_features_reach_its_entry_as_protoc_writes_them() {
    // Found by the editions differential: protoc copies the map field's `features` to
    // the entry's key and value fields; bijoubuf wrote them on the map field only.
    let c = compile("edition = \"2023\";\npackage ed.v1;\nmessage M { map<string, int32> m = 1 [features.utf8_validation = NONE]; }\n")
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let set = c.schema.encode_file_descriptor_set();
    // FieldOptions { features (21) { utf8_validation (4) = NONE (3) } }
    let options = [0xaa, 0x01, 0x02, 0x20, 0x03];
    let count = set.windows(options.len()).filter(|w| *w == options).count();
    assert_eq!(count, 3, "the map field, its key and its value");
}

/// An options file with `feature_support` on fields, an enum's values and a custom
/// feature, as protoc 36.2's own feature files declare them.
const SUPPORTED: &str = r#"edition = "2023";
package o;
import "google/protobuf/descriptor.proto";
message Inner {
  int32 gone = 1 [feature_support = { edition_introduced: EDITION_2023, edition_removed: EDITION_2024, removal_error: "inner gone" }];
  int32 fresh = 2 [feature_support = { edition_introduced: EDITION_2024 }];
  int32 plain = 3;
  Kind kind = 4;
}
enum Kind {
  KIND_UNKNOWN = 0;
  OLD = 1 [feature_support = { edition_introduced: EDITION_2023, edition_removed: EDITION_2024, removal_error: "old value" }];
  NEW = 2 [feature_support = { edition_introduced: EDITION_2024 }];
}
extend google.protobuf.MessageOptions {
  Inner inner = 50000;
  Kind kind = 50001;
  repeated Kind kinds = 50002;
}
extend google.protobuf.FileOptions {
  int32 dep = 50003 [feature_support = { edition_introduced: EDITION_2023, edition_deprecated: EDITION_2024, deprecation_warning: "use another" }];
}
extend google.protobuf.FeatureSet { Features my = 9995; }
message Features {
  bool legacy = 1 [
    targets = TARGET_TYPE_FILE,
    feature_support = { edition_introduced: EDITION_2023, edition_removed: EDITION_2024, removal_error: "feature gone" },
    edition_defaults = { edition: EDITION_LEGACY, value: "false" }
  ];
}
"#;

/// `u` compiled as `u.proto` beside the files `others` (name, text) and the built-in
/// ones: errors, then warnings (lints left out), by code and message.
fn diagnostics(others: &[(&str, &str)], u: &str) -> (Vec<String>, Vec<String>) {
    let show = |d: &bijoubuf_schema::Diagnostic| format!("{}: {}", d.code(), d.message());
    let checker = |ws: &[bijoubuf_schema::Diagnostic]| {
        ws.iter()
            .filter(|w| !w.code().starts_with("lint-"))
            .map(show)
            .collect()
    };
    let mut compiler = bijoubuf_schema::Compiler::new();
    for &(name, text) in others {
        compiler.source(name, text);
    }
    match compiler.source("u.proto", u).compile(&["u.proto"]) {
        Ok(c) => (Vec::new(), checker(&c.warnings)),
        Err(e) => (e.errors().iter().map(show).collect(), checker(e.warnings())),
    }
}

/// `SUPPORTED` as `a.proto` and `u.proto` importing it (see [`diagnostics`]).
fn support_diagnostics(u: &str) -> (Vec<String>, Vec<String>) {
    diagnostics(&[("a.proto", SUPPORTED)], u)
}

#[test]
fn feature_support_of_options_as_protoc_36_2_enforces_it() {
    // protoc 36.2: "o.Inner.gone has been removed in edition 2024: inner gone",
    // "o.NEW wasn't introduced until edition 2024 and can't be used in edition 2023",
    // a warning for a deprecated one; by the option path, inside aggregate values, for
    // enum values, repeated or not, and for a custom feature.
    let in_2024 = r#"edition = "2024";
package u;
import "a.proto";
option (o.dep) = 1;
message A { option (o.inner).gone = 1; option (o.inner).plain = 2; }
message B { option (o.inner) = { fresh: 2 kind: OLD }; }
message C { option (o.kind) = NEW; option (o.kinds) = NEW; option (o.kinds) = OLD; }
"#;
    let (errors, warnings) = support_diagnostics(in_2024);
    assert_eq!(
        errors,
        [
            "removed-option: o.Inner.gone is removed from edition 2024 on: inner gone",
            "removed-option: o.OLD is removed from edition 2024 on: old value",
            "removed-option: o.OLD is removed from edition 2024 on: old value",
        ]
    );
    assert_eq!(
        warnings,
        ["deprecated-option: o.dep is deprecated from edition 2024 on: use another"]
    );
    let in_2023 = r#"edition = "2023";
package u;
import "a.proto";
option (o.dep) = 1;
option features.(o.my).legacy = true;
message A { option (o.inner).fresh = 1; option (o.inner).gone = 2; }
message B { option (o.inner) = { kind: NEW }; }
message C { option (o.kind) = OLD; option (o.kinds) = NEW; }
"#;
    let (errors, warnings) = support_diagnostics(in_2023);
    assert_eq!(
        errors,
        [
            "option-not-introduced: o.Inner.fresh was introduced in edition 2024 and cannot be used in edition 2023",
            "option-not-introduced: o.NEW was introduced in edition 2024 and cannot be used in edition 2023",
            "option-not-introduced: o.NEW was introduced in edition 2024 and cannot be used in edition 2023",
        ]
    );
    assert!(warnings.is_empty(), "{warnings:?}");
    // The custom feature is removed in 2024; options introduced in 2023 are not for
    // proto3.
    let (errors, _) = support_diagnostics(
        "edition = \"2024\";\npackage u;\nimport \"a.proto\";\noption features.(o.my).legacy = true;\n",
    );
    assert_eq!(
        errors,
        ["removed-option: o.Features.legacy is removed from edition 2024 on: feature gone"]
    );
    let (errors, _) = support_diagnostics(
        "syntax = \"proto3\";\npackage u;\nimport \"a.proto\";\noption (o.dep) = 1;\n",
    );
    assert_eq!(
        errors,
        [
            "option-not-introduced: o.dep was introduced in edition 2023 and cannot be used in edition PROTO3"
        ]
    );
    // An edition bijoubuf refuses is read on as 2023, but not judged as 2023 here.
    let (errors, _) = support_diagnostics(
        "edition = \"UNSTABLE\";\npackage u;\nimport \"a.proto\";\nmessage A { option (o.inner).fresh = 1; }\n",
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("unsupported: "), "{errors:?}");
}

/// `u` compiled alone, the bundled files built in (see [`diagnostics`]).
fn bundled_diagnostics(u: &str) -> (Vec<String>, Vec<String>) {
    diagnostics(&[], u)
}

#[test]
fn features_of_the_builtin_language_files_as_protoc_36_2_allows_them() {
    // Each case as protoc 36.2 judges it with its bundled files: accepted (no error), or
    // refused ("wasn't introduced until edition 2024", "has been removed in edition
    // 2024", "cannot be set on an entity of type `field`", "is not visible").
    let cases: &[(&str, &str, Option<&str>)] = &[
        (
            "2024",
            "import \"google/protobuf/go_features.proto\";\noption features.(pb.go).api_level = API_OPAQUE;\nenum E { option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_STRIP; E_A = 0; }",
            None,
        ),
        (
            "2023",
            "import \"google/protobuf/go_features.proto\";\nenum E { option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_STRIP; E_A = 0; }",
            Some(
                "option-not-introduced: pb.GoFeatures.strip_enum_prefix was introduced in edition 2024 and cannot be used in edition 2023",
            ),
        ),
        (
            "2024",
            "import \"google/protobuf/go_features.proto\";\nmessage M { int32 x = 1 [features.(pb.go).api_level = API_OPAQUE]; }",
            Some("option-target: pb.GoFeatures.api_level cannot be set on a field"),
        ),
        (
            "2024",
            "import \"google/protobuf/go_features.proto\";\nmessage M { int32 x = 1 [features = { [pb.go] { api_level: API_OPAQUE } }]; }",
            Some("option-target: pb.GoFeatures.api_level cannot be set on a field"),
        ),
        (
            "2024",
            "import \"google/protobuf/go_features.proto\";\nservice S { option features.(pb.go).api_level = API_OPAQUE; }",
            Some("option-target: pb.GoFeatures.api_level cannot be set on a service"),
        ),
        (
            "2024",
            "import \"google/protobuf/java_features.proto\";\noption features.(pb.java).use_old_outer_classname_default = true;",
            Some(
                "removed-option: pb.JavaFeatures.use_old_outer_classname_default is removed from edition 2024 on",
            ),
        ),
        (
            "2024",
            "import \"google/protobuf/java_features.proto\";\nmessage M { option features.(pb.java).nest_in_file_class = LEGACY; }",
            Some(
                "removed-option: pb.JavaFeatures.NestInFileClassFeature.LEGACY is removed from edition 2024 on",
            ),
        ),
        (
            "2024",
            "import \"google/protobuf/java_features.proto\";\nmessage M { option features.(pb.java).nest_in_file_class = YES; }",
            None,
        ),
        (
            "2024",
            "import \"google/protobuf/cpp_features.proto\";\noption features.(pb.cpp).repeated_type = PROXY;",
            Some(
                "option-not-introduced: pb.CppFeatures.repeated_type was introduced in edition UNSTABLE and cannot be used in edition 2024",
            ),
        ),
        (
            "2024",
            "import \"google/protobuf/c_sharp_features.proto\";\noption features.(pb.csharp).nullable_reference_types = true;",
            Some(
                "option-not-introduced: pb.CSharpFeatures.nullable_reference_types was introduced in edition 2026 and cannot be used in edition 2024",
            ),
        ),
        (
            "2026",
            "import \"google/protobuf/c_sharp_features.proto\";\noption features.(pb.csharp).nullable_reference_types = true;",
            None,
        ),
        (
            "2024",
            "import \"google/protobuf/cpp_options.proto\";\noption (pb.file.cpp) = { namespace: \"x\" };",
            Some(
                "option-not-introduced: pb.file.cpp was introduced in edition 2026 and cannot be used in edition 2024",
            ),
        ),
        (
            "2024",
            "import \"google/protobuf/json_options.proto\";\nenum E { E_A = 0 [(pb.enumvalue.json) = { string: \"a\" }]; }",
            Some(
                "option-not-introduced: pb.enumvalue.json was introduced in edition 2026 and cannot be used in edition 2024",
            ),
        ),
    ];
    for (edition, body, want) in cases {
        let u = format!("edition = \"{edition}\";\npackage u;\n{body}\n");
        let (errors, _) = bundled_diagnostics(&u);
        match want {
            None => assert!(errors.is_empty(), "{u}: {errors:?}"),
            Some(want) => assert_eq!(errors, [*want], "{u}"),
        }
    }
    // Deprecated in 2023: a warning with the file's own text.
    let (errors, warnings) = bundled_diagnostics(
        "edition = \"2023\";\npackage u;\nimport \"google/protobuf/go_features.proto\";\noption features.(pb.go).legacy_unmarshal_json_enum = true;\n",
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        warnings,
        [
            "deprecated-option: pb.GoFeatures.legacy_unmarshal_json_enum is deprecated from edition 2023 on: The legacy UnmarshalJSON API is deprecated and will be removed in a future edition."
        ]
    );
    // The JSON options message is `local` to its file.
    let (errors, _) = bundled_diagnostics(
        "edition = \"2026\";\npackage u;\nimport \"google/protobuf/json_options.proto\";\nmessage M { pb.enumvalue.JsonEnumValueOptions o = 1; }\n",
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn targets_of_custom_options_as_protoc_36_2_enforces_them() {
    // protoc 36.2: "Option t.Opts.a cannot be set on an entity of type `field`.", by the
    // option path and inside aggregate values; an allowed kind passes.
    let a = r#"syntax = "proto2";
package t;
import "google/protobuf/descriptor.proto";
message Opts { optional int32 a = 1 [targets = TARGET_TYPE_FILE]; optional int32 b = 2; }
extend google.protobuf.FieldOptions { optional Opts o = 50000; }
extend google.protobuf.FileOptions { optional Opts f = 50000; }
extend google.protobuf.MessageOptions {
  optional int32 m = 50000 [targets = TARGET_TYPE_FIELD, targets = TARGET_TYPE_ONEOF];
}
"#;
    let u = r#"syntax = "proto2";
package u;
import "a.proto";
option (t.f).a = 1;
message A {
  option (t.m) = 1;
  optional int32 x = 1 [(t.o).a = 1];
  optional int32 y = 2 [(t.o) = { b: 1 a: 2 }];
  optional int32 z = 3 [(t.o).b = 1];
}
"#;
    let errors: Vec<String> = match bijoubuf_schema::Compiler::new()
        .source("a.proto", a)
        .source("u.proto", u)
        .compile(&["u.proto"])
    {
        Ok(_) => Vec::new(),
        Err(e) => e.errors().iter().map(|d| d.message().to_string()).collect(),
    };
    assert_eq!(
        errors,
        [
            "t.m cannot be set on a message",
            "t.Opts.a cannot be set on a field",
            "t.Opts.a cannot be set on a field",
        ]
    );
}

#[test]
fn options_of_extension_ranges_are_checked_for_targets() {
    // protoc 36.2: "Option er.only_field cannot be set on an entity of type `extension
    // range`."; an option any element may carry, or one for extension ranges, passes.
    let u = "syntax = \"proto2\";\npackage er;\nimport \"google/protobuf/descriptor.proto\";\n\
             extend google.protobuf.ExtensionRangeOptions {\n\
             optional int32 only_field = 50000 [targets = TARGET_TYPE_FIELD];\n\
             optional int32 any_kind = 50001;\n\
             optional int32 only_range = 50002 [targets = TARGET_TYPE_EXTENSION_RANGE];\n}\n\
             message M {\n  extensions 100 to 199 [(only_field) = 1];\n\
             extensions 200 to 299 [(any_kind) = 1, (only_range) = 2];\n}\n";
    let (errors, _) = diagnostics(&[], u);
    assert_eq!(
        errors,
        ["option-target: er.only_field cannot be set on an extension range"]
    );
}

#[test]
fn an_extension_in_an_aggregate_value_is_found_from_the_options_scope() {
    // protoc 36.2 resolves `[inner]` inside `{ … }` from the option's scope, as it does a
    // custom option's `(o)`, and refuses each spelling alike: "Option a.b.inner cannot be
    // set on an entity of type `file`." Written relative, it was not found, so not checked.
    let schema = |name: &str, target: &str| {
        format!(
            "syntax = \"proto2\";\npackage a.b;\nimport \"google/protobuf/descriptor.proto\";\n\
             message Opt {{ extensions 100 to 200; optional int32 x = 1; }}\n\
             extend Opt {{ optional int32 inner = 100 [targets = {target}]; }}\n\
             extend google.protobuf.FileOptions {{ optional Opt o = 50000; }}\n\
             option (o) = {{ [{name}]: 5 }};\n"
        )
    };
    for name in ["inner", "b.inner", "a.b.inner"] {
        let (errors, _) = diagnostics(&[], &schema(name, "TARGET_TYPE_FIELD"));
        assert_eq!(
            errors,
            ["option-target: a.b.inner cannot be set on a file"],
            "[{name}]"
        );
        let (errors, _) = diagnostics(&[], &schema(name, "TARGET_TYPE_FILE"));
        assert!(errors.is_empty(), "[{name}]: {errors:?}");
    }
    // The model names the extension in full, as its documentation says.
    let c = bijoubuf_schema::Compiler::new()
        .source("u.proto", schema("inner", "TARGET_TYPE_FILE"))
        .compile(&["u.proto"])
        .expect("compiles");
    let o = &c.schema.file("u.proto").expect("u.proto").options[0];
    let bijoubuf_schema::OptionValue::Message(set) = &o.value else {
        panic!("{:?}", o.value)
    };
    assert_eq!(set[0].0, "[a.b.inner]");
}

#[test]
fn feature_support_and_targets_follow_the_option_as_resolved_and_enum_values_by_number() {
    // Verdicts of protoc 36.2 on the same files. Two extensions of MessageOptions numbered
    // 50001 in two files (protoc warns): the option set is `dep.tag`, so `mainpkg.label`'s
    // `targets = TARGET_TYPE_FILE` does not apply to it.
    let dep = "syntax = \"proto2\";\npackage dep;\nimport \"google/protobuf/descriptor.proto\";\n\
               extend google.protobuf.MessageOptions { optional string tag = 50001; }\n";
    let u = "syntax = \"proto2\";\npackage mainpkg;\nimport \"google/protobuf/descriptor.proto\";\n\
             import \"dep.proto\";\nextend google.protobuf.MessageOptions { optional string label \
             = 50001 [targets = TARGET_TYPE_FILE]; }\nmessage T { option (dep.tag) = \"x\"; }\n";
    let (errors, _) = diagnostics(&[("dep.proto", dep)], u);
    assert!(errors.is_empty(), "{errors:?}");
    // An aliased enum value is judged as the first value of its number: `OLD` after `NEW`
    // (introduced in 2024) is refused in 2023 under NEW's name; `NEW` after `OLD` is not.
    let aliases = |first: &str, second: &str| {
        format!(
            "edition = \"2024\";\nimport \"google/protobuf/descriptor.proto\";\nenum E {{ option \
             allow_alias = true; E_U = 0; {first} {second} }}\nextend google.protobuf.FieldOptions \
             {{ E fe = 50001; }}\n"
        )
    };
    let new = "NEW = 1 [feature_support = { edition_introduced: EDITION_2024 }];";
    let use_as = |v: &str| {
        format!(
            "edition = \"2023\";\nimport \"o.proto\";\nmessage M {{ int32 a = 1 [(fe) = {v}]; }}\n"
        )
    };
    let o = aliases(new, "OLD = 1;");
    let (errors, _) = diagnostics(&[("o.proto", &o)], &use_as("OLD"));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("option-not-introduced: ") && errors[0].contains("NEW"),
        "{errors:?}"
    );
    let o = aliases("OLD = 1;", new);
    let (errors, _) = diagnostics(&[("o.proto", &o)], &use_as("NEW"));
    assert!(errors.is_empty(), "{errors:?}");
}
