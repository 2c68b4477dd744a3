//! Behaviour of the public API: what a code generator reads from the model, diagnostics,
//! lints, descriptors.

use std::path::Path;

use bijoubuf_schema::{
    Cardinality, Compiler, FieldType, Lints, OptionValue, Presence, ScalarType, Severity, Syntax,
    TypeDef, compile_sources,
};

fn one(text: &str) -> bijoubuf_schema::Compiled {
    compile_sources(&[("t.proto", text)]).unwrap_or_else(|e| panic!("refused: {e}"))
}

fn errors(text: &str) -> Vec<(String, usize, usize)> {
    match compile_sources(&[("t.proto", text)]) {
        Ok(_) => panic!("accepted"),
        Err(e) => e
            .errors()
            .iter()
            .map(|d| (d.code().to_string(), d.line(), d.column()))
            .collect(),
    }
}

#[test]
fn model_has_what_codegen_needs() {
    let c = one(r#"syntax = "proto3";
        package a.v1;
        message Outer {
          message Inner { enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; } Kind kind = 1; }
          repeated Inner items = 3;
          map<string, Inner> by_name = 2;
          optional int64 maybe = 5;
          oneof pick { string s = 7; Inner.Kind k = 6; }
          sint32 plain = 4;
        }"#);
    let outer = c.schema.message("a.v1.Outer").expect("Outer");
    let numbers: Vec<u32> = outer.fields.iter().map(|f| f.number).collect();
    assert_eq!(
        numbers,
        vec![2, 3, 4, 5, 6, 7],
        "fields are in number order"
    );
    let by_name = outer.field(2).expect("field 2");
    assert_eq!(
        by_name.cardinality,
        Cardinality::Map {
            key: ScalarType::String,
            value: FieldType::Message("a.v1.Outer.Inner".into())
        }
    );
    assert_eq!(
        by_name.ty,
        FieldType::Message("a.v1.Outer.ByNameEntry".into())
    );
    assert!(
        outer
            .messages
            .iter()
            .any(|m| m.map_entry && m.name == "ByNameEntry")
    );
    assert_eq!(
        outer.field(3).map(|f| f.cardinality.clone()),
        Some(Cardinality::Repeated)
    );
    assert_eq!(outer.field(4).map(|f| f.presence), Some(Presence::Implicit));
    let maybe = outer.field(5).expect("maybe");
    assert!(maybe.proto3_optional);
    assert_eq!(maybe.presence, Presence::Explicit);
    let synthetic = &outer.oneofs[maybe.oneof.expect("synthetic oneof")];
    assert!(synthetic.synthetic);
    assert_eq!(synthetic.name, "_maybe");
    let k = outer.field(6).expect("k");
    assert_eq!(k.ty, FieldType::Enum("a.v1.Outer.Inner.Kind".into()));
    assert_eq!(outer.oneofs[k.oneof.expect("in pick")].name, "pick");
    assert_eq!(
        outer.oneofs[0].fields,
        vec![7, 6],
        "oneof members in declaration order"
    );
    assert!(
        matches!(c.schema.lookup("a.v1.Outer.Inner.Kind"), Some(TypeDef::Enum(e)) if e.values.len() == 2)
    );
    assert!(c.schema.lookup(".a.v1.Outer.Inner").is_some());
    assert!(c.schema.lookup("a.v1.Nope").is_none());
    let file = c.schema.file("t.proto").expect("file");
    assert_eq!(
        (file.package.as_str(), file.syntax),
        ("a.v1", Syntax::Proto3)
    );
}

#[test]
fn proto2_presence_defaults_and_required() {
    let c = one(r#"syntax = "proto2";
        message M {
          required string id = 1;
          optional int32 n = 2 [default = -0x10];
          optional bytes b = 3 [default = "a\001"];
          optional E e = 4 [default = E_TWO];
          optional double d = 5 [default = inf];
          enum E { E_ONE = 1; E_TWO = 2; }
        }"#);
    let m = c.schema.message("M").expect("M");
    assert_eq!(m.field(1).map(|f| f.presence), Some(Presence::Required));
    assert_eq!(m.field(2).and_then(|f| f.default.as_deref()), Some("-16"));
    assert_eq!(
        m.field(3).and_then(|f| f.default.as_deref()),
        Some("a\\001")
    );
    assert_eq!(m.field(4).and_then(|f| f.default.as_deref()), Some("E_TWO"));
    assert_eq!(m.field(5).and_then(|f| f.default.as_deref()), Some("inf"));
    assert!(m.enums[0].closed);
}

#[test]
fn comments_follow_protoc() {
    let c = one(
        "syntax = \"proto3\";\n\n// detached\n\n// leading\nmessage M { // trailing of M\n  // field doc\n  int32 a = 1; // after a\n\n  int32 b = 2;\n  // trailing of b\n\n}\n",
    );
    let m = c.schema.message("M").expect("M");
    assert_eq!(m.comments.detached, vec![" detached\n".to_string()]);
    assert_eq!(m.comments.leading.as_deref(), Some(" leading\n"));
    assert_eq!(m.comments.trailing.as_deref(), Some(" trailing of M\n"));
    let a = m.field(1).expect("a");
    assert_eq!(a.comments.leading.as_deref(), Some(" field doc\n"));
    assert_eq!(a.comments.trailing.as_deref(), Some(" after a\n"));
    assert_eq!(
        m.field(2).and_then(|b| b.comments.trailing.as_deref()),
        Some(" trailing of b\n")
    );
}

#[test]
fn name_resolution_uses_innermost_scope_first() {
    let c = one(r#"syntax = "proto3";
        package p.q;
        message X {}
        message Outer {
          message X {}
          X inner = 1;
          .p.q.X top = 2;
          q.X via_package = 3;
        }"#);
    let o = c.schema.message("p.q.Outer").expect("Outer");
    assert_eq!(
        o.field(1).map(|f| f.ty.clone()),
        Some(FieldType::Message("p.q.Outer.X".into()))
    );
    assert_eq!(
        o.field(2).map(|f| f.ty.clone()),
        Some(FieldType::Message("p.q.X".into()))
    );
    assert_eq!(
        o.field(3).map(|f| f.ty.clone()),
        Some(FieldType::Message("p.q.X".into()))
    );
}

#[test]
fn every_error_in_a_file_is_reported() {
    let errs = errors(
        "syntax = \"proto3\";\nmessage A {\n  int32 a = 0;\n  Missing m = 2;\n  required int32 r = 3;\n  int32 bad = 4 5;\n}\nenum E { E_A = 1; }\n",
    );
    let codes: Vec<&str> = errs.iter().map(|(c, _, _)| c.as_str()).collect();
    assert!(codes.contains(&"field-number-out-of-range"), "{codes:?}");
    assert!(codes.contains(&"unresolved-type"), "{codes:?}");
    assert!(codes.contains(&"proto3-required"), "{codes:?}");
    assert!(codes.contains(&"syntax"), "{codes:?}");
    assert!(codes.contains(&"proto3-first-enum-value"), "{codes:?}");
    assert!(
        errs.contains(&("field-number-out-of-range".into(), 3, 13)),
        "{errs:?}"
    );
    assert!(errs.contains(&("unresolved-type".into(), 4, 3)), "{errs:?}");
}

#[test]
fn diagnostics_render_with_miette() {
    let err = compile_sources(&[(
        "t.proto",
        "syntax = \"proto3\";\nmessage A { int32 a = 1; int32 b = 1; }\n",
    )])
    .expect_err("duplicate numbers are refused");
    let d = &err.errors()[0];
    assert_eq!(
        (d.file(), d.line(), d.severity()),
        ("t.proto", 2, Severity::Error)
    );
    assert_eq!(d.labels().len(), 1);
    let mut out = String::new();
    miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .render_report(&mut out, &err)
        .expect("renders");
    assert!(out.contains("first used here"), "{out}");
    assert!(
        out.contains("message A { int32 a = 1; int32 b = 1; }"),
        "{out}"
    );
}

#[test]
fn custom_options_are_resolved_and_typed() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/pass");
    let c = Compiler::new()
        .include(&base)
        .compile(&["custom_options_use.proto"])
        .expect("compiles");
    let m = c
        .schema
        .message("corpus.useopts.Annotated")
        .expect("Annotated");
    let rule = m
        .options
        .iter()
        .find(|o| o.name == "(corpus.options.message_rule)")
        .expect("message_rule");
    assert_eq!(
        rule.extension.as_deref(),
        Some("corpus.options.message_rule")
    );
    let OptionValue::Message(fields) = &rule.value else {
        panic!("aggregate expected: {:?}", rule.value)
    };
    assert!(fields.contains(&("name".into(), OptionValue::String("annotated".into()))));
    assert!(fields.contains(&("weight".into(), OptionValue::Float(0.5))));
    assert!(fields.contains(&("blob".into(), OptionValue::Bytes(vec![0, 0xff]))));
    assert!(fields.iter().any(|(n, v)| n == "sensitivity"
        && matches!(v, OptionValue::Enum { name, .. } if name == "SENSITIVITY_SECRET")));
    let big = m.field(3).expect("big");
    assert_eq!(big.options[0].value, OptionValue::Uint(u64::MAX));
}

#[test]
fn googleapis_style_file_compiles_with_http_annotations() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/pass");
    let c = Compiler::new()
        .include(&base)
        .compile(&["googleapis_style.proto"])
        .expect("compiles");
    let file = c.schema.file("googleapis_style.proto").expect("file");
    let get = &file.services[0].methods[0];
    assert_eq!(get.input_type, "corpus.library.v1.GetBookRequest");
    let http = get
        .options
        .iter()
        .find(|o| o.extension.as_deref() == Some("google.api.http"))
        .expect("http");
    let OptionValue::Message(rule) = &http.value else {
        panic!("aggregate expected")
    };
    assert_eq!(
        rule[0],
        (
            "get".into(),
            OptionValue::String("/v1/{name=shelves/*/books/*}".into())
        )
    );
    let fds = c.schema.file_descriptor_set();
    let opts = fds.file[0].options.as_ref().expect("file options");
    assert_eq!(
        opts.java_package.as_deref(),
        Some("com.example.corpus.library.v1")
    );
    assert_eq!(opts.java_multiple_files, Some(true));
    let with_imports = c.schema.file_descriptor_set_with_imports();
    let names: Vec<&str> = with_imports
        .file
        .iter()
        .filter_map(|f| f.name.as_deref())
        .collect();
    assert_eq!(
        names.last(),
        Some(&"googleapis_style.proto"),
        "importers come after their imports"
    );
    assert!(
        names.contains(&"google/api/http.proto")
            && names.contains(&"google/protobuf/timestamp.proto")
    );
}

#[test]
fn lints_warn_and_can_be_turned_off() {
    let text = r#"syntax = "proto3";
        package Shop;
        message order_item { int32 OrderId = 1; }
        enum Color { RED = 0; COLOR_BLUE = 1; }"#;
    let c = one(text);
    let codes: Vec<&str> = c.warnings.iter().map(|w| w.code()).collect();
    for want in [
        "lint-package",
        "lint-type-name",
        "lint-field-name",
        "lint-enum-zero-value",
        "lint-enum-value-prefix",
    ] {
        assert!(codes.contains(&want), "missing {want}: {codes:?}");
    }
    assert!(c.warnings.iter().all(|w| w.severity() == Severity::Warning));
    let quiet = Compiler::new()
        .source("t.proto", text)
        .lints(Lints::none())
        .compile(&["t.proto"])
        .expect("compiles");
    assert!(quiet.warnings.is_empty());
    let clean_text = r#"syntax = "proto3"; package shop.v1;
        message OrderItem { int32 order_id = 1; }
        enum Color { COLOR_UNSPECIFIED = 0; COLOR_BLUE = 1; }"#;
    let clean = compile_sources(&[("shop/v1/t.proto", clean_text)]).expect("compiles");
    assert!(clean.warnings.is_empty(), "{:?}", clean.warnings);
    // Outside its package's directory, the same file gets one warning.
    let codes: Vec<&str> = one(clean_text).warnings.iter().map(|w| w.code()).collect();
    assert_eq!(codes, ["lint-package-directory-match"]);
}

#[test]
fn groups_and_editions_are_refused_at_their_span() {
    let errs = errors(
        "syntax = \"proto2\";\nmessage A {\n  optional group G = 1 { optional int32 x = 2; }\n}\n",
    );
    assert_eq!(errs[0], ("unsupported".into(), 3, 12));
    let errs = errors("edition = \"2025\";\nmessage A { int32 x = 1; }\n");
    assert_eq!(errs, vec![("unsupported".into(), 1, 11)]);
    let errs = errors(
        "edition = \"2023\";\nmessage A { A a = 1 [features.message_encoding = DELIMITED]; }\n",
    );
    assert_eq!(errs, vec![("unsupported".into(), 2, 22)]);
}

#[test]
fn source_code_info_carries_comments_and_spans() {
    let c = one("syntax = \"proto3\";\n// Doc.\nmessage M {\n  int32 a = 1;\n}\n");
    let fds = c.schema.file_descriptor_set();
    let info = fds.file[0].source_code_info.as_ref().expect("source info");
    let msg = info
        .location
        .iter()
        .find(|l| l.path == [4, 0])
        .expect("message location");
    assert_eq!(msg.leading_comments.as_deref(), Some(" Doc.\n"));
    assert_eq!(msg.span, vec![2, 0, 4, 1]);
    let field = info
        .location
        .iter()
        .find(|l| l.path == [4, 0, 2, 0])
        .expect("field location");
    assert_eq!(field.span, vec![3, 2, 14]);
}

#[test]
fn import_visibility_follows_public_imports() {
    let files = [
        ("a.proto", "syntax = \"proto3\"; package a; message A {}"),
        ("b.proto", "syntax = \"proto3\"; import public \"a.proto\";"),
        (
            "c.proto",
            "syntax = \"proto3\"; import \"b.proto\"; message C { a.A x = 1; }",
        ),
        (
            "d.proto",
            "syntax = \"proto3\"; import \"c.proto\"; message D { a.A x = 1; }",
        ),
    ];
    let mut c = Compiler::new();
    for (n, t) in files {
        c.source(n, t);
    }
    assert!(
        c.compile(&["c.proto"]).is_ok(),
        "public import re-exports a.proto"
    );
    let err = c
        .compile(&["d.proto"])
        .expect_err("a.proto is not visible from d.proto");
    assert_eq!(err.errors()[0].code(), "missing-import");
}

#[test]
fn proto3_map_values_cannot_be_closed_enums() {
    let mut c = Compiler::new();
    c.source("e.proto", "syntax = \"proto2\"; enum Closed { A = 1; }");
    c.source(
        "m.proto",
        "syntax = \"proto3\"; import \"e.proto\"; message M { map<int32, Closed> m = 1; }",
    );
    let err = c
        .compile(&["m.proto"])
        .expect_err("closed enum as a proto3 map value");
    assert_eq!(err.errors()[0].code(), "closed-enum-in-proto3");
}

#[test]
fn schema_holds_only_requested_files_and_their_imports() {
    let c = one("syntax = \"proto3\"; message M { int32 a = 1 [deprecated = true]; }");
    let names: Vec<&str> = c.schema.files().iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        vec!["t.proto"],
        "descriptor.proto is used for options but not part of the schema"
    );
    assert!(c.schema.message("google.protobuf.FieldOptions").is_none());
    assert_eq!(
        c.schema
            .message("M")
            .and_then(|m| m.field(1))
            .map(|f| f.deprecated),
        Some(true)
    );
}

#[test]
fn json_name_clashes_follow_protoc() {
    // proto3: the default names clash, even when one field has a custom json_name.
    let errs = errors(
        "syntax = \"proto3\";\nmessage M { int32 a_b = 1 [json_name = \"x\"]; int32 aB = 2; }\n",
    );
    assert_eq!(errs[0].0, "json-name-conflict");
    // proto2: a clash involving a default name is a warning, two custom names an error.
    let c =
        one("syntax = \"proto2\";\nmessage M { optional int32 a_b = 1; optional int32 aB = 2; }\n");
    assert!(
        c.warnings
            .iter()
            .any(|w| w.code() == "json-name-conflict" && w.severity() == Severity::Warning)
    );
    let errs = errors(
        "syntax = \"proto2\";\nmessage M { optional int32 a = 1 [json_name = \"x\"]; optional int32 b = 2 [json_name = \"x\"]; }\n",
    );
    assert_eq!(errs[0].0, "json-name-conflict");
}

#[test]
fn typos_get_a_did_you_mean() {
    let err = compile_sources(&[(
        "t.proto",
        "syntax = \"proto3\";\nmessgae A {}\nmessage B { strng s = 1; }\n",
    )])
    .expect_err("typos");
    let helps: Vec<Option<&str>> = err.errors().iter().map(|d| d.help_text()).collect();
    assert!(
        helps.contains(&Some("did you mean `message`?")),
        "{helps:?}"
    );
    assert!(
        helps.contains(&Some("did you mean the scalar type `string`?")),
        "{helps:?}"
    );
}

/// The help of each unresolved-type error of `body`, a proto3 file of package `shop.v1`
/// declaring `message Order`, `enum Color` and `service S`'s rpc, with the name it is for.
fn type_helps(body: &str) -> Vec<(String, Option<String>)> {
    let text = format!(
        "syntax = \"proto3\";\npackage shop.v1;\nmessage Order {{}}\nmessage Orders {{}}\n\
         enum Color {{ COLOR_UNSPECIFIED = 0; }}\n{body}\n"
    );
    let err = compile_sources(&[("t.proto", &text)]).expect_err("unresolved types");
    err.errors()
        .iter()
        .filter(|d| d.code() == "unresolved-type")
        .map(|d| (d.message().to_string(), d.help_text().map(str::to_string)))
        .collect()
}

#[test]
fn an_unresolved_type_gets_the_closest_declared_type_then_a_scalar() {
    let helps = type_helps(
        "message M {\n  Ordr a = 1;\n  Colr b = 2;\n  Foo c = 3;\n  strng d = 4;\n  int e = 5;\n  \
         float64 f = 6;\n  X g = 7;\n  String h = 8;\n}\nservice S { rpc Get(Strng) returns (Ordr); }",
    );
    let help = |i: usize| helps[i].1.as_deref();
    assert_eq!(helps.len(), 10, "{helps:?}");
    // A message or enum this file declares, the closest one (`Order`, not `Orders`).
    assert_eq!(
        help(0),
        Some("did you mean the message `Order`?"),
        "{helps:?}"
    );
    assert_eq!(help(1), Some("did you mean the enum `Color`?"), "{helps:?}");
    // Three letters two edits from `bool` are no typo of it.
    assert_eq!(help(2), None, "{helps:?}");
    assert_eq!(
        help(3),
        Some("did you mean the scalar type `string`?"),
        "{helps:?}"
    );
    // `int` is as far from `int32` as from `int64`: both are named.
    assert_eq!(
        help(4),
        Some("protobuf has no type `int`; did you mean `int32` or `int64`?"),
        "{helps:?}"
    );
    // Not `float`, which it is closer to.
    assert_eq!(
        help(5),
        Some("protobuf has no type `float64`; did you mean `double`?"),
        "{helps:?}"
    );
    assert_eq!(help(6), None, "{helps:?}");
    assert_eq!(
        help(7),
        Some("did you mean the scalar type `string`?"),
        "{helps:?}"
    );
    // A method's types are messages: no scalar type is suggested.
    assert_eq!(help(8), None, "{helps:?}");
    assert_eq!(
        help(9),
        Some("did you mean the message `Order`?"),
        "{helps:?}"
    );
}

#[test]
fn unused_imports_are_a_lint() {
    let mut c = Compiler::new();
    c.source("a.proto", "syntax = \"proto3\"; package a; message A {}");
    c.source(
        "re.proto",
        "syntax = \"proto3\"; import public \"a.proto\";",
    );
    c.source(
        "opt.proto",
        "syntax = \"proto3\"; package o; import \"google/protobuf/descriptor.proto\";\n\
         extend google.protobuf.MessageOptions { bool flag = 50000; }",
    );
    c.source(
        "t.proto",
        "syntax = \"proto3\";\nimport \"a.proto\";\nimport \"re.proto\";\nimport \"opt.proto\";\n\
         import \"google/protobuf/empty.proto\";\nmessage T { option (o.flag) = true; a.A x = 1; }\n",
    );
    let compiled = c.compile(&["t.proto"]).expect("compiles");
    let unused: Vec<&str> = compiled
        .warnings
        .iter()
        .filter(|w| w.code() == "lint-unused-import")
        .map(|w| w.message())
        .collect();
    // a.proto is used directly (so re.proto's re-export is not needed), opt.proto by the
    // option; empty.proto by nothing.
    assert_eq!(
        unused,
        vec![
            "import \"re.proto\" is unused",
            "import \"google/protobuf/empty.proto\" is unused"
        ]
    );
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let deep_messages = format!(
        "syntax = \"proto3\";\n{}{}",
        "message A { ".repeat(5000),
        "}".repeat(5000)
    );
    let err = compile_sources(&[("t.proto", deep_messages.as_str())]).expect_err("too deep");
    assert!(
        err.errors()
            .iter()
            .any(|d| d.message().contains("nesting deeper than")),
        "{err}"
    );
    let deep_value = format!(
        "syntax = \"proto3\";\nimport \"google/protobuf/descriptor.proto\";\n\
         extend google.protobuf.FileOptions {{ google.protobuf.FileOptions o = 50000; }}\n\
         option (o) = {}{};\n",
        "{ [o] ".repeat(5000),
        "}".repeat(5000)
    );
    let err = compile_sources(&[("t.proto", deep_value.as_str())]).expect_err("too deep");
    assert!(
        err.errors()
            .iter()
            .any(|d| d.message().contains("nesting deeper than")),
        "{err}"
    );
}
