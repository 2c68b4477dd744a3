//! `bytes` fields held as [`bytes::Bytes`], for code generated with the generator's
//! `bytes` option. Same bytes on the wire as [`Bytes`](super::Bytes), which holds a
//! `Vec<u8>`.

/// The `bytes` crate, so generated code names the very `Bytes` type this codec stores
/// whatever version of `bytes` the user's crate depends on.
pub use ::bytes;

use super::{Codec, ReadCodec, Reader, Sizer, Table, WireType, Writer, varint_len};
use crate::DecodeError;

/// `bytes` as [`bytes::Bytes`]: bijou64 length + bytes (SPEC §7). Decoding copies the
/// length-checked slice (`Reader::len_bytes` refuses a length past the input first), so
/// the allocation is paid for by the input, as for `Vec<u8>` (SPEC §9.4).
pub struct SharedBytes;

impl<'a> ReadCodec<'a> for SharedBytes {
    #[inline]
    fn read(r: &mut Reader<'a>) -> Result<bytes::Bytes, DecodeError> {
        r.len_bytes().map(bytes::Bytes::copy_from_slice)
    }
}

impl Codec for SharedBytes {
    type Value = bytes::Bytes;
    const WIRE: WireType = WireType::Len;
    const FIXED: Option<usize> = None;
    #[inline]
    fn size<'v, T: Table>(v: &'v bytes::Bytes, _s: &mut Sizer<'v, T>) -> usize {
        varint_len(v.len() as u64) + v.len()
    }
    #[inline]
    fn write<'v>(v: &'v bytes::Bytes, w: &mut Writer<'_, 'v>) {
        w.len_bytes(v);
    }
    #[inline]
    fn is_default(v: &bytes::Bytes) -> bool {
        // SPEC §5.1: the empty string is the implicit default.
        v.is_empty()
    }
    #[inline(always)]
    fn prefetch(v: &bytes::Bytes) {
        super::prefetch::bytes(v);
    }
}
