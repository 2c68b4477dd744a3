//! The `Packed` iterator's size hint, and the error messages' leading codes.
//!
//! Every value takes one to nine bytes (SPEC §2.1), so a run of `n` bytes holds between
//! `ceil(n / 9)` and `n` values. The hint is checked against runs that reach each bound:
//! one-byte values (the upper bound is the count) and nine-byte values (the lower bound
//! is the count), at the start and after every step.

use bijou64::{Error, decode_packed};

/// A run of `count` copies of `value`.
fn run_of(value: u64, count: usize) -> Vec<u8> {
    let mut run = Vec::new();
    for _ in 0..count {
        // `encode`, not `append`: this file also runs without the `alloc` feature.
        run.extend_from_slice(bijou64::encode(value).as_slice());
    }
    run
}

#[test]
fn upper_bound_is_exact_for_one_byte_values() {
    for count in 0..20 {
        let run = run_of(7, count);
        assert_eq!(run.len(), count);
        let mut it = decode_packed(&run);
        for left in (0..=count).rev() {
            let (low, high) = it.size_hint();
            assert_eq!(high, Some(left), "{count} values, {left} left");
            assert_eq!(low, left.div_ceil(9), "{count} values, {left} left");
            if left > 0 {
                assert_eq!(it.next(), Some(Ok(7)));
            }
        }
        assert_eq!(it.next(), None);
    }
}

#[test]
fn lower_bound_is_exact_for_nine_byte_values() {
    // 72340172838076920 is the smallest tier-8 value (`FF 00 … 00`).
    let big = 72_340_172_838_076_920u64;
    for count in 0..6 {
        let run = run_of(big, count);
        assert_eq!(run.len(), 9 * count);
        let mut it = decode_packed(&run);
        for left in (0..=count).rev() {
            let (low, high) = it.size_hint();
            assert_eq!(low, left, "{count} values, {left} left");
            assert_eq!(high, Some(9 * left), "{count} values, {left} left");
            if left > 0 {
                assert_eq!(it.next(), Some(Ok(big)));
            }
        }
        assert_eq!(it.next(), None);
    }
}

#[test]
fn hint_bounds_a_mixed_run_and_its_truncation() {
    // 1, 300, 1000, then a tag F9 with one of its two payload bytes.
    let run = [0x01, 0xF8, 0x34, 0xF9, 0x01, 0xF0, 0xF9, 0x00];
    let mut it = decode_packed(&run);
    assert_eq!(it.size_hint(), (1, Some(8)));
    assert_eq!(it.next(), Some(Ok(1)));
    assert_eq!(it.size_hint(), (1, Some(7)));
    assert_eq!(it.next(), Some(Ok(300)));
    assert_eq!(it.next(), Some(Ok(1000)));
    assert_eq!(it.size_hint(), (1, Some(2)));
    assert_eq!(it.next(), Some(Err(Error::Truncated)));
    assert_eq!(it.offset(), 6);
    // Fused after the error: nothing left, and the hint says so.
    assert_eq!(it.size_hint(), (0, Some(0)));
    assert_eq!(it.next(), None);
}

#[test]
fn messages_start_with_the_code() {
    for e in [Error::Truncated, Error::Overflow] {
        let text = e.to_string();
        assert!(text.starts_with(&format!("{}: ", e.code())), "{text}");
        assert!(text.len() > e.code().len() + 2, "{text}");
    }
    assert_ne!(Error::Truncated.to_string(), Error::Overflow.to_string());
}
