//! One field walk per message for both encoding passes.
//!
//! A message's fields are visited by one generated function, `__walk`, generic over the
//! [`Pass`] that visits them: the size pass ([`Sizer`], with or without a size table, and
//! its [`Plain`] form) returns each field's encoded length and the walk sums them; the
//! write pass ([`Writer`], [`PlainWriter`], [`LocalWriter`]) writes each field and
//! returns [`Written`], which sums to nothing. Both passes therefore see the same fields
//! in the same order by construction, for generated and hand-written messages alike:
//! the size and write passes cannot disagree about which fields a value has.
//!
//! Each pass is its own type, so each instantiation of a walk is compiled on its own
//! (as six separate bodies were before): the plain passes have no unknown-record test
//! before each key, `NoTable` records no lengths, and `LocalWriter` keeps the cursor in
//! registers; the walk's source is written once.

use alloc::collections::BTreeMap;
use core::ops::Add;

use super::codec::{Codec, EncodeElement, MapEntries, MapKey, Of};
use super::message::Encode;
use super::sizer::{Plain, Sizer, Table};
use super::writer::{LocalWriter, PlainWriter, Writer};

/// How the passes may run a message's walk when the value has no unknown records to
/// interleave (most values): a message type declares it
/// ([`Encode::WALK`](super::Encode::WALK)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkKind {
    /// Through the checked passes, which test that field numbers ascend: the default,
    /// for hand-written messages.
    Checked,
    /// Through the plain passes ([`Plain`], [`PlainWriter`]), which neither look for
    /// unknown records before each key nor check the order: for generated code, whose
    /// order is fixed when it is generated.
    Plain,
    /// As `Plain`, the write pass through a copy of the writer's state kept in registers
    /// ([`LocalWriter`]): generated code's choice for messages with many scalar fields.
    Local,
}

/// A pass that writes a nested message itself rather than through a codec's `write`
/// (the one-pass writer of the `direct` module, which has no size table): a
/// message-typed codec hands it the message ([`Codec::visit_message`]).
pub trait Nested<'v> {
    /// Write `m` as a nested message: length prefix and content.
    fn message<M: Encode>(&mut self, m: &'v M);
}

/// What a write-pass field call returns: nothing, in a type that sums, so that a walk's
/// body is one sum of field calls for both passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written;

impl Add for Written {
    type Output = Written;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn add(self, _: Written) -> Written {
        Written
    }
}

/// A pass over a message's fields, which a message's `__walk` makes one call to per
/// field, in ascending field number order (oneof members at their own number), and
/// returns the sum of.
///
/// The calls are the field shapes of SPEC §5 and §6: [`implicit`](Self::implicit)
/// (nothing when the value is the default), [`explicit`](Self::explicit) (always),
/// [`optional`](Self::optional), [`repeated`](Self::repeated) (one LEN record) and
/// [`map`](Self::map) / [`map_el`](Self::map_el) (one LEN record of entries in key
/// order). An absent oneof contributes [`Default::default`].
pub trait Pass<'v> {
    /// A field's contribution: its encoded length (`usize`) in the size pass,
    /// [`Written`] in the write pass.
    type Out: Copy + Default + Add<Output = Self::Out>;

    /// An implicit-presence field: nothing when it holds the default (SPEC §5.1).
    fn implicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> Self::Out;

    /// An explicit-presence field: written whatever the value (SPEC §5.2); also proto2
    /// `required` fields and the set member of a oneof.
    fn explicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> Self::Out;

    /// An explicit-presence field held in an `Option`.
    fn optional<C: Codec>(&mut self, number: u32, v: Option<&'v C::Value>) -> Self::Out;

    /// A repeated field: one LEN record, nothing when empty (SPEC §6.1).
    fn repeated<C: Codec>(&mut self, number: u32, vs: &'v [C::Value]) -> Self::Out;

    /// A map: one LEN record of entries, nothing when empty (SPEC §6.3), in the
    /// `BTreeMap`'s order, which is the key order (SPEC §6.4).
    fn map<K: MapKey, V: Codec>(
        &mut self,
        number: u32,
        m: &'v BTreeMap<K::Value, V::Value>,
    ) -> Self::Out;

    /// [`map`](Self::map) by element: `entries` in ascending key order, from any
    /// container (a borrowed twin's [`SortedMap`](crate::SortedMap)).
    fn map_el<K: EncodeElement, V: EncodeElement, I>(
        &mut self,
        number: u32,
        entries: I,
        k: &K,
        v: &V,
    ) -> Self::Out
    where
        K::Value: 'v,
        V::Value: 'v,
        I: MapEntries<'v, K::Value, V::Value>;
}

/// The checked size pass: unknown records interleaved, field order checked.
impl<'v, T: Table> Pass<'v> for Sizer<'v, T> {
    type Out = usize;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn implicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> usize {
        self.implicit_in::<_, false>(number, v, &Of::<C>::NEW)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn explicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> usize {
        self.explicit_in::<_, false>(number, v, &Of::<C>::NEW)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn optional<C: Codec>(&mut self, number: u32, v: Option<&'v C::Value>) -> usize {
        self.optional_in::<_, false>(number, v, &Of::<C>::NEW)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn repeated<C: Codec>(&mut self, number: u32, vs: &'v [C::Value]) -> usize {
        self.repeated_in::<_, false>(number, vs, &Of::<C>::NEW)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map<K: MapKey, V: Codec>(
        &mut self,
        number: u32,
        m: &'v BTreeMap<K::Value, V::Value>,
    ) -> usize {
        self.map_in::<_, _, _, false>(number, m, &Of::<K>::NEW, &Of::<V>::NEW)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map_el<K: EncodeElement, V: EncodeElement, I>(
        &mut self,
        number: u32,
        entries: I,
        k: &K,
        v: &V,
    ) -> usize
    where
        K::Value: 'v,
        V::Value: 'v,
        I: MapEntries<'v, K::Value, V::Value>,
    {
        self.map_in::<K, V, I, false>(number, entries, k, v)
    }
}

/// The size pass over a value without unknown records.
impl<'v, T: Table> Pass<'v> for Plain<'_, 'v, T> {
    type Out = usize;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn implicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> usize {
        self.0.implicit_in::<_, true>(number, v, &Of::<C>::NEW)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn explicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> usize {
        self.0.explicit_in::<_, true>(number, v, &Of::<C>::NEW)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn optional<C: Codec>(&mut self, number: u32, v: Option<&'v C::Value>) -> usize {
        self.0.optional_in::<_, true>(number, v, &Of::<C>::NEW)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn repeated<C: Codec>(&mut self, number: u32, vs: &'v [C::Value]) -> usize {
        self.0.repeated_in::<_, true>(number, vs, &Of::<C>::NEW)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map<K: MapKey, V: Codec>(
        &mut self,
        number: u32,
        m: &'v BTreeMap<K::Value, V::Value>,
    ) -> usize {
        self.0
            .map_in::<_, _, _, true>(number, m, &Of::<K>::NEW, &Of::<V>::NEW)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map_el<K: EncodeElement, V: EncodeElement, I>(
        &mut self,
        number: u32,
        entries: I,
        k: &K,
        v: &V,
    ) -> usize
    where
        K::Value: 'v,
        V::Value: 'v,
        I: MapEntries<'v, K::Value, V::Value>,
    {
        self.0.map_in::<K, V, I, true>(number, entries, k, v)
    }
}

/// The checked write pass.
impl<'v> Pass<'v> for Writer<'_, 'v> {
    type Out = Written;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn implicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> Written {
        self.implicit_in::<_, false>(number, v, &Of::<C>::NEW);
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn explicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> Written {
        self.explicit_in::<_, false>(number, v, &Of::<C>::NEW);
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn optional<C: Codec>(&mut self, number: u32, v: Option<&'v C::Value>) -> Written {
        self.optional_in::<_, false>(number, v, &Of::<C>::NEW);
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn repeated<C: Codec>(&mut self, number: u32, vs: &'v [C::Value]) -> Written {
        self.repeated_in::<_, false>(number, vs, &Of::<C>::NEW);
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map<K: MapKey, V: Codec>(
        &mut self,
        number: u32,
        m: &'v BTreeMap<K::Value, V::Value>,
    ) -> Written {
        self.map_in::<_, _, _, false>(number, m, &Of::<K>::NEW, &Of::<V>::NEW);
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map_el<K: EncodeElement, V: EncodeElement, I>(
        &mut self,
        number: u32,
        entries: I,
        k: &K,
        v: &V,
    ) -> Written
    where
        K::Value: 'v,
        V::Value: 'v,
        I: MapEntries<'v, K::Value, V::Value>,
    {
        self.map_in::<K, V, I, false>(number, entries, k, v);
        Written
    }
}

/// The write pass over a value without unknown records.
impl<'v> Pass<'v> for PlainWriter<'_, '_, 'v> {
    type Out = Written;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn implicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> Written {
        self.0.implicit_in::<_, true>(number, v, &Of::<C>::NEW);
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn explicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> Written {
        self.0.explicit_in::<_, true>(number, v, &Of::<C>::NEW);
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn optional<C: Codec>(&mut self, number: u32, v: Option<&'v C::Value>) -> Written {
        self.0.optional_in::<_, true>(number, v, &Of::<C>::NEW);
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn repeated<C: Codec>(&mut self, number: u32, vs: &'v [C::Value]) -> Written {
        self.0.repeated_in::<_, true>(number, vs, &Of::<C>::NEW);
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map<K: MapKey, V: Codec>(
        &mut self,
        number: u32,
        m: &'v BTreeMap<K::Value, V::Value>,
    ) -> Written {
        self.0
            .map_in::<_, _, _, true>(number, m, &Of::<K>::NEW, &Of::<V>::NEW);
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map_el<K: EncodeElement, V: EncodeElement, I>(
        &mut self,
        number: u32,
        entries: I,
        k: &K,
        v: &V,
    ) -> Written
    where
        K::Value: 'v,
        V::Value: 'v,
        I: MapEntries<'v, K::Value, V::Value>,
    {
        self.0.map_in::<K, V, I, true>(number, entries, k, v);
        Written
    }
}

/// The write pass over a value without unknown records, through a copy of the writer's
/// state kept in registers (see [`LocalWriter`]): fields that open a message, runs and
/// maps go through the caller's writer.
impl<'v> Pass<'v> for LocalWriter<'_, '_, 'v> {
    type Out = Written;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn implicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> Written {
        if C::OPENS_MESSAGE {
            self.outside(|w| w.implicit_in::<_, true>(number, v, &Of::<C>::NEW));
        } else {
            self.w.implicit_in::<_, true>(number, v, &Of::<C>::NEW);
        }
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn explicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> Written {
        if C::OPENS_MESSAGE {
            self.outside(|w| w.explicit_in::<_, true>(number, v, &Of::<C>::NEW));
        } else {
            self.w.explicit_in::<_, true>(number, v, &Of::<C>::NEW);
        }
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn optional<C: Codec>(&mut self, number: u32, v: Option<&'v C::Value>) -> Written {
        if C::OPENS_MESSAGE {
            // Only a present message is written through the caller's writer.
            if let Some(v) = v {
                self.outside(|w| w.explicit_in::<_, true>(number, v, &Of::<C>::NEW));
            }
        } else {
            self.w.optional_in::<_, true>(number, v, &Of::<C>::NEW);
        }
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn repeated<C: Codec>(&mut self, number: u32, vs: &'v [C::Value]) -> Written {
        if !vs.is_empty() {
            self.outside(|w| w.repeated_in::<_, true>(number, vs, &Of::<C>::NEW));
        }
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map<K: MapKey, V: Codec>(
        &mut self,
        number: u32,
        m: &'v BTreeMap<K::Value, V::Value>,
    ) -> Written {
        if !m.is_empty() {
            self.outside(|w| w.map_in::<_, _, _, true>(number, m, &Of::<K>::NEW, &Of::<V>::NEW));
        }
        Written
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map_el<K: EncodeElement, V: EncodeElement, I>(
        &mut self,
        number: u32,
        entries: I,
        k: &K,
        v: &V,
    ) -> Written
    where
        K::Value: 'v,
        V::Value: 'v,
        I: MapEntries<'v, K::Value, V::Value>,
    {
        if !entries.is_empty() {
            self.outside(|w| w.map_in::<K, V, I, true>(number, entries, k, v));
        }
        Written
    }
}
