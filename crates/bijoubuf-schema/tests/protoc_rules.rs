//! Rules where protoc's verdict was checked by hand (protoc 30.2; later ones with 36.2 too): accepted what it
//! accepts, refused what it refuses.

use bijoubuf_schema::{Compiled, Diagnostics, Severity, compile_sources};

fn compile(text: &str) -> Result<Compiled, Diagnostics> {
    compile_sources(&[("t.proto", text)])
}

fn codes(text: &str) -> Vec<&'static str> {
    match compile(text) {
        Ok(_) => Vec::new(),
        Err(e) => e.errors().iter().map(|d| d.code()).collect(),
    }
}

#[test]
fn enum_values_conflict_only_when_their_pascal_case_forms_are_equal() {
    // Checkbox and CheckBox differ.
    assert_eq!(
        codes("syntax = \"proto3\";\nenum T { T_UNSPECIFIED = 0; CHECKBOX = 1; CHECK_BOX = 2; }"),
        Vec::<&str>::new()
    );
    assert_eq!(
        codes("syntax = \"proto3\";\nenum T { T_UNSPECIFIED = 0; FOO_BAR = 1; FOOBar = 2; }"),
        Vec::<&str>::new()
    );
    // FooBar twice; FOO is T_FOO without the prefix.
    assert_eq!(
        codes("syntax = \"proto3\";\nenum T { T_UNSPECIFIED = 0; FOO_BAR = 1; foo_bar = 2; }"),
        ["enum-value-name-conflict"]
    );
    assert_eq!(
        codes("syntax = \"proto3\";\nenum T { T_UNSPECIFIED = 0; T_FOO = 1; FOO = 2; }"),
        ["enum-value-name-conflict"]
    );
    // proto2 too; aliases (same number) are fine.
    assert_eq!(
        codes("syntax = \"proto2\";\nenum T { T_UNSPECIFIED = 0; FOO_BAR = 1; foo_bar = 2; }"),
        ["enum-value-name-conflict"]
    );
    assert_eq!(
        codes(
            "syntax = \"proto2\";\nenum T { option allow_alias = true; T_UNSPECIFIED = 0; FOO_BAR = 1; foo_bar = 1; }"
        ),
        Vec::<&str>::new()
    );
}

#[test]
fn legacy_json_field_conflicts_relax_the_checks_as_protoc_does() {
    // A proto2 enum: a warning instead of an error.
    let ok = compile(
        "syntax = \"proto2\";\nenum T { option deprecated_legacy_json_field_conflicts = true; T_UNSPECIFIED = 0; FOO_BAR = 1; foo_bar = 2; }",
    )
    .expect("a warning only");
    assert!(
        ok.warnings
            .iter()
            .any(|w| w.code() == "enum-value-name-conflict" && w.severity() == Severity::Warning)
    );
    // A proto3 enum: still an error.
    assert_eq!(
        codes(
            "syntax = \"proto3\";\nenum T { option deprecated_legacy_json_field_conflicts = true; T_UNSPECIFIED = 0; FOO_BAR = 1; foo_bar = 2; }"
        ),
        ["enum-value-name-conflict"]
    );
    // Messages: no JSON name check at all.
    assert_eq!(
        codes("syntax = \"proto3\";\nmessage M { int32 foo_bar = 1; int32 fooBar = 2; }"),
        ["json-name-conflict"]
    );
    for text in [
        "syntax = \"proto3\";\nmessage M { option deprecated_legacy_json_field_conflicts = true; int32 foo_bar = 1; int32 fooBar = 2; }",
        "syntax = \"proto3\";\nmessage M { option deprecated_legacy_json_field_conflicts = true; int32 a = 1 [json_name = \"x\"]; int32 b = 2 [json_name = \"x\"]; }",
    ] {
        let c = compile(text).unwrap_or_else(|e| panic!("{text}: {:?}", e.errors()));
        assert!(c.warnings.iter().all(|w| w.code() != "json-name-conflict"));
    }
}

#[test]
fn json_name_and_default_at_most_once() {
    assert_eq!(
        codes(
            "syntax = \"proto3\";\nmessage M { int32 a = 1 [json_name = \"x\", json_name = \"y\"]; }"
        ),
        ["duplicate-option"]
    );
    assert_eq!(
        codes(
            "syntax = \"proto2\";\nmessage M { optional int32 a = 1 [default = 1, default = 2]; }"
        ),
        ["duplicate-option"]
    );
}

#[test]
fn lazy_only_on_message_fields() {
    assert_eq!(
        codes(
            "syntax = \"proto3\";\nmessage M { int32 a = 1 [lazy = true]; M m = 2 [lazy = true]; repeated M r = 3 [lazy = true]; int32 b = 4 [unverified_lazy = true]; map<string, M> mp = 5 [lazy = true]; int32 c = 6 [lazy = false]; }"
        ),
        ["invalid-lazy", "invalid-lazy"]
    );
}

#[test]
fn a_nul_byte_in_a_comment_is_refused() {
    for text in [
        "syntax = \"proto3\";\n// a \0 b\nmessage M {}\n",
        "syntax = \"proto3\";\n/* a \0 b */\nmessage M {}\n",
    ] {
        let err = compile(text).expect_err("NUL in a comment");
        let d = &err.errors()[0];
        assert_eq!((d.code(), d.line(), d.column()), ("syntax", 2, 6), "{d:?}");
    }
    // Other control characters in comments are fine (protoc accepts them).
    assert!(compile("syntax = \"proto3\";\n// a \u{1} b \u{7f}\nmessage M {}\n").is_ok());
}

#[test]
fn message_sets_as_protoc_36_2_checks_them() {
    let ms = "syntax = \"proto2\";\nmessage MS { option message_set_wire_format = true; extensions 4 to max; }\n";
    let with = |rest: &str| codes(&format!("{ms}{rest}"));
    // Extension numbers reach 2^31 - 2 in a MessageSet only.
    assert_eq!(
        with("message I { extend MS { optional I x = 2147483646; } }"),
        Vec::<&str>::new()
    );
    assert_eq!(
        with("message I { extend MS { optional I x = 2147483647; } }"),
        ["field-number-out-of-range"]
    );
    assert_eq!(
        codes(
            "syntax = \"proto2\";\nmessage N { extensions 4 to max; }\nmessage I { extend N { optional I x = 536870912; } }"
        ),
        ["field-number-out-of-range"]
    );
    assert_eq!(
        codes("syntax = \"proto2\";\nmessage N { extensions 4 to 536870912; }"),
        ["number-out-of-range"]
    );
    // protoc: "Extensions of MessageSets must be optional messages."
    assert_eq!(
        with("extend MS { optional int32 x = 5; }"),
        ["invalid-message-set-extension"]
    );
    assert_eq!(
        with("message I { extend MS { repeated I x = 5; } }"),
        ["invalid-message-set-extension"]
    );
    // "MessageSets cannot have fields, only extensions." and "MessageSet is not
    // supported in proto3."
    assert_eq!(
        codes(
            "syntax = \"proto2\";\nmessage MS { option message_set_wire_format = true; optional int32 a = 1; }"
        ),
        ["invalid-message-set"]
    );
    assert_eq!(
        codes("syntax = \"proto3\";\nmessage MS { option message_set_wire_format = true; }"),
        ["invalid-message-set"]
    );
    // In an edition, a field without a label is optional.
    assert_eq!(
        codes(
            "edition = \"2023\";\nmessage MS { option message_set_wire_format = true; extensions 4 to max; }\nmessage I { extend MS { I x = 1000000000; } }"
        ),
        Vec::<&str>::new()
    );
}

#[test]
fn a_map_entry_message_is_no_field_type() {
    let map = "syntax = \"proto2\";\npackage r;\nmessage Foo { map<int32, int32> foo_bar = 1; extensions 100 to 200; }\n";
    let with = |rest: &str| codes(&format!("{map}{rest}"));
    // protoc 36.2: "r.Foo.FooBarEntry is a synthetic MapEntry message type, which is not
    // allowed to be used as a field type." (30.2: "map_entry should not be set
    // explicitly"), for a field, a repeated field, a oneof member, an extension and a
    // map's value.
    assert_eq!(
        codes(
            "syntax = \"proto3\";\nmessage Foo { map<int32, int32> foo_bar = 1; FooBarEntry bad = 2; }"
        ),
        ["map-entry-type"]
    );
    assert_eq!(
        with("message O { repeated Foo.FooBarEntry e = 1; }"),
        ["map-entry-type"]
    );
    assert_eq!(
        with("message O { oneof o { Foo.FooBarEntry e = 1; } }"),
        ["map-entry-type"]
    );
    assert_eq!(
        with("extend Foo { optional Foo.FooBarEntry e = 100; }"),
        ["map-entry-type"]
    );
    assert_eq!(
        codes("syntax = \"proto3\";\nmessage Foo { map<int32, Foo.FooBarEntry> foo_bar = 1; }"),
        ["map-entry-type"]
    );
    // The entry is still a symbol: it takes its name, and a method may name it.
    assert_eq!(
        with("message Foo2 { map<int32, int32> x = 1; message XEntry {} }"),
        ["duplicate-name"]
    );
    assert_eq!(
        with("service S { rpc M(Foo.FooBarEntry) returns (Foo.FooBarEntry); }"),
        Vec::<&str>::new()
    );
}

#[test]
fn allow_alias_false_is_refused() {
    // protoc: "\"Bat\" declares 'option allow_alias = false;' which has no effect. Please
    // remove the declaration."
    assert_eq!(
        codes(
            "syntax = \"proto3\";\nenum Bat { option allow_alias = false; BAT_UNSPECIFIED = 0; BAT_ONE = 1; }"
        ),
        ["useless-allow-alias"]
    );
    // Whether or not the enum has aliases.
    assert!(
        codes(
            "syntax = \"proto2\";\nmessage M { enum E { option allow_alias = false; A = 0; B = 0; } }"
        )
        .contains(&"useless-allow-alias")
    );
}

#[test]
fn methods_and_extendees_find_the_nearest_symbol_of_any_kind() {
    // protoc looks a method's types and an extendee up among all symbols, not only
    // types: the method `Foo` hides the message `Foo` ("\"Foo\" is not a message type.").
    assert_eq!(
        codes(
            "syntax = \"proto3\";\npackage a;\nmessage Foo {}\nmessage Bar {}\nservice MyService { rpc Foo(Foo) returns (Bar); }"
        ),
        ["not-a-message"]
    );
    assert_eq!(
        codes(
            "syntax = \"proto3\";\npackage a;\nmessage Foo {}\nmessage Bar {}\nservice MyService { rpc Bar(Foo) returns (Bar); }"
        ),
        ["not-a-message"]
    );
    // A dotted name skips a first part that cannot hold members.
    assert_eq!(
        codes(
            "syntax = \"proto3\";\nmessage Foo { message In {} }\nservice S { rpc Foo(Foo.In) returns (Foo.In); }"
        ),
        Vec::<&str>::new()
    );
    // A field or an enum value named like the extended message hides it too.
    let foo = "syntax = \"proto2\";\nmessage Foo { extensions 100 to 200; }\n";
    assert_eq!(
        codes(&format!(
            "{foo}message Bar {{ optional int32 Foo = 1; extend Foo {{ optional int32 x = 100; }} }}"
        )),
        ["not-a-message"]
    );
    assert_eq!(
        codes(&format!(
            "{foo}message Bar {{ enum E {{ Foo = 0; }} extend Foo {{ optional int32 x = 100; }} }}"
        )),
        ["not-a-message"]
    );
    // A field's type skips what is not a type.
    assert_eq!(
        codes(&format!(
            "{foo}message Bar {{ optional int32 Foo = 1; optional Foo f = 2; }}"
        )),
        Vec::<&str>::new()
    );
}
