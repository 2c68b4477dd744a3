//! The schema_evolution example: a preserving v1 reader re-encodes a v2 message byte
//! for byte, a strict v1 reader refuses it.

use std::collections::BTreeMap;

use bijoubuf::{DecodeOptions, Message as _, UnknownFieldPolicy};
use bijoubuf_examples::evolution;
use bijoubuf_examples::profile::{v1, v2};
use bijoubuf_examples::signing::{self, VerifyError};

/// One run shared by every test: signing and verifying in a debug build is slow.
fn report() -> &'static evolution::Report {
    static REPORT: std::sync::OnceLock<evolution::Report> = std::sync::OnceLock::new();
    REPORT.get_or_init(|| evolution::run().expect("the demo runs"))
}

#[test]
fn a_preserving_v1_reader_reencodes_v2_bytes_exactly() {
    let r = report();
    assert_eq!(r.body, r.written.encode_to_vec().unwrap());
    assert_eq!(r.reencoded, r.body);
    assert_eq!(r.reencoded_signature, Ok(()));
    let p = r.preserving.as_ref().unwrap();
    assert_eq!(
        (p.handle.as_str(), p.bio.as_str()),
        ("ada", "First programmer")
    );
    let kept: Vec<u32> = p
        .unknown_fields
        .as_slice()
        .iter()
        .map(|u| u.number)
        .collect();
    assert_eq!(kept, [4, 5, 6]);
}

#[test]
fn the_signature_survives_the_v1_hop() {
    let r = report();
    assert_eq!(r.forwarded, Ok(evolution::v2_profile()));
}

#[test]
fn a_strict_v1_reader_refuses_with_unknown_field() {
    let r = report();
    let e = r.strict.as_ref().unwrap_err();
    // handle (2 + 3) + display_name (2 + 12) + bio (2 + 16) = 37: pronouns' key.
    assert_eq!((e.code(), e.offset()), ("unknown-field", 37));
    assert_eq!(e.path_string(), "Profile.4");
    // The same through the verifier: refused before the signature is looked at.
    let key = signing::demo_key().verifying_key();
    match signing::verify::<v1::Profile>(&key, &r.envelope) {
        Err(VerifyError::Body(e)) => assert_eq!(e.code(), "unknown-field"),
        other => panic!("expected unknown-field, got {other:?}"),
    }
}

#[test]
fn an_edit_by_v1_keeps_v2_fields_and_breaks_the_old_signature() {
    let r = report();
    let edited = r.edited.as_ref().unwrap();
    let expected = v2::Profile {
        bio: "Wrote the first program".into(),
        ..evolution::v2_profile()
    };
    assert_eq!(edited, &expected);
    assert_eq!(r.edited_signature, Err(VerifyError::BadSignature));
}

#[test]
fn every_shape_of_v2_message_passes_through_v1_unchanged() {
    let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let full = evolution::v2_profile();
    let variants = [
        full.clone(),
        v2::Profile::default(),
        v2::Profile {
            avatar: None,
            ..full.clone()
        },
        v2::Profile {
            handle: String::new(),
            bio: String::new(),
            ..full.clone()
        },
        v2::Profile {
            links: BTreeMap::from([("a".into(), String::new()), ("b".into(), "x".into())]),
            ..v2::Profile::default()
        },
        v2::Profile {
            avatar: Some(v2::Avatar::default()),
            ..v2::Profile::default()
        },
    ];
    for v in variants {
        let bytes = v.encode_to_vec().unwrap();
        let read = v1::Profile::decode_with(&bytes, &keep).unwrap();
        assert_eq!(read.message().encode_to_vec().unwrap(), bytes, "{v:?}");
        assert_eq!(v2::Profile::decode(&bytes).unwrap(), v);
    }
}

#[test]
fn the_printed_report_shows_each_outcome() {
    let text = report().to_string();
    assert!(
        text.contains("re-encodes to the writer's bytes exactly: yes"),
        "{text}"
    );
    assert!(
        text.contains("the writer's signature over the re-encoding: valid"),
        "{text}"
    );
    assert!(
        text.contains("unknown-field: Profile.4 is not in the schema at byte 37"),
        "{text}"
    );
}

#[test]
fn the_checker_explains_the_change_before_any_bytes_move() {
    let changes = evolution::schema_change().unwrap();
    assert!(
        changes.iter().all(|c| c.category != "canonical"),
        "{changes:?}"
    );
    let forward: Vec<&evolution::Change> =
        changes.iter().filter(|c| c.category == "forward").collect();
    let rules: Vec<&str> = forward.iter().map(|c| c.rule).collect();
    assert_eq!(rules, ["field-added"; 3]);
    for c in &forward {
        let ce = c.counterexample.as_deref().unwrap();
        assert!(
            ce.contains("are refused by the old schema: unknown-field"),
            "{ce}"
        );
    }
    // What the checker predicts is what the strict v1 reader does below.
    assert_eq!(
        report().strict.as_ref().unwrap_err().code(),
        "unknown-field"
    );
}
