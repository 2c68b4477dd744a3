//! Generation options and naming decisions, checked on small in-memory schemas.

use bijoubuf_codegen::{Error, Options, generate};

fn gen_with(files: &[(&str, &str)], opts: &Options) -> Result<String, Error> {
    let compiled = bijoubuf_schema::compile_sources(files).expect("test schemas compile");
    Ok(generate(&compiled.schema, opts)?
        .into_iter()
        .map(|f| f.content)
        .collect())
}

fn gen_one(text: &str, opts: &Options) -> String {
    gen_with(&[("t.proto", text)], opts).expect("generates")
}

const RECURSIVE: &str = r#"syntax = "proto3"; package p;
message A { B b = 1; A self_ref = 2; repeated A many = 3; }
message B { A a = 1; C c = 2; }
message C { int32 x = 1; }"#;

#[test]
fn only_cycles_through_singular_fields_are_boxed() {
    let out = gen_one(RECURSIVE, &Options::new());
    assert!(
        out.contains("pub b: ::core::option::Option<::std::boxed::Box<B>>"),
        "{out}"
    );
    assert!(
        out.contains("pub self_ref: ::core::option::Option<::std::boxed::Box<A>>"),
        "{out}"
    );
    assert!(out.contains("pub many: ::std::vec::Vec<A>"), "{out}");
    assert!(
        out.contains("pub a: ::core::option::Option<::std::boxed::Box<A>>"),
        "{out}"
    );
    assert!(out.contains("pub c: ::core::option::Option<C>"), "{out}");
    // `boxed` forces it.
    let mut opts = Options::new();
    opts.boxed([".p.B.c"]);
    let out = gen_one(RECURSIVE, &opts);
    assert!(
        out.contains("pub c: ::core::option::Option<::std::boxed::Box<C>>"),
        "{out}"
    );
}

#[test]
fn eq_and_hash_only_without_reachable_floats() {
    let out = gen_one(
        r#"syntax = "proto3"; package p;
        message Plain { int32 x = 1; Inner i = 2; }
        message Inner { string s = 1; }
        message Floaty { Deep d = 1; }
        message Deep { map<string, double> m = 1; }"#,
        &Options::new(),
    );
    let derive_of = |name: &str| {
        let at = out.find(&format!("pub struct {name} ")).unwrap();
        let start = out[..at].rfind("#[derive(").unwrap();
        out[start..at].to_string()
    };
    assert!(derive_of("Plain").contains("Eq, Hash"));
    assert!(derive_of("Inner").contains("Eq, Hash"));
    assert!(!derive_of("Floaty").contains(", Eq"));
    assert!(!derive_of("Deep").contains(", Eq"));
}

#[test]
fn extern_paths_and_cross_package_paths() {
    let files = [
        (
            "a.proto",
            r#"syntax = "proto3"; package x.a; message A { int32 v = 1; message N { int32 w = 1; } }"#,
        ),
        (
            "b.proto",
            r#"syntax = "proto3"; package x.b; import "a.proto"; import "google/protobuf/duration.proto";
            message B { x.a.A a = 1; x.a.A.N n = 2; google.protobuf.Duration d = 3; }"#,
        ),
    ];
    let out = gen_with(&files, &Options::new()).unwrap();
    // From x.b up to x, the packages' common ancestor, then down into x.a.
    assert!(out.contains("::core::option::Option<super::a::A>"), "{out}");
    assert!(
        out.contains("::core::option::Option<super::a::a::N>"),
        "{out}"
    );
    assert!(
        out.contains("::core::option::Option<::bijoubuf::wkt::Duration>"),
        "{out}"
    );
    let mut opts = Options::new();
    opts.extern_path(".x.a", "::other::a")
        .extern_path(".google.protobuf", "::my_wkt");
    let out = gen_with(&files, &opts).unwrap();
    assert!(
        out.contains("::core::option::Option<::other::a::A>"),
        "{out}"
    );
    assert!(
        out.contains("::core::option::Option<::other::a::a::N>"),
        "{out}"
    );
    assert!(
        out.contains("::core::option::Option<::my_wkt::Duration>"),
        "{out}"
    );
    // Extern types are not generated.
    assert!(!out.contains("pub struct A "), "{out}");
}

#[test]
fn cross_package_paths_climb_to_the_common_ancestor() {
    let files = [
        (
            "a.proto",
            r#"syntax = "proto3"; package x.a; message A { int32 v = 1; }"#,
        ),
        (
            "x.proto",
            r#"syntax = "proto3"; package x; message X { int32 v = 1; }"#,
        ),
        (
            "y.proto",
            r#"syntax = "proto3"; package y.z; message Y { int32 v = 1; }"#,
        ),
        (
            "c.proto",
            r#"syntax = "proto3"; package x.a.c; import "a.proto"; import "x.proto"; import "y.proto";
            message C { message D { x.a.A a = 1; x.X x = 2; y.z.Y y = 3; } }"#,
        ),
    ];
    let out = gen_with(&files, &Options::new()).unwrap();
    // From module x::a::c::c (C's nested types): up one to the package, then one more
    // to x::a (A's package, an ancestor), two to x, three to the root for y.z.
    assert!(
        out.contains("pub a: ::core::option::Option<super::super::A>"),
        "{out}"
    );
    assert!(
        out.contains("pub x: ::core::option::Option<super::super::super::X>"),
        "{out}"
    );
    assert!(
        out.contains("pub y: ::core::option::Option<super::super::super::super::y::z::Y>"),
        "{out}"
    );
}

#[test]
fn attributes_land_where_configured_and_bad_ones_are_errors() {
    let text = r#"syntax = "proto3"; package p; message M { int32 a = 1; oneof o { int32 b = 2; } } enum E { E_ZERO = 0; }"#;
    let mut opts = Options::new();
    opts.message_attribute(".p.M", "#[must_use]")
        .enum_attribute(".p.E", "#[non_exhaustive]")
        .field_attribute("M.a", "#[doc(alias = \"alpha\")]")
        .type_attribute(".p.M.o", "#[derive(PartialOrd)]");
    let out = gen_one(text, &opts);
    assert!(out.contains("#[must_use]\npub struct M"), "{out}");
    assert!(
        out.contains("#[non_exhaustive]\n#[repr(i32)]\npub enum E"),
        "{out}"
    );
    assert!(
        out.contains("#[doc(alias = \"alpha\")]\n    pub a: i32"),
        "{out}"
    );
    assert!(
        out.contains("#[derive(PartialOrd)]\n    pub enum O"),
        "{out}"
    );
    let mut bad = Options::new();
    bad.field_attribute(".", "derive(Oops)");
    let compiled = bijoubuf_schema::compile_sources(&[("t.proto", text)]).unwrap();
    let err = generate(&compiled.schema, &bad).unwrap_err();
    assert!(matches!(err, Error::Attribute { .. }), "{err}");
    assert_eq!(err.code(), "invalid-attribute");
}

#[test]
fn every_error_has_its_own_stable_code() {
    let s = String::new;
    let cases = [
        (
            Error::Attribute {
                path: s(),
                attribute: s(),
                message: s(),
            },
            "invalid-attribute",
        ),
        (
            Error::ExternPath {
                proto_path: s(),
                rust_path: s(),
                message: s(),
            },
            "invalid-extern-path",
        ),
        (
            Error::Unsupported {
                path: s(),
                message: s(),
            },
            "unsupported",
        ),
        (
            Error::UnknownPath {
                option: "borrowed",
                path: s(),
                suggestion: None,
            },
            "unknown-path",
        ),
        (
            Error::Internal {
                package: s(),
                message: s(),
            },
            "internal",
        ),
    ];
    for (e, code) in cases {
        assert_eq!(e.code(), code, "{e}");
    }
}

#[test]
fn comments_become_docs_unless_disabled() {
    let text = "syntax = \"proto3\"; package p;\n// Leading.\nmessage M {\n  int32 a = 1; // Trailing.\n}\n";
    let out = gen_one(text, &Options::new());
    assert!(out.contains("/// Leading.\n"), "{out}");
    assert!(out.contains("/// Trailing.\n"), "{out}");
    let mut opts = Options::new();
    opts.disable_comments(["."]);
    let out = gen_one(text, &opts);
    assert!(!out.contains("Leading."), "{out}");
    assert!(out.contains("/// The `p.M` message."), "{out}");
}

#[test]
fn comments_are_safe_from_rustdocs_lints() {
    // rustdoc reads `[Alpha]` as a link to an item named `Alpha`, `<version>` as an
    // unclosed HTML tag and a bare URL as a missed link, and warns in every user's
    // `cargo doc` (OpenTelemetry's protos have all three); links, autolinks and code
    // spans stay as written.
    let text = "syntax = \"proto3\"; package p;\n\
        // Status: [Alpha]\n\
        // See [the spec](https://example.com/spec) and `a[0]`, ``b[`1`]``.\n\
        // It`s [Optional]; a lone ] too.\n\
        // Format: <name>/<version>, see https://example.com/v1. Or <https://example.com/a>.\n\
        // A link over two lines: the [bucket naming\n\
        // requirements](https://example.com/b). And [this](\n\
        // https://example.com/c). Escaped already: \\[x\\] \\<y>.\n\
        // Not an autolink: <https://example.com/d and more>.\n\
        message M { int32 a = 1; }\n";
    let out = gen_one(text, &Options::new());
    for line in [
        "/// Status: \\[Alpha\\]\n",
        "/// See [the spec](https://example.com/spec) and `a[0]`, ``b[`1`]``.\n",
        "/// It`s \\[Optional\\]; a lone \\] too.\n",
        "/// Format: \\<name>/\\<version>, see <https://example.com/v1>. Or <https://example.com/a>.\n",
        "/// A link over two lines: the [bucket naming\n/// requirements](https://example.com/b). And [this](\n/// https://example.com/c). Escaped already: \\[x\\] \\<y>.\n/// Not an autolink: \\<<https://example.com/d> and more>.\n",
    ] {
        assert!(out.contains(line), "{line} in {out}");
    }
    // A comment rustdoc would take for code is fenced as text, and left as written.
    let text = "syntax = \"proto3\"; package p;\n// Example:\n//     x = [1]\nmessage M { int32 a = 1; }\n";
    let out = gen_one(text, &Options::new());
    assert!(out.contains("///     x = [1]\n"), "{out}");
}

#[test]
fn unknown_field_member_only_where_asked() {
    let text = r#"syntax = "proto3"; package p; message Keep { int32 a = 1; } message Strict { int32 a = 1; }"#;
    let mut opts = Options::new();
    opts.preserve_unknown_fields(["Keep"]);
    let out = gen_one(text, &opts);
    let keep = &out[out.find("pub struct Keep").unwrap()
        ..out.find("impl ::bijoubuf::Message for Keep").unwrap()];
    let strict = &out[out.find("pub struct Strict").unwrap()
        ..out.find("impl ::bijoubuf::Message for Strict").unwrap()];
    assert!(
        keep.contains("pub unknown_fields: ::bijoubuf::UnknownFields"),
        "{keep}"
    );
    assert!(!strict.contains("unknown_fields"), "{strict}");
}

#[test]
fn bytes_paths_become_shared_bytes_elsewhere_vec() {
    let mut opts = Options::new();
    opts.bytes([".t.M.b", ".t.M.r", ".t.M.m"]);
    let compiled = bijoubuf_schema::compile_sources(&[(
        "t.proto",
        r#"syntax = "proto3"; package t;
        message M { bytes b = 1; repeated bytes r = 2; map<string, bytes> m = 3; bytes v = 4; }"#,
    )])
    .unwrap();
    let out = &generate(&compiled.schema, &opts).unwrap()[0].content;
    // The runtime's hidden module through the file's alias of it.
    assert!(
        out.contains("\nuse ::bijoubuf::__private as __bb;\n"),
        "{out}"
    );
    let shared = "__bb::bytes::Bytes";
    assert!(out.contains(&format!("pub b: {shared},")), "{out}");
    assert!(
        out.contains(&format!("pub r: ::std::vec::Vec<{shared}>,")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "pub m: ::std::collections::BTreeMap<::std::string::String, {shared}>,"
        )),
        "{out}"
    );
    assert!(out.contains("pub v: ::std::vec::Vec<u8>,"), "{out}");
    assert!(out.contains("p.implicit::<__bb::SharedBytes>(1, &self.b)"));
    assert!(out.contains("r.repeated::<__bb::SharedBytes>(2, \"r\")"));
    assert!(out.contains("p.implicit::<__bb::Bytes>(4, &self.v)"));
}

#[test]
fn empty_package_file_name() {
    let compiled =
        bijoubuf_schema::compile_sources(&[("t.proto", r#"syntax = "proto3"; message M {}"#)])
            .unwrap();
    let files = generate(&compiled.schema, &Options::new()).unwrap();
    assert_eq!(files[0].name, "_.rs");
    assert!(bijoubuf_codegen::include_file(&files).contains("include!(\"_.rs\");"));
}

#[test]
fn message_modules_keep_clear_of_sub_package_modules() {
    let files = [
        (
            "a.proto",
            r#"syntax = "proto3"; package a; message B { message Inner { int32 x = 1; } Inner i = 1; }"#,
        ),
        (
            "ab.proto",
            r#"syntax = "proto3"; package a.b; message C { int32 y = 1; }"#,
        ),
    ];
    let out = gen_with(&files, &Options::new()).unwrap();
    // `a::b` is the package; B's nested types move to `a::b_`.
    assert!(out.contains("pub mod b_ {"), "{out}");
    assert!(out.contains("::core::option::Option<b_::Inner>"), "{out}");
}

#[test]
fn no_std_names_alloc() {
    let text = r#"syntax = "proto3"; message M { string s = 1; repeated bytes b = 2; map<int32, M> m = 3; M r = 4; }"#;
    let mut opts = Options::new();
    opts.no_std();
    let out = gen_one(text, &opts);
    assert!(out.contains("pub s: ::alloc::string::String"), "{out}");
    assert!(
        out.contains("pub b: ::alloc::vec::Vec<::alloc::vec::Vec<u8>>"),
        "{out}"
    );
    assert!(
        out.contains("pub m: ::alloc::collections::BTreeMap<i32, M>"),
        "{out}"
    );
    assert!(
        out.contains("pub r: ::core::option::Option<::alloc::boxed::Box<M>>"),
        "{out}"
    );
    assert!(!out.contains("::std::"), "{out}");
}

#[test]
fn getters_never_clash() {
    // `count_or_default` is both an enum field (its getter has its name) and the name
    // `count`'s default getter would take: the default getter is left out.
    let text = r#"syntax = "proto2"; package p;
        enum E { A = 1; }
        message M { optional int32 count = 1 [default = 3]; optional E count_or_default = 2; optional E encode = 3; }"#;
    let out = gen_one(text, &Options::new());
    assert_eq!(out.matches("pub fn count_or_default(").count(), 1, "{out}");
    // An enum field named like a `Message` method gets no getter.
    assert!(!out.contains("pub fn encode("), "{out}");
}

/// A mistyped path used to select nothing and generate silently; every option that takes
/// paths now refuses one that names nothing, with the close name when there is one.
#[test]
fn unknown_paths_in_any_option_are_errors_naming_them() {
    const SHOP: &str = r#"syntax = "proto3"; package shop.v1;
message Order { string id = 1; oneof pay { string card = 2; } map<string, int32> qty = 3; }
enum Status { STATUS_UNSPECIFIED = 0; }"#;
    let refused = |configure: &dyn Fn(&mut Options)| {
        let mut opts = Options::new();
        configure(&mut opts);
        gen_with(&[("t.proto", SHOP)], &opts).unwrap_err()
    };
    let err = refused(&|o| {
        o.borrowed([".shop.v1.Ordr"]);
    });
    assert_eq!(
        err,
        Error::UnknownPath {
            option: "borrowed",
            path: ".shop.v1.Ordr".into(),
            suggestion: Some(".shop.v1.Order".into()),
        }
    );
    assert_eq!(
        err.to_string(),
        "borrowed: `.shop.v1.Ordr` names no package, type or field of the schema \
         (did you mean `.shop.v1.Order`?)"
    );
    // A suffix path is suggested as a suffix; a far-off name gets no suggestion.
    let err = refused(&|o| {
        o.preserve_unknown_fields(["Ordre.id"]);
    });
    assert!(
        err.to_string()
            .starts_with("preserve_unknown_fields: `Ordre.id`")
            && err.to_string().ends_with("(did you mean `Order.id`?)"),
        "{err}"
    );
    let err = refused(&|o| {
        o.serde([".warehouse"]);
    });
    assert_eq!(
        err,
        Error::UnknownPath {
            option: "serde",
            path: ".warehouse".into(),
            suggestion: None,
        }
    );
    // Every other option that takes paths.
    type Configure<'a> = &'a dyn Fn(&mut Options);
    let each: [(&str, Configure<'_>); 9] = [
        ("bytes", &|o| {
            o.bytes([".shop.v1.Order.nope"]);
        }),
        ("boxed", &|o| {
            o.boxed([".shop.v1.Order.nope"]);
        }),
        ("disable_comments", &|o| {
            o.disable_comments([".shop.v2"]);
        }),
        ("type_attribute", &|o| {
            o.type_attribute(".shop.v1.Stat", "#[derive(Hash)]");
        }),
        ("message_attribute", &|o| {
            o.message_attribute(".shop.v1.Item", "#[derive(Hash)]");
        }),
        ("enum_attribute", &|o| {
            o.enum_attribute(".shop.v1.Kind", "#[derive(Hash)]");
        }),
        ("field_attribute", &|o| {
            o.field_attribute(".shop.v1.Order.idd", "#[allow(dead_code)]");
        }),
        ("extern_path", &|o| {
            o.extern_path(".google.type", "::gtype");
        }),
        ("preserve_unknown_fields", &|o| {
            o.preserve_unknown_fields(["Item"]);
        }),
    ];
    for (option, configure) in each {
        match refused(configure) {
            Error::UnknownPath { option: got, .. } => assert_eq!(got, option),
            other => panic!("{option}: {other}"),
        }
    }
    // Names that exist are accepted: packages (and their prefixes), types, fields,
    // oneofs, map entries, enum values, suffixes and ".".
    let mut opts = Options::new();
    opts.borrowed([".shop.v1.Order"])
        .preserve_unknown_fields(["."])
        .serde([".shop"])
        .bytes(["Order.id"])
        .type_attribute(".shop.v1.Order.pay", "#[derive(Hash)]")
        .field_attribute(".shop.v1.Order.QtyEntry.key", "#[allow(dead_code)]")
        .disable_comments([".shop.v1.Status.STATUS_UNSPECIFIED"]);
    gen_with(&[("t.proto", SHOP)], &opts).unwrap();
}

/// A proto3 message `name` with `n` `int32` fields numbered 1 to `n`.
fn fields(name: &str, n: u32) -> String {
    let body: String = (1..=n).map(|i| format!("int32 f{i} = {i}; ")).collect();
    format!("message {name} {{ {body}}}")
}

/// The text of the `impl` blocks that decode message `name` (from its `Decode` impl
/// to the next item).
fn decoder_of<'o>(out: &'o str, name: &str) -> &'o str {
    let at = out
        .find(&format!("__bb::Decode<'a> for {name} {{"))
        .unwrap_or_else(|| panic!("no Decode impl for {name}: {out}"));
    let rest = &out[at..];
    let end = rest
        .find("\nimpl ::bijoubuf::Message for")
        .unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn messages_with_32_fields_or_more_dispatch_by_default_and_options_choose() {
    let text = format!(
        r#"syntax = "proto3"; package p; {} {} {}"#,
        fields("Wide", 32),
        fields("Narrow", 31),
        fields("Other", 2)
    );
    let out = gen_one(&text, &Options::new());
    let wide = decoder_of(&out, "Wide");
    assert!(wide.contains("match r.record()?"), "{wide}");
    assert!(
        wide.contains("32 => r.implicit_here::<__bb::Int32>(\"f32\", &mut self.f32)?"),
        "{wide}"
    );
    // `decode_into` stays the walk.
    assert!(
        wide.contains("r.implicit_into::<__bb::Int32>(1, \"f1\""),
        "{wide}"
    );
    let narrow = decoder_of(&out, "Narrow");
    // A borrowed twin walks unless named.
    let mut opts = Options::new();
    opts.borrowed([".p.Wide"]);
    let twins = gen_one(&text, &opts);
    assert!(decoder_of(&twins, "Wide").contains("r.record()"));
    assert!(!decoder_of(&twins, "WideRef<'a>").contains("r.record()"));
    opts.decode_dispatch([".p.Wide"]);
    let twins = gen_one(&text, &opts);
    assert!(decoder_of(&twins, "WideRef<'a>").contains("r.record()"));
    assert!(!narrow.contains("r.record()"), "{narrow}");
    assert!(narrow.contains("let f31 = r.implicit::<__bb::Int32>(31, \"f31\")?;"));

    // `decode_walk` keeps a wide message on the walk, `decode_dispatch` moves a narrow one.
    let mut opts = Options::new();
    opts.decode_walk([".p.Wide"]).decode_dispatch(["Other"]);
    let out = gen_one(&text, &opts);
    assert!(!decoder_of(&out, "Wide").contains("r.record()"));
    assert!(!decoder_of(&out, "Narrow").contains("r.record()"));
    assert!(decoder_of(&out, "Other").contains("r.record()"));
    // A path named by both dispatches.
    let mut opts = Options::new();
    opts.decode_walk(["."]).decode_dispatch([".p.Narrow"]);
    let out = gen_one(&text, &opts);
    assert!(decoder_of(&out, "Narrow").contains("r.record()"));
    assert!(!decoder_of(&out, "Wide").contains("r.record()"));
}

#[test]
fn dispatch_checks_required_fields_after_finish_in_number_order() {
    let mut opts = Options::new();
    opts.decode_dispatch(["."]);
    let out = gen_one(
        r#"syntax = "proto2"; package p;
        message R { required int32 b = 2; optional int32 c = 3; required string a = 1; }"#,
        &opts,
    );
    let r = decoder_of(&out, "R");
    let finish = r.find("r.finish()?;").expect("finish");
    let a = r
        .find("r.require(__seen_a.then_some(()), \"a\")?;")
        .expect("a's check");
    let b = r
        .find("r.require(__seen_b.then_some(()), \"b\")?;")
        .expect("b's check");
    assert!(finish < a && a < b, "{r}");
}

#[test]
fn a_mistyped_dispatch_path_is_an_error() {
    let mut opts = Options::new();
    opts.decode_dispatch([".p.Nope"]);
    let err = gen_with(
        &[("t.proto", r#"syntax = "proto3"; package p; message M {}"#)],
        &opts,
    )
    .expect_err("unknown path");
    assert!(err.to_string().contains("decode_dispatch"), "{err}");
}

/// `text` with every run of whitespace one space: a `decode_table!` invocation's tokens
/// are wrapped wherever the line fills.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_table_is_chosen_by_path_before_dispatch_and_walk() {
    let text = format!(
        r#"syntax = "proto3"; package p; {} {}"#,
        fields("Wide", 32),
        fields("Other", 2)
    );
    let mut opts = Options::new();
    opts.decode_table([".p.Other"]).decode_walk([".p.Other"]);
    let out = gen_one(&text, &opts);
    let other = decoder_of(&out, "Other");
    assert!(other.contains("__bb::table_decode(r, &mut m)?;"), "{other}");
    assert!(!other.contains("r.record()"), "{other}");
    let table = flat(&out);
    assert!(table.contains("impl < 'a > for Other;"), "{out}");
    assert!(
        table.contains("2 \"f2\" implicit_inline f2(__bb::Int32)"),
        "{out}"
    );
    // Wide keeps the default rule.
    assert!(decoder_of(&out, "Wide").contains("match r.record()?"));
    assert!(!out.contains("impl < 'a > for Wide;"), "{out}");
    // Generated code holds no `unsafe`: the runtime's macro writes it.
    assert!(!out.contains("unsafe"), "{out}");
}

#[test]
fn a_table_notes_required_fields_among_its_first_64_else_dispatches() {
    let field = |i: usize| format!("optional int32 f{i} = {i};");
    let body = |required: usize| {
        (1..=70)
            .map(|i| {
                if i == required {
                    format!("required int32 f{i} = {i};")
                } else {
                    field(i)
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let text = format!(
        r#"syntax = "proto2"; package p; message Low {{ {} }} message High {{ {} }}"#,
        body(64),
        body(65)
    );
    let mut opts = Options::new();
    opts.decode_table(["."]);
    let out = gen_one(&text, &opts);
    let table = flat(&out);
    assert!(table.contains("impl < 'a > for Low;"), "{out}");
    assert!(
        table.contains("64 \"f64\" required f64(__bb::Int32)"),
        "{out}"
    );
    assert!(!table.contains("impl < 'a > for High;"), "{out}");
    assert!(decoder_of(&out, "High").contains("match r.record()?"));
}

#[test]
fn a_mistyped_table_path_is_an_error() {
    let mut opts = Options::new();
    opts.decode_table([".p.Nope"]);
    let err = gen_with(
        &[("t.proto", r#"syntax = "proto3"; package p; message M {}"#)],
        &opts,
    )
    .expect_err("unknown path");
    assert!(err.to_string().contains("decode_table"), "{err}");
}
