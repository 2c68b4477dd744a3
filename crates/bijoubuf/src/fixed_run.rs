//! [`FixedRun`]: a repeated fixed-width field of a borrowed twin, read in place.

use alloc::vec::Vec;
use core::fmt;
use core::hash::{Hash, Hasher};

mod sealed {
    pub trait Sealed {}
}

/// The element types of fixed-width repeated fields: `fixed32` (`u32`), `sfixed32`
/// (`i32`), `fixed64` (`u64`), `sfixed64` (`i64`), `float` (`f32`), `double` (`f64`).
/// Each is written as its big-endian bytes (SPEC §3.4, §3.5).
pub trait FixedWidth: Copy + sealed::Sealed {
    /// Bytes per element on the wire.
    const WIDTH: usize;
    /// Some wire words are refused (`float`, `double`: a NaN other than the one,
    /// SPEC §3.5); for the integer types every word is a value.
    #[doc(hidden)]
    const CHECKED: bool;
    /// The element whose wire bytes are `b` (`b.len()` is [`WIDTH`](Self::WIDTH)).
    #[doc(hidden)]
    fn from_wire(b: &[u8]) -> Self;
    /// False for wire bytes `b` that no element is written as (`b.len()` is
    /// [`WIDTH`](Self::WIDTH)): a NaN other than the one (SPEC §3.5); always true where
    /// [`CHECKED`](Self::CHECKED) is false. The rule is the codecs' (`f32_bits_ok`,
    /// `f64_bits_ok`), so a twin's run is judged as the owned decoder judges it.
    #[doc(hidden)]
    fn wire_ok(b: &[u8]) -> bool;
}

macro_rules! fixed_width {
    ($($ty:ty: $checked:literal, |$b:ident| $ok:expr);* $(;)?) => {$(
        impl sealed::Sealed for $ty {}
        impl FixedWidth for $ty {
            const WIDTH: usize = core::mem::size_of::<$ty>();
            const CHECKED: bool = $checked;
            #[inline(always)]
            fn from_wire(b: &[u8]) -> Self {
                let mut w = [0u8; core::mem::size_of::<$ty>()];
                w.copy_from_slice(b);
                <$ty>::from_be_bytes(w)
            }
            #[inline(always)]
            #[allow(unused_variables)]
            fn wire_ok($b: &[u8]) -> bool {
                $ok
            }
        }
    )*};
}

fixed_width!(
    u32: false, |b| true;
    i32: false, |b| true;
    u64: false, |b| true;
    i64: false, |b| true;
    f32: true, |b| crate::__private::f32_bits_ok(u32::from_wire(b));
    f64: true, |b| crate::__private::f64_bits_ok(u64::from_wire(b));
);

/// A repeated `fixed32`, `sfixed32`, `fixed64`, `sfixed64`, `float` or `double` field of a
/// borrowed twin (`MRef<'a>`): the elements where they are, in the input's bytes or in a
/// slice of values.
///
/// Decoding a twin checks such a run as the owned type's decoder does (its length, and
/// for `float` and `double` the one NaN, SPEC §3.5, §6.2) and keeps a view of its bytes:
/// no vector, no copy. Elements are converted when read ([`get`](Self::get),
/// [`iter`](Self::iter)). A run made from values (`FixedRun::from(&values[..])`, or
/// `Foo::borrowed`) views those values instead. Either way the twin encodes to the bytes
/// of its owned value: a decoded run's bytes are written back as they are.
///
/// ```
/// use bijoubuf::FixedRun;
///
/// let values = [1.5f64, -2.0];
/// let run = FixedRun::from(&values[..]);
/// assert_eq!(run.len(), 2);
/// assert_eq!(run.get(1), Some(-2.0));
/// assert_eq!(run.iter().sum::<f64>(), -0.5);
/// assert_eq!(run.to_vec(), values);
/// ```
pub struct FixedRun<'a, T> {
    repr: Repr<'a, T>,
}

enum Repr<'a, T> {
    /// Big-endian elements, a whole number of them.
    Wire(&'a [u8]),
    Values(&'a [T]),
}

impl<T> Clone for Repr<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Repr<'_, T> {}

impl<T> Clone for FixedRun<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for FixedRun<'_, T> {}

impl<'a, T: FixedWidth> FixedRun<'a, T> {
    /// An empty run.
    #[must_use]
    pub const fn new() -> Self {
        FixedRun {
            repr: Repr::Values(&[]),
        }
    }

    /// A view of the checked wire bytes of a run: a whole number of elements.
    pub(crate) fn from_wire(bytes: &'a [u8]) -> Self {
        debug_assert_eq!(bytes.len() % T::WIDTH, 0);
        FixedRun {
            repr: Repr::Wire(bytes),
        }
    }

    /// The number of elements.
    #[must_use]
    pub fn len(&self) -> usize {
        match self.repr {
            Repr::Wire(b) => b.len() / T::WIDTH,
            Repr::Values(v) => v.len(),
        }
    }

    /// True when the run has no elements.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i`, or `None` past the end.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<T> {
        match self.repr {
            Repr::Wire(b) => b
                .get(i.checked_mul(T::WIDTH)?..)
                .and_then(|rest| rest.get(..T::WIDTH))
                .map(T::from_wire),
            Repr::Values(v) => v.get(i).copied(),
        }
    }

    /// The elements in order.
    pub fn iter(&self) -> Iter<'a, T> {
        Iter {
            repr: match self.repr {
                Repr::Wire(b) => IterRepr::Wire(b.chunks_exact(T::WIDTH)),
                Repr::Values(v) => IterRepr::Values(v.iter()),
            },
        }
    }

    /// The elements in a vector.
    #[must_use]
    pub fn to_vec(&self) -> Vec<T> {
        match self.repr {
            Repr::Wire(_) => self.iter().collect(),
            Repr::Values(v) => v.to_vec(),
        }
    }

    /// For generated encoders: the wire bytes of a decoded run (`Ok`), or the values a run
    /// was made from (`Err`).
    #[doc(hidden)]
    pub fn __parts(&self) -> Result<&&'a [u8], &&'a [T]> {
        match &self.repr {
            Repr::Wire(b) => Ok(b),
            Repr::Values(v) => Err(v),
        }
    }
}

impl<T: FixedWidth> Default for FixedRun<'_, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a, T: FixedWidth> From<&'a [T]> for FixedRun<'a, T> {
    fn from(values: &'a [T]) -> Self {
        FixedRun {
            repr: Repr::Values(values),
        }
    }
}

impl<'a, T: FixedWidth> From<&'a Vec<T>> for FixedRun<'a, T> {
    fn from(values: &'a Vec<T>) -> Self {
        Self::from(values.as_slice())
    }
}

impl<'a, T: FixedWidth, const N: usize> From<&'a [T; N]> for FixedRun<'a, T> {
    fn from(values: &'a [T; N]) -> Self {
        Self::from(values.as_slice())
    }
}

impl<T: FixedWidth + fmt::Debug> fmt::Debug for FixedRun<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Element by element, as `Vec<T>` compares: a decoded run equals a run of the same
/// values made from a slice (and, as for `Vec<f64>`, a NaN equals nothing).
impl<T: FixedWidth + PartialEq> PartialEq for FixedRun<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: FixedWidth + Eq> Eq for FixedRun<'_, T> {}

/// The length, then each element: equal runs hash alike whether they view wire bytes or
/// values.
impl<T: FixedWidth + Hash> Hash for FixedRun<'_, T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len());
        for v in self.iter() {
            v.hash(state);
        }
    }
}

impl<'a, T: FixedWidth> IntoIterator for FixedRun<'a, T> {
    type Item = T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: FixedWidth> IntoIterator for &FixedRun<'a, T> {
    type Item = T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The elements of a [`FixedRun`], in order.
#[derive(Clone)]
pub struct Iter<'a, T> {
    repr: IterRepr<'a, T>,
}

#[derive(Clone)]
enum IterRepr<'a, T> {
    Wire(core::slice::ChunksExact<'a, u8>),
    Values(core::slice::Iter<'a, T>),
}

impl<T: FixedWidth> Iterator for Iter<'_, T> {
    type Item = T;
    #[inline]
    fn next(&mut self) -> Option<T> {
        match &mut self.repr {
            IterRepr::Wire(c) => c.next().map(T::from_wire),
            IterRepr::Values(v) => v.next().copied(),
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.repr {
            IterRepr::Wire(c) => c.size_hint(),
            IterRepr::Values(v) => v.size_hint(),
        }
    }
}

impl<T: FixedWidth> DoubleEndedIterator for Iter<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        match &mut self.repr {
            IterRepr::Wire(c) => c.next_back().map(T::from_wire),
            IterRepr::Values(v) => v.next_back().copied(),
        }
    }
}

impl<T: FixedWidth> ExactSizeIterator for Iter<'_, T> {}

#[cfg(test)]
mod tests {
    use super::FixedRun;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn a_wire_run_reads_big_endian_elements() {
        let bytes = [0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFE, 0x3F, 0xC0, 0, 0];
        let ints = FixedRun::<i32>::from_wire(&bytes);
        assert_eq!(ints.len(), 3);
        assert_eq!(ints.to_vec(), vec![1, -2, 0x3FC0_0000]);
        assert_eq!(ints.get(1), Some(-2));
        assert_eq!(ints.get(3), None);
        assert_eq!(ints.get(usize::MAX), None);
        assert_eq!(
            ints.iter().rev().collect::<Vec<_>>(),
            vec![0x3FC0_0000, -2, 1]
        );
        let floats = FixedRun::<f32>::from_wire(&bytes[8..]);
        assert_eq!(floats.to_vec(), vec![1.5]);
        let longs = FixedRun::<u64>::from_wire(&bytes[..8]);
        assert_eq!(longs.get(0), Some(0x0000_0001_FFFF_FFFE));
    }

    #[test]
    fn wire_and_value_runs_of_the_same_elements_are_equal() {
        let bytes = [0, 0, 0, 7, 0, 0, 0, 9];
        let values = [7u32, 9];
        let a = FixedRun::<u32>::from_wire(&bytes);
        let b = FixedRun::from(&values);
        assert_eq!(a, b);
        assert_ne!(a, FixedRun::from(&[7u32][..]));
        assert_eq!(alloc::format!("{a:?}"), "[7, 9]");
        assert!(FixedRun::<u32>::default().is_empty());
        assert!(a.__parts().is_ok() && b.__parts().is_err());
    }

    #[test]
    fn equal_runs_hash_alike_and_iterate_with_an_exact_length() {
        use core::hash::BuildHasher;
        let bytes = [0, 0, 0, 7, 0, 0, 0, 9, 0, 0, 0, 11];
        let values = [7u32, 9, 11];
        let a = FixedRun::<u32>::from_wire(&bytes);
        let b = FixedRun::from(&values);
        let state = std::hash::RandomState::new();
        let hash = |r: &FixedRun<'_, u32>| state.hash_one(r);
        assert_eq!(hash(&a), hash(&b));
        assert_ne!(hash(&a), hash(&FixedRun::from(&values[..2])));
        for r in [a, b] {
            let mut it = r.iter();
            assert_eq!(it.len(), 3);
            assert_eq!(it.next_back(), Some(11));
            assert_eq!(it.next(), Some(7));
            assert_eq!(it.len(), 1);
            assert_eq!(r.into_iter().collect::<Vec<_>>(), values);
            assert_eq!((&r).into_iter().rev().collect::<Vec<_>>(), [11, 9, 7]);
        }
    }
}
