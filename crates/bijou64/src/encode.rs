//! Encoding: always the shortest tier, which is the only one.

use crate::{FIRST_TIER_TAG, MAX_LEN, OFFSETS};

/// The number of bytes `value` encodes to (1..=9).
///
/// ```
/// assert_eq!(bijou64::encoded_len(247), 1);
/// assert_eq!(bijou64::encoded_len(248), 2);
/// assert_eq!(bijou64::encoded_len(u64::MAX), 9);
/// ```
#[inline]
pub const fn encoded_len(value: u64) -> usize {
    if value < OFFSETS[1] {
        1
    } else {
        multi_byte_tier(value) + 1
    }
}

/// The tier (1..=8) of a value that does not fit the tag byte (`value >= 248`).
///
/// SPEC §2.2: tier `t` holds `OFFSETS[t] ..= OFFSETS[t+1] - 1`. A value of `b` significant
/// bits is below `256^g` with `g = ceil(b / 8)`, hence below `OFFSETS[g + 1]`; and it is at
/// least `256^(g-1)`, which exceeds `OFFSETS[g - 1]` (each offset is below the next power of
/// 256). So the tier is `g - 1` or `g`, and one comparison with `OFFSETS[g]` decides. This
/// replaces a chain of up to eight comparisons (each a branch a mixed workload mispredicts)
/// with a count of leading zeros, a shift and one conditional move.
#[inline(always)]
pub(crate) const fn multi_byte_tier(value: u64) -> usize {
    let bits = (64 - value.leading_zeros()) as usize; // 8..=64 since value >= 248
    let guess = bits.div_ceil(8); // 1..=8
    if value < OFFSETS[guess] {
        guess - 1
    } else {
        guess
    }
}

/// An encoded value on the stack: up to [`MAX_LEN`] bytes, no allocation.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Encoded {
    bytes: [u8; MAX_LEN],
    len: u8,
}

impl Encoded {
    /// The encoded bytes.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// The number of encoded bytes (1..=9).
    #[inline]
    #[allow(clippy::len_without_is_empty)] // never empty
    pub fn len(&self) -> usize {
        self.len as usize
    }
}

impl core::ops::Deref for Encoded {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl AsRef<[u8]> for Encoded {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl core::fmt::Debug for Encoded {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Encoded({:02x?})", self.as_slice())
    }
}

/// Encode `value` into a stack array.
#[inline]
pub fn encode(value: u64) -> Encoded {
    let mut bytes = [0u8; MAX_LEN];
    let len = encode_to_array(value, &mut bytes);
    Encoded {
        bytes,
        len: len as u8,
    }
}

/// Encode `value` at the start of `out`; returns the number of bytes written, or `None`
/// (writing nothing) when `out` is shorter than [`encoded_len`]`(value)`.
///
/// With at least [`MAX_LEN`] bytes of room this is a tag store and one 8-byte store; bytes
/// of `out` past the returned length may then be overwritten (they are not part of the
/// value). With less room only the value's own bytes are written.
#[inline]
pub fn encode_to_slice(value: u64, out: &mut [u8]) -> Option<usize> {
    if let Some(buf) = out.first_chunk_mut::<MAX_LEN>() {
        return Some(encode_to_array(value, buf));
    }
    encode_to_short_slice(value, out)
}

#[cold]
fn encode_to_short_slice(value: u64, out: &mut [u8]) -> Option<usize> {
    let e = encode(value);
    let dst = out.get_mut(..e.len())?;
    dst.copy_from_slice(e.as_slice());
    Some(e.len())
}

/// Encode `value` into a [`MAX_LEN`]-byte array; returns the number of bytes that belong
/// to the value. Bytes past that length are unspecified.
///
/// This is the building block for writers that keep [`MAX_LEN`] bytes of slack at the end
/// of their buffer: no length check is needed before the store.
#[inline(always)]
pub fn encode_to_array(value: u64, buf: &mut [u8; MAX_LEN]) -> usize {
    // SPEC §2.1: values below 248 are their own tag.
    if value < OFFSETS[1] {
        buf[0] = value as u8;
        return 1;
    }
    let tier = multi_byte_tier(value);
    // SPEC §2.1: the payload is `value - OFFSETS[tier]`, big-endian, `tier` bytes.
    let payload = value - OFFSETS[tier];
    buf[0] = FIRST_TIER_TAG + (tier as u8 - 1);
    // Left-align the `tier` payload bytes (shift 0..=56) so one 8-byte store writes them
    // first, whatever the tier.
    let aligned = payload << (8 * (8 - tier));
    let [_, rest @ ..] = buf;
    *rest = aligned.to_be_bytes();
    tier + 1
}

/// Append the encoding of `value` to `out`.
#[cfg(feature = "alloc")]
#[inline]
pub fn append(value: u64, out: &mut alloc::vec::Vec<u8>) {
    if value < OFFSETS[1] {
        out.push(value as u8);
        return;
    }
    // A fixed 9-byte copy then a truncate is one store pair; copying exactly `len` bytes
    // would be a variable-length memcpy call.
    let mut buf = [0u8; MAX_LEN];
    let len = encode_to_array(value, &mut buf);
    let start = out.len();
    out.extend_from_slice(&buf);
    out.truncate(start + len);
}
