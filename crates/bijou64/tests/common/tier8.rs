//! The single-value window decoder with the tier-8 branch (tiers 0–7 by conditional
//! moves), as the crate had it between the one-byte branch of `before.rs` and the current
//! one, kept as a second reference: `tests/before_after.rs` checks that the crate's
//! decoders give its results on every input, at every truncation length.
//! Only public items of the crate are used.
#![allow(dead_code)] // each includer uses part of it

use bijou64::{Error, FIRST_TIER_TAG, MAX_LEN, OFFSETS};

/// `decode` with the tier-8 window: the window path with nine bytes, else the byte-wise
/// short path, which this version shared with `before.rs`.
#[inline]
pub(crate) fn decode(input: &[u8]) -> Result<(u64, usize), Error> {
    match input.first_chunk::<MAX_LEN>() {
        Some(window) => decode_window(window),
        None => super::before::decode(input),
    }
}

/// `decode_window` with the tier-8 branch: tag `FF` by a branch with the overflow check,
/// every other tag by conditional moves.
#[inline(always)]
pub(crate) fn decode_window(window: &[u8; MAX_LEN]) -> Result<(u64, usize), Error> {
    let [tag, payload @ ..] = *window;
    let word = u64::from_be_bytes(payload);
    if tag == 0xFF {
        return match OFFSETS[8].checked_add(word) {
            Some(v) => Ok((v, MAX_LEN)),
            None => Err(Error::Overflow),
        };
    }
    Ok(below_tier_8(tag, word))
}

#[inline(always)]
fn below_tier_8(tag: u8, word: u64) -> (u64, usize) {
    use core::hint::select_unpredictable;
    let multi = tag >= FIRST_TIER_TAG;
    let len = select_unpredictable(multi, (tag as usize).wrapping_sub(246), 1);
    let payload = select_unpredictable(multi, word >> ((8 * (MAX_LEN - len)) & 63), 0);
    let base = select_unpredictable(multi, OFFSET_BY_LEN[len & 15], tag as u64);
    (base + payload, len)
}

const OFFSET_BY_LEN: [u64; 16] = {
    let mut o = [0u64; 16];
    let mut n = 1;
    while n <= MAX_LEN {
        o[n] = OFFSETS[n - 1];
        n += 1;
    }
    o
};
