//! Option values and descriptor details where protoc's behaviour is the rule, one test
//! each (protoc 30.2 was run on each snippet; what it did is stated beside it).

use bijoubuf_schema::{Compiled, Diagnostics, OptionValue, compile_sources};
use prost_types::FileDescriptorProto;

const HEADER: &str = r#"
syntax = "proto2";
package t;
import "google/protobuf/descriptor.proto";
enum E { Z = 0; ONE = 1; }
message R {
  optional int32 a = 1;
  optional int32 b = 2;
  optional bool t = 3;
  optional E e = 4;
  optional double d = 5;
  optional float f = 6;
  optional google.protobuf.Any any = 7;
  optional R r = 8;
}
extend google.protobuf.MessageOptions {
  optional R r = 50000;
  optional bool flag = 50001;
  optional double dd = 50002;
  optional E ee = 50003;
}
"#;

/// Compiles `body` after the shared declarations (with google/protobuf/any.proto).
fn compile(body: &str) -> Result<Compiled, Diagnostics> {
    let text = HEADER.replace(
        "import \"google/protobuf/descriptor.proto\";",
        "import \"google/protobuf/descriptor.proto\";\nimport \"google/protobuf/any.proto\";",
    ) + body;
    compile_sources(&[("t.proto", &text)])
}

/// The value of option `name` on message `t.M`.
fn option(c: &Compiled, name: &str) -> OptionValue {
    let m = c.schema.message("t.M").expect("t.M");
    m.options
        .iter()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no option {name} in {:?}", m.options))
        .value
        .clone()
}

fn field<'a>(v: &'a OptionValue, name: &str) -> Option<&'a OptionValue> {
    match v {
        OptionValue::Message(fields) => fields.iter().find(|(n, _)| n == name).map(|(_, v)| v),
        _ => None,
    }
}

fn refused(body: &str, code: &str) {
    match compile(body) {
        Ok(_) => panic!("accepted, but protoc refuses: {body}"),
        Err(e) => assert!(
            e.errors().iter().any(|d| d.code() == code),
            "{body}: expected {code}, got {:?}",
            e.errors()
        ),
    }
}

fn file(c: &Compiled) -> FileDescriptorProto {
    c.schema.file_descriptor_set().file.remove(0)
}

// ----- aggregate values protoc accepts -----

#[test]
fn hash_comment_runs_to_the_end_of_the_value() {
    // protoc: `b: 2` after the comment is ignored.
    let c = compile("message M { option (r) = { a: 1 # note\n b: 2 }; }").expect("accepted");
    let v = option(&c, "(r)");
    assert_eq!(field(&v, "a"), Some(&OptionValue::Int(1)));
    assert_eq!(field(&v, "b"), None);
    // Inside a nested message the comment swallows its `}`: protoc refuses.
    refused(
        "message M { option (r) = { r { a: 1 # note\n } }; }",
        "syntax",
    );
}

#[test]
fn any_is_expanded_from_its_type_url() {
    let c = compile("message M { option (r) = { any { [type.googleapis.com/t.R] { a: 5 } } }; }")
        .expect("accepted");
    let v = option(&c, "(r)");
    let any = field(&v, "any").expect("any set");
    let inner = field(any, "[type.googleapis.com/t.R]").expect("expanded");
    assert_eq!(field(inner, "a"), Some(&OptionValue::Int(5)));
    // An unknown type is an error, not an empty Any.
    refused(
        "message M { option (r) = { any { [type.googleapis.com/t.Nope] { a: 5 } } }; }",
        "unknown-option",
    );
}

#[test]
fn bools_and_enums_take_numbers_inside_aggregates() {
    let c = compile("message M { option (r) = { t: 1 e: 1 }; }").expect("accepted");
    let v = option(&c, "(r)");
    assert_eq!(field(&v, "t"), Some(&OptionValue::Bool(true)));
    assert_eq!(
        field(&v, "e"),
        Some(&OptionValue::Enum {
            name: "ONE".into(),
            number: 1
        })
    );
    // protoc: "Unknown enumeration value of "7"" (E is closed); 2 is no bool.
    refused(
        "message M { option (r) = { e: 7 }; }",
        "invalid-option-value",
    );
    refused(
        "message M { option (r) = { t: 2 }; }",
        "invalid-option-value",
    );
}

#[test]
fn infinities_in_every_spelling_text_format_takes() {
    let c = compile("message M { option (r) = { d: Infinity f: -Infinity }; }").expect("accepted");
    let v = option(&c, "(r)");
    assert_eq!(field(&v, "d"), Some(&OptionValue::Float(f64::INFINITY)));
    assert_eq!(field(&v, "f"), Some(&OptionValue::Float(f64::NEG_INFINITY)));
    let c = compile("message M { option (r) = { d: inf f: -inf }; }").expect("accepted");
    assert_eq!(
        field(&option(&c, "(r)"), "f"),
        Some(&OptionValue::Float(f64::NEG_INFINITY))
    );
    // Outside an aggregate, protoc takes only `inf` and `nan`.
    refused(
        "message M { option (dd) = Infinity; }",
        "invalid-option-value",
    );
}

#[test]
fn integers_past_64_bits_are_doubles() {
    let c = compile(
        "message M { option (dd) = 18446744073709551616; option (r) = { d: 99999999999999999999 }; \
         optional double x = 1 [default = 18446744073709551616]; }",
    )
    .expect("accepted");
    assert_eq!(
        option(&c, "(dd)"),
        OptionValue::Float(18446744073709551616.0)
    );
    let f = file(&c);
    let m = f.message_type.iter().find(|m| m.name() == "M").expect("M");
    assert_eq!(m.field[0].default_value(), "1.8446744073709552e+19");
    // Still an error for an integer type (protoc: "Integer out of range").
    refused(
        "message M { optional uint64 x = 1 [default = 18446744073709551616]; }",
        "invalid-default",
    );
}

// ----- option values protoc refuses -----

#[test]
fn capitalised_true_only_inside_aggregates() {
    // protoc: Value must be "true" or "false" for boolean option.
    refused(
        "message M { option (flag) = True; }",
        "invalid-option-value",
    );
    refused("message M { option (flag) = 1; }", "invalid-option-value");
    let c = compile("message M { option (r) = { t: True }; }").expect("accepted");
    assert_eq!(
        field(&option(&c, "(r)"), "t"),
        Some(&OptionValue::Bool(true))
    );
}

#[test]
fn whole_message_after_a_sub_path_is_refused() {
    // protoc: Option "(r)" was already set.
    refused(
        "message M { option (r).b = 2; option (r) = { a: 1 }; }",
        "duplicate-option",
    );
    // The other order protoc accepts (the field is merged in).
    compile("message M { option (r) = { a: 1 }; option (r).b = 2; }").expect("accepted");
}

#[test]
fn a_field_an_aggregate_set_cannot_be_set_again() {
    // Issue 23, item 5 (protoc 36.2: Option "(r).r" was already set): an aggregate sets
    // each singular field it names; a later statement may set the others.
    for body in [
        "message M { option (r) = { r: { a: 1 } }; option (r).r = { b: 9 }; }",
        "message M { option (r) = { r: { a: 1 } }; option (r).r.a = 9; }",
        "message M { option (r).r = { a: 1 }; option (r).r.a = 2; }",
        "message M { option (r) = { r: { } }; option (r).r = { a: 9 }; }",
        "message M { option (r) = { a: 1 }; option (r).a = 9; }",
    ] {
        refused(body, "duplicate-option");
    }
    for body in [
        "message M { option (r) = { r: { a: 1 } }; option (r).r.b = 9; }",
        "message M { option (r) = { r: { } }; option (r).r.a = 9; }",
        "message M { option (r).r = { a: 1 }; option (r).r.b = 2; }",
        "message M { option (r) = { a: 1 }; option (r).r.b = 9; }",
    ] {
        compile(body).unwrap_or_else(|e| panic!("{body}: refused: {:?}", e.errors()));
    }
}

#[test]
fn hex_for_a_double_only_outside_aggregates() {
    // protoc: Expect a decimal number, got: 0x10.
    refused(
        "message M { option (r) = { d: 0x10 }; }",
        "invalid-option-value",
    );
    refused(
        "message M { option (r) = { f: 010 }; }",
        "invalid-option-value",
    );
    let c = compile("message M { option (dd) = 0x10; }").expect("accepted");
    assert_eq!(option(&c, "(dd)"), OptionValue::Float(16.0));
}

// ----- descriptors as protoc writes them -----

#[test]
fn rpc_with_a_body_has_options() {
    let c = compile(
        "service S { rpc A(R) returns (R) {} rpc B(R) returns (R); rpc C(R) returns (R) { } }",
    )
    .expect("accepted");
    let f = file(&c);
    let m = &f.service[0].method;
    assert_eq!(m[0].options, Some(Default::default()));
    assert_eq!(m[1].options, None);
    assert_eq!(m[2].options, Some(Default::default()));
}

#[test]
fn proto3_optional_extension_is_marked() {
    let c = compile_sources(&[(
        "t.proto",
        "syntax = \"proto3\"; package t; import \"google/protobuf/descriptor.proto\";\n\
         extend google.protobuf.FieldOptions { optional int32 a = 50000; repeated int32 b = 50001; }",
    )])
    .expect("accepted");
    let f = file(&c);
    assert_eq!(f.extension[0].proto3_optional, Some(true));
    assert_eq!(f.extension[1].proto3_optional, None);
}

#[test]
fn message_set_extension_range_reaches_int32_max() {
    let c = compile(
        "message MS { option message_set_wire_format = true; extensions 4 to max; }\n\
         message N { extensions 4 to max; }",
    )
    .expect("accepted");
    let f = file(&c);
    let end = |name: &str| {
        f.message_type
            .iter()
            .find(|m| m.name() == name)
            .map(|m| m.extension_range[0].end())
    };
    assert_eq!(end("MS"), Some(i32::MAX));
    assert_eq!(end("N"), Some(536_870_912));
}

#[test]
fn negative_zero_default() {
    let c = compile(
        "message M { optional double d = 1 [default = -0]; optional float f = 2 [default = -0]; \
         optional double z = 3 [default = 0]; }",
    )
    .expect("accepted");
    let f = file(&c);
    let m = f.message_type.iter().find(|m| m.name() == "M").expect("M");
    let defaults: Vec<&str> = m.field.iter().map(|x| x.default_value()).collect();
    assert_eq!(defaults, ["-0", "-0", "0"]);
}

#[test]
fn synthetic_oneof_names_step_around_taken_names() {
    let c = compile_sources(&[(
        "t.proto",
        "syntax = \"proto3\"; package t;\n\
         message M { optional int32 c = 1; oneof _c { int32 q = 2; }\n\
         optional int32 e = 3; oneof _e { int32 r = 4; } oneof X_e { int32 s = 5; } }",
    )])
    .expect("accepted");
    let f = file(&c);
    let names: Vec<&str> = f.message_type[0]
        .oneof_decl
        .iter()
        .map(|o| o.name())
        .collect();
    assert_eq!(names, ["_c", "_e", "X_e", "X_c", "XX_e"]);
}
