//! The single-value decoders against their previous implementation (`common/before.rs`):
//! the same value, length or error on random inputs and on every tier edge, truncated at
//! every length, and on every window whose payload bytes are all one byte value.

mod common;

use bijou64::{
    MAX_LEN, OFFSETS, decode, decode_branchless, decode_window, decode_window_branchless,
};
use common::before;
use common::ref_encode;
use proptest::prelude::*;

/// Every decoder of the crate and of the reference on `bytes`: all must agree.
fn agree(bytes: &[u8]) {
    let want = before::decode(bytes);
    assert_eq!(decode(bytes), want, "decode {bytes:02x?}");
    assert_eq!(
        decode_branchless(bytes),
        want,
        "decode_branchless {bytes:02x?}"
    );
    assert_eq!(
        before::decode_branchless(bytes),
        want,
        "the reference's two paths {bytes:02x?}"
    );
    if let Some(w) = bytes.first_chunk::<MAX_LEN>() {
        assert_eq!(decode_window(w), want, "decode_window {bytes:02x?}");
        assert_eq!(
            decode_window_branchless(w),
            want,
            "decode_window_branchless {bytes:02x?}"
        );
        assert_eq!(
            before::decode_window(w),
            want,
            "reference window {bytes:02x?}"
        );
    }
}

/// `bytes` and every prefix of it.
fn agree_at_every_length(bytes: &[u8]) {
    for len in 0..=bytes.len() {
        agree(&bytes[..len]);
    }
}

#[test]
fn every_tier_edge_truncated_at_every_length() {
    let mut values = vec![0, 1, 247, u64::MAX, u64::MAX - 1];
    for &o in &OFFSETS[1..] {
        values.extend([o - 2, o - 1, o, o + 1]);
    }
    for v in values {
        for fill in [0x00, 0x7F, 0xF8, 0xFF] {
            let mut bytes = ref_encode(v);
            bytes.extend([fill; 16]);
            agree_at_every_length(&bytes);
        }
    }
}

#[test]
fn every_tag_with_uniform_payload_bytes() {
    // Every tag, followed by sixteen copies of one byte, for every byte: covers each
    // tier's smallest and largest payload, and every tier-8 payload from FE FE … upwards
    // that the overflow rule (SPEC §2.4) refuses.
    for tag in 0..=0xFFu8 {
        for fill in 0..=0xFFu8 {
            let mut bytes = [fill; 17];
            bytes[0] = tag;
            agree_at_every_length(&bytes);
        }
    }
}

#[test]
fn the_tier_8_overflow_boundary() {
    // u64::MAX is `FF FE FE FE FE FE FE FE 07`; one more in the payload overflows.
    let max = [0xFF, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0x07];
    assert_eq!(decode(&max), Ok((u64::MAX, 9)));
    let mut over = max;
    over[8] = 0x08;
    assert_eq!(decode(&over), Err(bijou64::Error::Overflow));
    for last in 0..=0xFFu8 {
        for pos in 1..MAX_LEN {
            let mut bytes = [max, [0xAA; 9]].concat();
            bytes[pos] = last;
            agree_at_every_length(&bytes);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn random_bytes_at_every_length(bytes in any::<[u8; 20]>()) {
        agree_at_every_length(&bytes);
    }

    #[test]
    fn random_tags_at_every_length(tag in 0xF8u8..=0xFF, rest in any::<[u8; 12]>()) {
        let mut bytes = vec![tag];
        bytes.extend(rest);
        agree_at_every_length(&bytes);
    }

    #[test]
    fn random_values_at_every_length(v in any::<u64>(), shift in 0u32..64, tail in any::<[u8; 10]>()) {
        let mut bytes = ref_encode(v >> shift);
        bytes.extend(tail);
        agree_at_every_length(&bytes);
    }
}
