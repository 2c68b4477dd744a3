//! Which old type is compared with which new one: messages and enums pair by full name
//! (package and nesting), as buf pairs them. A type under another full name is a
//! removal plus an addition unless a rename says otherwise; a new file's types are
//! additions and are never compared with unrelated old types of the same short name.

#![cfg(feature = "counterexample")]

mod common;

use bijoubuf_breaking::counterexample::counterexample;
use bijoubuf_breaking::{Category, Config, Finding, Old, check, check_with};
use bijoubuf_reflect::DescriptorPool;
use bijoubuf_schema::{Schema, compile_sources};

use Category::{Canonical, Forward, Json, Source};

fn compile(files: &[(&str, &str)]) -> Schema {
    match compile_sources(files) {
        Ok(c) => c.schema,
        Err(e) => panic!("test schema does not compile: {e}"),
    }
}

/// (rule id, category) of every finding, sorted.
fn ids(findings: &[Finding], cat: Category) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = findings
        .iter()
        .filter(|f| f.category == cat)
        .map(|f| f.rule_id())
        .collect();
    v.sort_unstable();
    v
}

/// The package of a top-level type's full name.
fn package(full_name: &str) -> &str {
    full_name.rsplit_once('.').map_or("", |(p, _)| p)
}

/// No finding compares a type of one package with a type of another.
fn assert_no_cross_package_pair(findings: &[Finding]) {
    for f in findings {
        if let Some(s) = &f.subject {
            assert_eq!(
                package(&s.writer_message),
                package(&s.reader_message),
                "{}",
                f.to_line()
            );
        }
        assert!(
            !matches!(f.rule_id(), "message-renamed" | "enum-renamed"),
            "{}",
            f.to_line()
        );
    }
}

/// Every canonical and forward finding confirmed by the real decoder.
fn confirm(old: &Schema, new: &Schema, findings: &[Finding]) {
    let (o, n) = (DescriptorPool::new(old), DescriptorPool::new(new));
    for f in findings
        .iter()
        .filter(|f| matches!(f.category, Canonical | Forward))
    {
        assert!(
            counterexample(f, &o, &n).is_some(),
            "checker bug: no counterexample confirms {}",
            f.to_line()
        );
    }
}

const BANK_V1: &str = "syntax = \"proto3\"; package bank.v1;
message GenesisState { string denom = 1; }";
const BANK_V2: &str = "syntax = \"proto3\"; package bank.v1;
message GenesisState { string denom = 1; uint64 supply = 2; }";
const CAPABILITY: &str = "syntax = \"proto3\"; package capability.v1;
message GenesisOwners { uint64 index = 1; }
message GenesisState { uint64 index = 1; repeated GenesisOwners owners = 2; }";
const CAPABILITY_MODULE: &str = "syntax = \"proto3\"; package capability.module.v1;
message Module { bool seal_keeper = 1; }";
const CIRCUIT: &str = "syntax = \"proto3\"; package circuit.v1;
message GenesisState {
  repeated string account_permissions = 1;
  repeated string disabled_type_urls = 2;
}";
const CIRCUIT_MODULE: &str = "syntax = \"proto3\"; package circuit.module.v1;
message Module { string authority = 1; }";

/// One module removed (capability), another added (circuit), each with a `Module` and
/// a `GenesisState`, beside a module that stays (bank) and has the same short names.
fn modules() -> (Schema, Schema) {
    let old = compile(&[
        ("bank.proto", BANK_V1),
        ("capability/genesis.proto", CAPABILITY),
        ("capability/module.proto", CAPABILITY_MODULE),
    ]);
    let new = compile(&[
        ("bank.proto", BANK_V2),
        ("circuit/genesis.proto", CIRCUIT),
        ("circuit/module.proto", CIRCUIT_MODULE),
    ]);
    (old, new)
}

#[test]
fn a_removed_module_is_not_compared_with_an_added_one_of_another_package() {
    let (old, new) = modules();
    let findings = check(Old::Schema(&old), &new).expect("schemas compare");
    assert_no_cross_package_pair(&findings);
    // The bank module is still compared by its full name.
    assert_eq!(ids(&findings, Canonical), Vec::<&str>::new());
    assert_eq!(ids(&findings, Forward), ["field-added"]);
    assert_eq!(
        ids(&findings, Source),
        ["message-removed", "message-removed", "message-removed"]
    );
    assert_eq!(ids(&findings, Json), Vec::<&str>::new());
    // Nothing points into the circuit module's files: they are additions.
    for f in &findings {
        let file = f.file.as_deref().unwrap_or("");
        assert!(!file.starts_with("circuit/"), "{}", f.to_line());
    }
    confirm(&old, &new, &findings);
}

#[test]
fn a_new_file_s_types_are_additions() {
    let old = compile(&[
        (
            "google/a/v1/config.proto",
            "syntax = \"proto3\"; package google.a.v1;
             message Config { int32 a = 1; string b = 2; message Rule { bool on = 1; } }
             enum Kind { KIND_UNSPECIFIED = 0; KIND_ONE = 1; }",
        ),
        (
            "google/a/v1/keep.proto",
            "syntax = \"proto3\"; package google.a.v1; message Keep { int32 a = 1; }",
        ),
    ]);
    let new = compile(&[
        (
            "google/a/v1/keep.proto",
            "syntax = \"proto3\"; package google.a.v1; message Keep { int32 a = 1; }",
        ),
        (
            "google/b/v2/fresh.proto",
            "syntax = \"proto3\"; package google.b.v2;
             message Config { string a = 1; int64 b = 2; message Rule { string on = 1; } }
             enum Kind { KIND_UNSPECIFIED = 0; KIND_TWO = 2; KIND_ONE = 3; }",
        ),
    ]);
    let findings = check(Old::Schema(&old), &new).expect("schemas compare");
    assert_no_cross_package_pair(&findings);
    for f in &findings {
        assert_ne!(
            f.file.as_deref(),
            Some("google/b/v2/fresh.proto"),
            "{}",
            f.to_line()
        );
    }
    assert!(ids(&findings, Canonical).is_empty(), "{findings:?}");
    assert!(ids(&findings, Forward).is_empty(), "{findings:?}");
    assert!(ids(&findings, Json).is_empty(), "{findings:?}");
    assert_eq!(
        ids(&findings, Source),
        ["enum-removed", "message-removed", "message-removed"]
    );
}

#[test]
fn a_rename_pairs_two_types_and_compares_their_fields() {
    let (old, new) = modules();
    let config = Config::new().rename("capability.module.v1.Module", "circuit.module.v1.Module");
    let findings = check_with(Old::Schema(&old), &new, &config).expect("schemas compare");
    // bool seal_keeper = 1 → string authority = 1, both ways.
    assert_eq!(ids(&findings, Canonical), ["field-type-changed"]);
    assert_eq!(
        ids(&findings, Forward),
        ["field-added", "field-type-changed"]
    );
    assert!(
        findings.iter().any(|f| f.rule_id() == "message-renamed"
            && f.message == "message capability.module.v1.Module is now circuit.module.v1.Module"),
        "{findings:?}"
    );
    // The other capability types are still removed, not paired with circuit's.
    assert_eq!(
        ids(&findings, Source)
            .into_iter()
            .filter(|r| *r == "message-removed")
            .count(),
        2
    );
    confirm(&old, &new, &findings);
}

#[test]
fn a_package_rename_carries_every_type_under_it() {
    let v = |pkg: &str| {
        format!(
            "syntax = \"proto3\"; package {pkg};
             message M {{ int32 x = 1; message N {{ E e = 1; }} N n = 2; }}
             enum E {{ E_ZERO = 0; E_ONE = 1; }}"
        )
    };
    let old = compile(&[("m.proto", &v("a.v1"))]);
    let new = compile(&[("m.proto", &v("b.v1"))]);
    // Without a rename: the file changed package, and every type is gone.
    let findings = check(Old::Schema(&old), &new).expect("schemas compare");
    assert_eq!(
        ids(&findings, Source),
        [
            "enum-removed",
            "message-removed",
            "message-removed",
            "package-changed"
        ]
    );
    assert_eq!(ids(&findings, Json), ["package-changed"]);
    // With one: the same types under new names, nothing for the bytes.
    let config = Config::new().rename("a.v1", "b.v1");
    let findings = check_with(Old::Schema(&old), &new, &config).expect("schemas compare");
    assert_eq!(
        ids(&findings, Source),
        [
            "enum-renamed",
            "message-renamed",
            "message-renamed",
            "package-changed"
        ]
    );
    assert!(ids(&findings, Canonical).is_empty(), "{findings:?}");
    assert!(ids(&findings, Forward).is_empty(), "{findings:?}");
}

#[test]
fn a_rename_of_an_enum_compares_its_values() {
    let old = compile(&[(
        "e.proto",
        "syntax = \"proto3\"; package p; enum Old { O_ZERO = 0; O_ONE = 1; } message M { Old e = 1; }",
    )]);
    let new = compile(&[(
        "e.proto",
        "syntax = \"proto3\"; package p; enum New { O_ZERO = 0; O_ONE = 2; } message M { New e = 1; }",
    )]);
    let findings = check(Old::Schema(&old), &new).expect("schemas compare");
    assert_eq!(ids(&findings, Canonical), ["enum-value-renumbered"]);
    assert!(
        ids(&findings, Source).contains(&"enum-removed"),
        "{findings:?}"
    );
    let config = Config::new().rename("p.Old", "p.New");
    let findings = check_with(Old::Schema(&old), &new, &config).expect("schemas compare");
    assert_eq!(ids(&findings, Canonical), ["enum-value-renumbered"]);
    assert_eq!(ids(&findings, Source), ["enum-renamed"]);
    confirm(&old, &new, &findings);
}

#[test]
fn a_rename_must_name_types_or_packages_of_one_kind_on_each_side() {
    let (old, new) = modules();
    let bad = [
        (
            ("capability.module.v1.Modul", "circuit.module.v1.Module"),
            "capability.module.v1.Modul is not a message, enum or package of the old schema",
        ),
        (
            ("capability.module.v1.Module", "circuit.module.v1.Mod"),
            "circuit.module.v1.Mod is not a message, enum or package of the new schema",
        ),
        (
            ("capability.module.v1.Module", "circuit.v1"),
            "capability.module.v1.Module is a message but circuit.v1 is a package",
        ),
        ((".", "circuit.v1"), "both names must be given"),
        (
            ("capability.v1", "circuit.v1"),
            "capability.v1 is renamed twice",
        ),
    ];
    for ((from, to), want) in bad {
        let config = if want.ends_with("twice") {
            Config::new().rename(from, "bank.v1").rename(from, to)
        } else {
            Config::new().rename(from, to)
        };
        let e = check_with(Old::Schema(&old), &new, &config).expect_err("refused");
        assert!(e.to_string().contains(want), "{e}");
        assert_eq!(e.code(), "invalid-rename", "{e}");
    }
}

#[test]
fn descriptor_sets_pair_the_same_way() {
    use bijoubuf_breaking::{check_descriptor_sets, check_descriptor_sets_with};
    let (old, new) = modules();
    let (old_set, new_set) = (old.file_descriptor_set(), new.file_descriptor_set());
    let plain = check_descriptor_sets(&old_set, &new_set).expect("sets compare");
    assert_no_cross_package_pair(&plain);
    assert_eq!(ids(&plain, Canonical), Vec::<&str>::new());
    let config = Config::new().rename("capability.module.v1.Module", "circuit.module.v1.Module");
    let renamed = check_descriptor_sets_with(&old_set, &new_set, &config).expect("sets compare");
    assert_eq!(ids(&renamed, Canonical), ["field-type-changed"]);
    let e = check_descriptor_sets_with(
        &old_set,
        &new_set,
        &Config::new().rename("capability.v1", "nowhere.v1"),
    )
    .expect_err("refused");
    assert!(
        e.to_string()
            .contains("nowhere.v1 is not a message, enum or package of the new schema"),
        "{e}"
    );
}
