//! Descriptor sets as the old side: a set is no breaking change to itself, and a set
//! that gives a file name, a field number, a field name, a type name or an enum value
//! name twice is refused (each side of a comparison could read a different one of the two).

mod common;

use bijoubuf_breaking::check_descriptor_sets;
use proptest::prelude::*;
use prost::Message as _;

const SCHEMA: &str = r#"
syntax = "proto3";
package p;
message M { int32 a = 1; string b = 2; map<string, M> kids = 3; E e = 4; }
enum E { E_ZERO = 0; E_ONE = 1; }
"#;

#[test]
fn a_set_has_no_findings_against_itself() {
    let set = common::compile(SCHEMA).file_descriptor_set();
    let findings = check_descriptor_sets(&set, &set).expect("a valid set");
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn a_set_that_defines_something_twice_is_refused() {
    let set = common::compile(SCHEMA).file_descriptor_set();
    // Field 2 numbered 1 too.
    let mut twice = set.clone();
    twice.file[0].message_type[0].field[1].number = Some(1);
    let e = check_descriptor_sets(&twice, &set).expect_err("number twice");
    assert!(
        e.to_string().contains("field number 1 is used twice"),
        "{e}"
    );
    // Field 2 named `a` too.
    let mut twice = set.clone();
    twice.file[0].message_type[0].field[1].name = Some("a".into());
    let e = check_descriptor_sets(&set, &twice).expect_err("name twice");
    assert!(e.to_string().contains("a field name is used twice"), "{e}");
    // Message M defined twice, and enum E.
    let mut twice = set.clone();
    let again = twice.file[0].message_type[0].clone();
    twice.file[0].message_type.push(again);
    let e = check_descriptor_sets(&twice, &set).expect_err("type twice");
    assert!(e.to_string().contains("\"p.M\" is defined twice"), "{e}");
    let mut twice = set.clone();
    let again = twice.file[0].enum_type[0].clone();
    twice.file[0].enum_type.push(again);
    let e = check_descriptor_sets(&twice, &set).expect_err("enum twice");
    assert!(e.to_string().contains("\"p.E\" is defined twice"), "{e}");
    // The file twice (under another package, so that no type is defined twice).
    let mut twice = set.clone();
    let mut again = twice.file[0].clone();
    again.package = Some("q".into());
    twice.file.push(again);
    let e = check_descriptor_sets(&twice, &set).expect_err("file twice");
    assert!(e.to_string().contains("appears twice"), "{e}");
    // E_ONE named E_ZERO too.
    let mut twice = set.clone();
    twice.file[0].enum_type[0].value[1].name = Some("E_ZERO".into());
    let e = check_descriptor_sets(&twice, &set).expect_err("enum value name twice");
    assert!(
        e.to_string()
            .contains("enum value name \"E_ZERO\" is used twice"),
        "{e}"
    );
}

proptest! {
    /// Whatever bytes decode as a descriptor set: the checker refuses it or finds
    /// nothing against itself (never a panic, never a finding between equal sets).
    #[test]
    fn a_mutated_set_is_refused_or_unchanged_against_itself(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4)
    ) {
        let mut bytes = common::compile(SCHEMA).file_descriptor_set().encode_to_vec();
        for (at, b) in edits {
            let n = bytes.len();
            bytes[at % n] = b;
        }
        if let Ok(set) = prost_types::FileDescriptorSet::decode(bytes.as_slice())
            && let Ok(findings) = check_descriptor_sets(&set, &set)
        {
            prop_assert!(findings.is_empty(), "{findings:?}");
        }
    }
}
