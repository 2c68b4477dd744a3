//! Packed runs: values back to back with no keys, filling their input exactly (SPEC §6.2).
//!
//! Two ways in: the [`Packed`] iterator (one `Result` per value, for callers that want to
//! stop early) and the `decode_packed_*_into` functions, which decode a whole run into any
//! [`Extend`] target. The latter decode into a small stack buffer and hand it over in
//! chunks, so a `Vec` target grows by `extend_from_slice`-style copies and the decoder's
//! inner loop never touches the target's length or capacity.

use crate::{Error, FIRST_TIER_TAG, MAX_LEN, decode, decode_window, zigzag};

/// Why a packed run was refused, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedError {
    /// Offset, within the run, of the first byte of the element that failed.
    pub offset: usize,
    /// What was wrong with it.
    pub kind: PackedErrorKind,
}

/// The reasons a packed run can be refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PackedErrorKind {
    /// The run ends inside a value (SPEC §2.4).
    Truncated,
    /// A tier-8 value exceeds `u64::MAX` (SPEC §2.4).
    Overflow,
    /// A value does not fit the element type (`uint32`, or a zigzag `int32`; SPEC §3.1,
    /// §3.2).
    OutOfRange,
}

impl PackedErrorKind {
    /// The stable kebab-case code used by bijoubuf's SPEC and conformance vectors.
    pub const fn code(self) -> &'static str {
        match self {
            PackedErrorKind::Truncated => Error::Truncated.code(),
            PackedErrorKind::Overflow => Error::Overflow.code(),
            PackedErrorKind::OutOfRange => "integer-out-of-range",
        }
    }
}

impl PackedError {
    /// The stable kebab-case code of its kind ([`PackedErrorKind::code`]): `truncated`,
    /// `varint-overflow` or `integer-out-of-range`.
    pub const fn code(&self) -> &'static str {
        self.kind.code()
    }
}

impl From<Error> for PackedErrorKind {
    fn from(e: Error) -> Self {
        match e {
            Error::Truncated => PackedErrorKind::Truncated,
            Error::Overflow => PackedErrorKind::Overflow,
        }
    }
}

impl core::fmt::Display for PackedError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let what = match self.kind {
            PackedErrorKind::Truncated => "the run ends inside a value",
            PackedErrorKind::Overflow => "a tier-8 value exceeds u64::MAX",
            PackedErrorKind::OutOfRange => "a value does not fit the element type",
        };
        write!(
            f,
            "{}: {what} at byte {} of the run",
            self.kind.code(),
            self.offset
        )
    }
}

impl core::error::Error for PackedError {}

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

/// Decode a whole packed run of `uint64` into `out`; returns the number of values.
///
/// On error, `out` may already hold some of the values before the failing one (whole
/// chunks of them); a caller that wants all or nothing discards `out`. The error's offset
/// is that of the failing value's tag byte.
///
/// ```
/// # fn main() -> Result<(), bijou64::PackedError> {
/// let run = [0x01, 0xF8, 0x34, 0xF7];
/// let mut values = Vec::new();
/// assert_eq!(bijou64::decode_packed_into(&run, &mut values)?, 3);
/// assert_eq!(values, [1, 300, 247]);
/// # Ok(()) }
/// ```
#[inline]
pub fn decode_packed_into(input: &[u8], out: &mut impl Extend<u64>) -> Result<usize, PackedError> {
    decode_run(input, out, |_| true, |v| v)
}

/// Decode a packed run of `uint32` (SPEC §3.1): like [`decode_packed_into`], and a value
/// above `u32::MAX` is [`PackedErrorKind::OutOfRange`] at that value's first byte.
///
/// ```
/// let run = [0x05, 0xFC, 0, 0, 0, 0, 0]; // 5, then 2^32 + 248 + …: too wide
/// let mut values: Vec<u32> = Vec::new();
/// let err = bijou64::decode_packed_u32_into(&run, &mut values).unwrap_err();
/// assert_eq!((err.kind, err.offset), (bijou64::PackedErrorKind::OutOfRange, 1));
/// ```
#[inline]
pub fn decode_packed_u32_into(
    input: &[u8],
    out: &mut impl Extend<u32>,
) -> Result<usize, PackedError> {
    decode_run(input, out, |v| v <= u32::MAX as u64, |v| v as u32)
}

/// Decode a packed run of zigzag `sint64`/`int64` values (SPEC §3.2) into `out`.
#[inline]
pub fn decode_packed_i64_into(
    input: &[u8],
    out: &mut impl Extend<i64>,
) -> Result<usize, PackedError> {
    decode_run(input, out, |_| true, zigzag::decode_i64)
}

/// Decode a packed run of zigzag `sint32`/`int32`/enum values (SPEC §3.2): a zigzag value
/// above `u32::MAX` is [`PackedErrorKind::OutOfRange`] at that value's first byte.
#[inline]
pub fn decode_packed_i32_into(
    input: &[u8],
    out: &mut impl Extend<i32>,
) -> Result<usize, PackedError> {
    decode_run(
        input,
        out,
        |v| v <= u32::MAX as u64,
        |v| zigzag::decode_i64(v) as i32,
    )
}

/// Values decoded before they are handed to the caller's `Extend` in one call.
const CHUNK: usize = 64;

/// Eight bytes at a time are checked for tags: a run of one-byte values is copied without a
/// step per value.
const SCAN: usize = 8;

/// The bytes the fast loop wants readable: a scan of [`SCAN`] bytes, or a whole value.
const FAST_WINDOW: usize = 16;

/// The high bit of byte `i` of the result is set if byte `i` of `word` is the first tag
/// (`>= F8`) in it, counting from the least significant byte; 0 if there is none. Bits
/// above the first flagged byte are unreliable (borrows), so only the lowest is used.
#[inline(always)]
fn first_tag_mask(word: u64) -> u64 {
    // A byte is a tag exactly when its top five bits are all set, i.e. when the byte of
    // `!word & F8…F8` is zero; then the classic "has a zero byte" test.
    let x = !word & 0xF8F8_F8F8_F8F8_F8F8;
    x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080
}

/// The shared loop: decode into a stack chunk, check and convert the chunk, hand it over.
///
/// The step depends on the byte at `pos`. A tag starts a multi-byte value: its length
/// comes from the tag by arithmetic (no branch per tier). A one-byte value starts a scan:
/// the next eight bytes are copied as values and the position moves to the first tag among
/// them (or by eight), so runs of small values cost a few operations per eight values.
#[inline(always)]
fn decode_run<T>(
    input: &[u8],
    out: &mut impl Extend<T>,
    fits: impl Fn(u64) -> bool,
    convert: impl Fn(u64) -> T,
) -> Result<usize, PackedError> {
    // `SCAN` slots of slack: a scan writes eight values and keeps only those before the tag.
    let mut chunk = [0u64; CHUNK + SCAN];
    let mut n = 0; // values in `chunk`
    let mut pos = 0; // next byte of `input`
    let mut chunk_start = 0; // offset of the first value in `chunk`
    let mut total = 0;

    let mut flush = |chunk: &[u64], chunk_start: usize| -> Result<(), PackedError> {
        if !chunk.iter().all(|&v| fits(v)) {
            return Err(out_of_range(input, chunk_start, chunk, &fits));
        }
        out.extend(chunk.iter().map(|&v| convert(v)));
        Ok(())
    };

    loop {
        while let Some(window) = input
            .get(pos..)
            .and_then(|r| r.first_chunk::<FAST_WINDOW>())
        {
            let (value_window, _) = window
                .split_first_chunk::<MAX_LEN>()
                .unwrap_or_else(|| unreachable!());
            let (scan, _) = window
                .split_first_chunk::<SCAN>()
                .unwrap_or_else(|| unreachable!());
            let Some(slots) = chunk.get_mut(n..n + SCAN) else {
                unreachable!("n < CHUNK here")
            };
            if window[0] >= FIRST_TIER_TAG {
                let (v, len) = match decode_window(value_window) {
                    Ok(ok) => ok,
                    Err(e) => return Err(fail(&mut flush, &chunk[..n], chunk_start, pos, e)),
                };
                slots[0] = v;
                n += 1;
                pos += len;
            } else {
                for (slot, &b) in slots.iter_mut().zip(scan) {
                    *slot = b as u64;
                }
                // 1..=8 one-byte values before the first tag (8 when there is none; the
                // tag at `pos` is not one, so at least 1).
                let k = (first_tag_mask(u64::from_le_bytes(*scan)).trailing_zeros() / 8) as usize;
                n += k;
                pos += k;
            }
            if n >= CHUNK {
                break;
            }
        }
        if n < CHUNK {
            // Fewer than sixteen bytes left: finish with length-checked reads.
            while let Some(rest) = input.get(pos..).filter(|r| !r.is_empty()) {
                let (v, len) = match decode(rest) {
                    Ok(ok) => ok,
                    Err(e) => return Err(fail(&mut flush, &chunk[..n], chunk_start, pos, e)),
                };
                chunk[n] = v;
                n += 1;
                pos += len;
                if n >= CHUNK {
                    break;
                }
            }
        }
        flush(&chunk[..n], chunk_start)?;
        total += n;
        if pos >= input.len() {
            return Ok(total);
        }
        n = 0;
        chunk_start = pos;
    }
}

/// A varint error at `pos`; values decoded before it are checked first, because the
/// first violation in byte order is the one reported (SPEC §10).
#[cold]
#[inline(never)]
fn fail(
    flush: &mut impl FnMut(&[u64], usize) -> Result<(), PackedError>,
    chunk: &[u64],
    chunk_start: usize,
    pos: usize,
    e: Error,
) -> PackedError {
    match flush(chunk, chunk_start) {
        Err(earlier) => earlier,
        Ok(()) => PackedError {
            offset: pos,
            kind: e.into(),
        },
    }
}

/// Find the offset of the first value in `chunk` that does not fit, by walking the run
/// again from the chunk's first byte (the error path only, so the hot loop need not keep
/// every value's offset).
#[cold]
#[inline(never)]
fn out_of_range(
    input: &[u8],
    chunk_start: usize,
    chunk: &[u64],
    fits: &impl Fn(u64) -> bool,
) -> PackedError {
    let mut offset = chunk_start;
    for &v in chunk {
        if !fits(v) {
            break;
        }
        // The chunk was decoded from these bytes, so the re-read cannot fail.
        offset += decode(&input[offset..]).map_or(1, |(_, len)| len);
    }
    PackedError {
        offset,
        kind: PackedErrorKind::OutOfRange,
    }
}
