//! What the encoding passes and the decoder need of a message type, split so that
//! borrowed message types (which cannot implement [`Message`]: their values borrow from
//! the input they were decoded from) go through the very same passes.
//!
//! Every [`Message`] is both, through the blanket impls below. A borrowed type
//! (`FooRef<'a>`, generated next to an owned `Foo`) implements [`Encode`] and
//! [`Decode<'a>`] itself, and the public [`MessageRef`](crate::MessageRef).

use super::reader::Reader;
use super::sizer::{NoTable, Sizer};
use super::writer::Writer;
use crate::Message;
use crate::error::DecodeError;
use crate::unknown::UnknownFields;

/// The size and write passes over a message value; not API.
///
/// The contract is `Message`'s (see the module docs of [`__private`](super)): `__size`
/// and `__write` visit the same fields in ascending number order. Only `__size` and
/// `__write` are required; the others default to them.
pub trait Encode: Sized {
    /// The declared field numbers, ascending: preserved unknown records may not use
    /// them (SPEC §8.2).
    const FIELD_NUMBERS: &'static [u32];

    /// Unknown records kept by a preserving decode, re-emitted by the passes.
    fn __unknown(&self) -> &UnknownFields;

    /// Content length, recording nested lengths.
    fn __size<'v>(&'v self, s: &mut Sizer<'v>) -> usize;

    /// Content length without recording nested lengths.
    #[inline]
    fn __len<'v>(&'v self, s: &mut Sizer<'v, NoTable>) -> usize {
        s.recorded(self)
    }

    /// `__size` for a value without unknown records.
    #[inline]
    fn __size_plain<'v>(&'v self, s: &mut Sizer<'v>) -> usize {
        self.__size(s)
    }

    /// `__len` for a value without unknown records.
    #[inline]
    fn __len_plain<'v>(&'v self, s: &mut Sizer<'v, NoTable>) -> usize {
        self.__len(s)
    }

    /// Write the content.
    fn __write<'v>(&'v self, w: &mut Writer<'_, 'v>);

    /// `__write` for a value without unknown records.
    #[inline]
    fn __write_plain<'v>(&'v self, w: &mut Writer<'_, 'v>) {
        self.__write(w)
    }
}

/// Reading a message value from input that lives for `'a`; not API. One method: the
/// generated straight-line decode (the reader's contract is `Message::__decode`'s).
pub trait Decode<'a>: Sized {
    /// The short type name, the root of error paths.
    const NAME: &'static str;
    /// Whether values keep unknown records (see `Message::KEEPS_UNKNOWN_FIELDS`).
    const KEEPS_UNKNOWN_FIELDS: bool;

    /// Read the content.
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError>;

    /// Read the content into `self`, reusing its allocations where the type knows how
    /// (`Message::__decode_into`); the default decodes a new value.
    #[inline]
    fn __decode_into(&mut self, r: &mut Reader<'a>) -> Result<(), DecodeError> {
        *self = Self::__decode(r)?;
        Ok(())
    }
}

impl<M: Message> Encode for M {
    const FIELD_NUMBERS: &'static [u32] = <M as Message>::FIELD_NUMBERS;

    #[inline(always)]
    fn __unknown(&self) -> &UnknownFields {
        <M as Message>::unknown_fields(self)
    }
    #[inline(always)]
    fn __size<'v>(&'v self, s: &mut Sizer<'v>) -> usize {
        <M as Message>::__size(self, s)
    }
    #[inline(always)]
    fn __len<'v>(&'v self, s: &mut Sizer<'v, NoTable>) -> usize {
        <M as Message>::__len(self, s)
    }
    #[inline(always)]
    fn __size_plain<'v>(&'v self, s: &mut Sizer<'v>) -> usize {
        <M as Message>::__size_plain(self, s)
    }
    #[inline(always)]
    fn __len_plain<'v>(&'v self, s: &mut Sizer<'v, NoTable>) -> usize {
        <M as Message>::__len_plain(self, s)
    }
    #[inline(always)]
    fn __write<'v>(&'v self, w: &mut Writer<'_, 'v>) {
        <M as Message>::__write(self, w)
    }
    #[inline(always)]
    fn __write_plain<'v>(&'v self, w: &mut Writer<'_, 'v>) {
        <M as Message>::__write_plain(self, w)
    }
}

impl<'a, M: Message> Decode<'a> for M {
    const NAME: &'static str = <M as Message>::NAME;
    const KEEPS_UNKNOWN_FIELDS: bool = <M as Message>::KEEPS_UNKNOWN_FIELDS;

    #[inline(always)]
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        <M as Message>::__decode(r)
    }
    #[inline(always)]
    fn __decode_into(&mut self, r: &mut Reader<'a>) -> Result<(), DecodeError> {
        <M as Message>::__decode_into(self, r)
    }
}
