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
/// inputs that mix one-byte and longer values unpredictably (see that function).
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
/// check is needed: one branch (one byte or more), then the length from the tag by
/// arithmetic, one unaligned big-endian load and a shift.
///
/// A sequential decode is bound by "read the tag, advance": the next value's position
/// waits for this value's tag unless the CPU can predict the length.
///
/// - A run of one-byte values (field keys, lengths, small counts) is the predicted side
///   of the one branch: the next read starts at once, without waiting for this tag.
/// - A longer value's length is `tag − 246` (F8 → 2 … FF → 9): a subtraction after the
///   tag load, with no branch per tier, so lengths that vary at random (tiers 1 to 8)
///   cost no misprediction, and nine-byte values cost the same wait as shorter ones.
///   Only tier 8 can overflow; its check is an add whose carry is never set on valid
///   input, so its branch is always predicted (SPEC §2.4).
///
/// A branch per length (for example on tier 8) would let a run of one length skip the
/// wait, but mispredicts whenever that length comes at random; a decoder without the
/// one-byte branch waits on every one-byte value. Mixes where the one-byte branch itself
/// is unpredictable (many one-byte values among longer ones) are what
/// [`decode_window_branchless`] is for. `benches/RESULTS.md` measures all three shapes.
///
/// ```
/// let mut window = [0u8; bijou64::MAX_LEN];
/// window[..3].copy_from_slice(&[0xF9, 0x01, 0xF0]);
/// assert_eq!(bijou64::decode_window(&window), Ok((1000, 3)));
/// ```
#[inline(always)]
pub fn decode_window(window: &[u8; MAX_LEN]) -> Result<(u64, usize), Error> {
    let [tag, payload @ ..] = *window;
    // SPEC §2.1: a tag below F8 is the value.
    if tag < FIRST_TIER_TAG {
        return Ok((tag as u64, 1));
    }
    // The length straight from the tag (F8 → 2 … FF → 9), in `usize`, so that the
    // caller's next position is one subtraction and one add after the tag load.
    let len = tag as usize - (FIRST_TIER_TAG as usize - 2);
    // Keep the `len − 1` leading payload bytes of the big-endian word: shift by 0..=56.
    let payload = u64::from_be_bytes(payload) >> (8 * (MAX_LEN - len));
    // SPEC §2.4: only tier 8 can exceed u64::MAX.
    match OFFSET_BY_LEN[len].checked_add(payload) {
        Some(v) => Ok((v, len)),
        None => Err(Error::Overflow),
    }
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

/// [`decode_window`] without the one-byte branch: every tag is decoded with conditional
/// moves, and the overflow check is the only branch.
///
/// For inputs where one-byte values are frequent but not in runs (a realistic mix of
/// small and larger integers), [`decode_window`]'s one-byte branch mispredicts; this one
/// does not, at the price of waiting for every tag, one-byte values included. Results
/// equal [`decode_window`]'s.
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
