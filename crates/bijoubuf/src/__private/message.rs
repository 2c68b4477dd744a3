//! The hidden contract between generated code and this crate, declared once for owned
//! message types and borrowed twins alike: [`Encode`] (the walk both encoding passes
//! run) and [`Decode<'a>`] (the straight-line decode from input that lives for `'a`).
//!
//! An owned type `Foo` implements both (`Decode<'a>` for every `'a`) and the public
//! [`Message`], which holds the schema's facts (names, field numbers) and the public
//! API; a borrowed twin `FooRef<'a>` implements both and the public
//! [`MessageRef<'a>`](crate::MessageRef), and takes the schema's facts from `Foo`
//! through [`Encode::Schema`]. The public API is written once, on
//! [`AnyMessage<'a>`](crate::AnyMessage), for every type with this contract.

use alloc::vec::Vec;

use super::pass::{Pass, WalkKind};
use super::reader::Reader;
use crate::Message;
use crate::error::DecodeError;
use crate::unknown::UnknownFields;

/// The size and write passes over a message value; not API.
///
/// `__walk` makes one [`Pass`] call per field, in ascending number order, and returns
/// their sum (see the module docs of [`__private`](super)); both passes run it, so
/// they visit the same fields.
pub trait Encode {
    /// The owned message type whose schema this type follows: `Self` for an owned
    /// type, the owned twin for a borrowed one. Its [`Message::NAME`],
    /// [`Message::FIELD_NUMBERS`] and [`Message::KEEPS_UNKNOWN_FIELDS`] are this
    /// type's.
    type Schema: Message;

    /// Which passes run `__walk` for a value without unknown records (see
    /// [`WalkKind`]): the checked ones unless the type says otherwise.
    const WALK: WalkKind = WalkKind::Checked;

    /// Unknown records kept by a preserving decode, re-emitted by the passes. The
    /// default is the empty set of a type without unknown-field storage, which is what
    /// [`Message::KEEPS_UNKNOWN_FIELDS`]'s default (`false`) says: a type that keeps them
    /// sets that to `true` and returns its storage here.
    #[inline]
    fn __unknown(&self) -> &UnknownFields {
        static EMPTY: UnknownFields = UnknownFields::new();
        &EMPTY
    }

    /// Visit the fields with pass `p`: one call per field, ascending, summed.
    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out;
}

/// Reading a message value from input that lives for `'a`; not API. `__decode`
/// requests each known field once, ascending (or dispatches on each record's number),
/// then calls [`Reader::finish`] and the `require` checks (see the module docs of
/// [`__private`](super)).
pub trait Decode<'a>: Encode + Sized {
    /// Read the content.
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError>;

    /// Read the whole input as the top-level message: the content, then the test that
    /// every record was read, an error rooted at the type's name. The default is
    /// [`Reader::top_by_value`] (`__decode`, then the test). Generated dispatch and table
    /// types read into a default where their result is returned
    /// ([`Reader::top_in_place`]), so that, called last by the public `decode`, their
    /// value is copied once on its way to the caller; through `__decode`, which builds it
    /// in its own frame, and the default it was copied twice. An override ends in one of
    /// the two, which make the test and root the error.
    #[inline]
    fn __decode_top(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        r.top_by_value()
    }

    /// Read the content into `self`, reusing its allocations where the type knows how
    /// (generated types, owned and twins, read each field in place); the default decodes a new
    /// value.
    #[inline]
    fn __decode_into(&mut self, r: &mut Reader<'a>) -> Result<(), DecodeError> {
        *self = Self::__decode(r)?;
        Ok(())
    }

    /// Read the content as a new last element of `out` (a repeated field's element). The
    /// default pushes a decoded value; generated types (owned and twins) push their default
    /// and read into it where it lies ([`push_in_place`]), so a message is not built aside and
    /// copied into the vector. On error the element may have been pushed: the caller
    /// truncates.
    #[inline]
    fn __decode_push(r: &mut Reader<'a>, out: &mut Vec<Self>) -> Result<(), DecodeError> {
        out.push(Self::__decode(r)?);
        Ok(())
    }

    /// Read the content into the empty `v` (an explicit-presence field read into a value,
    /// [`Reader::optional_into`]); generated types read in place
    /// ([`some_in_place`]), as [`__decode_push`](Self::__decode_push) does.
    #[inline]
    fn __decode_some(r: &mut Reader<'a>, v: &mut Option<Self>) -> Result<(), DecodeError> {
        *v = Some(Self::__decode(r)?);
        Ok(())
    }
}

/// A generated type's [`Decode::__decode_push`]: the default pushed, then read into
/// where it lies.
#[inline(always)]
pub fn push_in_place<'a, M: Decode<'a> + Default>(
    r: &mut Reader<'a>,
    out: &mut Vec<M>,
) -> Result<(), DecodeError> {
    push_default(out);
    match out.last_mut() {
        Some(m) => m.__decode_into(r),
        None => Ok(()),
    }
}

/// A dispatch decoder's [`Decode::__decode_push`]: the default pushed as
/// [`push_in_place`] pushes it (no copy through the stack), handed back to be read
/// into.
#[inline(always)]
pub fn pushed_default<M: Default>(out: &mut Vec<M>) -> Option<&mut M> {
    push_default(out);
    out.last_mut()
}

/// Append `M::default()` to `out`, written straight into the vector's first free slot.
///
/// Why not `out.push(M::default())`: `push` builds the value before it knows where it
/// goes (it may grow the vector first), so the default was built on the stack and
/// copied into the slot whole (a `KeyValueRef`'s 128 bytes: about 25 instructions per
/// element; a `LogRecordRef`'s, a `memcpy` call). `resize_with` writes in place but was
/// not inlined (an out-of-line call per element, more instructions than the copy).
/// Both measured in benches/RESULTS.md. A test compares the vector with one pushed to.
#[allow(unsafe_code)]
#[inline(always)]
pub(crate) fn push_default<M: Default>(out: &mut Vec<M>) {
    if out.len() == out.capacity() {
        out.reserve(1);
    }
    let len = out.len();
    if let Some(slot) = out.spare_capacity_mut().first_mut() {
        slot.write(M::default());
        // SAFETY: the slot at index `len`, within the capacity, was just written, so
        // the first `len + 1` elements are initialized.
        unsafe { out.set_len(len + 1) };
    }
}

/// A generated type's [`Decode::__decode_some`]: the default put in `v`, then read
/// into where it lies.
#[inline(always)]
pub fn some_in_place<'a, M: Decode<'a> + Default>(
    r: &mut Reader<'a>,
    v: &mut Option<M>,
) -> Result<(), DecodeError> {
    v.insert(M::default()).__decode_into(r)
}

/// The short type name of `M`'s schema, the root of error paths.
#[inline(always)]
pub(crate) const fn name<M: Encode>() -> &'static str {
    <M::Schema as Message>::NAME
}

/// Whether values of `M` keep unknown records (`Message::KEEPS_UNKNOWN_FIELDS`).
#[inline(always)]
pub(crate) const fn keeps_unknown<M: Encode>() -> bool {
    <M::Schema as Message>::KEEPS_UNKNOWN_FIELDS
}

/// The declared field numbers of `M`'s schema, ascending (`Message::FIELD_NUMBERS`).
#[inline(always)]
pub(crate) const fn field_numbers<M: Encode>() -> &'static [u32] {
    <M::Schema as Message>::FIELD_NUMBERS
}

#[cfg(test)]
mod tests {
    use super::push_default;
    use alloc::string::String;
    use alloc::vec::Vec;

    #[test]
    fn push_default_appends_as_push_does() {
        // From empty, at capacity (grows), with room to spare, and after a truncate.
        let mut a: Vec<(String, u64, Vec<u8>)> = Vec::new();
        let mut b: Vec<(String, u64, Vec<u8>)> = Vec::new();
        for i in 0..40 {
            push_default(&mut a);
            b.push(Default::default());
            if let (Some(x), Some(y)) = (a.last_mut(), b.last_mut()) {
                x.0.push('v');
                x.1 = i;
                y.0.push('v');
                y.1 = i;
            }
            if i % 7 == 6 {
                a.truncate(a.len() - 2);
                b.truncate(b.len() - 2);
            }
            assert_eq!(a, b);
        }
        let mut c: Vec<u8> = Vec::with_capacity(3);
        push_default(&mut c);
        assert_eq!((c.len(), c.capacity(), c.as_slice()), (1, 3, &[0u8][..]));
    }
}
