//! The reads of a *dispatch* decoder: the second shape of generated `__decode`.
//!
//! The walk (the parent module) asks for every declared field in number order, so a
//! message with many declared fields pays a question per field even when its input holds
//! a few of them. A dispatch decoder starts from the type's default and asks the input
//! instead: [`Reader::record`] reads the next key and gives its field number, a `match`
//! on the number picks the field (a jump table), and the field's arm hands its member to
//! one of the shared reads below (`implicit_here`, `optional_here`, …), or the number to
//! [`Reader::unknown_here`]. Absent fields cost nothing.
//!
//! The reads are out of line and generic over the codec only (never over the field), so
//! every field of one shape and codec in a program shares one copy: what keeps a
//! dispatch decoder small. Each keeps the walk's checks, with the same error kind, byte
//! offset and field path: the wire type and the depth limit at the key, then the value's
//! own checks, then the shape's (`default-value-present`, `oneof-conflict`,
//! `empty-repeated`, …). Keys are delta-encoded (SPEC §4.1), so numbers ascend: each
//! arm runs at most once per message, and records reach the decoder in byte order, as
//! they reach the walk. Proto2 `required` fields are checked by the generated code after
//! [`finish`](Reader::finish), in number order, with [`require`](Reader::require), as the
//! walk checks them.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::{Reader, SLACK, WireType, field_error, wire_mismatch};
use crate::__private::codec::{MapKey, Of, ReadCodec};
use crate::error::{DecodeError, ErrorKind};

impl<'a> Reader<'a> {
    /// The number of the next record of the current message, its key read (the key's
    /// offset and wire type kept for the read that follows); `0` at the end of the
    /// message. A key past the largest field number is `field-number-overflow` at the
    /// key (SPEC §4.3).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn record(&mut self) -> Result<u32, DecodeError> {
        let at = self.pos;
        // The end of the message is the same bounds check as the key's first byte.
        let Some(&tag) = self.cur.get(at) else {
            return Ok(0);
        };
        let v = if tag < bijou64::FIRST_TIER_TAG {
            self.pos = at + 1;
            tag as u64
        } else {
            self.varint_wide(at)?
        };
        let (number, wire) = self.key_of(at, v)?;
        self.next_wire = wire;
        Ok(number)
    }

    /// The record whose key [`record`](Self::record) just read is not a field of the
    /// message: refused (`unknown-field` at its key, SPEC §8.1) or kept (SPEC §8.2), as
    /// the walk disposes of it.
    #[cold]
    #[inline(never)]
    pub fn unknown_here(&mut self, number: u32) -> Result<(), DecodeError> {
        self.next = number;
        self.unknown_record()
    }

    /// The record handed out has wire type `wire` (SPEC §4.4), and, when it opens a
    /// message, the message is within the depth limit (SPEC §9.3): the checks at the
    /// key, before the value, in the walk's order.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn here(
        &self,
        wire: WireType,
        opens_message: bool,
        name: &'static str,
    ) -> Result<(), DecodeError> {
        if self.next_wire != wire as u8 {
            // SPEC §4.4
            return Err(wire_mismatch(self.key_pos, name));
        }
        if opens_message {
            self.check_depth(name)?;
        }
        Ok(())
    }

    /// An implicit-presence field's record (SPEC §5.1) read into `v`, which holds the
    /// default: a record holding the default is `default-value-present` at its key.
    #[inline(never)]
    pub fn implicit_here<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        v: &mut C::Value,
    ) -> Result<(), DecodeError> {
        self.implicit_in::<C>(name, v)
    }

    /// [`implicit_here`](Self::implicit_here) inlined: the body the table's reads share.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn implicit_in<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        v: &mut C::Value,
    ) -> Result<(), DecodeError> {
        self.here(C::WIRE, C::OPENS_MESSAGE, name)?;
        let key = self.key_pos;
        *v = C::read(self).map_err(|e| e.in_field(name))?;
        Self::not_default(key, C::is_default(v), name)
    }

    /// An explicit-presence field's record (SPEC §5.2) read into the empty `v` (a
    /// message where it lies).
    #[inline(never)]
    pub fn optional_here<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        v: &mut Option<C::Value>,
    ) -> Result<(), DecodeError> {
        self.optional_in::<C>(name, v)
    }

    /// [`optional_here`](Self::optional_here) inlined: the body the table's reads share.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn optional_in<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        v: &mut Option<C::Value>,
    ) -> Result<(), DecodeError> {
        self.here(C::WIRE, C::OPENS_MESSAGE, name)?;
        C::read_some(self, v).map_err(|e| e.in_field(name))
    }

    /// A proto2 `required` field's record read into `v`; the generated code notes that
    /// it was present and checks after [`finish`](Self::finish) (SPEC §5.3).
    #[inline(never)]
    pub fn required_here<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        v: &mut C::Value,
    ) -> Result<(), DecodeError> {
        self.required_in::<C>(name, v)
    }

    /// [`required_here`](Self::required_here) inlined: the body the table's reads share.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn required_in<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        v: &mut C::Value,
    ) -> Result<(), DecodeError> {
        self.here(C::WIRE, C::OPENS_MESSAGE, name)?;
        *v = C::read(self).map_err(|e| e.in_field(name))?;
        Ok(())
    }

    /// A oneof member's record (SPEC §5.4): `taken` says a member was read before, and
    /// then this one is `oneof-conflict` at its key, after the wire type is checked and
    /// before the value is read.
    #[inline(never)]
    pub fn oneof_here<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        taken: bool,
    ) -> Result<C::Value, DecodeError> {
        if self.next_wire != C::WIRE as u8 {
            // SPEC §4.4
            return Err(wire_mismatch(self.key_pos, name));
        }
        if taken {
            // SPEC §5.4
            return Err(field_error(ErrorKind::OneofConflict, self.key_pos, name));
        }
        if C::OPENS_MESSAGE {
            self.check_depth(name)?;
        }
        C::read(self).map_err(|e| e.in_field(name))
    }

    /// A repeated field's record (SPEC §6.1, §6.2) read into the empty `out`.
    #[inline(never)]
    pub fn repeated_here<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        out: &mut Vec<C::Value>,
    ) -> Result<(), DecodeError> {
        self.repeated_in::<C>(name, out)
    }

    /// [`repeated_here`](Self::repeated_here) inlined: the body the table's reads share.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn repeated_in<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        out: &mut Vec<C::Value>,
    ) -> Result<(), DecodeError> {
        self.here(WireType::Len, C::OPENS_MESSAGE, name)?;
        let run_end = self.run_here(name, C::FIXED)?;
        self.run_into(run_end, name, &Of::<C>::NEW, out)?;
        // As `repeated_el`: a varint run of long values gives back its excess.
        if out.capacity() > SLACK * out.len() {
            out.shrink_to_fit();
        }
        Ok(())
    }

    /// A repeated fixed-width field's record as a view of its bytes (borrowed twins).
    #[inline(never)]
    pub fn fixed_run_here<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
    ) -> Result<crate::FixedRun<'a, C::Value>, DecodeError>
    where
        C::Value: crate::FixedWidth,
    {
        self.fixed_run_in::<C>(name)
    }

    /// [`fixed_run_here`](Self::fixed_run_here) inlined: the body the table's reads share.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn fixed_run_in<C: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
    ) -> Result<crate::FixedRun<'a, C::Value>, DecodeError>
    where
        C::Value: crate::FixedWidth,
    {
        self.here(WireType::Len, false, name)?;
        let run_end = self.run_here(name, C::FIXED)?;
        self.fixed_run_at::<C>(run_end, name)
    }

    /// A map field's record (SPEC §6.3, §6.4) read into the empty tree `out`.
    #[inline(never)]
    pub fn map_here<K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        out: &mut BTreeMap<K::Value, V::Value>,
    ) -> Result<(), DecodeError> {
        self.map_in::<K, V>(name, out)
    }

    /// [`map_here`](Self::map_here) inlined: the body the table's reads share.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn map_in<K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
        out: &mut BTreeMap<K::Value, V::Value>,
    ) -> Result<(), DecodeError> {
        self.here(WireType::Len, V::OPENS_MESSAGE, name)?;
        let run_end = self.run_here(name, None)?;
        self.map_at(run_end, name, &Of::<K>::NEW, &Of::<V>::NEW, out)
    }

    /// A map field's record as a [`SortedMap`](crate::SortedMap) (borrowed twins).
    #[inline(never)]
    pub fn sorted_map_here<K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
    ) -> Result<crate::SortedMap<K::Value, V::Value>, DecodeError> {
        self.sorted_map_in::<K, V>(name)
    }

    /// [`sorted_map_here`](Self::sorted_map_here) inlined: the body the table's reads share.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn sorted_map_in<K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
        &mut self,
        name: &'static str,
    ) -> Result<crate::SortedMap<K::Value, V::Value>, DecodeError> {
        self.here(WireType::Len, V::OPENS_MESSAGE, name)?;
        let run_end = self.run_here(name, None)?;
        let entries = self.map_el_at(run_end, name, &Of::<K>::NEW, &Of::<V>::NEW)?;
        Ok(crate::SortedMap::from_ordered(entries))
    }
}
