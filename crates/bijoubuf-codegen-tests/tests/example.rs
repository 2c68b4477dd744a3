//! The realistic schema: well-known types from the runtime, preserved unknown fields
//! on the signed envelope, serde with proto3 JSON names, configured attributes, and a
//! descriptor set written next to the code.

use std::collections::BTreeMap;

use bijoubuf::wkt::Timestamp;
use bijoubuf::{DecodeOptions, Message, UnknownFieldPolicy};
use bijoubuf_codegen_tests::example::v1::{Algorithm, Envelope, Person, Signature, Signer, person};
use bijoubuf_testkit::assert_value_roundtrip;

fn envelope() -> Envelope {
    Envelope {
        payload: b"inner".to_vec(),
        payload_type: "example.v1.Person".into(),
        signatures: vec![Signature {
            signer: Some(Signer {
                key_id: "k1".into(),
                algorithm: Algorithm::Ed25519.into(),
            }),
            sig: vec![7; 64],
        }],
        created_at: Some(Timestamp {
            seconds: 1_700_000_000,
            nanos: 5,
        }),
        headers: BTreeMap::from([("a".into(), "1".into())]),
        ..Envelope::default()
    }
}

#[test]
fn envelope_round_trips_and_keeps_unknown_fields_for_signing() {
    let bytes = assert_value_roundtrip(&envelope());
    // A newer sender added field 9 (VARINT 1): delta from 5 is 3, key (3 << 2) = 0C.
    let mut newer = bytes.clone();
    newer.extend_from_slice(&[0x0C, 0x01]);
    assert!(Envelope::decode(&newer).is_err());
    let opts = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let kept = Envelope::decode_with(&newer, &opts).unwrap().into_message();
    assert_eq!(kept.unknown_fields.len(), 1);
    // Re-encoding gives the signed bytes back exactly.
    assert_eq!(kept.encode_to_vec().unwrap(), newer);
}

#[test]
fn serde_uses_proto3_json_names() {
    let p = Person {
        name: "Ada".into(),
        id: 1,
        email: Some("ada@example.com".into()),
        phones: vec![person::PhoneNumber {
            number: "1".into(),
            r#type: person::PhoneType::Mobile.into(),
        }],
        display_name: "Countess".into(),
    };
    let json = serde_json::to_value(&p).unwrap();
    assert_eq!(json["name"], "Ada");
    assert_eq!(json["phones"][0]["type"], 1);
    assert_eq!(json["displayName"], "Countess");
    assert!(json.get("display_name").is_none());
    let back: Person = serde_json::from_value(json).unwrap();
    assert_eq!(back, p);
    // Absent fields take their defaults.
    let partial: Person = serde_json::from_str(r#"{"id": 3}"#).unwrap();
    assert_eq!(
        partial,
        Person {
            id: 3,
            ..Person::default()
        }
    );
    assert_value_roundtrip(&p);
}

#[test]
fn configured_attributes_apply() {
    // `type_attribute` added PartialOrd to Signer.
    let a = Signer {
        key_id: "a".into(),
        algorithm: 0,
    };
    let b = Signer {
        key_id: "b".into(),
        algorithm: 0,
    };
    assert!(a < b);
}

#[test]
fn descriptor_set_is_written() {
    let bytes = std::fs::read(concat!(env!("OUT_DIR"), "/example.fds")).unwrap();
    // A FileDescriptorSet is a protobuf message: field 1 (file), LEN, tag 0x0A.
    assert_eq!(bytes.first(), Some(&0x0A));
    assert!(
        bytes
            .windows(b"envelope.proto".len())
            .any(|w| w == b"envelope.proto")
    );
}

#[test]
fn serde_flattens_oneof_members_into_the_message() {
    use bijoubuf_codegen_tests::kitchen::{Choice, choice};
    let c = Choice {
        name: "n".into(),
        kind: Some(choice::Kind::B("x".into())),
        mid: 2,
        ..Choice::default()
    };
    let json = serde_json::to_value(&c).unwrap();
    assert_eq!(json["b"], "x");
    assert_eq!(json["mid"], 2);
    assert!(json.get("kind").is_none(), "{json}");
    let back: Choice = serde_json::from_value(json).unwrap();
    assert_eq!(back, c);
    let none: Choice = serde_json::from_str(r#"{"name": "m"}"#).unwrap();
    assert_eq!(none.kind, None);
}
