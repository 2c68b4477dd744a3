//! What the encoding passes and the decoder need of a message type, split so that
//! borrowed message types (which cannot implement [`Message`]: their values borrow from
//! the input they were decoded from) go through the very same passes.
//!
//! Every [`Message`] is both, through the blanket impls below. A borrowed type
//! (`FooRef<'a>`, generated next to an owned `Foo`) implements [`Encode`] and
//! [`Decode<'a>`] itself, and the public [`MessageRef`](crate::MessageRef).

use super::pass::{Pass, WalkKind};
use super::reader::Reader;
use crate::Message;
use crate::error::DecodeError;
use crate::unknown::UnknownFields;

/// The size and write passes over a message value; not API.
///
/// The contract is `Message`'s (see the module docs of [`__private`](super)): `__walk`
/// makes one [`Pass`] call per field, in ascending number order, and returns their sum;
/// both passes run it, so they visit the same fields.
pub trait Encode: Sized {
    /// The declared field numbers, ascending: preserved unknown records may not use
    /// them (SPEC §8.2).
    const FIELD_NUMBERS: &'static [u32];

    /// Which passes run `__walk` for a value without unknown records (see
    /// [`WalkKind`]): the checked ones unless the type says otherwise.
    const WALK: WalkKind = WalkKind::Checked;

    /// Unknown records kept by a preserving decode, re-emitted by the passes.
    fn __unknown(&self) -> &UnknownFields;

    /// Visit the fields with pass `p`: one call per field, ascending, summed.
    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out;
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
    const WALK: WalkKind = <M as Message>::__WALK;

    #[inline(always)]
    fn __unknown(&self) -> &UnknownFields {
        <M as Message>::unknown_fields(self)
    }
    #[inline(always)]
    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        <M as Message>::__walk(self, p)
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
