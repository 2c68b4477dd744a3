//! Differential test: `DynamicMessage` against the runtime's generator-style message
//! impls (the runtime's own test types, included from its test tree) on the same
//! schemas. For every input both must accept or both refuse with the same code, offset
//! and path; accepted inputs must re-encode to themselves on both sides. Inputs are
//! record sequences built from plausible keys and payloads, then mutated.

// The module allows its own lints (dead code, missing docs).
#[path = "../../bijoubuf/tests/common/mod.rs"]
mod common;

use bijoubuf::{DecodeOptions, Message, UnknownFieldPolicy};
use bijoubuf_reflect::{DescriptorPool, DynamicMessage};
use proptest::prelude::*;

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
    Ok(())
}

/// Values that sit on the edges the checks care about.
fn varint_value() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(2),
        Just(247),
        Just(248),
        Just(u32::MAX as u64),
        Just(u32::MAX as u64 + 1),
        Just(u64::MAX),
        0u64..600,
        any::<u64>(),
    ]
}

fn word4() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(vec![0, 0, 0, 0]),
        Just(vec![0x80, 0, 0, 0]),
        Just(vec![0x7F, 0xC0, 0, 0]),
        Just(vec![0x7F, 0xC0, 0, 1]),
        Just(vec![0xFF, 0xC0, 0, 0]),
        prop::collection::vec(any::<u8>(), 4),
    ]
}

fn word8() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(vec![0; 8]),
        Just(vec![0x7F, 0xF8, 0, 0, 0, 0, 0, 0]),
        Just(vec![0x7F, 0xF8, 0, 0, 0, 0, 0, 1]),
        prop::collection::vec(any::<u8>(), 8),
    ]
}

fn with_len(mut content: Vec<u8>) -> Vec<u8> {
    let mut out = bijou64::encode(content.len() as u64).as_slice().to_vec();
    out.append(&mut content);
    out
}

/// A run of records: small deltas, any wire type, payloads that are well formed for the
/// wire type (nested runs, strings, words, packed elements), recursively.
fn records() -> impl Strategy<Value = Vec<u8>> {
    let leaf = prop::collection::vec(record_leaf(), 0..5).prop_map(|rs| rs.concat());
    leaf.prop_recursive(3, 64, 6, |inner| {
        prop::collection::vec(
            prop_oneof![
                3 => record_leaf(),
                2 => (0u64..4, inner.clone()).prop_map(|(delta, content)| {
                    let mut r = bijou64::encode((delta << 2) | 2).as_slice().to_vec();
                    r.extend(with_len(content));
                    r
                }),
                1 => (0u64..4, prop::collection::vec(inner, 1..3)).prop_map(|(delta, elems)| {
                    // a run of length-prefixed elements (repeated messages, map values)
                    let mut r = bijou64::encode((delta << 2) | 2).as_slice().to_vec();
                    r.extend(with_len(elems.into_iter().map(with_len).collect::<Vec<_>>().concat()));
                    r
                }),
            ],
            0..5,
        )
        .prop_map(|rs| rs.concat())
    })
}

fn record_leaf() -> impl Strategy<Value = Vec<u8>> {
    let payload = prop_oneof![
        varint_value().prop_map(|v| (0u64, bijou64::encode(v).as_slice().to_vec())),
        word8().prop_map(|w| (1u64, w)),
        word4().prop_map(|w| (3u64, w)),
        prop::collection::vec(any::<u8>(), 0..6).prop_map(|b| (2u64, with_len(b))),
        prop::collection::vec(varint_value(), 1..4).prop_map(|vs| {
            let c: Vec<u8> = vs
                .iter()
                .flat_map(|v| bijou64::encode(*v).as_slice().to_vec())
                .collect();
            (2u64, with_len(c))
        }),
        "[a-z\\x00\\n\"é😀]{0,4}".prop_map(|s| (2u64, with_len(s.into_bytes()))),
    ];
    (0u64..5, payload).prop_map(|(delta, (wire, p))| {
        let mut r = bijou64::encode((delta << 2) | wire).as_slice().to_vec();
        r.extend(p);
        r
    })
}

/// A generated run, possibly mutated: a byte changed, the end cut, or bytes appended.
fn inputs() -> impl Strategy<Value = Vec<u8>> {
    (records(), 0u8..4, any::<prop::sample::Index>(), any::<u8>()).prop_map(
        |(mut b, how, at, byte)| {
            if !b.is_empty() {
                let i = at.index(b.len());
                match how {
                    1 => b[i] = byte,
                    2 => b.truncate(i),
                    3 => b.push(byte),
                    _ => {}
                }
            }
            b
        },
    )
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
