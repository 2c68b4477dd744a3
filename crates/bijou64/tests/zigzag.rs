//! Zigzag and checked narrowing (SPEC §3.1, §3.2) against their definitions in `i128`.

use bijou64::{OutOfRange, to_u32, zigzag};
use proptest::prelude::*;

/// SPEC §3.2 as written: non-negative `n` maps to `2n`, negative `n` to `-2n - 1`.
fn ref_zigzag(n: i128) -> u128 {
    if n >= 0 {
        (2 * n) as u128
    } else {
        (-2 * n - 1) as u128
    }
}

proptest! {
    #[test]
    fn i64_matches_definition_and_round_trips(n in any::<i64>()) {
        let z = zigzag::encode_i64(n);
        prop_assert_eq!(z as u128, ref_zigzag(n as i128));
        prop_assert_eq!(zigzag::decode_i64(z), n);
    }

    #[test]
    fn i32_matches_definition_and_round_trips(n in any::<i32>()) {
        let z = zigzag::encode_i32(n);
        prop_assert_eq!(z as u128, ref_zigzag(n as i128));
        prop_assert!(z <= u32::MAX as u64);
        prop_assert_eq!(zigzag::decode_i32(z), Ok(n));
    }

    #[test]
    fn every_u64_decodes_as_i64_and_back(z in any::<u64>()) {
        prop_assert_eq!(zigzag::encode_i64(zigzag::decode_i64(z)), z);
    }

    #[test]
    fn wide_values_are_out_of_range_never_truncated(z in (u32::MAX as u64 + 1)..=u64::MAX) {
        prop_assert_eq!(zigzag::decode_i32(z), Err(OutOfRange));
        prop_assert_eq!(to_u32(z), Err(OutOfRange));
    }

    #[test]
    fn narrow_values_pass_through(z in 0..=u32::MAX as u64) {
        prop_assert_eq!(to_u32(z), Ok(z as u32));
        prop_assert_eq!(zigzag::decode_i32(z).map(zigzag::encode_i32), Ok(z));
    }
}

#[test]
fn edges_of_the_narrowing() {
    assert_eq!(to_u32(u32::MAX as u64), Ok(u32::MAX));
    assert_eq!(to_u32(u32::MAX as u64 + 1), Err(OutOfRange));
    assert_eq!(zigzag::decode_i32(u32::MAX as u64 - 1), Ok(i32::MAX));
    assert_eq!(zigzag::decode_i32(u32::MAX as u64), Ok(i32::MIN));
    assert_eq!(zigzag::decode_i32(u32::MAX as u64 + 1), Err(OutOfRange));
    assert_eq!(
        OutOfRange.to_string(),
        "integer-out-of-range: the value does not fit the declared width"
    );
}
