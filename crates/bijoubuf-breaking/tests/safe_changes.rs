//! Every scalar pair against SPEC §3's table, and the changes the checker calls safe
//! tried on generated old values: strict decode under the new schema, the same value,
//! and byte-identical re-encoding.

#![cfg(feature = "counterexample")]

mod common;

use bijoubuf_breaking::Category;
use bijoubuf_breaking::counterexample::same;
use bijoubuf_breaking::scalar::{Compat, WireScalar, compat};
use bijoubuf_reflect::{DescriptorPool, DynamicMessage, Kind, Value};
use bijoubuf_schema::ScalarType;
use common::{Rng, arb_message, assert_reads_back, case};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn decl(t: WireScalar) -> &'static str {
    match t {
        WireScalar::Enum => "E",
        WireScalar::Scalar(s) => s.keyword(),
    }
}

fn schema(label: &str, t: WireScalar) -> String {
    format!(
        "syntax = \"proto3\";\npackage t;\nenum E {{ Z = 0; O = 1; }}\nmessage M {{ {label}{} f = 1; }}\n",
        decl(t)
    )
}

/// A fresh runner for each property: a `TestRunner` counts successes across runs, so a
/// shared one would stop testing after the first property's cases.
fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

fn scalar_value(t: WireScalar) -> BoxedStrategy<Value> {
    use ScalarType as S;
    match t {
        WireScalar::Enum => any::<i32>().prop_map(Value::EnumNumber).boxed(),
        WireScalar::Scalar(s) => match s {
            S::Int32 | S::Sint32 | S::Sfixed32 => any::<i32>().prop_map(Value::I32).boxed(),
            S::Int64 | S::Sint64 | S::Sfixed64 => any::<i64>().prop_map(Value::I64).boxed(),
            S::Uint32 | S::Fixed32 => any::<u32>().prop_map(Value::U32).boxed(),
            S::Uint64 | S::Fixed64 => any::<u64>().prop_map(Value::U64).boxed(),
            S::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
            S::Float => any::<u32>()
                .prop_map(|b| Value::F32(f32::from_bits(b)))
                .boxed(),
            S::Double => any::<u64>()
                .prop_map(|b| Value::F64(f64::from_bits(b)))
                .boxed(),
            S::String => ".{0,6}".prop_map(Value::String).boxed(),
            S::Bytes => proptest::collection::vec(any::<u8>(), 0..6)
                .prop_map(Value::Bytes)
                .boxed(),
        },
    }
}

#[test]
fn every_scalar_pair_follows_the_table_and_breaks_are_confirmed() {
    let mut checked = 0;
    for from in WireScalar::ALL {
        for to in WireScalar::ALL {
            for label in ["", "repeated "] {
                let c = case(&schema(label, from), &schema(label, to));
                let canonical = !c.ids(Category::Canonical).is_empty();
                let forward = !c.ids(Category::Forward).is_empty();
                let what = format!("{label}{} → {}", from.keyword(), to.keyword());
                assert_eq!(
                    canonical,
                    compat(from, to) != Compat::Identical,
                    "{what}: canonical"
                );
                assert_eq!(
                    forward,
                    compat(to, from) != Compat::Identical,
                    "{what}: forward"
                );
                // Panics if the decoder does not confirm a finding.
                c.confirmed();
                if !canonical {
                    let old = DescriptorPool::new(&c.old).message("t.M").expect("M");
                    let new = DescriptorPool::new(&c.new).message("t.M").expect("M");
                    let value = if label.is_empty() {
                        scalar_value(from)
                    } else {
                        proptest::collection::vec(scalar_value(from), 0..4)
                            .prop_map(Value::List)
                            .boxed()
                    };
                    runner(48)
                        .run(&value, |v| {
                            let mut msg = DynamicMessage::new(old.clone());
                            msg.set(1, v).expect("value fits");
                            assert_reads_back(&old, &new, &msg);
                            Ok(())
                        })
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    checked += 1;
                }
            }
        }
    }
    // The identical pairs, singular and repeated: 16 types to themselves; 14 among the
    // zigzag types (int32, sint32 and enum to each other and to int64, sint64; int64 ↔
    // sint64); bool → uint32, bool → uint64, uint32 → uint64; string → bytes.
    assert_eq!(checked, 2 * (16 + 14 + 3 + 1));
}

fn p3(body: &str) -> String {
    format!("syntax = \"proto3\";\npackage t;\n{body}\n")
}

fn p2(body: &str) -> String {
    format!("syntax = \"proto2\";\npackage t;\n{body}\n")
}

/// Changes with no canonical finding: (old, new, old message, new message).
fn safe_changes() -> Vec<(String, String, &'static str, &'static str)> {
    let kitchen = "enum E { A = 0; B = 1; } message N { sint64 x = 1; repeated string s = 2; }";
    vec![
        (
            p3(&format!(
                "{kitchen} message M {{ int32 a = 1; N n = 2; map<uint32, E> m = 3; }}"
            )),
            p3(&format!(
                "{kitchen} message M {{ sint64 a = 1; N n = 2; map<uint64, E> m = 3; bytes added = 4; }}"
            )),
            "t.M",
            "t.M",
        ),
        (
            p3(&format!(
                "{kitchen} message M {{ int32 a = 1; string b = 2; }}"
            )),
            p3(&format!(
                "{kitchen} message M {{ optional int32 a = 1; optional bytes renamed = 2; }}"
            )),
            "t.M",
            "t.M",
        ),
        (
            p3(&format!(
                "{kitchen} message M {{ oneof o {{ int32 a = 1; N n = 2; }} }}"
            )),
            p3(&format!(
                "{kitchen} message M {{ optional int64 a = 1; N n = 2; }}"
            )),
            "t.M",
            "t.M",
        ),
        (
            p3("enum E { A = 0; B = 1; } message M { E e = 1; repeated E es = 2; }"),
            p3("enum E { A = 0; C = 2; } message M { int32 e = 1; repeated E es = 2; }"),
            "t.M",
            "t.M",
        ),
        (
            p3("message N { bool x = 1; } message M { N n = 1; repeated N ns = 2; }"),
            p3("message O { uint64 x = 1; } message M { O n = 1; repeated O ns = 2; }"),
            "t.M",
            "t.M",
        ),
        (
            "syntax = \"proto3\"; package a; message M { int32 a = 1; }".into(),
            "syntax = \"proto3\"; package b; message M { int32 a = 1; }".into(),
            "a.M",
            "b.M",
        ),
        (
            p2("message M { required int32 a = 1; optional string b = 2; }"),
            p2("message M { optional sint64 a = 1; optional string b = 2; reserved 3; }"),
            "t.M",
            "t.M",
        ),
    ]
}

#[test]
fn changes_without_canonical_findings_keep_old_bytes() {
    for (old, new, old_name, new_name) in safe_changes() {
        let c = case(&old, &new);
        assert!(
            c.ids(Category::Canonical).is_empty(),
            "{old}\n→ {new}\n{:?}",
            c.findings.iter().map(|f| f.to_line()).collect::<Vec<_>>()
        );
        let old_desc = DescriptorPool::new(&c.old)
            .message(old_name)
            .expect("old message");
        let new_desc = DescriptorPool::new(&c.new)
            .message(new_name)
            .expect("new message");
        runner(200)
            .run(&any::<u64>(), |seed| {
                let msg = arb_message(&old_desc, &mut Rng(seed), 2);
                assert_reads_back(&old_desc, &new_desc, &msg);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{old}\n→ {new}\n{e}"));
    }
}

#[test]
fn the_value_comparison_can_tell_values_apart() {
    let k = Kind::Scalar(ScalarType::Int32);
    let u = Kind::Scalar(ScalarType::Uint32);
    assert!(same(&Value::I32(1), &Value::U32(1), &k, &u));
    assert!(!same(&Value::I32(-1), &Value::U32(1), &k, &u));
    assert!(!same(&Value::F32(1.0), &Value::U32(1), &k, &u));
    assert!(!same(
        &Value::List(vec![Value::I32(1)]),
        &Value::I32(1),
        &k,
        &k
    ));
}
