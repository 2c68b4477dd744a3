//! Zigzag: how signed integers become the unsigned values bijou64 writes.
//!
//! `0 → 0, −1 → 1, 1 → 2, −2 → 3, …`: small magnitudes of either sign stay small.
//! bijoubuf writes every signed type (`int32`, `int64`, `sint32`, `sint64`, enum numbers)
//! this way, so a 32-bit signed value always fits in 32 unsigned bits.

use crate::OutOfRange;

/// Zigzag-encode an `i64`.
#[inline]
pub const fn encode_i64(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Zigzag-decode to an `i64` (every `u64` is a valid input).
#[inline]
pub const fn decode_i64(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Zigzag-encode an `i32` (the result is at most `u32::MAX`).
#[inline]
pub const fn encode_i32(v: i32) -> u64 {
    (((v << 1) ^ (v >> 31)) as u32) as u64
}

/// Zigzag-decode to an `i32`; values above `u32::MAX` are [`OutOfRange`], never truncated.
#[inline]
pub const fn decode_i32(v: u64) -> Result<i32, OutOfRange> {
    if v > u32::MAX as u64 {
        return Err(OutOfRange);
    }
    let v = v as u32;
    Ok(((v >> 1) as i32) ^ -((v & 1) as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_small_values() {
        let pairs = [(0i64, 0u64), (-1, 1), (1, 2), (-2, 3), (2, 4)];
        for (s, u) in pairs {
            assert_eq!(encode_i64(s), u);
            assert_eq!(decode_i64(u), s);
            assert_eq!(encode_i32(s as i32), u);
            assert_eq!(decode_i32(u), Ok(s as i32));
        }
    }

    #[test]
    fn zigzag_extremes() {
        assert_eq!(encode_i64(i64::MAX), u64::MAX - 1);
        assert_eq!(encode_i64(i64::MIN), u64::MAX);
        assert_eq!(encode_i32(i32::MAX), u32::MAX as u64 - 1);
        assert_eq!(encode_i32(i32::MIN), u32::MAX as u64);
        assert_eq!(decode_i32(u32::MAX as u64), Ok(i32::MIN));
        assert_eq!(decode_i32(u32::MAX as u64 + 1), Err(OutOfRange));
    }
}
