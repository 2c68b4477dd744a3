//! Decoding one value: one tag read, then one big-endian load.

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
/// inputs whose value lengths vary unpredictably and include tier 8 (see that function).
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
/// check is needed: one unaligned big-endian load of the payload, then either the tier-8
/// sum or a branch-free decode of the other tiers.
///
/// A sequential decoder is bound by "read the tag, advance": the next value's position
/// waits for this value's tag unless the CPU can predict the length. So:
///
/// - tier 8 (tag `FF`, the nine-byte values of full-width integers, hashes and random
///   ids) is a branch with a constant length: when such values come in runs, the
///   predicted branch lets the next read start without waiting for this tag, and only
///   this tier needs the overflow check (SPEC §2.4);
/// - every other tag (one byte up to eight) is decoded with conditional moves: the length
///   is `1` or `tag − 246`, the payload a shift of the loaded word. No branch depends on
///   the length, so a mix of lengths costs no mispredictions; the price is that a run of
///   one-byte values waits for each tag (a few cycles each), where a predicted one-byte
///   branch would not. Callers that expect mostly one-byte values (field keys, lengths)
///   test `window[0] < 0xF8` first, as the bijoubuf runtime does.
///
/// ```
/// let mut window = [0u8; bijou64::MAX_LEN];
/// window[..3].copy_from_slice(&[0xF9, 0x01, 0xF0]);
/// assert_eq!(bijou64::decode_window(&window), Ok((1000, 3)));
/// ```
#[inline(always)]
pub fn decode_window(window: &[u8; MAX_LEN]) -> Result<(u64, usize), Error> {
    let [tag, payload @ ..] = *window;
    let word = u64::from_be_bytes(payload);
    if tag == LAST_TAG {
        // SPEC §2.4: tier 8 is the only one whose sum can exceed u64::MAX.
        return match OFFSETS[8].checked_add(word) {
            Some(v) => Ok((v, MAX_LEN)),
            None => Err(Error::Overflow),
        };
    }
    Ok(below_tier_8(tag, word))
}

/// The tag of tier 8, the nine-byte values.
const LAST_TAG: u8 = 0xFF;

/// A value of tiers 0 to 7 (any tag but `FF`) from its tag and the eight bytes after it,
/// with conditional moves only. Its sum cannot overflow: tier 7 ends below `OFFSETS[8]`.
#[inline(always)]
fn below_tier_8(tag: u8, word: u64) -> (u64, usize) {
    use core::hint::select_unpredictable;
    let multi = tag >= FIRST_TIER_TAG;
    // The length is 1 or `tag − 246` (F8 → 2 … FE → 8).
    let len = select_unpredictable(multi, (tag as usize).wrapping_sub(246), 1);
    // Keep the `len − 1` leading payload bytes of the big-endian word: shift by 8..=56.
    // (`& 63` only keeps the unused one-byte shift in range.)
    let payload = select_unpredictable(multi, word >> ((8 * (MAX_LEN - len)) & 63), 0);
    // SPEC §2.1: a tag below F8 is the value; else the tier's offset plus the payload.
    let base = select_unpredictable(multi, OFFSET_BY_LEN[len & 15], tag as u64);
    (base + payload, len)
}

/// `OFFSET_BY_LEN[n]` is the offset of the tier whose encodings are `n` bytes long (for
/// `n` in 1..=9; padded to sixteen entries so that `n & 15` needs no bounds check).
const OFFSET_BY_LEN: [u64; 16] = {
    let mut o = [0u64; 16];
    let mut n = 1;
    while n <= MAX_LEN {
        o[n] = OFFSETS[n - 1];
        n += 1;
    }
    o
};

/// [`decode_window`] without the tier-8 branch: every tag, `FF` included, is decoded with
/// conditional moves, and the overflow check is the only branch.
///
/// For inputs where tier-8 values are frequent but not in runs (widths spread over the
/// whole `u64` range), [`decode_window`]'s tier-8 branch mispredicts; this one does not,
/// at the price of waiting for every tag. The benchmark measures both (see
/// `benches/RESULTS.md`). Results equal [`decode_window`]'s.
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
    let base = select_unpredictable(multi, OFFSET_BY_LEN[len & 15], tag as u64);
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
