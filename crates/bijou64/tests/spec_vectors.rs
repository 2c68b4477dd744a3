//! The specification's value and error tables (SPEC §2.1, §2.3, §2.4), written out by hand
//! from the offsets, checked in both directions against the crate and the reference.

mod common;

use bijou64::{Error, OFFSETS, decode, encode, encoded_len};
use common::{hex, ref_decode, ref_encode};

/// Values and their one byte string. Derived by hand, e.g. 1 000 = 504 + 0x01F0 and
/// u64::MAX − 0x01010101010101F8 = 0xFEFEFEFEFEFEFE07.
const VALUES: &[(u64, &str)] = &[
    (0, "00"),
    (1, "01"),
    (42, "2A"),
    (247, "F7"),
    (248, "F8 00"),
    (300, "F8 34"),
    (503, "F8 FF"),
    (504, "F9 00 00"),
    (1_000, "F9 01 F0"),
    (65_535, "F9 FE 07"),
    (66_039, "F9 FF FF"),
    (66_040, "FA 00 00 00"),
    (67_000, "FA 00 03 C0"),
    (16_843_255, "FA FF FF FF"),
    (16_843_256, "FB 00 00 00 00"),
    (4_311_810_551, "FB FF FF FF FF"),
    (72_340_172_838_076_920, "FF 00 00 00 00 00 00 00 00"),
    (18_446_744_073_709_551_615, "FF FE FE FE FE FE FE FE 07"),
];

/// Inputs that are not a bijou64, and why.
const ERRORS: &[(&str, Error)] = &[
    ("", Error::Truncated),
    ("F9 00", Error::Truncated),
    ("FF FF FF FF FF FF FF FF FF", Error::Overflow),
    // One past the largest tier-8 payload (…07 is u64::MAX).
    ("FF FE FE FE FE FE FE FE 08", Error::Overflow),
    ("F8", Error::Truncated),
    ("FF 00 00 00 00 00 00 00", Error::Truncated),
];

/// The specification's offset table, in hex as printed there.
const SPEC_OFFSETS: [u64; 9] = [
    0x0,
    0xF8,
    0x1F8,
    0x101F8,
    0x10101F8,
    0x1010101F8,
    0x101010101F8,
    0x10101010101F8,
    0x1010101010101F8,
];

/// Each tier's last value, in hex as printed in the specification's tier table.
const SPEC_TIER_ENDS: [u64; 9] = [
    0xF7,
    0x1F7,
    0x101F7,
    0x10101F7,
    0x1010101F7,
    0x101010101F7,
    0x10101010101F7,
    0x1010101010101F7,
    0xFFFFFFFFFFFFFFFF,
];

#[test]
fn offsets_match_the_spec_table() {
    assert_eq!(OFFSETS, SPEC_OFFSETS);
    for t in 0..8 {
        assert_eq!(
            SPEC_TIER_ENDS[t] + 1,
            SPEC_OFFSETS[t + 1],
            "tier {t} ends where {} starts",
            t + 1
        );
    }
}

#[test]
fn value_table_encodes() {
    for &(v, bytes) in VALUES {
        let want = hex(bytes);
        assert_eq!(encode(v).as_slice(), &want[..], "encode({v})");
        assert_eq!(encoded_len(v), want.len(), "encoded_len({v})");
        assert_eq!(ref_encode(v), want, "reference encode({v})");
    }
}

#[test]
fn value_table_decodes_with_and_without_trailing_bytes() {
    for &(v, bytes) in VALUES {
        let exact = hex(bytes);
        assert_eq!(decode(&exact), Ok((v, exact.len())), "decode({bytes})");
        assert_eq!(
            ref_decode(&exact),
            Ok((v, exact.len())),
            "reference decode({bytes})"
        );
        // Followed by more bytes (the fast path with nine or more readable).
        for pad in [1, 8, 9, 16] {
            let mut padded = exact.clone();
            padded.extend(std::iter::repeat_n(0xFF, pad));
            assert_eq!(
                decode(&padded),
                Ok((v, exact.len())),
                "decode({bytes} + {pad})"
            );
        }
    }
}

#[test]
fn error_table() {
    for &(bytes, want) in ERRORS {
        let input = hex(bytes);
        assert_eq!(decode(&input), Err(want), "decode({bytes:?})");
        assert_eq!(ref_decode(&input), Err(want), "reference decode({bytes:?})");
        // Trailing bytes turn a truncation into a value but never hide an overflow.
        if want == Error::Overflow {
            let mut padded = input.clone();
            padded.extend([0u8; 9]);
            assert_eq!(
                decode(&padded),
                Err(Error::Overflow),
                "decode({bytes:?} + 9)"
            );
        }
    }
}

#[test]
fn tier_starts_and_ends_have_the_spec_bytes() {
    // Tier t >= 1 starts at tag 247+t followed by t zero bytes, and ends at t bytes of FF
    // (tier 8 ends early, at u64::MAX, as in the table above).
    for t in 1..=8usize {
        let mut start = vec![0xF7 + t as u8];
        start.extend(std::iter::repeat_n(0x00, t));
        assert_eq!(
            encode(SPEC_OFFSETS[t]).as_slice(),
            &start[..],
            "start of tier {t}"
        );
        if t < 8 {
            let mut end = vec![0xF7 + t as u8];
            end.extend(std::iter::repeat_n(0xFF, t));
            assert_eq!(
                encode(SPEC_TIER_ENDS[t]).as_slice(),
                &end[..],
                "end of tier {t}"
            );
        }
    }
}

#[test]
fn codes_are_the_spec_codes() {
    assert_eq!(Error::Truncated.code(), "truncated");
    assert_eq!(Error::Overflow.code(), "varint-overflow");
}

#[test]
fn every_error_type_names_its_spec_code() {
    assert_eq!(bijou64::OutOfRange.code(), "integer-out-of-range");
    assert_eq!(
        bijou64::to_u32(1 << 32).unwrap_err().code(),
        "integer-out-of-range"
    );
    // A packed run's error carries the code of its kind, whatever the offset.
    let big = encode(u64::MAX);
    let cut = &big[..big.len() - 1];
    let mut out = Vec::new();
    let e = bijou64::decode_packed_into(cut, &mut out).unwrap_err();
    assert_eq!(e.code(), "truncated");
    let e = bijou64::decode_packed_into(&[0xFF; 9], &mut out).unwrap_err();
    assert_eq!(e.code(), "varint-overflow");
    let mut narrow: Vec<u32> = Vec::new();
    let e = bijou64::decode_packed_u32_into(&encode(1 << 32), &mut narrow).unwrap_err();
    assert_eq!(e.code(), "integer-out-of-range");
}
