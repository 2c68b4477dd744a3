//! Encoding: always the shortest tier, which is the only one.

use crate::{FIRST_TIER_TAG, MAX_LEN, OFFSETS};

/// The number of bytes `value` encodes to (1..=9).
#[inline]
pub const fn encoded_len(value: u64) -> usize {
    if value < OFFSETS[1] {
        1
    } else if value < OFFSETS[2] {
        2
    } else if value < OFFSETS[3] {
        3
    } else if value < OFFSETS[4] {
        4
    } else if value < OFFSETS[5] {
        5
    } else if value < OFFSETS[6] {
        6
    } else if value < OFFSETS[7] {
        7
    } else if value < OFFSETS[8] {
        8
    } else {
        9
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
    let len = write_max(value, &mut bytes);
    Encoded {
        bytes,
        len: len as u8,
    }
}

/// Encode `value` at the start of `out`; returns the number of bytes written, or `None`
/// (writing nothing) when `out` is shorter than [`encoded_len`]`(value)`.
#[inline]
pub fn encode_to_slice(value: u64, out: &mut [u8]) -> Option<usize> {
    if let Some(buf) = out.first_chunk_mut::<MAX_LEN>() {
        return Some(write_max(value, buf));
    }
    let e = encode(value);
    let dst = out.get_mut(..e.len())?;
    dst.copy_from_slice(e.as_slice());
    Some(e.len())
}

/// Append the encoding of `value` to `out`.
#[cfg(feature = "alloc")]
#[inline]
pub fn append(value: u64, out: &mut alloc::vec::Vec<u8>) {
    if value < OFFSETS[1] {
        out.push(value as u8);
    } else {
        out.extend_from_slice(encode(value).as_slice());
    }
}

/// Write into a buffer that always has room for the longest encoding: the payload is one
/// big-endian store of the whole word, of which the leading `tier` bytes are kept.
#[inline(always)]
fn write_max(value: u64, buf: &mut [u8; MAX_LEN]) -> usize {
    if value < OFFSETS[1] {
        buf[0] = value as u8;
        return 1;
    }
    let len = encoded_len(value);
    let tier = len - 1;
    let payload = value - OFFSETS[tier];
    buf[0] = FIRST_TIER_TAG + (tier as u8 - 1);
    // Left-align the `tier` payload bytes so one 8-byte store writes them first.
    let aligned = payload << (8 * (8 - tier) as u32 % 64);
    let aligned = if tier == 8 { payload } else { aligned };
    let (_, rest) = buf.split_first_mut().unwrap_or_else(|| unreachable!());
    rest.copy_from_slice(&aligned.to_be_bytes());
    len
}
