//! Decoding one value: one tag read, then at most one big-endian load.

use crate::{Error, FIRST_TIER_TAG, MAX_LEN, OFFSETS, payload_len};

/// Decode one value from the start of `input`; returns the value and the bytes it used.
///
/// With nine or more bytes available this is [`decode_window`]: no loop over bytes. Near
/// the end of the input it falls back to a byte-wise read that checks the length.
///
/// ```
/// assert_eq!(bijou64::decode(&[0x07, 0xAA]), Ok((7, 1)));
/// assert_eq!(bijou64::decode(&[0xF9, 0x00]), Err(bijou64::Error::Truncated));
/// ```
#[inline]
pub fn decode(input: &[u8]) -> Result<(u64, usize), Error> {
    match input.first_chunk::<MAX_LEN>() {
        Some(window) => decode_window(window),
        None => decode_short(input),
    }
}

/// [`decode`] with [`decode_window_branchless`] as its fast path: the same results, for
/// inputs whose value lengths vary unpredictably (see that function).
///
/// ```
/// assert_eq!(bijou64::decode_branchless(&[0xF8, 0x34]), Ok((300, 2)));
/// ```
#[inline]
pub fn decode_branchless(input: &[u8]) -> Result<(u64, usize), Error> {
    match input.first_chunk::<MAX_LEN>() {
        Some(window) => decode_window_branchless(window),
        None => decode_short(input),
    }
}

/// Decode the value that starts a nine-byte window (the longest encoding), so no length
/// check is needed: a branch on the tag, then one unaligned big-endian load and a shift.
///
/// The one branch (one byte or more) lets the CPU start on the next value at once while
/// it predicts one-byte values; a longer value's length is computed from the tag, with no
/// branch per tier, so lengths that vary at random cost no mispredictions. For mixes where
/// even the one-byte branch mispredicts, see [`decode_window_branchless`].
///
/// ```
/// let mut window = [0u8; bijou64::MAX_LEN];
/// window[..3].copy_from_slice(&[0xF9, 0x01, 0xF0]);
/// assert_eq!(bijou64::decode_window(&window), Ok((1000, 3)));
/// ```
#[inline(always)]
pub fn decode_window(window: &[u8; MAX_LEN]) -> Result<(u64, usize), Error> {
    let tag = window[0];
    // SPEC §2.1: a tag below F8 is the value.
    if tag < FIRST_TIER_TAG {
        return Ok((tag as u64, 1));
    }
    // The length straight from the tag (F8 → 2 … FF → 9), in `usize` so that the caller's
    // next position is a subtract and an add after the tag load: this chain is what bounds
    // a sequential decode of multi-byte values.
    let len = tag as usize - (FIRST_TIER_TAG as usize - 2);
    let [_, word @ ..] = *window;
    // Keep the `len - 1` leading payload bytes of the big-endian word: shift by 0..=56.
    let payload = u64::from_be_bytes(word) >> (8 * (MAX_LEN - len));
    // SPEC §2.4: only tier 8 can exceed u64::MAX.
    match OFFSET_BY_LEN[len].checked_add(payload) {
        Some(v) => Ok((v, len)),
        None => Err(Error::Overflow),
    }
}

/// `OFFSET_BY_LEN[n]` is the offset of the tier whose encodings are `n` bytes long.
const OFFSET_BY_LEN: [u64; MAX_LEN + 1] = {
    let mut o = [0u64; MAX_LEN + 1];
    let mut n = 1;
    while n <= MAX_LEN {
        o[n] = OFFSETS[n - 1];
        n += 1;
    }
    o
};

/// [`decode_window`] without a branch on the tag: the length is computed from the tag by
/// arithmetic, so the next value's position depends on this value's data.
///
/// A sequential decoder is bound by "read tag, advance". With the branch, a correctly
/// predicted "one byte" lets the next read start at once, but every misprediction costs a
/// pipeline refill; without it, every step waits for the tag load. The benchmark measures
/// both on a mixed workload (see `benches/RESULTS.md`). Results equal [`decode_window`]'s.
///
/// ```
/// let window = [0xF8, 0x34, 0, 0, 0, 0, 0, 0, 0];
/// assert_eq!(bijou64::decode_window_branchless(&window), Ok((300, 2)));
/// ```
#[inline(always)]
pub fn decode_window_branchless(window: &[u8; MAX_LEN]) -> Result<(u64, usize), Error> {
    use core::hint::select_unpredictable;
    let tag = window[0];
    let multi = tag >= FIRST_TIER_TAG;
    // Conditional moves, not branches: the length is 1 or `tag - 246`.
    let len = select_unpredictable(multi, (tag as usize).wrapping_sub(246), 1);
    let [_, word @ ..] = *window;
    let word = u64::from_be_bytes(word);
    // `& 63` only keeps the (unused) tier-0 shift in range; for `len` 2..=9 it is 0..=56.
    let payload = select_unpredictable(multi, word >> ((8 * (MAX_LEN - len)) & 63), 0);
    // SPEC §2.1: a tag below F8 is the value; else the tier's offset plus the payload.
    let base = select_unpredictable(multi, OFFSET_BY_LEN[len], tag as u64);
    // SPEC §2.4: only tier 8 can exceed u64::MAX.
    match base.checked_add(payload) {
        Some(v) => Ok((v, len)),
        None => Err(Error::Overflow),
    }
}

/// Fewer than nine bytes remain: read the payload byte by byte.
#[cold]
#[inline(never)]
fn decode_short(input: &[u8]) -> Result<(u64, usize), Error> {
    let (&tag, rest) = input.split_first().ok_or(Error::Truncated)?;
    if tag < FIRST_TIER_TAG {
        return Ok((tag as u64, 1));
    }
    let tier = payload_len(tag);
    // SPEC §2.4: the input ends inside the value.
    let payload = rest.get(..tier).ok_or(Error::Truncated)?;
    let word = payload.iter().fold(0u64, |acc, &b| (acc << 8) | b as u64);
    match OFFSETS[tier].checked_add(word) {
        Some(v) => Ok((v, tier + 1)),
        None => Err(Error::Overflow),
    }
}
