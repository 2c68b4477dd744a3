//! Differential test: `DynamicMessage` against the runtime's generator-style message
//! impls (the runtime's own test types, included from its test tree) on the same
//! schemas. For every input both must accept or both refuse with the same code, offset
//! and path; accepted inputs must re-encode to themselves on both sides. Inputs are
//! record sequences built from plausible keys and payloads, then mutated.

// The module allows its own lints (dead code, missing docs).
#[path = "../../bijoubuf/tests/common/mod.rs"]
mod common;
mod support;

use bijoubuf::{DecodeOptions, Message, UnknownFieldPolicy};
use bijoubuf_reflect::{DescriptorPool, DynamicMessage};
use proptest::prelude::*;
use support::inputs;

const PROTO3: &str = r#"
syntax = "proto3";
enum Color { COLOR_UNSPECIFIED = 0; RED = 1; }
message Scalars {
  int32 i32 = 1;  int64 i64 = 2;  uint32 u32 = 3;  uint64 u64 = 4;
  sint32 s32 = 5; sint64 s64 = 6; bool flag = 7;   Color color = 8;
  fixed32 f32 = 9; fixed64 f64 = 10; sfixed32 sf32 = 11; sfixed64 sf64 = 12;
  float fl = 13;  double db = 14;  string text = 15; bytes data = 16;
}
message Optionals {
  optional int32 i32 = 1;  optional int64 i64 = 2;  optional uint32 u32 = 3;
  optional uint64 u64 = 4; optional sint32 s32 = 5; optional sint64 s64 = 6;
  optional bool flag = 7;  optional Color color = 8; optional fixed32 f32 = 9;
  optional fixed64 f64 = 10; optional sfixed32 sf32 = 11; optional sfixed64 sf64 = 12;
  optional float fl = 13;  optional double db = 14;  optional string text = 15;
  optional bytes data = 16; Scalars child = 17;
}
message Repeats {
  repeated int32 i32 = 1;  repeated int64 i64 = 2;  repeated uint32 u32 = 3;
  repeated uint64 u64 = 4; repeated sint32 s32 = 5; repeated sint64 s64 = 6;
  repeated bool flag = 7;  repeated Color color = 8; repeated fixed32 f32 = 9;
  repeated fixed64 f64 = 10; repeated sfixed32 sf32 = 11; repeated sfixed64 sf64 = 12;
  repeated float fl = 13;  repeated double db = 14;  repeated string text = 15;
  repeated bytes data = 16; repeated Scalars msgs = 17;
}
message Maps {
  map<int32, string> i32 = 1;     map<int64, int64> i64 = 2;
  map<uint32, bytes> u32 = 3;     map<uint64, double> u64 = 4;
  map<sint32, float> s32 = 5;     map<sint64, bool> s64 = 6;
  map<fixed32, Color> f32 = 7;    map<fixed64, uint32> f64 = 8;
  map<sfixed32, sfixed64> sf32 = 9; map<sfixed64, fixed32> sf64 = 10;
  map<bool, string> flag = 11;    map<string, Scalars> msgs = 12;
  map<string, int32> text = 13;
}
message Tree {
  int32 value = 1; Tree child = 2; repeated Tree children = 3; map<string, Tree> named = 4;
}
message Choice {
  string name = 1;
  oneof kind { int32 a = 2; string b = 4; Scalars m = 5; }
  uint32 mid = 3;
  double after = 6;
}
message Known { int32 a = 2; Known child = 4; uint64 d = 6; }
message Wider {
  uint64 x = 1; int32 a = 2; string s = 3; Wider child = 4; fixed32 f = 5;
  uint64 d = 6; bytes e = 7; fixed64 g = 8;
}
"#;

const PROTO2: &str = r#"
syntax = "proto2";
message Req {
  required int32 id = 1; optional string note = 2; required string name = 3;
  optional Req child = 4;
}
"#;

fn pool() -> DescriptorPool {
    static POOL: std::sync::OnceLock<DescriptorPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let compiled =
            bijoubuf_schema::compile_sources(&[("p3.proto", PROTO3), ("p2.proto", PROTO2)])
                .expect("the test schemas compile");
        DescriptorPool::new(&compiled.schema)
    })
    .clone()
}

fn verdict_of<T>(r: Result<(T, Vec<u8>), (&'static str, usize, String)>, input: &[u8]) -> String {
    match r {
        Ok((_, again)) if again == input => "ok".into(),
        Ok((_, again)) => format!("re-encodes as {again:02x?}"),
        Err((code, offset, path)) => format!("{code} at {offset}, path {path}"),
    }
}

fn runtime<M: Message>(bytes: &[u8], opts: &DecodeOptions) -> String {
    let r = M::decode_with(bytes, opts)
        .map(|d| {
            let again = d.message().encode_to_vec().unwrap_or_default();
            (d.unknown_field_count(), again)
        })
        .map_err(|e| (e.code(), e.offset(), e.path_string()));
    verdict_of(r, bytes)
}

fn reflect(pool: &DescriptorPool, name: &str, bytes: &[u8], opts: &DecodeOptions) -> String {
    let desc = pool.message(name).expect("declared");
    let r = DynamicMessage::decode_with(&desc, bytes, opts)
        .map(|m| {
            let again = m.encode().unwrap_or_default();
            (m.unknown_field_count(), again)
        })
        .map_err(|e| (e.code(), e.offset(), e.path_string()));
    verdict_of(r, bytes)
}

/// Both decoders, every message type, strict and preserving, two depth limits.
fn compare(pool: &DescriptorPool, bytes: &[u8]) -> Result<(), String> {
    let strict = DecodeOptions::new();
    let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let shallow = DecodeOptions::new().max_depth(2);
    for opts in [&strict, &keep, &shallow] {
        let pairs = [
            ("Scalars", runtime::<common::Scalars>(bytes, opts)),
            ("Optionals", runtime::<common::Optionals>(bytes, opts)),
            ("Repeats", runtime::<common::Repeats>(bytes, opts)),
            ("Maps", runtime::<common::Maps>(bytes, opts)),
            ("Tree", runtime::<common::Tree>(bytes, opts)),
            ("Choice", runtime::<common::Choice>(bytes, opts)),
            ("Req", runtime::<common::Req>(bytes, opts)),
            ("Known", runtime::<common::Known>(bytes, opts)),
            ("Wider", runtime::<common::Wider>(bytes, opts)),
        ];
        for (name, want) in pairs {
            let got = reflect(pool, name, bytes, opts);
            if got != want {
                return Err(format!(
                    "{name} {opts:?} on {bytes:02x?}: runtime says `{want}`, reflect says `{got}`"
                ));
            }
        }
    }
    frames(pool, bytes)
}

/// The input read as one length-delimited frame (SPEC §9.2), with and without a size
/// limit: same verdict and the same number of bytes used.
fn frames(pool: &DescriptorPool, bytes: &[u8]) -> Result<(), String> {
    fn runtime_frame<M: Message>(bytes: &[u8], opts: &DecodeOptions) -> String {
        match M::decode_length_delimited_with(bytes, opts) {
            Ok((d, used)) => {
                let again = d
                    .message()
                    .encode_length_delimited_to_vec()
                    .unwrap_or_default();
                format!("ok {used} {}", again == bytes[..used])
            }
            Err(e) => format!("{} at {}, path {}", e.code(), e.offset(), e.path_string()),
        }
    }
    let dynamic = |name: &str, opts: &DecodeOptions| {
        let desc = pool.message(name).expect("declared");
        match DynamicMessage::decode_length_delimited(&desc, bytes, opts) {
            Ok((m, used)) => {
                let again = m.encode_length_delimited().unwrap_or_default();
                format!("ok {used} {}", again == bytes[..used])
            }
            Err(e) => format!("{} at {}, path {}", e.code(), e.offset(), e.path_string()),
        }
    };
    for opts in [DecodeOptions::new(), DecodeOptions::new().max_size(Some(6))] {
        for (name, want) in [
            ("Scalars", runtime_frame::<common::Scalars>(bytes, &opts)),
            ("Tree", runtime_frame::<common::Tree>(bytes, &opts)),
            ("Maps", runtime_frame::<common::Maps>(bytes, &opts)),
        ] {
            let got = dynamic(name, &opts);
            if got != want {
                return Err(format!(
                    "{name} frame {opts:?} on {bytes:02x?}: runtime says `{want}`, reflect says `{got}`"
                ));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn reflect_agrees_with_generated_style_code(bytes in inputs()) {
        let pool = pool();
        prop_assert!(compare(&pool, &bytes).is_ok(), "{}", compare(&pool, &bytes).unwrap_err());
    }

    #[test]
    fn arbitrary_bytes_agree_too(bytes in prop::collection::vec(any::<u8>(), 0..40)) {
        let pool = pool();
        prop_assert!(compare(&pool, &bytes).is_ok(), "{}", compare(&pool, &bytes).unwrap_err());
    }
}

#[test]
fn the_generator_reaches_acceptance_and_many_codes() {
    // Guard against a generator that only ever produces early failures.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let pool = pool();
    let mut runner = TestRunner::deterministic();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..3000 {
        let bytes = inputs().new_tree(&mut runner).expect("tree").current();
        for name in ["Scalars", "Repeats", "Maps", "Tree", "Choice", "Req"] {
            let v = reflect(&pool, name, &bytes, &DecodeOptions::new());
            seen.insert(v.split(' ').next().unwrap_or_default().to_string());
        }
    }
    for code in [
        "ok",
        "truncated",
        "unknown-field",
        "wire-type-mismatch",
        "default-value-present",
        "invalid-utf8",
        "map-key-order",
        "empty-repeated",
        "integer-out-of-range",
        "invalid-bool",
        "missing-required-field",
    ] {
        assert!(seen.contains(code), "{code} never produced; saw {seen:?}");
    }
}
