//! The single-value decoders as they were before the tier-8 fast path: `decode`,
//! `decode_branchless` and their window forms, kept as a reference.
//!
//! The crate's decoders are tested against these (`tests/before_after.rs`: the same result
//! on every input), and the varint shootout times them in the same process as the current
//! ones (`benches/src/peers.rs` includes this file), so "before" and "after" are measured
//! side by side. Only public items of the crate are used.
#![allow(dead_code)] // each includer uses part of it

use bijou64::{Error, FIRST_TIER_TAG, MAX_LEN, OFFSETS, payload_len};

/// `decode` before: the window path with nine bytes, else the byte-wise short path.
#[inline]
pub(crate) fn decode(input: &[u8]) -> Result<(u64, usize), Error> {
    match input.first_chunk::<MAX_LEN>() {
        Some(window) => decode_window(window),
        None => decode_short(input),
    }
}

/// `decode_branchless` before.
#[inline]
pub(crate) fn decode_branchless(input: &[u8]) -> Result<(u64, usize), Error> {
    match input.first_chunk::<MAX_LEN>() {
        Some(window) => decode_window_branchless(window),
        None => decode_short(input),
    }
}

/// `decode_window` before: one branch (one byte or more), then the length from the tag by
/// arithmetic, one big-endian load, a shift and a checked add for every tier.
#[inline(always)]
pub(crate) fn decode_window(window: &[u8; MAX_LEN]) -> Result<(u64, usize), Error> {
    let tag = window[0];
    if tag < FIRST_TIER_TAG {
        return Ok((tag as u64, 1));
    }
    let len = tag as usize - (FIRST_TIER_TAG as usize - 2);
    let [_, word @ ..] = *window;
    let payload = u64::from_be_bytes(word) >> (8 * (MAX_LEN - len));
    match OFFSET_BY_LEN[len].checked_add(payload) {
        Some(v) => Ok((v, len)),
        None => Err(Error::Overflow),
    }
}

const OFFSET_BY_LEN: [u64; MAX_LEN + 1] = {
    let mut o = [0u64; MAX_LEN + 1];
    let mut n = 1;
    while n <= MAX_LEN {
        o[n] = OFFSETS[n - 1];
        n += 1;
    }
    o
};

/// `decode_window_branchless` before: conditional moves instead of the tag branch.
#[inline(always)]
pub(crate) fn decode_window_branchless(window: &[u8; MAX_LEN]) -> Result<(u64, usize), Error> {
    use core::hint::select_unpredictable;
    let tag = window[0];
    let multi = tag >= FIRST_TIER_TAG;
    let len = select_unpredictable(multi, (tag as usize).wrapping_sub(246), 1);
    let [_, word @ ..] = *window;
    let word = u64::from_be_bytes(word);
    let payload = select_unpredictable(multi, word >> ((8 * (MAX_LEN - len)) & 63), 0);
    let base = select_unpredictable(multi, OFFSET_BY_LEN[len], tag as u64);
    match base.checked_add(payload) {
        Some(v) => Ok((v, len)),
        None => Err(Error::Overflow),
    }
}

#[cold]
#[inline(never)]
fn decode_short(input: &[u8]) -> Result<(u64, usize), Error> {
    let (&tag, rest) = input.split_first().ok_or(Error::Truncated)?;
    if tag < FIRST_TIER_TAG {
        return Ok((tag as u64, 1));
    }
    let tier = payload_len(tag);
    let payload = rest.get(..tier).ok_or(Error::Truncated)?;
    let word = payload.iter().fold(0u64, |acc, &b| (acc << 8) | b as u64);
    match OFFSETS[tier].checked_add(word) {
        Some(v) => Ok((v, tier + 1)),
        None => Err(Error::Overflow),
    }
}
