//! `bytes` fields generated as `bytes::Bytes` (the runtime's `bytes` feature): the same
//! bytes on the wire and the same refusals as the `Vec<u8>` twin of the schema.

use std::collections::BTreeMap;

use bijoubuf::Message;
use bijoubuf_codegen_tests::shared_bytes::{Owned, Shared};
use bijoubuf_testkit::{assert_canonical_roundtrip, assert_rejects, assert_value_roundtrip};
use bytes::Bytes;

fn shared() -> Shared {
    Shared {
        data: Bytes::from_static(b"hi"),
        maybe: Some(Bytes::new()),
        parts: vec![Bytes::new(), Bytes::from_static(&[0xFF, 0x00])],
        named: BTreeMap::from([("k".to_string(), Bytes::from_static(b"v"))]),
        child: Some(Box::new(Shared {
            data: Bytes::from_static(&[7; 300]),
            ..Shared::default()
        })),
    }
}

fn owned() -> Owned {
    Owned {
        data: b"hi".to_vec(),
        maybe: Some(Vec::new()),
        parts: vec![Vec::new(), vec![0xFF, 0x00]],
        named: BTreeMap::from([("k".to_string(), b"v".to_vec())]),
        child: Some(Box::new(Owned {
            data: vec![7; 300],
            ..Owned::default()
        })),
    }
}

#[test]
fn round_trip_gives_the_bytes_of_the_vec_twin() {
    let bytes = assert_value_roundtrip(&shared());
    assert_eq!(bytes, owned().encode_to_vec().unwrap());
    assert_eq!(Shared::decode(&bytes).unwrap(), shared());
    assert_eq!(shared().encoded_len(), bytes.len());
    // data = "hi": key 02 (field 1, LEN), length 2.
    let one = Shared {
        data: Bytes::from_static(b"hi"),
        ..Shared::default()
    };
    assert_eq!(one.encode_to_vec().unwrap(), [0x02, 0x02, b'h', b'i']);
}

#[test]
fn defaults_are_omitted_and_refused_on_the_wire() {
    assert!(Shared::default().encode_to_vec().unwrap().is_empty());
    // Explicit presence writes the empty value: maybe (2) first, key 06, length 0.
    let some_empty = Shared {
        maybe: Some(Bytes::new()),
        ..Shared::default()
    };
    assert_eq!(some_empty.encode_to_vec().unwrap(), [0x06, 0x00]);
    assert_canonical_roundtrip::<Shared>(&[0x06, 0x00]);
    // An implicit-presence record holding the empty default.
    assert_rejects::<Shared>(&[0x02, 0x00], "default-value-present", 0);
}

#[test]
fn empty_repeated_and_map_records_are_refused() {
    assert_rejects::<Shared>(&[0x0A, 0x00], "empty-repeated", 0);
    assert_rejects::<Shared>(&[0x0E, 0x00], "empty-repeated", 0);
    // One empty element is a value.
    let s = assert_canonical_roundtrip::<Shared>(&[0x0A, 0x01, 0x00]);
    assert_eq!(s.parts, [Bytes::new()]);
}

#[test]
fn truncated_lengths_are_refused_at_their_prefix() {
    assert_rejects::<Shared>(&[0x02, 0x03, 1, 2], "truncated", 1);
    // A tier-8 length with two bytes of input: refused before anything is copied.
    assert_rejects::<Shared>(&[0x02, 0xFE, 0, 0, 0, 0, 0, 0, 0, 1, 2], "truncated", 1);
    // An element of the parts run longer than the run.
    assert_rejects::<Shared>(&[0x0A, 0x03, 0x05, 1, 2], "truncated", 2);
    // Every cut of a full encoding fails (or not) exactly as the Vec<u8> twin does.
    // (Paths differ only in the type name at their start.)
    fn outcome<M: Message>(bytes: &[u8]) -> Option<(&'static str, usize, String)> {
        let e = M::decode(bytes).err()?;
        let path = e.path_string();
        let field = path.split_once('.').map_or("", |(_, f)| f).to_string();
        Some((e.code(), e.offset(), field))
    }
    let bytes = shared().encode_to_vec().unwrap();
    let mut refused = 0;
    for cut in 0..bytes.len() {
        let a = outcome::<Shared>(&bytes[..cut]);
        refused += usize::from(a.is_some());
        assert_eq!(a, outcome::<Owned>(&bytes[..cut]), "cut at {cut}");
    }
    assert!(refused > bytes.len() / 2, "only {refused} cuts refused");
}
