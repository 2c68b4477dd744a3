//! Building blocks for generated code. **Not API**: no stability promise, hidden from the
//! docs, may change in any release together with the code generator.
//!
//! Generated code implements the hidden contract, [`Encode`] and [`Decode<'a>`](Decode),
//! with two straight-line functions over these types, one call per field in ascending
//! field number: a walk that both encoding passes run, generic over the [`Pass`], and
//! the decode. The contract is declared once, for owned types and borrowed twins alike.
//!
//! ```ignore
//! fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
//!     p.implicit::<Int32>(1, &self.id) + p.optional::<Msg<Child>>(2, self.child.as_ref())
//! }
//! fn __decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
//!     let id = r.implicit::<Int32>(1, "id")?;
//!     let child = r.optional::<Msg<Child>>(2, "child")?;
//!     let unknown_fields = r.finish()?;
//!     Ok(Self { id, child, unknown_fields })
//! }
//! ```
//!
//! The size pass (a [`Sizer`], with a size table or with [`NoTable`] for `encoded_len`)
//! returns each field's length and the walk sums them; the write pass (a [`Writer`])
//! writes each field and returns [`Written`], which sums to nothing. One walk, so the
//! passes visit the same fields: they cannot disagree unless a hand-written walk asks
//! which pass runs it. For a value without unknown records the passes run the walk in
//! their plain forms (no unknown-record test and no order check before each key) when
//! the type declares [`WalkKind::Plain`] or [`WalkKind::Local`], as generated code does;
//! a hand-written type keeps the default, [`WalkKind::Checked`].
//!
//! The contract, per message:
//!
//! - `__walk` makes one call per field, ascending by field number, and returns their
//!   sum (an absent oneof contributes `Default::default()`); `__decode` requests each
//!   known field once, in the same order, then calls [`Reader::finish`], then
//!   [`Reader::require`] for each proto2 `required` field in ascending number order (the
//!   lowest absent one is reported, SPEC §5.3).
//! - Shapes: implicit presence → `implicit`; proto3 `optional`, proto2 `optional` and
//!   singular messages → `optional` (`Option<T>`; messages as [`Msg`], recursive ones as
//!   `Option<Box<M>>` with [`BoxMsg`]); proto2 `required` → a plain `T`, written with
//!   `explicit` and read with `optional` + `require`; `repeated` → `Vec<T>`; `map` →
//!   `BTreeMap<K, V>` (its order is the wire order, SPEC §6.4); enums → `i32` with
//!   [`Enum`] (open, SPEC §3.6).
//! - A oneof member is handled at its own number's position: `explicit` for the set
//!   member in the passes, `Reader::oneof(n, name, kind.is_some())` when decoding.
//! - Or `__decode` *dispatches* (the generator's `decode_dispatch` option, and its
//!   default for messages with many declared fields): it starts from `Self::default()`
//!   and loops `match r.record()? { 0 => break, n => …, _ => r.unknown_here(n)? }`,
//!   each field's arm handing its member to a shared read (`implicit_here`,
//!   `optional_here`, `required_here`, `oneof_here`, `repeated_here`, `fixed_run_here`,
//!   `map_here`, `sorted_map_here`), then calls [`Reader::finish`] and
//!   [`Reader::require`] for each `required` field not seen, ascending. The same checks,
//!   errors, offsets and paths as the walk; `__decode_into` stays the walk.
//! - Or the type is decoded by a *table* (the generator's `decode_table` option): its
//!   `__decode`, `__decode_top`, `__decode_push` and `__decode_some` call
//!   [`table_decode`] on a default value, and its [`TableDecode`] impl, written by
//!   [`decode_table!`](crate::__bijoubuf_decode_table), lists the fields for one loop
//!   in the runtime that reads every table message with dispatch's reads
//!   (`reader/table.rs`); oneof members go through a generated arm.
//! - `__decode_top`, the top-level read: the default ([`Reader::top_by_value`]:
//!   `__decode`, then the test that every record was read, and the error rooted at
//!   `NAME`) everywhere but in dispatch and table types, which end it in
//!   [`Reader::top_in_place`] (the same test and rooting around a read into the
//!   default, which is then copied once on its way out). A hand-written override ends
//!   in one of the two.
//! - The schema's facts live on the owned type's `Message`: `NAME` is the short type
//!   name, `FIELD_NUMBERS` every declared number ascending (oneof members included). A
//!   type without unknown-field storage keeps the defaults (`KEEPS_UNKNOWN_FIELDS =
//!   false`, an empty set from `__unknown`) and ignores what `finish` returns: the
//!   reader then refuses its unknown records itself; a type with storage sets
//!   `KEEPS_UNKNOWN_FIELDS = true` and returns it from `__unknown`. The other defaults
//!   serve hand-written types: `WALK` is [`WalkKind::Checked`] and `__decode_into`
//!   decodes a new value. [`Encode::Schema`] names that owned type
//!   (`Self` for an owned type, the owned twin for a borrowed one), so a twin states
//!   none of them again.
//!
//! The reader, sizer and writer ask only for the contract: [`Encode`] (the walk) and
//! [`Decode<'a>`](Decode) (the decode, from input that lives for `'a`). An owned type
//! implements `Encode`, `Decode<'a>` for every `'a`, and the public `Message`; a
//! borrowed type (`FooRef<'a>`, generated for `bijoubuf-build`'s `borrowed` option)
//! cannot be a `Message`, since its values borrow from the input, so it implements
//! `Encode`, `Decode<'a>` and the public [`MessageRef<'a>`](crate::MessageRef). Both
//! public traits forward their methods to [`AnyMessage<'a>`](crate::AnyMessage), which
//! every type with the contract has.
//! Codecs are split the same way: [`Codec`] sizes and writes an element, [`ReadCodec<'a>`]
//! reads one; [`StrRef`] and [`BytesRef`] read `&'a str` and `&'a [u8]` from a
//! `Reader<'a>` with the checks of [`Str`] and [`Bytes`], without the copy.
//!
//! The reader's field reads also come by element value (`implicit_el`, `optional_el`,
//! `oneof_el`, `repeated_el`, `map_el`, with [`Reader::nested_with`] and
//! [`Reader::top_with`]) and take any [`FieldName`]: `bijoubuf-reflect` decodes a
//! message described at run time by making exactly the calls above over a descriptor's
//! fields, so the record-level rules (SPEC §4–§6, §8, §9.3) have one implementation.
//! The size and write passes mirror them: `Sizer` and `Writer` take an
//! [`EncodeElement`] in `implicit_el`, `explicit_el`, `repeated_el` and `map_el` (a map's
//! entries from any container, in key order), with `nested_with` and [`encode_with`] for
//! a message whose fields a closure sizes and writes; the typed calls generated code
//! makes are these with the codec's zero-sized element ([`Of`]), and `bijoubuf-reflect`
//! encodes through them, so keys, implicit defaults, empty runs, length prefixes,
//! unknown-record re-emission and the encoder's depth limit have one implementation too.

// Inlining: the reader's, sizer's and writer's small steps are `#[inline(always)]` only
// in optimized builds (`debug_assertions` off), plain `#[inline]` otherwise. An
// unoptimized build does not share stack slots between the calls it inlines, so forced
// inlining there put every step's temporaries into the frame of each message's
// `__decode`/`__walk`, which stays on the stack while the next level is read: at the
// depth cap (`MAX_DEPTH_LIMIT`) that overflowed a 2 MiB thread. Optimized code is the
// same either way.

#[cfg(feature = "bytes")]
mod bytes_codec;
mod codec;
mod direct;
mod message;
mod pass;
mod prefetch;
mod reader;
#[cfg(test)]
mod run_tests;
mod sizer;
mod varint;
mod writer;

pub use crate::api::{decode_value_with, encode_two_passes};
pub use crate::error::{DecodeError, DynFieldName, ErrorKind, FieldName};
#[cfg(feature = "bytes")]
pub use bytes_codec::{SharedBytes, bytes};
pub use codec::{
    Bool, BoxMsg, Bytes, BytesRef, Codec, Double, Element, EncodeElement, Enum, Fixed32, Fixed64,
    Float, Int32, Int64, KeyElement, MapEntries, MapKey, Msg, NAN_F32, NAN_F64, Of, ReadCodec,
    SFixed32, SFixed64, SInt32, SInt64, Str, StrRef, UInt32, UInt64, bool_of, canonical_f32,
    canonical_f64, f32_bits_ok, f64_bits_ok, int32_of, uint32_of, utf8,
};
pub(crate) use direct::{OnePass, Outcome, encode as encode_direct, within_limit};
pub(crate) use message::name;
pub use message::{Decode, Encode, push_in_place, pushed_default, some_in_place};
pub use pass::{Nested, Pass, WalkKind, Written};
/// For tests outside the runtime that must hold a run's elements above the prefetch
/// threshold (generated types' runs are prefetched only from this size up).
pub use prefetch::MIN_ELEMENT as PREFETCH_MIN_ELEMENT;
pub use reader::table::{
    DecodeTable, InlineRead, TABLE_REQUIRED_MAX, TableArm, TableDecode, TableField, table_arm,
    table_decode, table_witness,
};
pub use reader::{Entries, MAX_FIELD_NUMBER, Reader, WireType};
pub use sizer::{FIRST_SIZES, KEEP_SIZES, NoTable, Plain, SizeTable, Sizer, Table};
pub use varint::{varint_len, write_varint};
pub(crate) use writer::{Copied, Encoding, EncodingWith, Spill};
pub use writer::{Fill, FillFront, LocalWriter, PlainWriter, Writer};

// Generated code names this module through one private alias per module
// (`use ::bijoubuf::__private as __bb;`), and these through it (`__bb::Ok(..)`,
// `__bb::Some(v)`, `-> __bb::Result<Self>`): short, and never the prelude's names,
// which a schema's type named `Option` or `Ok` would shadow.
pub use core::default::Default;
pub use core::option::Option::{None, Some};
pub use core::result::Result::{Err, Ok};

/// The `place` argument of [`Reader::oneof_into`] for one member of a oneof, written in
/// generated code as `__bb::oneof_member!(path::Enum::Variant)`: it stores the member
/// with its default value in the oneof's field and hands back that value to read into.
/// One line per member in the generated source where the closure took a dozen.
#[doc(hidden)]
#[macro_export]
macro_rules! __bijoubuf_oneof_member {
    ($variant:path) => {
        |o| match o.insert($variant($crate::__private::Default::default())) {
            $variant(v) => $crate::__private::Some(v),
            // Not reached: the member was just stored (unreachable with one member).
            #[allow(unreachable_patterns)]
            _ => $crate::__private::None,
        }
    };
}
#[doc(hidden)]
pub use crate::__bijoubuf_oneof_member as oneof_member;

#[doc(hidden)]
pub use crate::__bijoubuf_decode_table as decode_table;

// The containers `decode_table!` names in its type checks.
pub use alloc::collections::BTreeMap;
pub use alloc::vec::Vec;

/// The result of a decode: `__bb::Result<Self>` in generated code.
pub type Result<T, E = DecodeError> = core::result::Result<T, E>;

/// A reader over `buf[start..end]` as a top-level message decoded with `opts` (depth 1):
/// how `bijoubuf-reflect`'s dynamic decoder walks a message with the same field reads
/// as generated code ([`Reader::top_with`], [`Reader::nested_with`]). Offsets in its
/// errors are absolute.
#[inline]
pub fn message_reader<'a>(
    buf: &'a [u8],
    start: usize,
    end: usize,
    opts: &crate::DecodeOptions,
) -> Reader<'a> {
    Reader::new(buf, start, end.min(buf.len()), opts)
}

/// [`DecodeError`] with `seg` appended as the next outer path segment: how a decoder
/// outside this crate (`bijoubuf-reflect`) builds the same errors as generated code.
#[cold]
pub fn push_segment(e: DecodeError, seg: crate::PathSegment) -> DecodeError {
    e.push(seg)
}

/// Encode a top-level message whose type is known only at run time, refusing nesting
/// deeper than `max_depth`: `size` makes the message's field calls on the size pass
/// ([`Sizer::top_with`]) and `write` the same calls on the write pass, each given whether
/// the message has no unknown records; `unknown` are its preserved unknown records and
/// `declared` its declared field numbers, ascending. How `bijoubuf-reflect`'s encoder
/// writes with the same passes, and so the same rules, as generated code.
pub fn encode_with<'v>(
    max_depth: u32,
    unknown: &'v [crate::UnknownField],
    declared: &'v [u32],
    size: impl FnOnce(&mut Sizer<'v>, bool) -> usize,
    write: impl for<'o> FnOnce(&mut Writer<'o, 'v>, bool),
) -> Result<alloc::vec::Vec<u8>, crate::EncodeError> {
    use crate::BufMut;
    let mut s = Sizer::new(max_depth);
    let len = s.top_with(unknown, declared, size);
    s.check()?;
    let mut out = alloc::vec::Vec::new();
    out.__put(len, &mut EncodingWith::new(&s, unknown, write))?;
    Ok(out)
}
