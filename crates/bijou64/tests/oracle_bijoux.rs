//! Differential tests against the published reference implementation, `bijoux::u64`,
//! in both directions: our bytes decode there, theirs decode here.

use bijou64::{Error, OFFSETS, decode, encode, encoded_len};
use bijoux::u64 as reference;
use proptest::prelude::*;

fn theirs(v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    reference::encode(v, &mut out);
    out
}

fn their_decode(input: &[u8]) -> Result<(u64, usize), Error> {
    reference::decode(input).map_err(|e| match e {
        reference::DecodeError::BufferTooShort => Error::Truncated,
        reference::DecodeError::Overflow => Error::Overflow,
    })
}

fn check_value(v: u64) {
    let ours = encode(v);
    let theirs = theirs(v);
    assert_eq!(ours.as_slice(), &theirs[..], "encode({v})");
    assert_eq!(
        encoded_len(v),
        reference::encoded_len(v),
        "encoded_len({v})"
    );
    assert_eq!(
        decode(&theirs),
        Ok((v, theirs.len())),
        "ours decodes theirs: {v}"
    );
    assert_eq!(
        their_decode(&ours),
        Ok((v, ours.len())),
        "theirs decodes ours: {v}"
    );
    let mut padded = theirs.clone();
    padded.extend_from_slice(&[0xAB; 9]);
    assert_eq!(decode(&padded), Ok((v, theirs.len())), "padded {v}");
}

#[test]
fn tier_edges_match_reference() {
    for &o in &OFFSETS[1..] {
        for v in [o - 2, o - 1, o, o + 1, o + 2] {
            check_value(v);
        }
    }
    for v in [0, 1, 247, u64::MAX - 1, u64::MAX] {
        check_value(v);
    }
}

#[test]
fn errors_match_reference() {
    for input in [
        &[][..],
        &[0xF9, 0x00],
        &[0xFF; 9],
        &[0xFF; 12],
        &[0xFB, 1, 2, 3],
    ] {
        assert_eq!(decode(input), their_decode(input), "{input:02x?}");
        assert!(decode(input).is_err());
    }
}

proptest! {
    #[test]
    fn random_values_match_reference(v in any::<u64>(), shift in 0u32..64) {
        check_value(v);
        check_value(v >> shift);
    }

    #[test]
    fn random_bytes_decode_alike(bytes in prop::collection::vec(any::<u8>(), 0..12), tag in 0xF8u8..=0xFF) {
        prop_assert_eq!(decode(&bytes), their_decode(&bytes));
        let mut tagged = bytes.clone();
        tagged.insert(0, tag);
        prop_assert_eq!(decode(&tagged), their_decode(&tagged));
    }
}
