//! Where encoded bytes go.

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use crate::__private::{Fill, FillFront};
use crate::error::{EncodeError, EncodeErrorKind};

/// A destination for encoded bytes.
///
/// Encoding asks the buffer once for the encoding's exact length in bytes and fills
/// them, so a buffer only has to hand out one contiguous region. (A `Vec` with spare
/// capacity is also written in one pass straight into that capacity, through hidden
/// methods only the crate's `Vec` impl overrides.)
/// Implemented for `Vec<u8>` (grows) and `&mut [u8]` (fills from the front and advances,
/// like `std::io::Write for &mut [u8]`).
pub trait BufMut {
    /// Append `len` bytes to the buffer and return them for writing, or `None` (changing
    /// nothing) when the buffer cannot hold them.
    fn claim(&mut self, len: usize) -> Option<&mut [u8]>;

    /// Append `len` bytes that `fill` writes; on error the buffer holds what
    /// [`claim`](Self::claim) left (`BufferTooSmall` when it refused). Not API: the
    /// encoder's way in, which a `Vec` takes without zero-filling the bytes first.
    #[doc(hidden)]
    fn __put(&mut self, len: usize, fill: &mut dyn Fill) -> Result<(), EncodeError> {
        let out = self
            .claim(len)
            .ok_or_else(|| EncodeError::new(EncodeErrorKind::BufferTooSmall, len))?;
        fill.fill(as_uninit(out))
    }

    /// How many bytes the buffer holds ready to write without growing: where the encoder
    /// writes in one pass, with no size pass, through
    /// [`__put_front`](Self::__put_front). Not API; 0 unless the buffer takes it.
    #[doc(hidden)]
    fn __room(&self) -> usize {
        0
    }

    /// Append the bytes `fill` writes at the front of the [`__room`](Self::__room),
    /// however many it says it wrote; on error the buffer is as it was. Not API: the
    /// encoder's one pass, which only a buffer with room calls.
    #[doc(hidden)]
    fn __put_front(&mut self, fill: &mut dyn FillFront) -> Result<(), EncodeError> {
        // No room of its own: the encoder writes elsewhere and calls `__put`.
        let _ = fill;
        Err(EncodeError::new(EncodeErrorKind::BufferTooSmall, 0))
    }
}

/// `b` seen as possibly uninitialized bytes, for the encoder's writer.
///
/// Why: the writer writes into `&mut [MaybeUninit<u8>]` so that a `Vec` can hand it spare
/// capacity without zero-filling it first (the fill was 9–19 % of encode instructions);
/// a buffer of initialized bytes is viewed the same way.
#[allow(unsafe_code)]
fn as_uninit(b: &mut [u8]) -> &mut [MaybeUninit<u8>] {
    // SAFETY: `MaybeUninit<u8>` has the size, alignment and validity superset of `u8`, so
    // this is the same memory with the same length. The view only reaches `Fill::fill`
    // (a sealed trait: the encoder's writer is its only implementation), which stores
    // initialized bytes only, so every byte of `b` is still initialized when the borrow
    // ends.
    unsafe { &mut *(b as *mut [u8] as *mut [MaybeUninit<u8>]) }
}

impl BufMut for Vec<u8> {
    #[inline]
    fn claim(&mut self, len: usize) -> Option<&mut [u8]> {
        let start = self.len();
        if self.capacity() == 0 {
            // A fresh vector: allocate the exact size directly rather than through the
            // amortized growth path (which costs more than the allocation itself).
            *self = Vec::with_capacity(len);
        }
        self.resize(start + len, 0);
        self.get_mut(start..)
    }

    /// The `len` bytes after the current ones are written in the vector's spare capacity
    /// and only then made part of it: no zero-fill, and nothing appended on error.
    #[allow(unsafe_code)]
    #[inline]
    fn __put(&mut self, len: usize, fill: &mut dyn Fill) -> Result<(), EncodeError> {
        let start = self.len();
        if self.capacity() == 0 {
            // A fresh vector: allocate the exact size directly rather than through the
            // amortized growth path (which costs more than the allocation itself).
            *self = Vec::with_capacity(len);
        } else {
            self.reserve(len);
        }
        let region = self
            .spare_capacity_mut()
            .get_mut(..len)
            .ok_or_else(|| EncodeError::new(EncodeErrorKind::BufferTooSmall, len))?;
        fill.fill(region)?;
        // SAFETY: `region` is the first `len` elements of the spare capacity, right after
        // the `start` initialized ones, so `start + len <= capacity`. `fill` returned `Ok`,
        // which by `Fill`'s contract (kept by its only implementation, the encoder: the
        // writer's cursor moves only past bytes it stored and must end at the region's end)
        // means all `len` bytes are now initialized.
        unsafe { self.set_len(start + len) };
        Ok(())
    }

    #[inline]
    fn __room(&self) -> usize {
        self.capacity() - self.len()
    }

    /// The one pass writes into the spare capacity, and only what it wrote is then made
    /// part of the vector: no zero-fill, no copy from a frame, and nothing appended on
    /// error.
    ///
    /// Why unsafe, as in [`__put`](BufMut::__put): the safe way to write into the
    /// capacity is to zero-fill it first (`resize`), which cost 9–19 % of encode
    /// instructions; the other way, writing into the frame and copying the bytes here,
    /// is what a buffer without room gets (`benches/RESULTS.md` has both paths' counts).
    #[allow(unsafe_code)]
    #[inline]
    fn __put_front(&mut self, fill: &mut dyn FillFront) -> Result<(), EncodeError> {
        let start = self.len();
        let spare = self.spare_capacity_mut();
        let room = spare.len();
        let n = fill.fill_front(spare)?;
        if n > room {
            return Err(EncodeError::new(EncodeErrorKind::SizeMismatch, 0));
        }
        // SAFETY: `n <= room`, the spare capacity's length, so `start + n <= capacity`.
        // `fill_front` returned `Ok(n)`, which by `FillFront`'s contract (kept by its only
        // implementation, the encoder's one pass: the writer's cursor moves only past
        // bytes it stored, and `n` is where it ended) means the first `n` bytes of the
        // spare capacity, right after the `start` initialized ones, are initialized.
        unsafe { self.set_len(start + n) };
        Ok(())
    }
}

impl BufMut for &mut [u8] {
    #[inline]
    fn claim(&mut self, len: usize) -> Option<&mut [u8]> {
        if self.len() < len {
            return None;
        }
        let (head, tail) = core::mem::take(self).split_at_mut(len);
        *self = tail;
        Some(head)
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use crate::__private::{Bytes, Int32, Pass, Reader};
    use crate::wkt::{ListValue, Value, value::Kind};
    use crate::{DecodeError, EncodeErrorKind, Message, UnknownFields};

    fn list(n: usize) -> ListValue {
        let values = (0..n)
            .map(|i| Value {
                kind: Some(Kind::StringValue("x".repeat(i))),
            })
            .collect();
        ListValue { values }
    }

    #[test]
    fn a_vec_gets_the_encoding_appended_after_what_it_holds() {
        // 300 nested values: more lengths than the size table first makes room for.
        for n in [0, 1, 7, 40, 300] {
            let v = list(n);
            let alone = v.encode_to_vec().unwrap();
            assert_eq!(alone.len(), v.encoded_len());
            for (head, cap) in [(0, 0), (3, 3), (3, 1000), (0, 1000)] {
                let mut buf = Vec::with_capacity(cap);
                buf.extend((0..head).map(|i| i as u8 + 0xA0));
                v.encode(&mut buf).unwrap();
                assert_eq!(&buf[..head], &[0xA0, 0xA1, 0xA2][..head]);
                assert_eq!(&buf[head..], &alone[..], "n = {n}, head = {head}");
                let mut framed = buf.clone();
                v.encode_length_delimited(&mut framed).unwrap();
                let (back, used) =
                    ListValue::decode_length_delimited(&framed[buf.len()..]).unwrap();
                assert_eq!((back, used), (v.clone(), framed.len() - buf.len()));
            }
        }
    }

    #[test]
    fn a_slice_is_filled_from_the_front_or_refused_whole() {
        let v = list(5);
        let alone = v.encode_to_vec().unwrap();
        let mut space = vec![0xEEu8; alone.len() + 2];
        let mut rest = &mut space[..];
        v.encode(&mut rest).unwrap();
        assert_eq!(rest.len(), 2);
        assert_eq!(&space[..alone.len()], &alone[..]);
        assert_eq!(&space[alone.len()..], &[0xEE, 0xEE]);
        let mut small = vec![0u8; alone.len() - 1];
        let mut rest = &mut small[..];
        let e = v.encode(&mut rest).unwrap_err();
        assert_eq!(e.kind(), EncodeErrorKind::BufferTooSmall);
        assert_eq!(rest.len(), alone.len() - 1);
    }

    /// Sizes field 1 plus field 2 holding `pad` (when not empty), writes fields 1 to
    /// `write`: a hand-written walk whose passes disagree (it asks which pass runs it:
    /// the write pass's contributions are zero-sized).
    #[derive(Default)]
    struct Lies {
        pad: Vec<u8>,
        write: u32,
        unknown_fields: UnknownFields,
    }

    impl Message for Lies {
        const NAME: &'static str = "Lies";
        const KEEPS_UNKNOWN_FIELDS: bool = true;
        const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3];
    }

    impl crate::__private::Encode for Lies {
        type Schema = Self;

        fn __unknown(&self) -> &UnknownFields {
            &self.unknown_fields
        }
        fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
            if core::mem::size_of::<P::Out>() != 0 {
                let n = p.explicit::<Int32>(1, &7);
                if self.pad.is_empty() {
                    return n;
                }
                return n + p.explicit::<Bytes>(2, &self.pad);
            }
            let mut out = P::Out::default();
            for n in 1..=self.write {
                out = out + p.explicit::<Int32>(n, &7);
            }
            out
        }
    }

    impl<'a> crate::__private::Decode<'a> for Lies {
        fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
            r.finish()?;
            Ok(Lies::default())
        }
    }

    #[test]
    fn a_vec_is_left_as_it_was_when_the_passes_disagree() {
        for (extra, write) in [(0, 0), (3, 1), (0, 2), (0, 3), (1, 2), (9, 0)] {
            let m = Lies {
                pad: vec![0; extra],
                write,
                ..Lies::default()
            };
            for cap in [0, 2, 100] {
                let mut buf = Vec::with_capacity(cap);
                buf.extend_from_slice(&[1, 2]);
                let e = m.encode(&mut buf).unwrap_err();
                assert_eq!(e.kind(), EncodeErrorKind::SizeMismatch);
                assert_eq!(buf, [1, 2], "extra {extra}, write {write}, cap {cap}");
            }
        }
        let honest = Lies {
            write: 1,
            ..Lies::default()
        };
        assert_eq!(honest.encode_to_vec().unwrap(), [0x00, 0x0E]);
    }
}
