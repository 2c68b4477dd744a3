//! Element codecs: one zero-sized marker type per schema type.
//!
//! Each codec reads, sizes and writes one *element* (SPEC §6.2): a singular field's
//! payload after its key, a packed-run element, a map key or value. The forms coincide,
//! so one codec serves every position.

use alloc::string::String;
use alloc::vec::Vec;
use core::marker::PhantomData;

use super::message::{Decode, Encode};
use super::pass::Nested;
use super::reader::{Reader, WireType};
use super::varint::{varint_len, varint_len_lookup};
use super::writer::{Sizer, Table, Writer};
use crate::error::{DecodeError, ErrorKind, PathSegment};

/// Canonical NaN bits (SPEC §3.5).
pub const NAN_F32: u32 = 0x7FC0_0000;
/// Canonical NaN bits (SPEC §3.5).
pub const NAN_F64: u64 = 0x7FF8_0000_0000_0000;

/// How one schema type is sized and written as an element; [`ReadCodec`] reads it.
pub trait Codec {
    /// The Rust type generated code stores.
    type Value;
    /// The wire type of a singular record of this type (SPEC §4.4).
    const WIRE: WireType;
    /// `Some(4)` / `Some(8)` for fixed-width types, whose packed runs are raw words.
    const FIXED: Option<usize>;
    /// True for message types: a record of this type opens a nested message, so the
    /// depth limit is checked at its key (SPEC §9.3, §10.1).
    const OPENS_MESSAGE: bool = false;

    /// The element's encoded length (a LEN element includes its length prefix).
    fn size<'v, T: Table>(v: &'v Self::Value, s: &mut Sizer<'v, T>) -> usize;
    /// Write the element.
    fn write<'v>(v: &'v Self::Value, w: &mut Writer<'_, 'v>);
    /// True when the value is the implicit-presence default (SPEC §5.1).
    fn is_default(v: &Self::Value) -> bool;
    /// Write the elements of a repeated field's run, one after another, a large next
    /// element's memory asked for ([`prefetch`](Self::prefetch)) before the current one
    /// is written.
    #[inline]
    fn write_run<'v>(vs: &'v [Self::Value], w: &mut Writer<'_, 'v>) {
        for (i, v) in vs.iter().enumerate() {
            super::prefetch::ahead::<Self>(vs, i);
            Self::write(v, w);
        }
    }
    /// The summed lengths of a repeated field's elements (its run's content), prefetched
    /// as [`write_run`](Self::write_run) does.
    #[inline]
    fn size_run<'v, T: Table>(vs: &'v [Self::Value], s: &mut Sizer<'v, T>) -> usize {
        let mut n = 0;
        for (i, v) in vs.iter().enumerate() {
            super::prefetch::ahead::<Self>(vs, i);
            n += Self::size(v, s);
        }
        n
    }
    /// Ask for the memory `v` points to, ahead of its encoding: a string's or byte
    /// string's bytes, what a message's fields point to (see the `prefetch` module). A
    /// hint only; the default, for values that point to nothing, does nothing.
    #[inline(always)]
    fn prefetch(_v: &Self::Value) {}
    /// For a message type, hand `v` to `n` as a nested message and return true; false
    /// (the default: nothing done) for every other type.
    #[inline(always)]
    fn visit_message<'v, N: Nested<'v>>(_v: &'v Self::Value, _n: &mut N) -> bool {
        false
    }
}

/// How one schema type is read as an element from input that lives for `'a`.
///
/// Owned codecs read from any input ([`Str`] copies into a `String`); the borrowed
/// codecs ([`StrRef`], [`BytesRef`]) and messages of borrowed types read only from
/// input that outlives the value, which is what the lifetime says.
pub trait ReadCodec<'a>: Codec {
    /// Read one element at the reader's position.
    fn read(r: &mut Reader<'a>) -> Result<Self::Value, DecodeError>;
    /// Read the elements of a repeated field's run up to the reader's bound (the run's
    /// end), appending to `out`; on error, `out.len()` is the failing element's index.
    #[inline]
    fn read_run(r: &mut Reader<'a>, out: &mut Vec<Self::Value>) -> Result<(), DecodeError> {
        while !r.at_end() {
            out.push(Self::read(r)?);
        }
        Ok(())
    }
    /// [`read`](Self::read) into `v`, reusing what `v` holds where the value has an
    /// allocation (a `String`'s or `Vec`'s capacity, a message's fields). On error `v`
    /// holds some valid value.
    #[inline]
    fn read_into(r: &mut Reader<'a>, v: &mut Self::Value) -> Result<(), DecodeError> {
        *v = Self::read(r)?;
        Ok(())
    }
    /// Make `v` the empty value in place, keeping its allocation; `false` when the value
    /// has none to keep (the caller then assigns the default).
    #[inline]
    fn clear_in_place(_v: &mut Self::Value) -> bool {
        false
    }
    /// Read one element as the new last element of `out` (a run of length-prefixed
    /// elements); a message reads itself where it lies ([`Decode::__decode_push`]). On
    /// error an element may have been pushed: the caller truncates.
    #[inline(always)]
    fn read_push(r: &mut Reader<'a>, out: &mut Vec<Self::Value>) -> Result<(), DecodeError> {
        out.push(Self::read(r)?);
        Ok(())
    }
    /// [`read`](Self::read) into the empty `v`; a message reads itself where it lies
    /// ([`Decode::__decode_some`]).
    #[inline(always)]
    fn read_some(r: &mut Reader<'a>, v: &mut Option<Self::Value>) -> Result<(), DecodeError> {
        *v = Some(Self::read(r)?);
        Ok(())
    }
}

/// Codecs that can be map keys: ordered as SPEC §6.4 says (Rust's `Ord` on the value
/// type agrees), and printable as a path segment.
pub trait MapKey: Codec<Value: Ord> {
    /// The error-path segment for an entry with this key.
    fn segment(v: &Self::Value) -> PathSegment;
}

/// An element type known by value rather than by type: what the reader's field reads
/// ([`Reader::optional_el`] and the others) take, so that a decoder whose types are known
/// only at run time (a descriptor's field: a scalar type, an enum or a message type)
/// walks a message with the same reads, and so the same rules, as generated code.
/// Every [`ReadCodec`] is one through [`Of`]; `'a` is the input's lifetime, as for
/// [`ReadCodec`].
pub trait Element<'a> {
    /// The decoded value.
    type Value;
    /// The wire type of a singular record of this element (SPEC §4.4).
    fn wire(&self) -> WireType;
    /// `Some(4)` / `Some(8)` for fixed-width elements (SPEC §6.2).
    fn fixed(&self) -> Option<usize>;
    /// True when a record of this element opens a nested message (SPEC §9.3).
    fn opens_message(&self) -> bool;
    /// Read one element at the reader's position.
    fn read(&self, r: &mut Reader<'a>) -> Result<Self::Value, DecodeError>;
    /// True when the value is the implicit-presence default (SPEC §5.1).
    fn is_default(&self, v: &Self::Value) -> bool;
    /// Read one element as the new last element of `out`, as
    /// [`ReadCodec::read_push`] does. On error an element may have been pushed: the
    /// caller truncates.
    #[inline]
    fn read_push(&self, r: &mut Reader<'a>, out: &mut Vec<Self::Value>) -> Result<(), DecodeError> {
        out.push(self.read(r)?);
        Ok(())
    }
    /// Read a repeated field's run up to the reader's bound, appending to `out`; on
    /// error, `out.len()` is the failing element's index.
    #[inline]
    fn read_run(&self, r: &mut Reader<'a>, out: &mut Vec<Self::Value>) -> Result<(), DecodeError> {
        while !r.at_end() {
            out.push(self.read(r)?);
        }
        Ok(())
    }
}

/// An [`Element`] that can be a map key: ordered as SPEC §6.4 says, and printable as a
/// path segment.
pub trait KeyElement<'a>: Element<'a, Value: Ord> {
    /// The error-path segment for an entry with this key.
    fn segment(&self, v: &Self::Value) -> PathSegment;
}

/// An element type known by value, for the size and write passes: what the sizer's and
/// writer's field calls ([`Sizer::implicit_el`] and the others) take, as the reader's
/// take an [`Element`]. Every [`Codec`] is one through [`Of`] (generated code's typed
/// calls are these calls with the codec's zero-sized element), and `bijoubuf-reflect`
/// sizes and writes a descriptor's fields through the same calls, so each field shape's
/// encoding rule (SPEC §5, §6) has one implementation.
pub trait EncodeElement {
    /// The value sized and written.
    type Value;
    /// The wire type of a singular record of this element (SPEC §4.4).
    fn wire(&self) -> WireType;
    /// `Some(4)` / `Some(8)` for fixed-width elements, whose packed runs are raw words.
    fn fixed(&self) -> Option<usize>;
    /// True when the value is the implicit-presence default (SPEC §5.1).
    fn is_default(&self, v: &Self::Value) -> bool;
    /// The element's encoded length (a LEN element includes its length prefix).
    fn size<'v, T: Table>(&self, v: &'v Self::Value, s: &mut Sizer<'v, T>) -> usize;
    /// Write the element.
    fn write<'v>(&self, v: &'v Self::Value, w: &mut Writer<'_, 'v>);
    /// Write the elements of a repeated field's run, one after another.
    #[inline]
    fn write_run<'v>(&self, vs: &'v [Self::Value], w: &mut Writer<'_, 'v>) {
        for v in vs {
            self.write(v, w);
        }
    }
    /// The summed lengths of a repeated field's elements (its run's content).
    #[inline]
    fn size_run<'v, T: Table>(&self, vs: &'v [Self::Value], s: &mut Sizer<'v, T>) -> usize {
        let mut n = 0;
        for v in vs {
            n += self.size(v, s);
        }
        n
    }
    /// [`Codec::visit_message`] by element: false (nothing done) unless the element is a
    /// message type that hands `v` to `n`.
    #[inline(always)]
    fn visit_message<'v, N: Nested<'v>>(&self, _v: &'v Self::Value, _n: &mut N) -> bool {
        false
    }
}

/// A map's entries in ascending key order (SPEC §6.4), as the size and write passes take
/// them ([`Sizer::map_el`], [`Writer::map_el`]): generated code's `BTreeMap` or
/// [`SortedMap`](crate::SortedMap) (whose iteration order is the key order) or a slice of
/// pairs kept in key order.
pub trait MapEntries<'v, K: 'v, V: 'v>: Copy {
    /// The entries' iterator.
    type Iter: Iterator<Item = (&'v K, &'v V)>;
    /// True when there are no entries.
    fn is_empty(self) -> bool;
    /// The entries in ascending key order.
    fn entries(self) -> Self::Iter;
}

impl<'v, K: 'v, V: 'v> MapEntries<'v, K, V> for &'v alloc::collections::BTreeMap<K, V> {
    type Iter = alloc::collections::btree_map::Iter<'v, K, V>;
    #[inline(always)]
    fn is_empty(self) -> bool {
        alloc::collections::BTreeMap::is_empty(self)
    }
    #[inline(always)]
    fn entries(self) -> Self::Iter {
        self.iter()
    }
}

impl<'v, K: 'v, V: 'v> MapEntries<'v, K, V> for &'v [(K, V)] {
    type Iter = crate::sorted_map::Iter<'v, K, V>;
    #[inline]
    fn is_empty(self) -> bool {
        <[(K, V)]>::is_empty(self)
    }
    #[inline]
    fn entries(self) -> Self::Iter {
        crate::sorted_map::Iter::over(self)
    }
}

impl<'v, K: 'v, V: 'v> MapEntries<'v, K, V> for &'v crate::SortedMap<K, V> {
    type Iter = crate::sorted_map::Iter<'v, K, V>;
    #[inline(always)]
    fn is_empty(self) -> bool {
        crate::SortedMap::is_empty(self)
    }
    #[inline(always)]
    fn entries(self) -> Self::Iter {
        self.iter()
    }
}

/// The [`Element`] of codec `C`: a zero-sized value whose methods are `C`'s, so a read
/// through it compiles to the same code as a read through `C`.
pub struct Of<C>(PhantomData<C>);

impl<C> Of<C> {
    /// The element of `C`.
    pub const NEW: Self = Of(PhantomData);
}

impl<'a, C: ReadCodec<'a>> Element<'a> for Of<C> {
    type Value = C::Value;
    #[inline(always)]
    fn wire(&self) -> WireType {
        C::WIRE
    }
    #[inline(always)]
    fn fixed(&self) -> Option<usize> {
        C::FIXED
    }
    #[inline(always)]
    fn opens_message(&self) -> bool {
        C::OPENS_MESSAGE
    }
    #[inline(always)]
    fn read(&self, r: &mut Reader<'a>) -> Result<C::Value, DecodeError> {
        C::read(r)
    }
    #[inline(always)]
    fn is_default(&self, v: &C::Value) -> bool {
        C::is_default(v)
    }
    #[inline(always)]
    fn read_run(&self, r: &mut Reader<'a>, out: &mut Vec<C::Value>) -> Result<(), DecodeError> {
        C::read_run(r, out)
    }
    #[inline(always)]
    fn read_push(&self, r: &mut Reader<'a>, out: &mut Vec<C::Value>) -> Result<(), DecodeError> {
        C::read_push(r, out)
    }
}

impl<C: Codec> EncodeElement for Of<C> {
    type Value = C::Value;
    #[inline(always)]
    fn wire(&self) -> WireType {
        C::WIRE
    }
    #[inline(always)]
    fn fixed(&self) -> Option<usize> {
        C::FIXED
    }
    #[inline(always)]
    fn is_default(&self, v: &C::Value) -> bool {
        C::is_default(v)
    }
    #[inline(always)]
    fn size<'v, T: Table>(&self, v: &'v C::Value, s: &mut Sizer<'v, T>) -> usize {
        C::size(v, s)
    }
    #[inline(always)]
    fn write<'v>(&self, v: &'v C::Value, w: &mut Writer<'_, 'v>) {
        C::write(v, w)
    }
    #[inline(always)]
    fn write_run<'v>(&self, vs: &'v [C::Value], w: &mut Writer<'_, 'v>) {
        C::write_run(vs, w)
    }
    #[inline(always)]
    fn size_run<'v, T: Table>(&self, vs: &'v [C::Value], s: &mut Sizer<'v, T>) -> usize {
        C::size_run(vs, s)
    }
    #[inline(always)]
    fn visit_message<'v, N: Nested<'v>>(&self, v: &'v C::Value, n: &mut N) -> bool {
        C::visit_message(v, n)
    }
}

impl<'a, C: MapKey + ReadCodec<'a>> KeyElement<'a> for Of<C> {
    #[inline(always)]
    fn segment(&self, v: &C::Value) -> PathSegment {
        C::segment(v)
    }
}

#[cold]
fn out_of_range(at: usize) -> DecodeError {
    DecodeError::new(ErrorKind::IntegerOutOfRange, at)
}

// The scalar checks, as plain functions rather than inside the codec macros below: one
// definition each, callable by any decoder of the format, and reachable by mutation
// testing (cargo-mutants does not mutate macro bodies). `raw` is the bijou64 read at
// offset `at`, which the error reports.

/// `uint32` (SPEC §3.1): above 2^32−1 is `integer-out-of-range` at `at`.
#[inline]
pub fn uint32_of(raw: u64, at: usize) -> Result<u32, DecodeError> {
    bijou64::to_u32(raw).map_err(|_| out_of_range(at))
}

/// `int32`, `sint32` and enums (SPEC §3.2, §3.6): zigzag; a zigzag value above 2^32−1
/// is `integer-out-of-range` at `at`.
#[inline]
pub fn int32_of(raw: u64, at: usize) -> Result<i32, DecodeError> {
    bijou64::zigzag::decode_i32(raw).map_err(|_| out_of_range(at))
}

/// `bool` (SPEC §3.3): 0 or 1; anything else is `invalid-bool` at `at`.
#[inline]
pub fn bool_of(raw: u64, at: usize) -> Result<bool, DecodeError> {
    match raw {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(DecodeError::new(ErrorKind::InvalidBool, at)),
    }
}

/// False for `float` bits no value is written as (SPEC §3.5): a NaN (exponent all ones,
/// fraction non-zero) other than [`NAN_F32`].
#[inline]
pub fn f32_bits_ok(bits: u32) -> bool {
    bits & 0x7FFF_FFFF <= 0x7F80_0000 || bits == NAN_F32
}

/// False for `double` bits no value is written as (SPEC §3.5): a NaN other than
/// [`NAN_F64`].
#[inline]
pub fn f64_bits_ok(bits: u64) -> bool {
    bits & 0x7FFF_FFFF_FFFF_FFFF <= 0x7FF0_0000_0000_0000 || bits == NAN_F64
}

/// True when the `float` whose wire bytes (big-endian) are `b` has an exponent of all
/// ones (an infinity or a NaN): the only words [`f32_bits_ok`] can refuse. Tested on the
/// bytes as loaded, with the mask in the same byte order, so a run's test needs no byte
/// swap.
#[inline(always)]
pub(crate) fn f32_exponent_ones(b: [u8; 4]) -> bool {
    const EXP: u32 = u32::from_ne_bytes(0x7F80_0000u32.to_be_bytes());
    u32::from_ne_bytes(b) & EXP == EXP
}

/// [`f32_exponent_ones`] for a `double` (the words [`f64_bits_ok`] can refuse).
#[inline(always)]
pub(crate) fn f64_exponent_ones(b: [u8; 8]) -> bool {
    const EXP: u64 = u64::from_ne_bytes(0x7FF0_0000_0000_0000u64.to_be_bytes());
    u64::from_ne_bytes(b) & EXP == EXP
}

macro_rules! varint_codec {
    ($(#[$doc:meta])* $name:ident, $ty:ty,
     |$at:ident, $raw:ident| $read:expr, |$v:ident| $enc:expr) => {
        $(#[$doc])*
        pub struct $name;
        impl<'a> ReadCodec<'a> for $name {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn read(r: &mut Reader<'a>) -> Result<$ty, DecodeError> {
                let $at = r.position();
                let $raw = r.varint()?;
                $read
            }
            #[inline(never)]
            fn read_run(r: &mut Reader<'a>, out: &mut Vec<$ty>) -> Result<(), DecodeError> {
                r.varint_run(out, |$raw, $at| $read)
            }
        }
        impl Codec for $name {
            type Value = $ty;
            const WIRE: WireType = WireType::Varint;
            const FIXED: Option<usize> = None;
            #[inline]
            fn size<'v, T: Table>($v: &'v $ty, _s: &mut Sizer<'v, T>) -> usize {
                varint_len($enc)
            }
            #[inline]
            fn write<'v>($v: &'v $ty, w: &mut Writer<'_, 'v>) {
                w.varint($enc)
            }
            #[inline]
            fn write_run<'v>(vs: &'v [$ty], w: &mut Writer<'_, 'v>) {
                w.varint_run(vs, |$v| $enc)
            }
            /// Without [`varint_len`]'s one-byte test: in a run of values of mixed
            /// widths that test is a mispredicted branch per element (numeric's encode
            /// took 2.8 times as long with it, at the same instruction count).
            #[inline]
            fn size_run<'v, T: Table>(vs: &'v [$ty], _s: &mut Sizer<'v, T>) -> usize {
                vs.iter().map(|$v| varint_len_lookup($enc)).sum()
            }
            #[inline]
            fn is_default(v: &$ty) -> bool {
                *v == <$ty>::default()
            }
        }
    };
}

varint_codec!(
    /// `uint64`: the value itself (SPEC §3.1).
    UInt64, u64, |_at, raw| Ok(raw), |v| *v
);
varint_codec!(
    /// `uint32`: the value itself; above 2^32−1 is `integer-out-of-range` (SPEC §3.1).
    UInt32, u32,
    |at, raw| uint32_of(raw, at),
    |v| *v as u64
);
varint_codec!(
    /// `int64`: zigzag (SPEC §3.2).
    Int64, i64, |_at, raw| Ok(bijou64::zigzag::decode_i64(raw)),
    |v| bijou64::zigzag::encode_i64(*v)
);
varint_codec!(
    /// `sint64`: zigzag, wire-identical to `int64` (SPEC §3.2).
    SInt64, i64, |_at, raw| Ok(bijou64::zigzag::decode_i64(raw)),
    |v| bijou64::zigzag::encode_i64(*v)
);
varint_codec!(
    /// `int32`: zigzag; a zigzag value above 2^32−1 is `integer-out-of-range` (SPEC §3.2).
    Int32, i32,
    |at, raw| int32_of(raw, at),
    |v| bijou64::zigzag::encode_i32(*v)
);
varint_codec!(
    /// `sint32`: wire-identical to `int32` (SPEC §3.2).
    SInt32, i32,
    |at, raw| int32_of(raw, at),
    |v| bijou64::zigzag::encode_i32(*v)
);
varint_codec!(
    /// Open enums: the number as `i32`, zigzag like `int32` (SPEC §3.6).
    Enum, i32,
    |at, raw| int32_of(raw, at),
    |v| bijou64::zigzag::encode_i32(*v)
);
varint_codec!(
    /// `bool`: 0 or 1; anything else is `invalid-bool` (SPEC §3.3).
    Bool, bool,
    |at, raw| bool_of(raw, at),
    |v| *v as u64
);

macro_rules! fixed_codec {
    ($(#[$doc:meta])* $name:ident, $ty:ty, $n:literal, $wire:ident,
     |$b:ident| $conv:expr, |$v:ident| $enc:expr, |$d:ident| $def:expr
     $(, valid |$vb:ident| $valid:expr, suspect |$sb:ident| $suspect:expr)?) => {
        $(#[$doc])*
        pub struct $name;
        impl $name {
            /// The value of the bytes `$b`.
            #[inline(always)]
            fn convert($b: [u8; $n]) -> $ty {
                $conv
            }
            /// False for bytes no value is written as (a non-canonical NaN, SPEC §3.5).
            #[inline(always)]
            #[allow(unused_variables)]
            fn valid(b: &[u8; $n]) -> bool {
                $(let $vb = b; return $valid;)?
                #[allow(unreachable_code)]
                true
            }
            /// True for bytes [`valid`](Self::valid) may refuse (an exponent of all
            /// ones: an infinity or a NaN); false for every word it accepts but those.
            #[inline(always)]
            #[allow(unused_variables)]
            fn suspect(b: &[u8; $n]) -> bool {
                $(let $sb = b; return $suspect;)?
                #[allow(unreachable_code)]
                false
            }
        }
        impl<'a> ReadCodec<'a> for $name {
            #[inline]
            fn read(r: &mut Reader<'a>) -> Result<$ty, DecodeError> {
                let at = r.position();
                let b = r.fixed::<$n>()?;
                if !Self::valid(&b) {
                    return Err(DecodeError::new(ErrorKind::NonCanonicalNan, at));
                }
                Ok(Self::convert(b))
            }
            /// The run's words converted in bulk: the run's length is a multiple of the
            /// width (checked when it was opened, SPEC §6.2), and every word but a
            /// non-canonical NaN is a value.
            ///
            /// A `float` or `double` run is first tested as a whole, without a branch
            /// per word, for a word with an exponent of all ones; only a run holding one
            /// (an infinity or a NaN) is searched word by word for the first refused
            /// word. Searched always, the test and its branches cost 11 instructions a
            /// `double`; the test of the whole run, which the compiler vectorizes, about
            /// 4 (OpenTelemetry's histogram bounds, benches/RESULTS.md).
            #[inline]
            fn read_run(r: &mut Reader<'a>, out: &mut Vec<$ty>) -> Result<(), DecodeError> {
                let (start, run) = r.rest_of_run();
                let (words, tail) = run.as_chunks::<$n>();
                if !words.iter().fold(false, |s, w| s | Self::suspect(w)) && tail.is_empty() {
                    out.extend(words.iter().map(|w| Self::convert(*w)));
                    return Ok(());
                }
                Self::read_run_searched(start, words, tail, out)
            }
        }
        impl $name {
            /// [`read_run`](ReadCodec::read_run) of a run that may hold a refused word
            /// (or a cut one): the words before the first refused one are appended, and
            /// it is reported at its offset.
            #[cold]
            #[inline(never)]
            fn read_run_searched(
                start: usize,
                words: &[[u8; $n]],
                tail: &[u8],
                out: &mut Vec<$ty>,
            ) -> Result<(), DecodeError> {
                let bad = words.iter().position(|w| !Self::valid(w));
                let good = words.get(..bad.unwrap_or(words.len())).unwrap_or_default();
                out.extend(good.iter().map(|w| Self::convert(*w)));
                if let Some(i) = bad {
                    return Err(DecodeError::new(ErrorKind::NonCanonicalNan, start + i * $n));
                }
                if !tail.is_empty() {
                    // Unreachable after the run's length check; reported as a value cut
                    // by the run's end should that check ever be bypassed.
                    return Err(DecodeError::new(ErrorKind::Truncated, start + words.len() * $n));
                }
                Ok(())
            }
        }
        impl Codec for $name {
            type Value = $ty;
            const WIRE: WireType = WireType::$wire;
            const FIXED: Option<usize> = Some($n);
            #[inline]
            fn size<'v, T: Table>(_v: &'v $ty, _s: &mut Sizer<'v, T>) -> usize {
                $n
            }
            #[inline]
            fn write<'v>($v: &'v $ty, w: &mut Writer<'_, 'v>) {
                w.fixed($enc)
            }
            #[inline]
            fn write_run<'v>(vs: &'v [$ty], w: &mut Writer<'_, 'v>) {
                w.fixed_run(vs, |$v| $enc)
            }
            #[inline]
            fn is_default($d: &$ty) -> bool {
                $def
            }
        }
    };
}

fixed_codec!(
    /// `fixed32`: four big-endian bytes (SPEC §3.4).
    Fixed32, u32, 4, I32, |b| u32::from_be_bytes(b), |v| v.to_be_bytes(), |d| *d == 0
);
fixed_codec!(
    /// `fixed64`: eight big-endian bytes (SPEC §3.4).
    Fixed64, u64, 8, I64, |b| u64::from_be_bytes(b), |v| v.to_be_bytes(), |d| *d == 0
);
fixed_codec!(
    /// `sfixed32`: four big-endian two's-complement bytes (SPEC §3.4).
    SFixed32, i32, 4, I32, |b| i32::from_be_bytes(b), |v| v.to_be_bytes(), |d| *d == 0
);
fixed_codec!(
    /// `sfixed64`: eight big-endian two's-complement bytes (SPEC §3.4).
    SFixed64, i64, 8, I64, |b| i64::from_be_bytes(b), |v| v.to_be_bytes(), |d| *d == 0
);
fixed_codec!(
    /// `float`: IEEE 754 bits, big-endian; one NaN (SPEC §3.5). The implicit default is
    /// +0.0 only: −0.0 is written (SPEC §5.1).
    Float, f32, 4, I32,
    |b| f32::from_bits(u32::from_be_bytes(b)),
    |v| canonical_f32(*v).to_be_bytes(),
    |d| d.to_bits() == 0,
    // SPEC §3.5: NaN is exponent all ones with a non-zero fraction.
    valid |b| f32_bits_ok(u32::from_be_bytes(*b)),
    suspect |b| f32_exponent_ones(*b)
);
fixed_codec!(
    /// `double`: IEEE 754 bits, big-endian; one NaN (SPEC §3.5). The implicit default is
    /// +0.0 only (SPEC §5.1).
    Double, f64, 8, I64,
    |b| f64::from_bits(u64::from_be_bytes(b)),
    |v| canonical_f64(*v).to_be_bytes(),
    |d| d.to_bits() == 0,
    valid |b| f64_bits_ok(u64::from_be_bytes(*b)),
    suspect |b| f64_exponent_ones(*b)
);

/// The bits written for an `f32`: every NaN becomes 0x7FC00000 (SPEC §3.5).
#[inline]
pub fn canonical_f32(v: f32) -> u32 {
    if v.is_nan() { NAN_F32 } else { v.to_bits() }
}

/// The bits written for an `f64`: every NaN becomes 0x7FF8000000000000 (SPEC §3.5).
#[inline]
pub fn canonical_f64(v: f64) -> u64 {
    if v.is_nan() { NAN_F64 } else { v.to_bits() }
}

/// Check UTF-8 (SPEC §7): the error offset is the first byte of the first invalid
/// sequence, `start + valid_up_to`.
#[inline]
pub fn utf8(bytes: &[u8], start: usize) -> Result<&str, DecodeError> {
    if let Some(s) = ascii_str(bytes) {
        return Ok(s);
    }
    core::str::from_utf8(bytes)
        .map_err(|e| DecodeError::new(ErrorKind::InvalidUtf8, start + e.valid_up_to()))
}

/// `bytes` as `&str` when every byte is ASCII, else `None`.
///
/// Why: most strings on the wire are ASCII, and `is_ascii` checks a word at a time
/// where `from_utf8` on short strings goes mostly byte by byte; the fast path took a
/// 385-byte message with ten short strings from 11,023 to 10,057 instructions per
/// decode. A test compares [`utf8`] with `core::str::from_utf8` on arbitrary bytes.
#[allow(unsafe_code)]
#[inline]
fn ascii_str(bytes: &[u8]) -> Option<&str> {
    if is_ascii(bytes) {
        // SAFETY: every byte is below 0x80, and any sequence of ASCII bytes is valid
        // UTF-8 (each byte is a one-byte sequence).
        Some(unsafe { core::str::from_utf8_unchecked(bytes) })
    } else {
        None
    }
}

/// True when every byte of `b` is below 0x80: the high bits of all its bytes ORed
/// together, read as whole words, the last one overlapping the one before.
///
/// Why not `<[u8]>::is_ascii`: on x86-64 it checks 64-byte blocks and then every byte
/// left over one at a time (up to 63, four instructions each), and a short string word
/// by word then byte by byte; OpenTelemetry's strings (keys, values, log bodies of 30–160
/// bytes) spent most of their check in those byte loops (benches/RESULTS.md). No early
/// exit: a string that is not ASCII goes on to `from_utf8`, which finds where.
#[inline(always)]
fn is_ascii(b: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if let (Some(first), Some(last)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        // Eight bytes or more: every whole word, then the last eight bytes (which
        // overlap the words before when the length is not a multiple of eight).
        let (words, _) = b.as_chunks::<8>();
        let acc = words.iter().fold(
            u64::from_ne_bytes(*first) | u64::from_ne_bytes(*last),
            |a, w| a | u64::from_ne_bytes(*w),
        );
        return acc & HIGH == 0;
    }
    if let (Some(first), Some(last)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        // Four to seven bytes: two words that overlap.
        return (u32::from_ne_bytes(*first) | u32::from_ne_bytes(*last)) & 0x8080_8080 == 0;
    }
    // Up to three bytes.
    b.iter().fold(0, |a, &c| a | c) < 0x80
}

/// `bytes` as a new `String` of exactly their length, when there are at most 32 of them
/// and every one is ASCII (so valid UTF-8); else `None` and nothing allocated.
///
/// Why: most strings of OpenTelemetry's requests (attribute keys, short values, names)
/// are short and ASCII, and for them the check ([`is_ascii`]) and the copy (a call to
/// `memcpy` behind `String::from`, a call per string) went over the same bytes. Here
/// both take the same two words, which overlap for a length between the powers of two:
/// checked together, then stored where they came from (benches/RESULTS.md, "Owned
/// decode: the runtime's own work"). A test compares it with `String::from` on every
/// length up to 40, ASCII and not.
#[allow(unsafe_code)]
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn short_ascii(b: &[u8]) -> Option<String> {
    let n = b.len();
    if n > 32 || !short_is_ascii(b) {
        return None;
    }
    if n == 0 {
        return Some(String::new());
    }
    // One allocation site: with one per length class (four), the allocator's wrapper
    // was left out of line, a call per string.
    let mut out: Vec<u8> = Vec::with_capacity(n);
    let p = out.as_mut_ptr();
    // SAFETY: `out` has room for `n` bytes, 1 <= n <= 32. Each class writes its two
    // words at offsets 0 and `n - width` with `width <= n` (or, below 4 bytes, bytes at
    // 0, `n / 2` and `n - 1`), all inside `out`; together they cover every offset below
    // `n`, so after the writes the first `n` slots are initialized.
    unsafe {
        if let (Some(f), Some(l)) = (b.first_chunk::<16>(), b.last_chunk::<16>()) {
            p.cast::<[u8; 16]>().write(*f);
            p.add(n - 16).cast::<[u8; 16]>().write(*l);
        } else if let (Some(f), Some(l)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
            p.cast::<[u8; 8]>().write(*f);
            p.add(n - 8).cast::<[u8; 8]>().write(*l);
        } else if let (Some(f), Some(l)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
            p.cast::<[u8; 4]>().write(*f);
            p.add(n - 4).cast::<[u8; 4]>().write(*l);
        } else if let (Some(&x), Some(&y), Some(&z)) = (b.first(), b.get(n / 2), b.last()) {
            p.write(x);
            p.add(n / 2).write(y);
            p.add(n - 1).write(z);
        }
        out.set_len(n);
    }
    // SAFETY: every byte of `out` is one of `b`'s, all below 0x80 (checked above): ASCII,
    // which is valid UTF-8.
    Some(unsafe { String::from_utf8_unchecked(out) })
}

/// True when the at most 32 bytes `b` are all ASCII: two words of the widest width that
/// fits (16, 8 or 4 bytes; they overlap unless the length is twice the width), or the
/// first, middle and last of up to three bytes. The same loads [`short_ascii`] copies.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn short_is_ascii(b: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if let (Some(f), Some(l)) = (b.first_chunk::<16>(), b.last_chunk::<16>()) {
        let acc = u128::from_ne_bytes(*f) | u128::from_ne_bytes(*l);
        acc & (u128::from(HIGH) << 64 | u128::from(HIGH)) == 0
    } else if let (Some(f), Some(l)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        (u64::from_ne_bytes(*f) | u64::from_ne_bytes(*l)) & HIGH == 0
    } else if let (Some(f), Some(l)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        (u32::from_ne_bytes(*f) | u32::from_ne_bytes(*l)) & HIGH as u32 == 0
    } else {
        b.iter().fold(0, |a, &c| a | c) < 0x80
    }
}

/// `string`: bijou64 length + UTF-8 bytes, never normalized (SPEC §7).
pub struct Str;
impl<'a> ReadCodec<'a> for Str {
    /// A string of up to 32 ASCII bytes is checked and copied by [`short_ascii`] in one
    /// go; any other is checked by [`utf8`] and copied by `String::from`. Inlined in
    /// release builds only (with the short copy): unoptimized, each inlined copy's
    /// locals widen the frame of a message's `__decode`, which a chain of nested
    /// messages at the depth cap holds once per level (`runtime_stack`, a 2 MiB stack).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read(r: &mut Reader<'a>) -> Result<String, DecodeError> {
        let bytes = r.len_bytes()?;
        if let Some(s) = short_ascii(bytes) {
            return Ok(s);
        }
        let start = r.position() - bytes.len();
        utf8(bytes, start).map(String::from)
    }
    #[inline]
    fn read_into(r: &mut Reader<'a>, v: &mut String) -> Result<(), DecodeError> {
        if v.capacity() == 0 {
            // A new value's (a message read in place): one exact allocation, not the
            // amortized growth path of `push_str` on an empty string.
            *v = Self::read(r)?;
            return Ok(());
        }
        let s = StrRef::read(r)?;
        v.clear();
        v.push_str(s);
        Ok(())
    }
    #[inline]
    fn clear_in_place(v: &mut String) -> bool {
        v.clear();
        true
    }
}
impl Codec for Str {
    type Value = String;
    const WIRE: WireType = WireType::Len;
    const FIXED: Option<usize> = None;
    #[inline]
    fn size<'v, T: Table>(v: &'v String, _s: &mut Sizer<'v, T>) -> usize {
        varint_len(v.len() as u64) + v.len()
    }
    #[inline(always)]
    fn write<'v>(v: &'v String, w: &mut Writer<'_, 'v>) {
        w.len_bytes(v.as_bytes());
    }
    #[inline]
    fn is_default(v: &String) -> bool {
        v.is_empty()
    }
    #[inline(always)]
    fn prefetch(v: &Self::Value) {
        super::prefetch::bytes(v.as_bytes());
    }
}

/// `bytes`: bijou64 length + bytes (SPEC §7).
pub struct Bytes;
impl<'a> ReadCodec<'a> for Bytes {
    #[inline]
    fn read(r: &mut Reader<'a>) -> Result<Vec<u8>, DecodeError> {
        r.len_bytes().map(<[u8]>::to_vec)
    }
    #[inline]
    fn read_into(r: &mut Reader<'a>, v: &mut Vec<u8>) -> Result<(), DecodeError> {
        let b = r.len_bytes()?;
        if v.capacity() == 0 {
            // As for `Str`: one exact allocation for a new value.
            *v = b.to_vec();
            return Ok(());
        }
        v.clear();
        v.extend_from_slice(b);
        Ok(())
    }
    #[inline]
    fn clear_in_place(v: &mut Vec<u8>) -> bool {
        v.clear();
        true
    }
}
impl Codec for Bytes {
    type Value = Vec<u8>;
    const WIRE: WireType = WireType::Len;
    const FIXED: Option<usize> = None;
    #[inline]
    fn size<'v, T: Table>(v: &'v Vec<u8>, _s: &mut Sizer<'v, T>) -> usize {
        varint_len(v.len() as u64) + v.len()
    }
    #[inline(always)]
    fn write<'v>(v: &'v Vec<u8>, w: &mut Writer<'_, 'v>) {
        w.len_bytes(v);
    }
    #[inline]
    fn is_default(v: &Vec<u8>) -> bool {
        v.is_empty()
    }
    #[inline(always)]
    fn prefetch(v: &Self::Value) {
        super::prefetch::bytes(v);
    }
}

/// `string` borrowed from the input (borrowed message types): the same bytes and
/// checks as [`Str`], without the copy.
pub struct StrRef<'a>(PhantomData<&'a str>);
impl<'a> ReadCodec<'a> for StrRef<'a> {
    #[inline(always)]
    fn read(r: &mut Reader<'a>) -> Result<&'a str, DecodeError> {
        let bytes = r.len_bytes()?;
        let start = r.position() - bytes.len();
        utf8(bytes, start)
    }
    /// Inlined as `read` is: the default's `#[inline]` left one out-of-line call per
    /// string field of a twin read in place.
    #[inline(always)]
    fn read_into(r: &mut Reader<'a>, v: &mut &'a str) -> Result<(), DecodeError> {
        *v = Self::read(r)?;
        Ok(())
    }
}
impl<'a> Codec for StrRef<'a> {
    type Value = &'a str;
    const WIRE: WireType = WireType::Len;
    const FIXED: Option<usize> = None;
    #[inline]
    fn size<'v, T: Table>(v: &'v &'a str, _s: &mut Sizer<'v, T>) -> usize {
        varint_len(v.len() as u64) + v.len()
    }
    #[inline(always)]
    fn write<'v>(v: &'v &'a str, w: &mut Writer<'_, 'v>) {
        w.len_bytes(v.as_bytes());
    }
    #[inline]
    fn is_default(v: &&'a str) -> bool {
        v.is_empty()
    }
    #[inline(always)]
    fn prefetch(v: &Self::Value) {
        super::prefetch::bytes(v.as_bytes());
    }
}

/// `bytes` borrowed from the input (borrowed message types): the same bytes and checks
/// as [`Bytes`], without the copy.
pub struct BytesRef<'a>(PhantomData<&'a [u8]>);
impl<'a> ReadCodec<'a> for BytesRef<'a> {
    #[inline(always)]
    fn read(r: &mut Reader<'a>) -> Result<&'a [u8], DecodeError> {
        r.len_bytes()
    }
}
impl<'a> Codec for BytesRef<'a> {
    type Value = &'a [u8];
    const WIRE: WireType = WireType::Len;
    const FIXED: Option<usize> = None;
    #[inline]
    fn size<'v, T: Table>(v: &'v &'a [u8], _s: &mut Sizer<'v, T>) -> usize {
        varint_len(v.len() as u64) + v.len()
    }
    #[inline(always)]
    fn write<'v>(v: &'v &'a [u8], w: &mut Writer<'_, 'v>) {
        w.len_bytes(v);
    }
    #[inline]
    fn is_default(v: &&'a [u8]) -> bool {
        v.is_empty()
    }
    #[inline(always)]
    fn prefetch(v: &Self::Value) {
        super::prefetch::bytes(v);
    }
}

/// A nested message of type `M`: bijou64 length + content (SPEC §9.1). Its size is
/// computed once, in the size pass, and read back by the write pass.
pub struct Msg<M>(PhantomData<M>);
impl<'a, M: Decode<'a>> ReadCodec<'a> for Msg<M> {
    #[inline]
    fn read(r: &mut Reader<'a>) -> Result<M, DecodeError> {
        r.nested::<M>()
    }
    #[inline]
    fn read_into(r: &mut Reader<'a>, v: &mut M) -> Result<(), DecodeError> {
        r.nested_into(v)
    }
    /// Always inlined (into the run's loop, one copy per message type): left to the
    /// optimizer it stayed a call per element between the run's loop and the message's
    /// own `__decode_into`, whose entry and exit (saving and restoring six registers)
    /// cost about 20 instructions per element (benches/RESULTS.md, "Owned decode: the
    /// runtime's own work").
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_push(r: &mut Reader<'a>, out: &mut Vec<M>) -> Result<(), DecodeError> {
        r.nested_with(super::message::keeps_unknown::<M>(), |r| {
            M::__decode_push(r, out)
        })
    }
    #[inline]
    fn read_some(r: &mut Reader<'a>, v: &mut Option<M>) -> Result<(), DecodeError> {
        r.nested_with(super::message::keeps_unknown::<M>(), |r| {
            M::__decode_some(r, v)
        })
    }
}
impl<M: Encode> Codec for Msg<M> {
    type Value = M;
    const WIRE: WireType = WireType::Len;
    const FIXED: Option<usize> = None;
    const OPENS_MESSAGE: bool = true;
    // Always inlined, as `write` below: left to the optimizer, a repeated or map field of
    // messages called these once per element (a call that sets up and tears down the
    // pass's state around the message's own call): telemetry's encode took 165,268
    // instructions that way against 151,662 (callgrind, `messages-profile`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn size<'v, T: Table>(v: &'v M, s: &mut Sizer<'v, T>) -> usize {
        let n = s.nested(v);
        varint_len(n as u64) + n
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn write<'v>(v: &'v M, w: &mut Writer<'_, 'v>) {
        w.nested(v)
    }
    #[inline]
    fn is_default(_: &M) -> bool {
        false
    }
    #[inline(always)]
    fn visit_message<'v, N: Nested<'v>>(v: &'v M, n: &mut N) -> bool {
        n.message(v);
        true
    }
    #[inline(always)]
    fn prefetch(v: &M) {
        super::prefetch::message(v);
    }
}

/// A boxed nested message (recursive types): the same bytes as [`Msg`].
pub struct BoxMsg<M>(PhantomData<M>);
impl<'a, M: Decode<'a>> ReadCodec<'a> for BoxMsg<M> {
    #[inline]
    fn read(r: &mut Reader<'a>) -> Result<alloc::boxed::Box<M>, DecodeError> {
        r.nested::<M>().map(alloc::boxed::Box::new)
    }
    #[inline]
    fn read_into(r: &mut Reader<'a>, v: &mut alloc::boxed::Box<M>) -> Result<(), DecodeError> {
        r.nested_into(&mut **v)
    }
}
impl<M: Encode> Codec for BoxMsg<M> {
    type Value = alloc::boxed::Box<M>;
    const WIRE: WireType = WireType::Len;
    const FIXED: Option<usize> = None;
    const OPENS_MESSAGE: bool = true;
    #[inline]
    fn size<'v, T: Table>(v: &'v alloc::boxed::Box<M>, s: &mut Sizer<'v, T>) -> usize {
        Msg::<M>::size(v, s)
    }
    #[inline]
    fn write<'v>(v: &'v alloc::boxed::Box<M>, w: &mut Writer<'_, 'v>) {
        w.nested(&**v)
    }
    #[inline]
    fn is_default(_: &alloc::boxed::Box<M>) -> bool {
        false
    }
    #[inline(always)]
    fn visit_message<'v, N: Nested<'v>>(v: &'v alloc::boxed::Box<M>, n: &mut N) -> bool {
        n.message(&**v);
        true
    }
    /// The box's own line only: its fields are reached through it.
    #[inline(always)]
    fn prefetch(v: &alloc::boxed::Box<M>) {
        super::prefetch::line(&**v);
    }
}

macro_rules! map_key {
    ($name:ident, |$v:ident| $seg:expr) => {
        impl MapKey for $name {
            #[cold]
            fn segment($v: &Self::Value) -> PathSegment {
                $seg
            }
        }
    };
}
map_key!(Int32, |v| PathSegment::IntKey(*v as i64));
map_key!(Int64, |v| PathSegment::IntKey(*v));
map_key!(SInt32, |v| PathSegment::IntKey(*v as i64));
map_key!(SInt64, |v| PathSegment::IntKey(*v));
map_key!(SFixed32, |v| PathSegment::IntKey(*v as i64));
map_key!(SFixed64, |v| PathSegment::IntKey(*v));
map_key!(UInt32, |v| PathSegment::UintKey(*v as u64));
map_key!(UInt64, |v| PathSegment::UintKey(*v));
map_key!(Fixed32, |v| PathSegment::UintKey(*v as u64));
map_key!(Fixed64, |v| PathSegment::UintKey(*v));
map_key!(Bool, |v| PathSegment::BoolKey(*v));
map_key!(Str, |v| PathSegment::StrKey(v.clone()));
impl MapKey for StrRef<'_> {
    #[cold]
    fn segment(v: &Self::Value) -> PathSegment {
        PathSegment::StrKey(String::from(*v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err_at<T: core::fmt::Debug>(r: Result<T, DecodeError>) -> (ErrorKind, usize) {
        let e = r.unwrap_err();
        (e.kind(), e.offset())
    }

    #[test]
    fn integer_ranges_at_their_edges() {
        assert_eq!(uint32_of(u32::MAX as u64, 3).unwrap(), u32::MAX);
        assert_eq!(uint32_of(0, 3).unwrap(), 0);
        let over = uint32_of(u32::MAX as u64 + 1, 3);
        assert_eq!(err_at(over), (ErrorKind::IntegerOutOfRange, 3));
        assert_eq!(int32_of(0, 5).unwrap(), 0);
        assert_eq!(int32_of(1, 5).unwrap(), -1);
        assert_eq!(int32_of(u32::MAX as u64 - 1, 5).unwrap(), i32::MAX);
        assert_eq!(int32_of(u32::MAX as u64, 5).unwrap(), i32::MIN);
        let over = int32_of(u32::MAX as u64 + 1, 5);
        assert_eq!(err_at(over), (ErrorKind::IntegerOutOfRange, 5));
    }

    #[test]
    fn bool_is_zero_or_one() {
        assert!(!bool_of(0, 1).unwrap());
        assert!(bool_of(1, 1).unwrap());
        for raw in [2, 247, u64::MAX] {
            assert_eq!(err_at(bool_of(raw, 9)), (ErrorKind::InvalidBool, 9));
        }
    }

    #[test]
    fn short_ascii_strings_are_exact_copies() {
        // Every length up to 40, ASCII throughout and with one byte of 0x80 or above at
        // each position: `short_ascii` copies exactly the ASCII ones of 32 bytes or
        // fewer, into a string of exactly their length, and declines the rest.
        for n in 0..=40usize {
            let ascii: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            let got = short_ascii(&ascii);
            if n <= 32 {
                let s = got.unwrap_or_else(|| panic!("declined {n} ASCII bytes"));
                assert_eq!(s.as_bytes(), &ascii[..]);
                assert_eq!(s.capacity(), n);
            } else {
                assert_eq!(got, None);
            }
            for at in 0..n {
                for high in [0x80u8, 0xC3, 0xFF] {
                    let mut b = ascii.clone();
                    b[at] = high;
                    assert_eq!(short_ascii(&b), None, "{b:02x?}");
                }
            }
        }
    }

    #[test]
    fn short_ascii_declines_high_bytes_that_cancel_or_fill_a_lane() {
        // Two bytes at or above 0x80 at every pair of positions (an even number of high
        // bits in one bit lane, which an XOR where the check ORs would cancel), and
        // strings of 0x80 alone (every lane's high bit and nothing else, what a mask test
        // with the wrong operator takes for zero): none of them is ASCII. The result is
        // not printed on failure: a string taken for ASCII by mistake need not be UTF-8.
        for n in 1..=32usize {
            assert!(short_ascii(&vec![0x80; n]).is_none(), "{n} bytes of 0x80");
            assert!(short_ascii(&vec![0xFF; n]).is_none(), "{n} bytes of 0xFF");
            let ascii: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            for i in 0..n {
                for j in i + 1..n {
                    for (x, y) in [(0x80, 0x80), (0xC3, 0xA9), (0xFF, 0x80)] {
                        let mut b = ascii.clone();
                        b[i] = x;
                        b[j] = y;
                        assert!(short_ascii(&b).is_none(), "{b:02x?}");
                    }
                }
            }
        }
    }

    #[test]
    fn owned_strings_read_as_borrowed_ones() {
        // `Str::read` against `StrRef::read` copied: the same strings, errors and offsets,
        // for ASCII, valid UTF-8 and invalid UTF-8 of every length up to 40.
        let opts = crate::DecodeOptions::default();
        for n in 0..=40usize {
            let ascii: Vec<u8> = (0..n).map(|i| b' ' + (i % 90) as u8).collect();
            let mut cases = vec![ascii.clone()];
            for at in 0..n {
                let mut bad = ascii.clone();
                bad[at] = 0xC3;
                cases.push(bad.clone());
                if at + 1 < n {
                    bad[at + 1] = 0xA9;
                    cases.push(bad);
                }
            }
            for content in cases {
                let mut bytes = vec![0x11, n as u8];
                bytes.extend_from_slice(&content);
                let mut r = Reader::new(&bytes, 1, bytes.len(), &opts);
                let owned = Str::read(&mut r).map_err(|e| (e.kind(), e.offset()));
                let pos = r.position();
                let mut r = Reader::new(&bytes, 1, bytes.len(), &opts);
                let borrowed = StrRef::read(&mut r)
                    .map(String::from)
                    .map_err(|e| (e.kind(), e.offset()));
                assert_eq!(owned, borrowed, "{bytes:02x?}");
                assert_eq!(pos, r.position(), "{bytes:02x?}");
                let mut r = Reader::new(&bytes, 1, bytes.len(), &opts);
                let mut into = String::new();
                let res = Str::read_into(&mut r, &mut into).map_err(|e| (e.kind(), e.offset()));
                // A new value's string is one allocation of exactly its length.
                assert_eq!(into.capacity(), into.len(), "{bytes:02x?}");
                assert_eq!(res.map(|()| into), borrowed, "{bytes:02x?}");
                // A string read into again keeps its buffer (40 bytes fit in it).
                let mut r = Reader::new(&bytes, 1, bytes.len(), &opts);
                let mut kept = String::with_capacity(64);
                kept.push_str("stale");
                let res = Str::read_into(&mut r, &mut kept).map_err(|e| (e.kind(), e.offset()));
                if res.is_ok() {
                    assert_eq!(kept.capacity(), 64, "{bytes:02x?}");
                }
                assert_eq!(res.map(|()| kept), borrowed, "{bytes:02x?}");
            }
        }
    }

    #[test]
    fn exponent_ones_covers_every_refused_word() {
        // Every word `*_bits_ok` refuses has an exponent of all ones; of the words it
        // accepts, only the infinities and the one NaN do.
        let f32s = [
            0u32,
            1,
            0x8000_0000,
            0x7F7F_FFFF,
            0x7F80_0000,
            0xFF80_0000,
            NAN_F32,
            0x7F80_0001,
            0xFFC0_0000,
            0x7FFF_FFFF,
            0x3F80_0000,
            0x0080_0000,
        ];
        for bits in f32s
            .into_iter()
            .chain((0..4096u32).map(|i| i.wrapping_mul(0x9E37_79B9)))
        {
            let ones = f32_exponent_ones(bits.to_be_bytes());
            assert_eq!(ones, bits & 0x7F80_0000 == 0x7F80_0000, "{bits:#x}");
            if !f32_bits_ok(bits) {
                assert!(ones, "{bits:#x}");
            }
        }
        let inf = 0x7FF0_0000_0000_0000u64;
        let f64s = [
            0u64,
            1,
            1 << 63,
            inf - 1,
            inf,
            inf | 1 << 63,
            NAN_F64,
            inf + 1,
            u64::MAX,
        ];
        let spread = (0..4096u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for bits in f64s.into_iter().chain(spread) {
            let ones = f64_exponent_ones(bits.to_be_bytes());
            assert_eq!(ones, bits & inf == inf, "{bits:#x}");
            if !f64_bits_ok(bits) {
                assert!(ones, "{bits:#x}");
            }
        }
    }

    /// `read_run` over `words` (big-endian bytes after a two-byte prefix the reader
    /// skips), against reading the same bytes one element at a time.
    fn run_against_reads<C: for<'a> ReadCodec<'a>>(bytes: &[u8])
    where
        C::Value: core::fmt::Debug,
    {
        let opts = crate::DecodeOptions::default();
        let mut r = Reader::new(bytes, 2, bytes.len(), &opts);
        let mut run = Vec::new();
        let got = C::read_run(&mut r, &mut run).map_err(|e| (e.kind(), e.offset()));
        let mut r = Reader::new(bytes, 2, bytes.len(), &opts);
        let mut each = Vec::new();
        let mut want = Ok(());
        while !r.at_end() {
            match C::read(&mut r) {
                Ok(v) => each.push(v),
                Err(e) => {
                    want = Err((e.kind(), e.offset()));
                    break;
                }
            }
        }
        assert_eq!(got, want, "{bytes:02x?}");
        // Compared as printed: a NaN is not equal to itself (the one NaN read is the
        // canonical one, so printing loses nothing).
        assert_eq!(format!("{run:?}"), format!("{each:?}"), "{bytes:02x?}");
    }

    /// Two bytes before a run of `len` big-endian doubles, `1.5 * i` except the words
    /// `at` names.
    fn run64(len: usize, at: &[(usize, u64)]) -> Vec<u8> {
        let mut bytes = vec![0xAA, 0xBB];
        for i in 0..len {
            let w = at
                .iter()
                .find(|p| p.0 == i)
                .map_or((i as f64 * 1.5).to_bits(), |p| p.1);
            bytes.extend_from_slice(&w.to_be_bytes());
        }
        bytes
    }

    /// [`run64`] for floats, `0.25 * i`.
    fn run32(len: usize, at: &[(usize, u32)]) -> Vec<u8> {
        let mut bytes = vec![0xAA, 0xBB];
        for i in 0..len {
            let w = at
                .iter()
                .find(|p| p.0 == i)
                .map_or((i as f32 * 0.25).to_bits(), |p| p.1);
            bytes.extend_from_slice(&w.to_be_bytes());
        }
        bytes
    }

    #[test]
    fn float_runs_read_as_their_elements() {
        let inf = 0x7FF0_0000_0000_0000u64;
        let specials = [
            inf,
            inf | 1 << 63,
            NAN_F64,
            inf + 1,
            NAN_F64 | 1 << 63,
            u64::MAX,
        ];
        for len in 0..12usize {
            for at in 0..len.max(1) {
                for &special in &specials {
                    let bytes = run64(len, &[(at, special)]);
                    run_against_reads::<Double>(&bytes);
                    run_against_reads::<Fixed64>(&bytes);
                    let bits32 = [0x7F80_0000u32, NAN_F32, 0x7F80_0001, 0xFFC0_0000];
                    run_against_reads::<Float>(&run32(len, &[(at, bits32[special as usize % 4])]));
                }
            }
        }
    }

    #[test]
    fn float_runs_with_two_special_words_read_as_their_elements() {
        // Two words with an exponent of all ones at every pair of positions, one or both
        // refused: a test of the whole run whose words cancel (an even number of them)
        // would take the run for clean and convert a refused word.
        let inf = 0x7FF0_0000_0000_0000u64;
        let pairs64 = [(inf, inf + 1), (inf + 1, inf), (inf + 1, u64::MAX)];
        let pairs32 = [
            (0x7F80_0000u32, 0x7F80_0001u32),
            (0x7F80_0001, 0x7F80_0000),
            (0x7F80_0001, 0xFFC0_0000),
        ];
        for len in 2..10usize {
            for i in 0..len {
                for j in i + 1..len {
                    for (&(a, b), &(c, d)) in pairs64.iter().zip(&pairs32) {
                        run_against_reads::<Double>(&run64(len, &[(i, a), (j, b)]));
                        run_against_reads::<Float>(&run32(len, &[(i, c), (j, d)]));
                    }
                }
            }
        }
    }

    #[test]
    fn one_nan_per_width_and_every_other_value() {
        for ok in [
            0,
            0x8000_0000,
            0x7F80_0000,
            0xFF80_0000,
            0x7F7F_FFFF,
            NAN_F32,
        ] {
            assert!(f32_bits_ok(ok), "{ok:#x}");
        }
        for bad in [
            0x7F80_0001,
            0xFF80_0001,
            0x7FC0_0001,
            0xFFC0_0000,
            0x7FFF_FFFF,
        ] {
            assert!(!f32_bits_ok(bad), "{bad:#x}");
        }
        let inf = 0x7FF0_0000_0000_0000u64;
        for ok in [0, 1 << 63, inf, inf | 1 << 63, inf - 1, NAN_F64] {
            assert!(f64_bits_ok(ok), "{ok:#x}");
        }
        for bad in [
            inf + 1,
            (inf + 1) | 1 << 63,
            NAN_F64 + 1,
            NAN_F64 | 1 << 63,
            u64::MAX,
        ] {
            assert!(!f64_bits_ok(bad), "{bad:#x}");
        }
    }
}
