//! bijou64: a variable-length encoding of `u64` in which every value has exactly one
//! byte string.
//!
//! This crate is the bottom layer of bijoubuf: every field key, length and integer value
//! of the wire format is a bijou64 (SPEC §2, after the bijou64 specification by
//! Ink & Switch). It has no dependencies and is `no_std` (the `alloc` feature adds
//! [`append`] for `Vec<u8>`).
//!
//! # The encoding
//! The first byte (the *tag*) says everything about the length:
//!
//! | tag         | bytes | value                                   | range                  |
//! |-------------|-------|-----------------------------------------|------------------------|
//! | `00`–`F7`   | 1     | the tag itself                          | 0 ..= 247              |
//! | `F8`        | 2     | 248 + 1 big-endian payload byte         | 248 ..= 503            |
//! | `F9`        | 3     | 504 + 2 payload bytes                   | 504 ..= 66 039         |
//! | `FA`        | 4     | 66 040 + 3 payload bytes                | 66 040 ..= 16 843 255  |
//! | `F8 + t−1`  | 1 + t | [`OFFSETS`]`[t]` + t payload bytes      | …                      |
//! | `FF`        | 9     | `OFFSETS[8]` + 8 payload bytes          | … ..= `u64::MAX`       |
//!
//! Because each tier starts where the previous one ends (the per-tier offsets), a value
//! cannot be written in a longer tier than the shortest: there is no "overlong" spelling
//! to reject. The only invalid inputs are a buffer that ends inside a value
//! ([`Error::Truncated`]) and a tier-8 payload whose sum with the offset exceeds
//! `u64::MAX` ([`Error::Overflow`]).
//!
//! ## Vectors
//! Every value of the specification's table, worked out by hand from the offsets
//! (`tests/spec_vectors.rs` checks each one in both directions):
//!
//! | value                        | bytes (hex)                  |
//! |------------------------------|------------------------------|
//! | 0                            | `00`                         |
//! | 1                            | `01`                         |
//! | 42                           | `2A`                         |
//! | 247                          | `F7`                         |
//! | 248                          | `F8 00`                      |
//! | 300                          | `F8 34`                      |
//! | 503                          | `F8 FF`                      |
//! | 504                          | `F9 00 00`                   |
//! | 1 000                        | `F9 01 F0`                   |
//! | 65 535                       | `F9 FE 07`                   |
//! | 66 039                       | `F9 FF FF`                   |
//! | 66 040                       | `FA 00 00 00`                |
//! | 67 000                       | `FA 00 03 C0`                |
//! | 16 843 255                   | `FA FF FF FF`                |
//! | 16 843 256                   | `FB 00 00 00 00`             |
//! | 4 311 810 551                | `FB FF FF FF FF`             |
//! | 72 340 172 838 076 920       | `FF 00 00 00 00 00 00 00 00` |
//! | 18 446 744 073 709 551 615   | `FF FE FE FE FE FE FE FE 07` |
//!
//! | input (hex)                  | error                        |
//! |------------------------------|------------------------------|
//! | (empty)                      | [`Error::Truncated`]         |
//! | `F9 00`                      | [`Error::Truncated`]         |
//! | `FF FF FF FF FF FF FF FF FF` | [`Error::Overflow`]          |
//!
//! # Using it
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = bijou64::encode(300);
//! assert_eq!(bytes.as_slice(), &[0xF8, 52]); // 300 = 248 + 52
//! assert_eq!(bijou64::decode(bytes.as_slice())?, (300, 2));
//!
//! // A packed run (a repeated field's elements, back to back).
//! let mut run = Vec::new();
//! for v in [7, 1_000, u64::MAX] {
//!     run.extend_from_slice(&bijou64::encode(v));
//! }
//! let mut values = Vec::new();
//! bijou64::decode_packed_into(&run, &mut values)?;
//! assert_eq!(values, [7, 1_000, u64::MAX]);
//! # Ok(()) }
//! ```
//!
//! # Speed
//! Decoding reads the tag and, when nine bytes are available, the payload with one
//! unaligned big-endian load and a shift ([`decode_window`]): no loop over bytes and no
//! per-byte continuation test. A sequential decode is bound by "read the tag, advance",
//! so [`decode`] has one branch, on tier 8 (the nine-byte values of full-width integers):
//! predicted, it lets the next read start without waiting for this tag. Every other length
//! is computed from the tag with conditional moves, so a mix of lengths costs no
//! mispredictions; callers that expect mostly one-byte values (keys, lengths) test the
//! tag first. [`decode_branchless`] drops the tier-8 branch too, for inputs where tier 8
//! comes and goes at random. Packed runs ([`decode_packed_into`]) also skip runs of
//! one-byte values eight at a time.
//! Encoding counts the offsets below the value to find the tier and writes the tag and one
//! 8-byte word. `benches/RESULTS.md` compares all of this with the reference implementation
//! and with LEB128 varints; the crate has no `unsafe` code.
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod decode;
mod encode;
mod packed;
pub mod zigzag;

pub use decode::{decode, decode_branchless, decode_window, decode_window_branchless};
#[cfg(feature = "alloc")]
pub use encode::append;
pub use encode::{Encoded, encode, encode_to_array, encode_to_slice, encoded_len};
pub use packed::{
    Packed, PackedError, PackedErrorKind, decode_packed, decode_packed_i32_into,
    decode_packed_i64_into, decode_packed_into, decode_packed_u32_into,
};

/// The longest encoding: a tag and eight payload bytes.
pub const MAX_LEN: usize = 9;

/// The smallest tag that starts a multi-byte value (tier 1).
pub const FIRST_TIER_TAG: u8 = 0xF8;

/// `OFFSETS[t]` is the smallest value written in tier `t` (a tag and `t` payload bytes).
///
/// `OFFSETS[0] = 0`, `OFFSETS[1] = 248`, and `OFFSETS[t+1] = OFFSETS[t] + 256^t`.
pub const OFFSETS: [u64; 9] = {
    let mut o = [0u64; 9];
    o[1] = FIRST_TIER_TAG as u64;
    let mut t = 1;
    while t < 8 {
        o[t + 1] = o[t] + (1u64 << (8 * t));
        t += 1;
    }
    o
};

/// Why a byte string is not a bijou64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Error {
    /// The input ends before the value does.
    Truncated,
    /// A tier-8 value whose offset plus payload exceeds `u64::MAX`.
    Overflow,
}

impl Error {
    /// The stable kebab-case code used by bijoubuf's SPEC and conformance vectors.
    pub const fn code(self) -> &'static str {
        match self {
            Error::Truncated => "truncated",
            Error::Overflow => "varint-overflow",
        }
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::Truncated => f.write_str("truncated: the input ends inside a bijou64"),
            Error::Overflow => f.write_str("varint-overflow: a tier-8 bijou64 exceeds u64::MAX"),
        }
    }
}

impl core::error::Error for Error {}

/// A value that does not fit the narrower type it was decoded for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OutOfRange;

impl core::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("integer-out-of-range: the value does not fit the declared width")
    }
}

impl core::error::Error for OutOfRange {}

/// Narrow a decoded value to `u32`, reporting (never truncating) values above `u32::MAX`.
#[inline]
pub const fn to_u32(value: u64) -> Result<u32, OutOfRange> {
    if value > u32::MAX as u64 {
        Err(OutOfRange)
    } else {
        Ok(value as u32)
    }
}

/// The number of payload bytes that follow a tag: 0 for a tag below `F8`, else 1..=8.
#[inline]
pub const fn payload_len(tag: u8) -> usize {
    tag.saturating_sub(FIRST_TIER_TAG - 1) as usize
}
