//! Decoding: one tag read, then at most one big-endian load.

use crate::{Error, FIRST_TIER_TAG, MAX_LEN, OFFSETS, payload_len};

/// Decode one value from the start of `input`; returns the value and the bytes it used.
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

/// The fast path: nine readable bytes, so the payload is one unaligned load and a shift.
#[inline(always)]
fn decode_window(window: &[u8; MAX_LEN]) -> Result<(u64, usize), Error> {
    let tag = window[0];
    if tag < FIRST_TIER_TAG {
        return Ok((tag as u64, 1));
    }
    let tier = payload_len(tag);
    let mut word = [0u8; 8];
    word.copy_from_slice(&window[1..]);
    let word = u64::from_be_bytes(word);
    // tier is 1..=8; shifting by 64 - 8*tier is in 0..=56.
    let payload = word >> (64 - 8 * tier as u32);
    match OFFSETS[tier].checked_add(payload) {
        Some(v) => Ok((v, tier + 1)),
        None => Err(Error::Overflow),
    }
}

/// Fewer than nine bytes remain: read the payload byte by byte.
#[cold]
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

/// Iterate over a packed run: values back to back with no keys, filling `input` exactly.
///
/// The iterator stops after the first error (a run that ends inside a value yields
/// [`Error::Truncated`] and then `None`). [`Packed::offset`] says where it is.
pub fn decode_packed(input: &[u8]) -> Packed<'_> {
    Packed { input, pos: 0 }
}

/// The iterator returned by [`decode_packed`].
#[derive(Debug, Clone)]
pub struct Packed<'a> {
    input: &'a [u8],
    pos: usize,
}

impl Packed<'_> {
    /// Bytes consumed so far (the offset of the next value, or of the failed one).
    pub fn offset(&self) -> usize {
        self.pos
    }
}

impl Iterator for Packed<'_> {
    type Item = Result<u64, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.input.get(self.pos..).filter(|r| !r.is_empty())?;
        match decode(rest) {
            Ok((v, n)) => {
                self.pos += n;
                Some(Ok(v))
            }
            Err(e) => {
                // Park at the end so the iterator is fused after an error.
                let at = self.pos;
                self.input = &self.input[..at];
                Some(Err(e))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.input.len().saturating_sub(self.pos);
        (left.div_ceil(MAX_LEN), Some(left))
    }
}

impl core::iter::FusedIterator for Packed<'_> {}
