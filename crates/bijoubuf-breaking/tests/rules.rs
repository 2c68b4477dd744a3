//! One schema change per test: the findings it must give, and for every canonical and
//! forward finding a counterexample the real decoder confirms.

#![cfg(feature = "counterexample")]

mod common;

use std::collections::BTreeSet;

use bijoubuf_breaking::{Category, RULES};
use common::{Case, case, renamed_case};

use Category::{Canonical, Forward, Json, Source};

fn p3(body: &str) -> String {
    format!("syntax = \"proto3\";\npackage t;\n{body}\n")
}

fn p2(body: &str) -> String {
    format!("syntax = \"proto2\";\npackage t;\n{body}\n")
}

/// Every change of the table with the canonical and forward findings it must give.
fn table() -> Vec<(&'static str, Case, Vec<&'static str>, Vec<&'static str>)> {
    vec![
        (
            "field removed",
            case(
                &p3("message M { int32 a = 1; int32 b = 2; }"),
                &p3("message M { int32 a = 1; }"),
            ),
            vec!["field-removed"],
            vec![],
        ),
        (
            "field removed and reserved",
            case(
                &p3("message M { int32 a = 1; int32 b = 2; }"),
                &p3("message M { int32 a = 1; reserved 2; }"),
            ),
            vec!["field-removed"],
            vec![],
        ),
        (
            "field added",
            case(
                &p3("message M { int32 a = 1; }"),
                &p3("message M { int32 a = 1; string b = 2; }"),
            ),
            vec![],
            vec!["field-added"],
        ),
        (
            "field renumbered",
            case(
                &p3("message M { int32 a = 1; }"),
                &p3("message M { int32 a = 2; }"),
            ),
            vec!["field-renumbered"],
            vec!["field-renumbered"],
        ),
        (
            "int32 to sint32",
            case(
                &p3("message M { int32 a = 1; }"),
                &p3("message M { sint32 a = 1; }"),
            ),
            vec![],
            vec![],
        ),
        (
            "int32 to uint32",
            case(
                &p3("message M { int32 a = 1; }"),
                &p3("message M { uint32 a = 1; }"),
            ),
            vec!["field-type-changed"],
            vec!["field-type-changed"],
        ),
        (
            "int64 to int32",
            case(
                &p3("message M { int64 a = 1; }"),
                &p3("message M { int32 a = 1; }"),
            ),
            vec!["field-type-changed"],
            vec![],
        ),
        (
            "implicit to explicit",
            case(
                &p3("message M { int32 a = 1; }"),
                &p3("message M { optional int32 a = 1; }"),
            ),
            vec![],
            vec!["field-presence-changed"],
        ),
        (
            "explicit to implicit",
            case(
                &p3("message M { optional string a = 1; }"),
                &p3("message M { string a = 1; }"),
            ),
            vec!["field-presence-changed"],
            vec![],
        ),
        (
            "into a oneof",
            case(
                &p3("message M { int32 a = 1; int32 b = 2; }"),
                &p3("message M { oneof o { int32 a = 1; int32 b = 2; } }"),
            ),
            vec!["field-oneof-changed"],
            vec!["field-presence-changed"],
        ),
        (
            "out of a oneof",
            case(
                &p3("message M { oneof o { int32 a = 1; int32 b = 2; } }"),
                &p3("message M { optional int32 a = 1; optional int32 b = 2; }"),
            ),
            vec![],
            vec!["field-oneof-changed"],
        ),
        (
            "singular to repeated",
            case(
                &p3("message M { string a = 1; }"),
                &p3("message M { repeated string a = 1; }"),
            ),
            vec!["field-cardinality-changed"],
            vec!["field-cardinality-changed"],
        ),
        (
            "map to repeated entry message",
            case(
                &p3("message M { map<string, uint32> m = 1; }"),
                &p3(
                    "message M { message E { string key = 1; uint32 value = 2; } repeated E m = 1; }",
                ),
            ),
            vec!["field-map-changed"],
            vec!["field-map-changed"],
        ),
        (
            "map value type",
            case(
                &p3("message M { map<string, uint32> m = 1; }"),
                &p3("message M { map<string, int32> m = 1; }"),
            ),
            vec!["field-type-changed"],
            vec!["field-type-changed"],
        ),
        (
            "map key widened",
            case(
                &p3("message M { map<uint32, string> m = 1; }"),
                &p3("message M { map<uint64, string> m = 1; }"),
            ),
            vec![],
            vec!["field-type-changed"],
        ),
        (
            "enum value added",
            case(
                &p3("enum E { A = 0; } message M { E e = 1; }"),
                &p3("enum E { A = 0; B = 1; } message M { E e = 1; }"),
            ),
            vec![],
            vec![],
        ),
        (
            "enum value removed",
            case(
                &p3("enum E { A = 0; B = 1; } message M { E e = 1; }"),
                &p3("enum E { A = 0; } message M { E e = 1; }"),
            ),
            vec![],
            vec![],
        ),
        (
            "enum values renumbered",
            case(
                &p3("enum E { A = 0; B = 1; C = 2; } message M { E e = 1; }"),
                &p3("enum E { A = 0; B = 2; C = 1; } message M { E e = 1; }"),
            ),
            vec!["enum-value-renumbered"],
            vec!["enum-value-renumbered"],
        ),
        (
            "enum to int32",
            case(
                &p3("enum E { A = 0; } message M { E e = 1; }"),
                &p3("enum E { A = 0; } message M { int32 e = 1; }"),
            ),
            vec![],
            vec![],
        ),
        (
            "message renamed",
            case(
                &p3("message M { N n = 1; } message N { int32 x = 1; }"),
                &p3("message M { O n = 1; } message O { int32 x = 1; }"),
            ),
            vec![],
            vec![],
        ),
        (
            "renamed message changes a field",
            case(
                &p3("message M { N n = 1; } message N { int32 x = 1; }"),
                &p3("message M { O n = 1; } message O { uint32 x = 1; }"),
            ),
            vec!["field-type-changed"],
            vec!["field-type-changed"],
        ),
        (
            "package renamed",
            case(
                "syntax = \"proto3\"; package a; message M { int32 x = 1; }",
                "syntax = \"proto3\"; package b; message M { int32 x = 1; }",
            ),
            vec![],
            vec![],
        ),
        (
            "reserved number reused",
            case(
                &p3("message M { int32 a = 1; reserved 2; }"),
                &p3("message M { int32 a = 1; string b = 2; }"),
            ),
            vec!["reserved-number-reused"],
            vec!["field-added"],
        ),
        (
            "optional made required",
            case(
                &p2("message M { optional int32 a = 1; }"),
                &p2("message M { required int32 a = 1; }"),
            ),
            vec!["required-added"],
            vec![],
        ),
        (
            "required made optional",
            case(
                &p2("message M { required int32 a = 1; }"),
                &p2("message M { optional int32 a = 1; }"),
            ),
            vec![],
            vec!["required-removed"],
        ),
        (
            "required field added",
            case(
                &p2("message M { optional int32 a = 1; }"),
                &p2("message M { optional int32 a = 1; required int32 b = 2; }"),
            ),
            vec!["required-added"],
            vec!["field-added"],
        ),
        (
            "required field removed",
            case(
                &p2("message M { optional int32 a = 1; required int32 b = 2; }"),
                &p2("message M { optional int32 a = 1; }"),
            ),
            vec!["field-removed"],
            vec!["required-removed"],
        ),
        (
            "bool to uint32",
            case(
                &p3("message M { bool a = 1; }"),
                &p3("message M { uint32 a = 1; }"),
            ),
            vec![],
            vec!["field-type-changed"],
        ),
        (
            "message field to bytes",
            case(
                &p3("message M { N n = 1; } message N { int32 x = 1; }"),
                &p3("message M { bytes n = 1; } message N { int32 x = 1; }"),
            ),
            vec!["field-type-changed"],
            vec!["field-type-changed"],
        ),
    ]
}

#[test]
fn each_change_gives_its_findings_and_each_is_confirmed_by_the_decoder() {
    for (name, case, canonical, forward) in table() {
        assert_eq!(case.ids(Canonical), canonical, "{name}: canonical");
        assert_eq!(case.ids(Forward), forward, "{name}: forward");
        for (rule, c) in case.confirmed() {
            println!("{name}: {rule}: {c}");
        }
    }
}

#[test]
fn every_canonical_and_forward_rule_has_a_confirmed_case() {
    let mut seen = BTreeSet::new();
    for (_, case, _, _) in table() {
        for (rule, _) in case.confirmed() {
            seen.insert(rule);
        }
    }
    for row in RULES
        .iter()
        .filter(|r| matches!(r.category, Canonical | Forward))
    {
        let id = format!("{}/{}", row.category, row.rule.id());
        assert!(seen.contains(&id), "no case confirms {id}");
    }
}

#[test]
fn json_and_source_findings() {
    let c = case(
        &p3("message M { int32 a = 1; }"),
        &p3("message M { int32 b = 1; }"),
    );
    assert_eq!(c.ids(Json), ["field-renamed"]);
    assert_eq!(c.ids(Source), ["field-renamed"]);
    assert!(c.ids(Canonical).is_empty());
    let c = case(
        &p3("message M { int32 a = 1; }"),
        &p3("message M { int64 a = 1; }"),
    );
    assert_eq!(c.ids(Json), ["field-type-changed"]);
    assert_eq!(c.ids(Source), ["field-type-changed"]);
    let c = case(
        &p3("message M { int32 a = 1; }"),
        &p3("message M { sint32 a = 1; }"),
    );
    assert!(c.findings.is_empty(), "{:?}", c.findings);
    let c = case(
        &p3("enum E { A = 0; B = 1; } message M { E e = 1; }"),
        &p3("enum E { A = 0; } message M { E e = 1; }"),
    );
    assert_eq!(c.ids(Json), ["enum-value-removed"]);
    let c = case(
        &p3("enum E { A = 0; } message M { E e = 1; }"),
        &p3("enum E { A = 0; B = 1; } message M { E e = 1; }"),
    );
    assert_eq!(c.ids(Json), ["enum-value-added"]);
    let c = case(
        &p3("enum E { A = 0; B = 1; } message M { E e = 1; }"),
        &p3("enum E { A = 0; C = 1; } message M { E e = 1; }"),
    );
    assert_eq!(c.ids(Json), ["enum-value-renamed"]);
    let c = case(
        &p3("message M { N n = 1; } message N { int32 x = 1; }"),
        &p3("message M { O n = 1; } message O { int32 x = 1; }"),
    );
    // Types pair by full name: N is gone and O is new, whatever their fields; M.n's
    // bytes are still compared through the two types.
    assert_eq!(c.ids(Source), ["field-type-changed", "message-removed"]);
    let renamed = renamed_case(
        &p3("message M { N n = 1; } message N { int32 x = 1; }"),
        &p3("message M { O n = 1; } message O { int32 x = 1; }"),
        ("t.N", "t.O"),
    );
    assert_eq!(renamed.ids(Source), ["message-renamed"]);
    assert_eq!(renamed.ids(Json), ["message-renamed"]);
    let (a, b) = (
        "syntax = \"proto3\"; package a; message M { int32 x = 1; }",
        "syntax = \"proto3\"; package b; message M { int32 x = 1; }",
    );
    let c = case(a, b);
    assert_eq!(c.ids(Json), ["package-changed"]);
    assert_eq!(c.ids(Source), ["message-removed", "package-changed"]);
    let renamed = renamed_case(a, b, ("a", "b"));
    assert_eq!(renamed.ids(Json), ["message-renamed", "package-changed"]);
    assert_eq!(renamed.ids(Source), ["message-renamed", "package-changed"]);
    let c = case(
        &p3("message M { int32 a = 1; reserved 2; reserved \"b\"; }"),
        &p3("message M { int32 a = 1; string b = 2; }"),
    );
    assert_eq!(c.ids(Json), ["reserved-name-reused"]);
    assert_eq!(c.ids(Source), ["reserved-removed"]);
    let c = case(
        &p3("message M { int32 a = 1; N n = 2; } message N {}"),
        &p3("message M { int32 a = 1; }"),
    );
    assert_eq!(c.ids(Source), ["field-removed", "message-removed"]);
    let c = case(
        &p3("message M { int32 a = 1; }"),
        &p3("message M { int32 a = 1 [json_name = \"x\"]; }"),
    );
    assert_eq!(c.ids(Json), ["field-json-name-changed"]);
    let c = case(
        &p3("message M { int32 a = 1; int32 b = 2; }"),
        &p3("message M { oneof o { int32 a = 1; int32 b = 2; } }"),
    );
    assert_eq!(c.ids(Source), ["field-oneof-changed"]);
}

#[test]
fn findings_point_into_the_new_file() {
    let new = p3("message M {\n  int32 a = 1;\n  uint32 b = 2;\n}");
    let c = case(&p3("message M { int32 a = 1; int32 b = 2; }"), &new);
    let f = c
        .findings
        .iter()
        .find(|f| f.category == Canonical)
        .expect("a canonical finding");
    assert_eq!(f.rule_id(), "field-type-changed");
    assert_eq!(f.file.as_deref(), Some("t.proto"));
    let span = f.span.expect("a span");
    assert_eq!(&new[span.start..span.end], "uint32 b = 2;");
    assert_eq!((f.line, f.column), (5, 3));
    assert!(
        f.to_line()
            .starts_with("t.proto:5:3: error[canonical/field-type-changed]: "),
        "{}",
        f.to_line()
    );
}

#[test]
fn a_removed_field_counterexample_names_the_bytes_and_the_error() {
    let c = case(
        &p3("message M { int32 a = 1; string b = 2; }"),
        &p3("message M { int32 a = 1; }"),
    );
    let confirmed = c.confirmed();
    let (_, ce) = &confirmed[0];
    assert_eq!(
        ce.to_string(),
        "old bytes 06 01 61 (M { b: \"a\" }) are refused by the new schema: unknown-field at byte 0, path M.2"
    );
}

/// Forward findings for preserving old readers: a new field passes through one (kept
/// and re-emitted byte for byte, SPEC §8.2); a refusal about a field the old reader
/// knows is a refusal for a preserving reader too.
#[test]
fn preserving_old_readers_pass_new_fields_through_and_refuse_the_rest() {
    use bijoubuf::{DecodeOptions, UnknownFieldPolicy};
    use bijoubuf_breaking::counterexample::{Outcome, counterexample};
    use bijoubuf_reflect::{DescriptorPool, DynamicMessage};

    let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let mut seen = (0, 0);
    for (name, case, _, _) in table() {
        let (old, new) = (
            DescriptorPool::new(&case.old),
            DescriptorPool::new(&case.new),
        );
        for f in case.findings.iter().filter(|f| f.category == Forward) {
            let ce = counterexample(f, &old, &new).expect("confirmed");
            let subject = f.subject.as_ref().expect("a subject");
            let reader = old.message(&subject.reader_message).expect("old message");
            let kept = DynamicMessage::decode_with(&reader, &ce.bytes, &keep);
            match &ce.outcome {
                _ if f.rule_id() == "field-added" => {
                    let kept = kept.unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(kept.encode().expect("re-encodes"), ce.bytes, "{name}");
                    assert!(kept.unknown_field_count() > 0, "{name}");
                    seen.0 += 1;
                }
                Outcome::Refused(e) if e.code() != "unknown-field" => {
                    assert!(kept.is_err(), "{name}: a preserving reader accepted {ce}");
                    seen.1 += 1;
                }
                _ => {}
            }
        }
    }
    assert!(seen.0 >= 3 && seen.1 >= 3, "{seen:?}");
}

#[test]
fn a_field_switching_to_another_existing_message_is_a_type_change_not_a_rename() {
    let types = "message A { int32 x = 1; } message B { uint32 x = 1; }";
    let c = case(
        &p3(&format!("{types} message M {{ A f = 1; }}")),
        &p3(&format!("{types} message M {{ B f = 1; }}")),
    );
    assert_eq!(c.ids(Source), ["field-type-changed"]);
    assert_eq!(c.ids(Json), ["field-type-changed"]);
    // The bytes are judged by the two types' fields: A.x int32 read as B.x uint32.
    assert_eq!(c.ids(Canonical), ["field-type-changed"]);
    c.confirmed();
}
