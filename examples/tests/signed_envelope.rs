//! The signed_envelope example: canonical bytes, each tampering refused with its code,
//! and prost accepting the same tampering of protobuf bytes.

use bijoubuf::Message as _;
use bijoubuf_examples::ledger::Transfer;
use bijoubuf_examples::signed::SignedMessage;
use bijoubuf_examples::signing::{self, VerifyError};
use bijoubuf_examples::tamper::{self, Malleation};
use bijoubuf_examples::wire;

/// The demo transfer's bytes, derived by hand from SPEC §4.1 (keys), §2 (bijou64) and
/// §6.3 (maps): payer, payee (key 02 = delta 0, LEN), amount 2500 = F9 07CC (key 00 =
/// delta 0, VARINT), memo omitted, labels (key 06 = delta 1, LEN; 30 bytes of entries).
const BODY: &[u8] = b"\x02\x05alice\x02\x03bob\x00\xF9\x07\xCC\x06\x1E\
\x07invoice\x08\x32\x30\x32\x34-117\x07project\x04roof";

/// One run shared by every test: signing and verifying in a debug build is slow.
fn report() -> &'static tamper::Report {
    static REPORT: std::sync::OnceLock<tamper::Report> = std::sync::OnceLock::new();
    REPORT.get_or_init(|| tamper::run().expect("the demo runs"))
}

fn body_error(r: &tamper::Row) -> &bijoubuf::DecodeError {
    match &r.verdict {
        Err(VerifyError::Body(e)) => e,
        other => panic!("{:?}: expected a body refusal, got {other:?}", r.malleation),
    }
}

fn row(report: &tamper::Report, m: Malleation) -> &tamper::Row {
    report
        .rows
        .iter()
        .find(|r| r.malleation == m)
        .expect("every malleation has a row")
}

#[test]
fn the_signed_bytes_are_the_hand_derived_canonical_bytes() {
    let r = report();
    assert_eq!(r.body, BODY);
    assert_eq!(tamper::demo_transfer().encode_to_vec().unwrap(), BODY);
}

#[test]
fn the_untouched_envelope_verifies_everywhere() {
    let r = report();
    assert_eq!(r.verdict, Ok(tamper::demo_transfer()));
    assert_eq!(
        r.prost.decoded,
        Ok(tamper::to_prost(&tamper::demo_transfer()))
    );
    assert!(r.prost.verify_bytes_ok);
    assert!(r.prost.reencode_verify_ok);
}

#[test]
fn a_moved_field_is_refused_as_wire_type_mismatch() {
    let r = report();
    let row = row(r, Malleation::FieldMoved);
    // amount's record `00 F9 07 CC` cut and pasted to the front: key 00 now means
    // field 1 (payer, a string) with wire type VARINT.
    assert_eq!(&row.bijoubuf[..4], [0x00, 0xF9, 0x07, 0xCC]);
    let e = body_error(row);
    assert_eq!((e.code(), e.offset()), ("wire-type-mismatch", 0));
    assert_eq!(e.path_string(), "Transfer.payer");
}

#[test]
fn a_moved_field_has_no_faithful_encoding() {
    let mut records = wire::split(BODY).unwrap();
    let amount = records.remove(2);
    assert_eq!(amount.number, 3);
    records.insert(0, amount);
    assert!(wire::join(&records).is_err());
}

#[test]
fn an_inserted_default_is_refused_as_default_value_present() {
    let r = report();
    let row = row(r, Malleation::DefaultInserted);
    // memo = "" as `02 00` at byte 16; labels' key becomes 02 (delta 0 from 4).
    assert_eq!(&row.bijoubuf[16..19], [0x02, 0x00, 0x02]);
    let e = body_error(row);
    assert_eq!((e.code(), e.offset()), ("default-value-present", 16));
    assert_eq!(e.path_string(), "Transfer.memo");
}

#[test]
fn a_padded_integer_is_another_amount_and_fails_the_signature() {
    let r = report();
    let row = row(r, Malleation::OverlongInteger);
    // 2500 in the next tier, zero-padded: FA 00 09 C4 = 66040 + 2500.
    assert_eq!(&row.bijoubuf[13..17], [0xFA, 0x00, 0x09, 0xC4]);
    assert_eq!(row.body.as_ref().map(|t| t.amount), Ok(68_540));
    assert_eq!(row.verdict, Err(VerifyError::BadSignature));
    assert_eq!(row.verdict.as_ref().unwrap_err().code(), "bad-signature");
}

#[test]
fn a_reordered_map_is_refused_as_map_key_order() {
    let r = report();
    let row = row(r, Malleation::MapReordered);
    let e = body_error(row);
    // Entries start at 18; "project" -> "roof" takes 13 bytes, so "invoice" starts at 31.
    assert_eq!((e.code(), e.offset()), ("map-key-order", 31));
    assert_eq!(e.path_string(), "Transfer.labels[\"invoice\"]");
}

#[test]
fn an_unknown_field_is_refused_as_unknown_field() {
    let r = report();
    let row = row(r, Malleation::UnknownFieldAdded);
    // Field 15 after field 5: delta 9, VARINT -> key 0x24, at the old end (48).
    assert_eq!(&row.bijoubuf[48..], [0x24, 0x01]);
    let e = body_error(row);
    assert_eq!((e.code(), e.offset()), ("unknown-field", 48));
    assert_eq!(e.path_string(), "Transfer.15");
}

#[test]
fn prost_reads_every_tampered_protobuf_as_the_signed_value() {
    let r = report();
    let original = tamper::to_prost(&tamper::demo_transfer());
    for row in &r.rows {
        let m = row.malleation;
        assert_ne!(row.protobuf, r.protobuf, "{m:?} changed no byte");
        assert_eq!(row.prost.decoded.as_ref(), Ok(&original), "{m:?}");
        // Verifying the received bytes refuses a message that means what was signed...
        assert!(!row.prost.verify_bytes_ok, "{m:?}");
        // ...and decode, re-encode, verify accepts bytes nobody signed.
        assert!(row.prost.reencode_verify_ok, "{m:?}");
    }
}

#[test]
fn the_protobuf_tampering_is_what_it_says() {
    let r = report();
    let pb = |m| row(r, m).protobuf.clone();
    // amount = 2500 is `18 C4 13`; overlong: `18 C4 93 00`.
    let amount = [0x18, 0xC4, 0x13];
    assert!(r.protobuf.windows(3).any(|w| w == amount));
    assert!(
        pb(Malleation::OverlongInteger)
            .windows(4)
            .any(|w| w == [0x18, 0xC4, 0x93, 0x00])
    );
    assert_eq!(&pb(Malleation::FieldMoved)[..3], amount);
    assert!(
        pb(Malleation::DefaultInserted)
            .windows(5)
            .any(|w| w == [0x18, 0xC4, 0x13, 0x22, 0x00])
    );
    assert!(pb(Malleation::UnknownFieldAdded).ends_with(&[0x78, 0x01]));
    // The second label's entry record (2A 0F ... "project") now comes first.
    let reordered = pb(Malleation::MapReordered);
    let first_entry = reordered.iter().position(|&b| b == 0x2A).unwrap();
    assert_eq!(&reordered[first_entry + 4..first_entry + 11], b"project");
}

#[test]
fn the_signature_is_bound_to_the_type_name() {
    let r = report();
    let key = signing::demo_key().verifying_key();
    assert_eq!(
        signing::verify_bytes(&key, Transfer::FULL_NAME, &r.body, &r.signature),
        Ok(())
    );
    assert_eq!(
        signing::verify_bytes(&key, "examples.ledger.v1.Refund", &r.body, &r.signature),
        Err(VerifyError::BadSignature)
    );
    // The zero byte keeps name and body apart.
    assert_ne!(
        signing::signing_input("a.B", b"x"),
        signing::signing_input("a.Bx", b"")
    );
}

#[test]
fn a_changed_signature_or_key_is_refused() {
    let r = report();
    let key = signing::demo_key().verifying_key();
    let mut sig = r.signature.clone();
    sig[0] ^= 1;
    let env = SignedMessage {
        body: r.body.clone(),
        signature: sig,
    }
    .encode_to_vec()
    .unwrap();
    assert_eq!(
        signing::verify::<Transfer>(&key, &env),
        Err(VerifyError::BadSignature)
    );
    let short = SignedMessage {
        body: r.body.clone(),
        signature: vec![0; 63],
    }
    .encode_to_vec()
    .unwrap();
    assert_eq!(
        signing::verify::<Transfer>(&key, &short),
        Err(VerifyError::BadSignature)
    );
    let other = ed25519_dalek::SigningKey::from_bytes(&[7; 32]).verifying_key();
    assert_eq!(
        signing::verify::<Transfer>(&other, &r.envelope),
        Err(VerifyError::BadSignature)
    );
}

#[test]
fn the_envelope_is_decoded_strictly_too() {
    let r = report();
    let key = signing::demo_key().verifying_key();
    // Field 3 appended to the envelope: delta 0 after field 2, VARINT -> key 00.
    let mut env = r.envelope.clone();
    env.extend_from_slice(&[0x00, 0x01]);
    match signing::verify::<Transfer>(&key, &env) {
        Err(VerifyError::Envelope(e)) => {
            assert_eq!((e.code(), e.offset()), ("unknown-field", r.envelope.len()));
        }
        other => panic!("expected an envelope refusal, got {other:?}"),
    }
}

#[test]
fn the_printed_table_shows_each_outcome() {
    let text = report().to_string();
    for code in [
        "wire-type-mismatch",
        "default-value-present",
        "bad-signature",
        "map-key-order",
        "unknown-field",
    ] {
        assert!(
            text.contains(&format!("refuses: {code}")),
            "{code} missing from:\n{text}"
        );
    }
    assert_eq!(text.matches("ACCEPTS").count(), 5, "{text}");
    assert!(text.contains("decodes as amount 68540"));
}

#[test]
fn the_signed_type_name_is_the_generated_full_name() {
    use bijoubuf_examples::profile::{v1, v2};
    assert_eq!(Transfer::FULL_NAME, "examples.ledger.v1.Transfer");
    // The two versions of the profile schema declare one type: a signature made by either
    // verifies under the other.
    assert_eq!(v1::Profile::FULL_NAME, "examples.profile.Profile");
    assert_eq!(v2::Profile::FULL_NAME, v1::Profile::FULL_NAME);
}
