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
/// SPEC §2.2: tier `t` holds `OFFSETS[t] ..= OFFSETS[t+1] - 1`, so the tier is the number
/// of offsets at or below the value. The seven comparisons are independent of each other
/// and compile to flag arithmetic, with no branch for a mixed workload to mispredict. (A
/// count of leading zeros plus one correction is fewer instructions, but on x86-64 without
/// `lzcnt` it becomes `bsr`, whose false dependency on its output register chained each
/// value's encoding to the previous one's and made encoding a third slower.)
#[inline(always)]
pub(crate) const fn multi_byte_tier(value: u64) -> usize {
    let mut tier = 1;
    let mut t = 2;
    while t <= 8 {
        tier += (value >= OFFSETS[t]) as usize;
        t += 1;
    }
    tier
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
