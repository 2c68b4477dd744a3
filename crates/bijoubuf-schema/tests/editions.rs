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
    assert_eq!(codes("edition = \"2025\";\nmessage M {}"), ["unsupported"]);
}
