//! The hand-made single changes of `tests/buf_cases` (also run through `buf breaking` by
//! `compare_buf.sh`; the results are in COMPARISON.md). Each case states our canonical
//! and forward findings. Every finding must be confirmed by the decoder; every case we
//! call canonical-safe is tried on generated old values. The cases where buf's WIRE
//! category says otherwise carry the SPEC section that makes the difference.

#![cfg(feature = "counterexample")]

mod common;

use std::path::Path;

use bijoubuf_breaking::Category;
use bijoubuf_reflect::DescriptorPool;
use common::{Case, Rng, arb_message, assert_reads_back, case};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// (case, our canonical findings, our forward findings, whether buf's WIRE category
/// reports the change, why we differ when we do).
type Row = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    bool,
    &'static str,
);

const CASES: &[Row] = &[
    ("enum_value_added", &[], &[], false, ""),
    (
        "enum_value_removed",
        &[],
        &[],
        true,
        "SPEC §3.6: enums are open; the number still decodes, is kept and re-encodes",
    ),
    ("enum_value_removed_reserved", &[], &[], false, ""),
    ("enum_value_renamed", &[], &[], false, ""),
    (
        "enum_values_renumbered",
        &["enum-value-renumbered"],
        &["enum-value-renumbered"],
        false,
        "stored numbers keep their bytes but now stand for other names: the meaning changes",
    ),
    (
        "explicit_to_implicit",
        &["field-presence-changed"],
        &[],
        false,
        "SPEC §5.1: an implicit field holding its default is refused (default-value-present)",
    ),
    (
        "field_added",
        &[],
        &["field-added"],
        false,
        "SPEC §8.1: a strict old reader refuses unknown fields",
    ),
    ("field_removed", &["field-removed"], &[], true, ""),
    (
        "field_removed_reserved",
        &["field-removed"],
        &[],
        false,
        "SPEC §8.1: a reserved number is unknown, and a strict reader refuses it",
    ),
    ("field_renamed", &[], &[], false, ""),
    (
        "field_renumbered",
        &["field-renumbered"],
        &["field-renumbered"],
        true,
        "",
    ),
    (
        "implicit_to_explicit",
        &[],
        &["field-presence-changed"],
        false,
        "SPEC §5.1: a set default the new schema writes is refused by an implicit old reader",
    ),
    (
        "into_oneof",
        &["field-oneof-changed"],
        &["field-presence-changed"],
        true,
        "",
    ),
    ("json_name_changed", &[], &[], false, ""),
    (
        "map_to_repeated_entry",
        &["field-map-changed"],
        &["field-map-changed"],
        false,
        "SPEC §6.3: map entries are key and value elements, not entry messages",
    ),
    (
        "map_value_type",
        &["field-type-changed"],
        &["field-type-changed"],
        false,
        "SPEC §3.2: int32 is zigzag, uint32 is not",
    ),
    (
        "message_renamed",
        &[],
        &[],
        true,
        "type names are not on the wire; the field's bytes are compared through both types",
    ),
    (
        "message_to_bytes",
        &["field-type-changed"],
        &["field-type-changed"],
        true,
        "",
    ),
    ("optional_to_required", &["required-added"], &[], true, ""),
    ("out_of_oneof", &[], &["field-oneof-changed"], true, ""),
    (
        "package_renamed",
        &[],
        &[],
        true,
        "packages are not on the wire; JSON (Any type URLs) and source findings remain",
    ),
    (
        "repeated_to_singular",
        &["field-cardinality-changed"],
        &["field-cardinality-changed"],
        true,
        "",
    ),
    (
        "required_added",
        &["required-added"],
        &["field-added"],
        true,
        "",
    ),
    ("required_to_optional", &[], &["required-removed"], true, ""),
    (
        "reserved_number_reused",
        &["reserved-number-reused"],
        &["field-added"],
        true,
        "",
    ),
    (
        "singular_to_repeated",
        &["field-cardinality-changed"],
        &["field-cardinality-changed"],
        true,
        "",
    ),
    (
        "type_bool_to_uint32",
        &[],
        &["field-type-changed"],
        false,
        "SPEC §3.3: a bool other than 0 or 1 is refused (invalid-bool)",
    ),
    (
        "type_bytes_to_string",
        &["field-type-changed"],
        &[],
        true,
        "",
    ),
    (
        "type_enum_to_int32",
        &[],
        &[],
        true,
        "SPEC §3.6: an enum is written as its int32 number",
    ),
    (
        "type_fixed32_to_sfixed32",
        &["field-type-changed"],
        &["field-type-changed"],
        false,
        "SPEC §3.4: the same 4 bytes are another number at 2^31 and above",
    ),
    (
        "type_float_to_fixed32",
        &["field-type-changed"],
        &["field-type-changed"],
        true,
        "",
    ),
    (
        "type_int32_to_fixed32",
        &["field-type-changed"],
        &["field-type-changed"],
        true,
        "",
    ),
    (
        "type_int32_to_int64",
        &[],
        &["field-type-changed"],
        false,
        "SPEC §3.2: an int64 beyond i32 is refused by an int32 reader (integer-out-of-range), not truncated",
    ),
    (
        "type_int32_to_sint32",
        &[],
        &[],
        true,
        "SPEC §3.2: int32 and sint32 are both zigzag, the same bytes",
    ),
    (
        "type_int32_to_uint32",
        &["field-type-changed"],
        &["field-type-changed"],
        false,
        "SPEC §3.2: int32 is zigzag, uint32 is not",
    ),
    (
        "type_int64_to_int32",
        &["field-type-changed"],
        &[],
        false,
        "SPEC §3.2: an int64 beyond i32 is refused (integer-out-of-range), not truncated",
    ),
    (
        "type_string_to_bytes",
        &[],
        &["field-type-changed"],
        false,
        "SPEC §7: bytes that are not UTF-8 are refused by a string reader",
    ),
    (
        "type_uint32_to_bool",
        &["field-type-changed"],
        &[],
        false,
        "SPEC §3.3: a bool other than 0 or 1 is refused (invalid-bool)",
    ),
    (
        "type_uint32_to_uint64",
        &[],
        &["field-type-changed"],
        false,
        "SPEC §3.1: a uint64 beyond u32 is refused (integer-out-of-range), not truncated",
    ),
];

fn load(name: &str) -> Case {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/buf_cases")
        .join(name);
    let read =
        |side: &str| std::fs::read_to_string(dir.join(side).join("t.proto")).expect("case file");
    case(&read("old"), &read("new"))
}

#[test]
fn every_case_directory_is_in_the_table() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/buf_cases");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("cases")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let table: Vec<&str> = CASES.iter().map(|c| c.0).collect();
    assert_eq!(names, table);
}

#[test]
fn each_case_gives_our_findings_confirmed_by_the_decoder() {
    for &(name, canonical, forward, buf_wire, why) in CASES {
        let c = load(name);
        assert_eq!(c.ids(Category::Canonical), canonical, "{name}: canonical");
        assert_eq!(c.ids(Category::Forward), forward, "{name}: forward");
        c.confirmed();
        // A difference from buf's WIRE verdict must say why.
        let ours = !canonical.is_empty() || !forward.is_empty();
        assert_eq!(
            ours != buf_wire,
            !why.is_empty(),
            "{name}: a difference needs its reason"
        );
    }
}

#[test]
fn cases_without_canonical_findings_keep_old_bytes() {
    for &(name, canonical, _, _, _) in CASES {
        if !canonical.is_empty() {
            continue;
        }
        let c = load(name);
        let old = DescriptorPool::new(&c.old);
        let new = DescriptorPool::new(&c.new);
        let (o, n) = match name {
            "package_renamed" => ("a.M", "b.M"),
            _ => ("t.M", "t.M"),
        };
        let (o, n) = (
            old.message(o).expect("old M"),
            new.message(n).expect("new M"),
        );
        let mut runner = TestRunner::new(Config {
            cases: 64,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&any::<u64>(), |seed| {
                assert_reads_back(&o, &n, &arb_message(&o, &mut Rng(seed), 2));
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
