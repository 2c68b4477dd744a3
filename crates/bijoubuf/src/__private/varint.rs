//! bijou64 lengths and stores tuned for the encoder's hot loops.
//!
//! [`bijou64::encoded_len`] finds the tier with seven comparisons; summing lengths in the
//! size pass is dominated by that. Here the byte count of the value comes from its
//! leading zeros, and one comparison against the tier's offset corrects it: a value that
//! needs `b` bytes as a plain integer is in tier `b` or `b − 1`, because
//! `256^(b−1) ≤ v < 256^b` and `OFFSETS[b−1] < 256^(b−1)`, `OFFSETS[b] < 2·256^(b−1)`,
//! `OFFSETS[b+1] > 256^b` (SPEC §2.2). Tests compare both with `bijou64`.

use core::mem::MaybeUninit;

use bijou64::{FIRST_TIER_TAG, MAX_LEN, OFFSETS};

/// `OFFSETS[b]` for `b` in 1..=8 (the other entries are unused).
const OFFSET_AT: [u64; 16] = {
    let mut o = [u64::MAX; 16];
    let mut b = 1;
    while b <= 8 {
        o[b] = OFFSETS[b];
        b += 1;
    }
    o
};

/// `OFFSET_OF_LEN[len]` for `len` in 1..=9 is `OFFSETS[len − 1]`, the offset of the tier
/// whose encodings are `len` bytes long; padded to 16 like [`OFFSET_AT`].
const OFFSET_OF_LEN: [u64; 16] = {
    let mut o = [0u64; 16];
    let mut len = 1;
    while len <= MAX_LEN {
        o[len] = OFFSETS[len - 1];
        len += 1;
    }
    o
};

/// Indexed by `(v | 1).ilog2()` (0..=63): the plain byte count `b` of such a value.
const BYTES_AT_LOG: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut log = 0;
    while log < 64 {
        t[log] = (log / 8 + 1) as u8;
        log += 1;
    }
    t
};

/// Indexed by `(v | 1).ilog2()`: `OFFSETS[b]` for that value's byte count `b`.
const OFFSET_AT_LOG: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut log = 0;
    while log < 64 {
        t[log] = OFFSET_AT[log / 8 + 1];
        log += 1;
    }
    t
};

/// The number of bytes `v` encodes to (1..=9), as [`bijou64::encoded_len`].
#[inline(always)]
pub fn varint_len(v: u64) -> usize {
    // Most values in messages (lengths, enums, small integers) are one byte: a test
    // costs two instructions where the lookup below costs eight. It took
    // GoogleMessage1's `encoded_len` from 693 to 600 instructions and telemetry's from
    // 58,198 to 53,188 (callgrind, `messages-profile`); on values of mixed widths it is
    // a branch the lookup did not have, so packed runs size their elements with
    // [`varint_len_lookup`].
    if v < FIRST_TIER_TAG as u64 {
        return 1;
    }
    varint_len_lookup(v)
}

/// [`varint_len`] without its one-byte test: the same instructions whatever `v` is, for
/// the elements of a packed run, whose widths vary from one to the next.
#[inline(always)]
pub(crate) fn varint_len_lookup(v: u64) -> usize {
    // Plain byte count 1..=8 (`| 1` keeps zero at one byte), looked up by the highest
    // set bit (one `bsr`, where leading zeros would cost a subtraction more).
    let log = (v | 1).ilog2() as usize & 63;
    // Tier is b when v reaches OFFSETS[b], else b − 1; the length is tier + 1.
    BYTES_AT_LOG[log] as usize + (v >= OFFSET_AT_LOG[log]) as usize
}

/// Encode `v` at the start of `buf`; returns its length. Bytes past it are unspecified.
#[inline(always)]
pub fn write_varint(v: u64, buf: &mut [u8; MAX_LEN]) -> usize {
    if v < FIRST_TIER_TAG as u64 {
        buf[0] = v as u8;
        return 1;
    }
    let (len, tag, rest) = multi_byte(v);
    buf[0] = tag;
    let [_, tail @ ..] = buf;
    *tail = rest;
    len
}

/// [`write_varint`] into bytes that may be uninitialized (the encoder's buffer): the
/// first `len` are written, the rest of `buf` is left as it was or written with
/// unspecified values.
#[inline(always)]
pub(crate) fn write_varint_uninit(v: u64, buf: &mut [MaybeUninit<u8>; MAX_LEN]) -> usize {
    if v < FIRST_TIER_TAG as u64 {
        buf[0] = MaybeUninit::new(v as u8);
        return 1;
    }
    let (len, tag, rest) = multi_byte(v);
    buf[0] = MaybeUninit::new(tag);
    let [_, tail @ ..] = buf;
    *tail = rest.map(MaybeUninit::new);
    len
}

/// A value of two bytes or more (`v >= 0xF8`): its length, tag byte, and the payload
/// left-aligned in eight bytes (those past the length are unspecified).
#[inline(always)]
fn multi_byte(v: u64) -> (usize, u8, [u8; 8]) {
    let len = varint_len_lookup(v);
    let tier = len - 1;
    // SPEC §2.1: tag F8 + tier − 1, then `v − OFFSETS[tier]` in `tier` big-endian bytes,
    // left-aligned so one 8-byte store writes them. (`len & 15` indexes a padded table,
    // so no bounds check.)
    let payload = v - OFFSET_OF_LEN[len & 15];
    let aligned = payload << (8 * (8 - tier));
    (
        len,
        FIRST_TIER_TAG + (tier as u8 - 1),
        aligned.to_be_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(v: u64) {
        assert_eq!(varint_len(v), bijou64::encoded_len(v), "len of {v}");
        assert_eq!(varint_len_lookup(v), bijou64::encoded_len(v), "len of {v}");
        let mut buf = [0u8; MAX_LEN];
        let n = write_varint(v, &mut buf);
        assert_eq!(&buf[..n], bijou64::encode(v).as_slice(), "bytes of {v}");
    }

    #[test]
    fn agrees_with_bijou64_at_every_tier_edge_and_power_of_two() {
        for &o in &OFFSETS[1..] {
            for v in [o - 2, o - 1, o, o + 1] {
                check(v);
            }
        }
        for s in 0..64 {
            let p = 1u64 << s;
            for v in [p - 1, p, p + 1] {
                check(v);
            }
        }
        for v in 0..70_000 {
            check(v);
        }
        check(u64::MAX);
        check(u64::MAX - 1);
    }

    #[test]
    fn agrees_with_bijou64_on_a_spread_of_values() {
        // A fixed multiplicative sequence covers every tier many times.
        let mut v: u64 = 1;
        for _ in 0..100_000 {
            v = v
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            check(v >> (v % 64));
        }
    }
}
