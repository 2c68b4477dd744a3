//! The proto3 JSON mapping: scalars, shapes, well-known types, and refusals.

use bijoubuf_reflect::json::{
    JsonOptions, from_str, from_str_with, from_value, to_string, to_string_pretty, to_string_with,
    to_value,
};
use bijoubuf_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, Value};

const SCHEMA: &str = r#"
syntax = "proto3";
package t.v1;
import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/empty.proto";

enum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; }

message All {
  int32 i32 = 1; int64 i64 = 2; uint32 u32 = 3; uint64 u64 = 4;
  sint64 s64 = 5; fixed64 f64 = 6; sfixed32 sf32 = 7;
  float fl = 8; double db = 9; bool flag = 10; string text = 11; bytes blob = 12;
  Color color = 13;
  optional int32 maybe = 14;
  repeated int64 longs = 15;
  map<int64, string> by_id = 16;
  map<bool, int32> by_flag = 17;
  oneof pick { string name = 18; All child = 19; }
  string snake_case_name = 20;
  int32 custom = 21 [json_name = "renamed"];
  repeated Color colors = 22;
}

message Chain {
  repeated Chain list = 1;
  map<string, Chain> by_name = 2;
  Chain one = 3;
  google.protobuf.Value dynamic = 4;
}

message Wkt {
  google.protobuf.Timestamp at = 1;
  google.protobuf.Duration took = 2;
  google.protobuf.Int64Value big = 3;
  google.protobuf.BoolValue yes = 4;
  google.protobuf.BytesValue raw = 5;
  google.protobuf.Struct meta = 6;
  google.protobuf.ListValue list = 7;
  google.protobuf.Value dynamic = 8;
  google.protobuf.FieldMask mask = 9;
  google.protobuf.Any any = 10;
  google.protobuf.Empty nothing = 11;
  google.protobuf.NullValue null = 12;
  google.protobuf.FloatValue ratio = 13;
}
"#;

fn desc(name: &str) -> MessageDescriptor {
    static POOL: std::sync::OnceLock<DescriptorPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let compiled =
            bijoubuf_schema::compile_sources(&[("t.proto", SCHEMA)]).expect("schema compiles");
        DescriptorPool::new(&compiled.schema)
    })
    .message(name)
    .expect("declared")
}

fn all() -> MessageDescriptor {
    desc("t.v1.All")
}

/// JSON → message → bytes → message → JSON gives `expected` (compact).
#[track_caller]
fn round(d: &MessageDescriptor, input: &str, expected: &str) {
    let m = from_str(d, input).unwrap_or_else(|e| panic!("{input}: {e}"));
    let out = to_string(&m).expect("writes");
    assert_eq!(out, expected, "from {input}");
    let bytes = m.encode().expect("encodes");
    let back = DynamicMessage::decode(d, &bytes).expect("decodes");
    assert_eq!(to_string(&back).expect("writes"), expected);
    assert_eq!(back.encode().expect("re-encodes"), bytes);
}

#[track_caller]
fn refused(d: &MessageDescriptor, input: &str, path: &str, words: &str) {
    let e = from_str(d, input).expect_err(input);
    assert_eq!(e.path(), path, "{input}: {e}");
    assert_eq!(e.code(), "invalid-json", "{input}: {e}");
    assert!(
        e.to_string().contains(words),
        "{input}: `{e}` lacks `{words}`"
    );
}

#[test]
fn scalars_in_proto3_json_form() {
    round(
        &all(),
        r#"{"i32": -5, "i64": "-9223372036854775808", "u32": 4294967295, "u64": 18446744073709551615,
            "s64": -1, "f64": "7", "sf32": -2, "fl": 1.1, "db": 0.1, "flag": true,
            "text": "hé\n", "blob": "3q2+7w==", "color": "COLOR_RED"}"#,
        r#"{"i32":-5,"i64":"-9223372036854775808","u32":4294967295,"u64":"18446744073709551615","s64":"-1","f64":"7","sf32":-2,"fl":1.1,"db":0.1,"flag":true,"text":"hé\n","blob":"3q2+7w==","color":"COLOR_RED"}"#,
    );
}

#[test]
fn defaults_are_omitted_and_explicit_presence_is_kept() {
    round(
        &all(),
        r#"{"i32": 0, "text": "", "flag": false, "fl": 0}"#,
        "{}",
    );
    round(&all(), r#"{"maybe": 0}"#, r#"{"maybe":0}"#);
    // -0.0 is not a default (SPEC §5.1).
    round(&all(), r#"{"db": -0.0}"#, r#"{"db":-0.0}"#);
    // null means absent.
    round(&all(), r#"{"i32": null, "longs": null}"#, "{}");
}

#[test]
fn non_finite_floats_are_strings() {
    round(
        &all(),
        r#"{"fl": "NaN", "db": "-Infinity"}"#,
        r#"{"fl":"NaN","db":"-Infinity"}"#,
    );
    round(&all(), r#"{"db": "Infinity"}"#, r#"{"db":"Infinity"}"#);
    round(&all(), r#"{"db": "2.5"}"#, r#"{"db":2.5}"#);
}

#[test]
fn floats_read_back_bit_exact() {
    // -0.0 as a float (Rust prints "-0", which reads back as the integer 0).
    round(&all(), r#"{"fl": -0.0}"#, r#"{"fl":-0.0}"#);
    // A double whose shortest form a fast, not correctly rounded parser misreads.
    let x = f64::from_bits(0x0602_0400_0000_0002);
    let text = format!(
        r#"{{"db": {}}}"#,
        serde_json::Number::from_f64(x).expect("finite")
    );
    let m = from_str(&all(), &text).expect("parses");
    assert_eq!(m.get(9), Some(&Value::F64(x)), "{text}");
    for bits in [
        1u64,
        0x000F_FFFF_FFFF_FFFF,
        0x7FEF_FFFF_FFFF_FFFF,
        0x3FB9_9999_9999_999A,
    ] {
        let x = f64::from_bits(bits);
        let mut m = DynamicMessage::new(all());
        m.set(9, Value::F64(x)).expect("fits");
        let back = from_str(&all(), &to_string(&m).expect("writes")).expect("parses");
        assert_eq!(back.get(9), Some(&Value::F64(x)), "{bits:x}");
    }
}

/// `float` values and the text Python `protobuf` 7.36's `json_format` prints for them in
/// a `FloatValue` (checked by hand, value by value; the Go and TypeScript tests hold the
/// same table): the shortest digits of the f32,
/// positional for decimal exponents −4 to 15, else `e±NN`. Before, `1e20` came out as
/// `100000000000000000000`, which JSON tools read as an integer.
const FLOATS_AS_PROTOBUF_PRINTS_THEM: &[(f32, &str)] = &[
    (1.0, "1.0"),
    (0.1, "0.1"),
    (0.3, "0.3"),
    (1e-5, "1e-05"),
    (2.5e-5, "2.5e-05"),
    (0.0001, "0.0001"),
    (4.2e-4, "0.00042"),
    (0.00012345, "0.00012345"),
    (1e15, "1000000000000000.0"),
    (9.999999e15, "9999999000000000.0"),
    (1e16, "1e+16"),
    (1e20, "1e+20"),
    (f32::MAX, "3.4028235e+38"),
    (-f32::MAX, "-3.4028235e+38"),
    (f32::MIN_POSITIVE, "1.1754944e-38"),
    (16777216.0, "16777216.0"),
    (123456.79, "123456.79"),
    (1234567.9, "1234567.9"),
    (1.5e-7, "1.5e-07"),
    (0.5, "0.5"),
    (100.0, "100.0"),
    (-2.5, "-2.5"),
    (1e7, "10000000.0"),
    (65504.0, "65504.0"),
    (0.0, "0.0"),
    (-0.0, "-0.0"),
    (-1e-10, "-1e-10"),
    (std::f32::consts::PI, "3.1415927"),
    // Halfway between two shortest spellings: the even one (Rust's `{:e}` gives the
    // other, `0.29101563`; so did this writer, and the TypeScript one, before).
    (f32::from_bits(0x3e95_0000), "0.29101562"),
    (f32::from_bits(0x4980_002a), "1048581.2"),
    (f32::from_bits(0x431c_5400), "156.32812"),
    (f32::from_bits(0x3c88_0000), "0.016601562"),
    (f32::from_bits(0x3980_0000), "0.00024414062"),
    (f32::from_bits(0x3b20_0000), "0.0024414062"),
    // Powers of two, whose f32 neighbour below is nearer than the one above: rounded to
    // eight digits they read back as another f32, so nine (the shortest spelling that
    // reads back has eight: `1.2621775e-29`).
    (f32::from_bits(0x0f80_0000), "1.26217745e-29"),
    (f32::from_bits(0x6b00_0000), "1.54742505e+26"),
    (f32::from_bits(0x6c80_0000), "1.23794004e+27"),
    (f32::from_bits(0x5000_0000), "8589935000.0"),
    (f32::from_bits(0x3f00_0001), "0.50000006"),
    // Its shortest spelling, `7.038531e-26`, reads as the next f32 through a double
    // (the way JSON readers read it, this one and Python's): one more digit.
    (f32::from_bits(0x15ae_43fd), "7.0385307e-26"),
];

#[test]
fn floats_print_as_protobuf_prints_them() {
    let ratio = desc("google.protobuf.FloatValue");
    for &(x, text) in FLOATS_AS_PROTOBUF_PRINTS_THEM {
        // As a wrapper (where 0.0 is written too), and as a field, both read back.
        let mut m = DynamicMessage::new(ratio.clone());
        m.set(1, Value::F32(x)).expect("fits");
        assert_eq!(to_string(&m).expect("writes"), text, "{x:e}");
        let back = from_str(&ratio, text).expect(text);
        assert_eq!(
            back.get(1).map(|v| format!("{v:?}")),
            m.get(1).map(|v| format!("{v:?}")),
            "{text}"
        );
        if x != 0.0 {
            round(
                &all(),
                &format!(r#"{{"fl": {text}}}"#),
                &format!(r#"{{"fl":{text}}}"#),
            );
        }
    }
    // Subnormals: the shortest digits, where Python starts from six (`1.4013e-45`);
    // both read back as the same f32.
    let mut m = DynamicMessage::new(all());
    m.set(8, Value::F32(f32::from_bits(1))).expect("fits");
    assert_eq!(to_string(&m).expect("writes"), r#"{"fl":1e-45}"#);
    // `double` is unchanged (serde_json already writes an exponent where Python does).
    round(&all(), r#"{"db": 1e20}"#, r#"{"db":1e+20}"#);
}

#[test]
fn the_largest_floats_round_trip_and_beyond_them_is_refused() {
    // f32::MAX is written with its shortest digits (3.4028235e38), which lie just above
    // f32::MAX as an f64: reading them must round to f32::MAX, not refuse them.
    for x in [f32::MAX, -f32::MAX, f32::MIN_POSITIVE, f32::from_bits(1)] {
        let mut m = DynamicMessage::new(all());
        m.set(8, Value::F32(x)).expect("fits");
        let text = to_string(&m).expect("writes");
        let back = from_str(&all(), &text).expect(&text);
        assert_eq!(back.get(8), Some(&Value::F32(x)), "{text}");
    }
    // A number that rounds to infinity as a float is out of range.
    refused(
        &all(),
        r#"{"fl": 3.5e38}"#,
        "$.fl",
        "out of range for float",
    );
    refused(&all(), r#"{"fl": -1e39}"#, "$.fl", "out of range for float");
}

#[test]
fn names_numbers_and_encodings_accepted_on_input() {
    // Original field name and json_name; numbers for 64-bit; strings for 32-bit.
    round(
        &all(),
        r#"{"snake_case_name": "a", "renamed": 3, "i64": 12, "i32": "-7"}"#,
        r#"{"i32":-7,"i64":"12","snakeCaseName":"a","renamed":3}"#,
    );
    round(
        &all(),
        r#"{"snakeCaseName": "a"}"#,
        r#"{"snakeCaseName":"a"}"#,
    );
    // URL-safe base64 without padding; an enum by number; an unnamed enum number.
    round(&all(), r#"{"blob": "3q2-7w"}"#, r#"{"blob":"3q2+7w=="}"#);
    round(&all(), r#"{"color": 1}"#, r#"{"color":"COLOR_RED"}"#);
    round(
        &all(),
        r#"{"color": 7, "colors": [0, "COLOR_RED", -3]}"#,
        r#"{"color":7,"colors":["COLOR_UNSPECIFIED","COLOR_RED",-3]}"#,
    );
    // Integral floats and exponents are integers.
    round(
        &all(),
        r#"{"i32": 5.0, "u64": "1e3"}"#,
        r#"{"i32":5,"u64":"1000"}"#,
    );
}

#[test]
fn repeated_maps_and_oneofs() {
    round(
        &all(),
        r#"{"longs": ["1", -2], "byId": {"10": "x", "-3": "y"}, "byFlag": {"true": 1, "false": 0},
            "child": {"name": "inner"}}"#,
        r#"{"longs":["1","-2"],"byId":{"-3":"y","10":"x"},"byFlag":{"false":0,"true":1},"child":{"name":"inner"}}"#,
    );
}

#[test]
fn refusals_name_the_json_path() {
    let d = all();
    refused(
        &d,
        r#"{"nope": 1}"#,
        "$.nope",
        "has no field named \"nope\"",
    );
    // A typo gets the close JSON name.
    refused(
        &all(),
        r#"{"snakeCaseNam": 1}"#,
        "$.snakeCaseNam",
        "has no field named \"snakeCaseNam\" (did you mean \"snakeCaseName\"?)",
    );
    refused(
        &d,
        r#"{"i32": 2147483648}"#,
        "$.i32",
        "out of range for int32",
    );
    refused(&d, r#"{"u32": -1}"#, "$.u32", "out of range for uint32");
    refused(
        &d,
        r#"{"u64": "18446744073709551616"}"#,
        "$.u64",
        "out of range",
    );
    refused(&d, r#"{"i32": 1.5}"#, "$.i32", "expected an integer");
    refused(&d, r#"{"fl": 1e39}"#, "$.fl", "out of range for float");
    refused(&d, r#"{"flag": 1}"#, "$.flag", "expected true or false");
    refused(&d, r#"{"blob": "***"}"#, "$.blob", "base64");
    refused(
        &d,
        r#"{"color": "PURPLE"}"#,
        "$.color",
        "not a value of t.v1.Color",
    );
    refused(
        &d,
        r#"{"child": {"child": {"i32": "x"}}}"#,
        "$.child.child.i32",
        "expected an integer",
    );
    refused(
        &d,
        r#"{"longs": [1, "two"]}"#,
        "$.longs[1]",
        "expected an integer",
    );
    refused(
        &d,
        r#"{"byFlag": {"yes": 1}}"#,
        "$.byFlag.yes",
        "\"true\" or \"false\"",
    );
    refused(
        &d,
        r#"{"byId": {"1": "a", "01": "b"}}"#,
        "$.byId.01",
        "the same map key twice",
    );
    refused(
        &d,
        r#"{"name": "a", "child": {}}"#,
        "$.child",
        "oneof pick already has a member set",
    );
    refused(
        &d,
        r#"{"text": "a", "text": "b"}"#,
        "",
        "duplicate key \"text\" in the object at $",
    );
    refused(
        &d,
        r#"{"child": {"i32": 1, "i32": 2}}"#,
        "",
        "duplicate key \"i32\" in the object at $.child",
    );
    refused(
        &d,
        r#"{"snakeCaseName": "a", "snake_case_name": "b"}"#,
        "$.snake_case_name",
        "also given as \"snakeCaseName\"",
    );
    refused(&d, r#"[1]"#, "$", "expected an object");
    refused(&d, r#"{"i32": 1} x"#, "", "trailing characters");
}

#[test]
fn a_value_json_cannot_spell_is_refused_with_its_own_code() {
    // A timestamp after 9999-12-31T23:59:59Z has no RFC 3339 text.
    let mut at = DynamicMessage::new(desc("google.protobuf.Timestamp"));
    at.set(1, Value::I64(253_402_300_800))
        .expect("seconds are int64");
    for e in [
        to_string(&at).unwrap_err(),
        to_value(&at).unwrap_err(),
        to_string_pretty(&at).unwrap_err(),
    ] {
        assert_eq!(e.code(), "json-unrepresentable", "{e}");
    }
    // The same field read from text that does not parse is `invalid-json`.
    let e = from_str(
        &desc("google.protobuf.Timestamp"),
        r#""10000-01-01T00:00:00Z""#,
    )
    .unwrap_err();
    assert_eq!(e.code(), "invalid-json", "{e}");
}

#[test]
fn well_known_types_use_their_special_forms() {
    let d = desc("t.v1.Wkt");
    round(
        &d,
        r#"{"at": "2023-11-14T23:13:20.5+01:00", "took": "-1.000000001s", "big": "9007199254740993",
            "yes": false, "raw": "AAE=", "ratio": 0.5}"#,
        r#"{"at":"2023-11-14T22:13:20.500Z","took":"-1.000000001s","big":"9007199254740993","yes":false,"raw":"AAE=","ratio":0.5}"#,
    );
    round(
        &d,
        r#"{"meta": {"a": [1, "x", null, true, {"b": {}}]}, "list": [], "dynamic": null, "null": null}"#,
        // `null` is an implicit-presence enum holding 0: omitted.
        r#"{"meta":{"a":[1.0,"x",null,true,{"b":{}}]},"list":[],"dynamic":null}"#,
    );
    round(
        &d,
        r#"{"mask": "user.displayName,id"}"#,
        r#"{"mask":"user.displayName,id"}"#,
    );
    round(&d, r#"{"nothing": {}}"#, r#"{"nothing":{}}"#);
    round(
        &d,
        r#"{"any": {"@type": "type.googleapis.com/t.v1.All", "i32": 3, "child": {"flag": true}}}"#,
        r#"{"any":{"@type":"type.googleapis.com/t.v1.All","i32":3,"child":{"flag":true}}}"#,
    );
    round(
        &d,
        r#"{"any": {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "2s"}}"#,
        r#"{"any":{"@type":"type.googleapis.com/google.protobuf.Duration","value":"2s"}}"#,
    );
    refused(&d, r#"{"at": "2023-13-01T00:00:00Z"}"#, "$.at", "RFC 3339");
    refused(&d, r#"{"took": "5m"}"#, "$.took", "duration");
    refused(
        &d,
        r#"{"any": {"@type": "x/no.Such", "a": 1}}"#,
        "$.any",
        "names no message",
    );
    refused(&d, r#"{"any": {"i32": 1}}"#, "$.any", "needs \"@type\"");
    refused(
        &d,
        r#"{"meta": {"a": {"b": 1, "b": 2}}}"#,
        "",
        "duplicate key \"b\" in the object at $.meta.a",
    );
}

#[test]
fn duplicates_are_found_in_large_objects_too() {
    let d = desc("t.v1.Wkt");
    let mut members: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
    let ok = format!("{{\"meta\": {{{}}}}}", members.join(", "));
    assert!(from_str(&d, &ok).is_ok());
    members.push("\"k3\": 0".into());
    let bad = format!("{{\"meta\": {{{}}}}}", members.join(", "));
    refused(&d, &bad, "", "duplicate key \"k3\" in the object at $.meta");
}

#[test]
fn to_value_and_from_value() {
    let d = all();
    let m = from_str(&d, r#"{"i64": "5", "text": "t"}"#).expect("parses");
    let v = to_value(&m).expect("writes");
    assert_eq!(v, serde_json::json!({"i64": "5", "text": "t"}));
    assert_eq!(from_value(&d, &v).expect("reads"), m);
    let pretty = to_string_pretty(&m).expect("writes");
    assert_eq!(pretty, "{\n  \"i64\": \"5\",\n  \"text\": \"t\"\n}");
}

#[test]
fn values_with_no_json_form_are_errors() {
    let d = desc("t.v1.Wkt");
    // A Timestamp past year 9999: seconds 253402300800 (field 1 of `at`).
    let at = d.field(1).expect("at");
    let ts = match at.kind() {
        bijoubuf_reflect::Kind::Message(m) => m,
        other => panic!("{other:?}"),
    };
    let mut t = DynamicMessage::new(ts);
    t.set(1, Value::I64(253_402_300_800)).expect("fits");
    let mut w = DynamicMessage::new(d.clone());
    w.set(1, Value::from(t)).expect("fits");
    let e = to_string(&w).expect_err("out of range");
    assert_eq!(e.path(), "$.at");
    // An Any whose bytes do not decode as the named type.
    let any = match d.field(10).expect("any").kind() {
        bijoubuf_reflect::Kind::Message(m) => m,
        other => panic!("{other:?}"),
    };
    let mut a = DynamicMessage::new(any);
    a.set(1, Value::String("type.googleapis.com/t.v1.All".into()))
        .expect("fits");
    a.set(2, Value::Bytes(vec![0x00, 0x00])).expect("fits");
    let mut w = DynamicMessage::new(d);
    w.set(10, Value::from(a)).expect("fits");
    let e = to_string(&w).expect_err("bad bytes");
    assert!(e.to_string().contains("default-value-present"), "{e}");
}

proptest::proptest! {
    /// Every float and double value (NaN canonicalized) reads back with its bits.
    #[test]
    fn every_float_reads_back_bit_exact(f in proptest::num::f32::ANY, d in proptest::num::f64::ANY) {
        let mut m = DynamicMessage::new(all());
        m.set(8, Value::F32(f)).expect("fits");
        m.set(9, Value::F64(d)).expect("fits");
        let bytes = m.encode().expect("encodes");
        let back = from_str(&all(), &to_string(&m).expect("writes")).expect("parses");
        proptest::prop_assert_eq!(back.encode().expect("encodes"), bytes);
    }
}

/// `levels` google.protobuf.Any, each holding the next, the last one empty.
fn any_chain(levels: usize) -> Vec<u8> {
    let any = desc("google.protobuf.Any");
    let mut bytes = Vec::new();
    for _ in 1..levels {
        let mut a = DynamicMessage::new(any.clone());
        a.set(
            1,
            Value::String("type.googleapis.com/google.protobuf.Any".into()),
        )
        .expect("fits");
        a.set(2, Value::Bytes(bytes)).expect("fits");
        bytes = a.encode().expect("encodes");
    }
    bytes
}

#[test]
fn depth_counts_across_any_payloads() {
    let any = desc("google.protobuf.Any");
    // 100 levels, the default depth limit, print and read back.
    let ok = DynamicMessage::decode(&any, &any_chain(100)).expect("decodes");
    let text = to_string(&ok).expect("100 levels write");
    assert_eq!(
        from_str(&any, &text)
            .expect("reads back")
            .encode()
            .expect("encodes"),
        any_chain(100)
    );
    // One more is refused, as a nested message field one level deeper would be.
    let deep = DynamicMessage::decode(&any, &any_chain(101)).expect("decodes");
    let e = to_string(&deep).expect_err("101 levels");
    assert!(e.to_string().contains("nest deeper than 100"), "{e}");
    // Regression: 12,000 levels (about 600 KB) printed hundreds of megabytes.
    let deep = DynamicMessage::decode(&any, &any_chain(12_000)).expect("decodes");
    let e = to_string_pretty(&deep).expect_err("12,000 levels");
    assert!(e.to_string().contains("nest deeper than 100"), "{e}");
}

#[test]
fn values_that_proto3_json_cannot_spell_are_refused() {
    let d = desc("t.v1.Wkt");
    let sub = |n: u32| match d.field(n).expect("declared").kind() {
        bijoubuf_reflect::Kind::Message(m) => m,
        other => panic!("{other:?}"),
    };
    let one = |n: u32, inner: DynamicMessage| {
        let mut w = DynamicMessage::new(d.clone());
        w.set(n, Value::from(inner)).expect("fits");
        w
    };
    // Duration.seconds = i64::MIN printed "--9223372036854775808s".
    let mut dur = DynamicMessage::new(sub(2));
    dur.set(1, Value::I64(i64::MIN)).expect("fits");
    let e = to_string(&one(2, dur)).expect_err("i64::MIN seconds");
    assert_eq!(e.path(), "$.took");
    // Value.null_value 5 printed null, which reads back as 0.
    let mut v = DynamicMessage::new(sub(8));
    v.set(1, Value::EnumNumber(5)).expect("fits");
    let e = to_string(&one(8, v)).expect_err("null_value 5");
    assert_eq!(e.path(), "$.dynamic");
    let mut v = DynamicMessage::new(sub(8));
    v.set(1, Value::EnumNumber(0)).expect("fits");
    assert_eq!(to_string(&one(8, v)).expect("null"), r#"{"dynamic":null}"#);
    // A NullValue field other than 0 likewise.
    let mut w = DynamicMessage::new(d.clone());
    w.set(12, Value::EnumNumber(3)).expect("fits");
    let e = to_string(&w).expect_err("NullValue 3");
    assert_eq!(e.path(), "$.null");
    // FieldMask paths that do not survive lowerCamelCase and back.
    for bad in ["", "fooBar", "a,b", "a__b", "a_1"] {
        let mut m = DynamicMessage::new(sub(9));
        m.set(1, Value::List(vec![Value::String(bad.into())]))
            .expect("fits");
        let e = to_string(&one(9, m)).expect_err(bad);
        assert_eq!(e.path(), "$.mask[0]", "{bad:?}");
    }
    let mut m = DynamicMessage::new(sub(9));
    m.set(
        1,
        Value::List(vec![
            Value::String("a.foo_bar".into()),
            Value::String("b".into()),
        ]),
    )
    .expect("fits");
    assert_eq!(
        to_string(&one(9, m)).expect("spellable"),
        r#"{"mask":"a.fooBar,b"}"#
    );
}

/// A `Chain` of `levels` messages, each the next one's only element of field `field`
/// (1: repeated, 2: map value, 3: singular).
fn chain(levels: usize, field: u32) -> DynamicMessage {
    let d = desc("t.v1.Chain");
    let mut m = DynamicMessage::new(d.clone());
    for _ in 1..levels {
        let mut outer = DynamicMessage::new(d.clone());
        let v = match field {
            1 => Value::List(vec![Value::from(m)]),
            2 => Value::Map(vec![(
                bijoubuf_reflect::MapKey::String("k".into()),
                Value::from(m),
            )]),
            _ => Value::from(m),
        };
        outer.set(field, v).expect("fits");
        m = outer;
    }
    m
}

#[test]
fn nesting_up_to_the_depth_limit_round_trips_through_json() {
    // Repeated and map fields spend two JSON levels per message; serde_json's fixed
    // limit of 128 refused the JSON of such chains from 65 levels on.
    let d = desc("t.v1.Chain");
    for field in [1, 2, 3] {
        let bytes = chain(100, field).encode().expect("100 levels encode");
        let m = DynamicMessage::decode(&d, &bytes).expect("100 levels decode");
        let text = to_string(&m).expect("100 levels write");
        let back = from_str(&d, &text).unwrap_or_else(|e| panic!("field {field}: {e}"));
        assert_eq!(back.encode().expect("encodes"), bytes, "field {field}");
        // One level more is refused by the binary decoder and by the JSON reader alike.
        let deeper = chain(101, field)
            .encode_with_max_depth(101)
            .expect("encodes");
        assert!(DynamicMessage::decode(&d, &deeper).is_err());
        let m = DynamicMessage::decode_with(
            &d,
            &deeper,
            &bijoubuf::DecodeOptions::new().max_depth(101),
        )
        .expect("decodes at 101");
        let opts = JsonOptions::new().max_depth(101);
        let text = to_string_with(&m, &opts).expect("writes at 101");
        let e = from_str(&d, &text).expect_err("101 levels");
        assert!(e.to_string().contains("deeper than"), "{e}");
        let back = from_str_with(&d, &text, &opts).expect("reads at 101");
        assert_eq!(back.encode_with_max_depth(101).expect("encodes"), deeper);
    }
}

#[test]
fn struct_and_list_nesting_counts_messages_not_json_levels() {
    // google.protobuf.Value holding a ListValue holding a Value: two messages per JSON
    // array. Chain and the outer Value are 2 levels, so k arrays are 2 + 2k: 49 arrays
    // are the default limit (100), 50 are past it.
    let d = desc("t.v1.Chain");
    let text = |arrays: usize| {
        format!(
            "{{\"dynamic\":{}true{}}}",
            "[".repeat(arrays),
            "]".repeat(arrays)
        )
    };
    let ok = from_str(&d, &text(49)).expect("49 arrays: 100 levels");
    assert_eq!(to_string(&ok).expect("writes"), text(49));
    let e = from_str(&d, &text(50)).expect_err("50 arrays: 102 levels");
    assert!(
        e.to_string().contains("messages nest deeper than 100"),
        "{e}"
    );
}

#[test]
fn json_nested_far_past_the_limit_is_refused_on_a_small_stack() {
    // 200,000 arrays: refused at the nesting limit (twice the depth limit) on a small
    // stack, before anything is built.
    let d = desc("t.v1.Chain");
    let text = format!(
        "{{\"dynamic\":{}{}}}",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    let e = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || from_str(&d, &text).expect_err("refused").to_string())
        .expect("spawns")
        .join()
        .expect("no stack overflow");
    assert!(e.contains("arrays and objects nest deeper than 200"), "{e}");
}

#[test]
fn the_depth_refusal_names_the_message_past_the_limit() {
    // The TypeScript reader refuses the same shapes at the same paths with the same words
    // (typescript/test/json.test.ts): keep the two in step.
    let deeper =
        |n: u32| format!("messages nest deeper than {n} (counting those inside Any payloads)");
    let refusal = |d: &MessageDescriptor, text: &str, max: u32| {
        let opts = JsonOptions::new().max_depth(max);
        match from_str_with(d, text, &opts) {
            Ok(_) => "ok".to_string(),
            Err(e) => format!("{}: {}", e.path(), e.message()),
        }
    };
    let chain = desc("t.v1.Chain");
    let one = |levels: usize| {
        format!(
            "{}{{}}{}",
            "{\"one\":".repeat(levels - 1),
            "}".repeat(levels - 1)
        )
    };
    assert_eq!(refusal(&chain, &one(100), 100), "ok");
    assert_eq!(
        refusal(&chain, &one(101), 100),
        format!("${}: {}", ".one".repeat(100), deeper(100))
    );
    assert_eq!(refusal(&chain, &one(2), 0), format!("$.one: {}", deeper(1)));
    assert_eq!(
        refusal(&chain, &one(501), 1000),
        format!("${}: {}", ".one".repeat(500), deeper(500))
    );
    // Struct and Value count a level each: Wkt 1, Struct 2, then Value and Struct in turn.
    let wkt = desc("t.v1.Wkt");
    let st = |n: usize, inner: &str| {
        format!(
            "{{\"meta\":{}{inner}{}}}",
            "{\"a\":".repeat(n),
            "}".repeat(n)
        )
    };
    assert_eq!(refusal(&wkt, &st(49, "{}"), 100), "ok");
    assert_eq!(
        refusal(&wkt, &st(50, "1"), 100),
        format!("$.meta{}: {}", ".a".repeat(50), deeper(100))
    );
    // Any's payload is one level below it: Wkt 1, Any 2, Wkt 3, …
    let any = |n: usize| {
        format!(
            "{{{}\"big\":\"1\"{}}}",
            "\"any\":{\"@type\":\"x/t.v1.Wkt\",".repeat(n),
            "}".repeat(n)
        )
    };
    assert_eq!(refusal(&wkt, &any(49), 100), "ok");
    assert_eq!(
        refusal(&wkt, &any(50), 100),
        format!("${}: {}", ".any".repeat(50), deeper(100))
    );
    // … and a well-known payload under "value" sits at the member's path.
    let val = r#"{"any":{"@type":"type.googleapis.com/google.protobuf.Value","value":1}}"#;
    assert_eq!(refusal(&wkt, val, 3), "ok");
    assert_eq!(refusal(&wkt, val, 2), format!("$.any.value: {}", deeper(2)));
}
