//! Where encoded bytes go.

use alloc::vec::Vec;

/// A destination for encoded bytes.
///
/// Encoding computes the exact length first, then asks the buffer once for that many
/// bytes and fills them, so a buffer only has to hand out one contiguous region.
/// Implemented for `Vec<u8>` (grows) and `&mut [u8]` (fills from the front and advances,
/// like `std::io::Write for &mut [u8]`).
pub trait BufMut {
    /// Append `len` bytes to the buffer and return them for writing, or `None` (changing
    /// nothing) when the buffer cannot hold them.
    fn claim(&mut self, len: usize) -> Option<&mut [u8]>;
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
