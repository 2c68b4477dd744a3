//! Unknown fields: refused by default, kept and re-emitted byte-identically on request
//! (SPEC §8).
mod common;

use bijoubuf::{DecodeOptions, EncodeErrorKind, Message, UnknownFieldPolicy, UnknownValue};
use bijoubuf_testkit::{assert_canonical_roundtrip_with, assert_rejects};
use common::*;

fn preserve() -> DecodeOptions {
    DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve)
}

fn wider() -> Wider {
    Wider {
        x: 300,
        a: -7,
        s: "new".into(),
        child: Some(Box::new(Wider {
            x: 1,
            a: 2,
            f: 9,
            g: u64::MAX,
            ..Default::default()
        })),
        f: 0xDEAD_BEEF,
        d: 42,
        e: vec![1, 2, 3],
        g: 5,
        ..Default::default()
    }
}

#[test]
fn newer_writer_older_reader_roundtrips_byte_identically() {
    let bytes = wider().encode_to_vec().unwrap();
    // Strict: the first unknown record (x = 1, at 0) is refused.
    let e = assert_rejects::<Known>(&bytes, "unknown-field", 0);
    assert_eq!(e.path_string(), "Known.1");
    let d = assert_canonical_roundtrip_with::<Known>(&bytes, &preserve());
    assert!(d.has_unknown_fields());
    // Top: x(1), s(3), f(5), e(7), g(8); child: x(1), f(5), g(8).
    assert_eq!(d.unknown_field_count(), 8);
    let k = d.message();
    assert_eq!((k.a, k.d), (-7, 42));
    let numbers: Vec<u32> = k
        .unknown_fields
        .as_slice()
        .iter()
        .map(|u| u.number)
        .collect();
    assert_eq!(numbers, [1, 3, 5, 7, 8]);
    let values: Vec<&UnknownValue> = k.unknown_fields.iter_values();
    assert_eq!(values[0], &UnknownValue::Varint(300));
    assert_eq!(values[1], &UnknownValue::Len(b"new".to_vec()));
    assert_eq!(values[2], &UnknownValue::I32(0xDEAD_BEEF));
    assert_eq!(values[4], &UnknownValue::I64(5));
    let child = k.child.as_ref().unwrap();
    assert_eq!(child.unknown_fields.len(), 3);
    // The kept value decodes back as the newer type, equal to what was written.
    let again = k.encode_to_vec().unwrap();
    assert_eq!(Wider::decode(&again).unwrap(), wider());
}

#[test]
fn preserving_decode_of_known_only_input_reports_none() {
    let bytes = Known {
        a: 1,
        d: 2,
        ..Default::default()
    }
    .encode_to_vec()
    .unwrap();
    let d = Known::decode_with(&bytes, &preserve()).unwrap();
    assert!(!d.has_unknown_fields());
    assert_eq!(d.unknown_field_count(), 0);
}

#[test]
fn edits_to_known_fields_keep_unknown_ones_in_place() {
    let bytes = wider().encode_to_vec().unwrap();
    let mut k = Known::decode_with(&bytes, &preserve())
        .unwrap()
        .into_message();
    k.d = 43;
    k.a = 0; // now omitted: the unknown neighbours' keys are recomputed as deltas
    let w = Wider::decode(&k.encode_to_vec().unwrap()).unwrap();
    assert_eq!(
        w,
        Wider {
            a: 0,
            d: 43,
            ..wider()
        }
    );
    assert_eq!(k.encoded_len(), k.encode_to_vec().unwrap().len());
}

#[test]
fn unknown_payloads_of_every_wire_type_are_kept_unchecked() {
    // Known (2, 4, 6): unknown 1 as LEN with invalid UTF-8 and bogus nested bytes,
    // 3 as I64, 5 as I32, 7 as VARINT u64::MAX.
    let mut raw = bijoubuf_testkit::Raw::new();
    raw.key(1, 2).len_bytes(&[0xFF, 0xC0]);
    raw.key(3, 1).fixed64(7);
    raw.key(5, 3).fixed32(8);
    raw.key(7, 0).varint(u64::MAX);
    let bytes = raw.finish();
    let d = assert_canonical_roundtrip_with::<Known>(&bytes, &preserve());
    assert_eq!(d.unknown_field_count(), 4);
    // Truncated unknown payloads are still errors, with the unknown number in the path.
    for cut in 1..bytes.len() {
        let r = Known::decode_with(&bytes[..cut], &preserve());
        if let Err(e) = r {
            assert_eq!(e.code(), "truncated", "cut at {cut}");
        }
    }
    let e = Known::decode_with(&bytes[..3], &preserve()).unwrap_err();
    assert_eq!(e.path_string(), "Known.1");
}

#[test]
fn misplaced_unknown_fields_are_refused_by_the_encoder() {
    // Unknown field 1 taken from Wider { x } and moved into a Scalars whose field 1 is set.
    let bytes = Wider {
        x: 5,
        ..Default::default()
    }
    .encode_to_vec()
    .unwrap();
    let k = Known::decode_with(&bytes, &preserve())
        .unwrap()
        .into_message();
    let s = Scalars {
        i32: 1,
        u32: 2,
        unknown_fields: k.unknown_fields.clone(),
        ..Default::default()
    };
    let e = s.encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::UnknownFieldOrder);
    // Even unset, a declared number cannot carry an unknown record: it would decode as
    // the known field (SPEC §8.2).
    let s = Scalars {
        u32: 2,
        unknown_fields: k.unknown_fields.clone(),
        ..Default::default()
    };
    assert_eq!(
        s.encode_to_vec().unwrap_err().kind(),
        EncodeErrorKind::UnknownFieldOrder
    );
    // In a message that does not declare it, it is written in place, before field 2.
    let other = Known {
        a: 2,
        unknown_fields: k.unknown_fields,
        ..Default::default()
    };
    assert_eq!(other.encode_to_vec().unwrap(), [0x00, 0x05, 0x00, 0x04]);
}

#[test]
fn kept_records_report_the_wire_type_they_arrived_with() {
    // Unknown 1 VARINT, 3 I64, 5 LEN, 7 I32 (SPEC §4.2: 0, 1, 2, 3).
    let mut raw = bijoubuf_testkit::Raw::new();
    raw.key(1, 0).varint(9);
    raw.key(3, 1).fixed64(7);
    raw.key(5, 2).len_bytes(b"x");
    raw.key(7, 3).fixed32(8);
    let bytes = raw.finish();
    let k = assert_canonical_roundtrip_with::<Known>(&bytes, &preserve()).into_message();
    let kept: Vec<(u32, u8)> = k
        .unknown_fields
        .as_slice()
        .iter()
        .map(|u| (u.number, u.value.wire_type()))
        .collect();
    assert_eq!(kept, [(1, 0), (3, 1), (5, 2), (7, 3)]);
}

#[test]
fn is_empty_and_clear() {
    let bytes = wider().encode_to_vec().unwrap();
    let mut k = Known::decode_with(&bytes, &preserve())
        .unwrap()
        .into_message();
    assert!(!k.unknown_fields.is_empty());
    assert_eq!(k.unknown_fields.len(), 5);
    // Iterating by reference gives the records in order, as `as_slice` does.
    let mut numbers = Vec::new();
    for u in &k.unknown_fields {
        numbers.push(u.number);
    }
    assert_eq!(numbers, [1, 3, 5, 7, 8]);
    // Cleared, the message encodes as if it had been decoded from its known fields only.
    k.unknown_fields.clear();
    assert!(k.unknown_fields.is_empty());
    assert_eq!(k.unknown_fields.len(), 0);
    let child = k.child.as_mut().unwrap();
    assert_eq!(child.unknown_fields.len(), 3);
    child.unknown_fields.clear();
    assert!(child.unknown_fields.is_empty());
    let known_only = Known {
        a: k.a,
        d: k.d,
        child: k.child.clone(),
        ..Default::default()
    };
    assert_eq!(
        k.encode_to_vec().unwrap(),
        known_only.encode_to_vec().unwrap()
    );
    // A strict decode keeps nothing.
    let strict = Known::decode(&known_only.encode_to_vec().unwrap()).unwrap();
    assert!(strict.unknown_fields.is_empty());
    assert_eq!(strict, known_only);
}

#[test]
fn an_empty_set_is_one_pointer_and_equal_to_a_new_one() {
    // Every message holds an `UnknownFields`: empty, it is 8 bytes, not a vector's 24.
    assert_eq!(
        core::mem::size_of::<bijoubuf::UnknownFields>(),
        core::mem::size_of::<usize>()
    );
    // A set emptied by `clear` is the empty set: equal, same hash, same Debug text.
    let bytes = wider().encode_to_vec().unwrap();
    let mut k = Known::decode_with(&bytes, &preserve())
        .unwrap()
        .into_message();
    let state = std::collections::hash_map::RandomState::new();
    let hash = |u: &bijoubuf::UnknownFields| core::hash::BuildHasher::hash_one(&state, u);
    let kept = k.unknown_fields.clone();
    assert_ne!(kept, bijoubuf::UnknownFields::new());
    k.unknown_fields.clear();
    assert_eq!(k.unknown_fields, bijoubuf::UnknownFields::new());
    assert_eq!(
        hash(&k.unknown_fields),
        hash(&bijoubuf::UnknownFields::new())
    );
    assert_eq!(
        format!("{:?}", k.unknown_fields),
        "UnknownFields { records: [] }"
    );
    let numbers: Vec<u32> = Vec::from(kept).iter().map(|u| u.number).collect();
    assert_eq!(numbers, [1, 3, 5, 7, 8]);
    assert_eq!(Vec::from(k.unknown_fields.clone()), []);
}

#[test]
fn an_unknown_key_with_nothing_after_it() {
    // Known (2, 4, 6): a = 1 (key 04, value 02), then the key of field 7 (delta 4,
    // VARINT: 10) as the message's last byte; and that key alone (delta 6: 18). The
    // record is still read after the last known field: strict refuses it at its key,
    // preserving finds its value missing where it would start (SPEC 8.1, 8.2, 10.2).
    for (bytes, key_at) in [(&[0x04, 0x02, 0x10][..], 2), (&[0x18][..], 0)] {
        let e = assert_rejects::<Known>(bytes, "unknown-field", key_at);
        assert_eq!(e.path_string(), "Known.7");
        let e = Known::decode_with(bytes, &preserve()).unwrap_err();
        assert_eq!((e.code(), e.offset()), ("truncated", key_at + 1));
        assert_eq!(e.path_string(), "Known.7");
    }
}

trait Values {
    fn iter_values(&self) -> Vec<&UnknownValue>;
}

impl Values for bijoubuf::UnknownFields {
    fn iter_values(&self) -> Vec<&UnknownValue> {
        self.as_slice().iter().map(|u| &u.value).collect()
    }
}
