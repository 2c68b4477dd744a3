//! A strict decoder of GoogleMessage1's borrowed twin with the field chosen by data, not
//! control flow, in safe code (#27): measured against the generated decoders and the
//! table prototype ([`super::table`]).
//!
//! The generated decoders choose a record's field by control flow (a jump over the
//! message's field numbers, or one test per declared field), which the CPU predicts
//! badly when the fields present change from one input to the next. The table loop jumps
//! on the field's kind instead (a few targets) and writes the value at an offset taken
//! from data, through raw pointers. This module asks whether safe code gets the same:
//!
//! - the record loop reads a key and its number (SPEC §4.1);
//! - a `static` array per message maps the number to a small [`Kind`] (one per codec and
//!   shape: `int32`, `bool`, `string`, …);
//! - a `match` on the kind has one arm per kind, which reads and checks the value;
//! - the arm picks the member by a selector, `fn top_i32(m, n) -> &mut i32 { match n {
//!   2 => &mut m.field2, … } }`, whose arms differ only by a constant offset from `m`, so
//!   that LLVM can lower the `match` to a load from a table of offsets (no branch on the
//!   number). A number the kind array does not give the kind cannot reach a selector; the
//!   selector's fallback arm (the kind's first field) only keeps it total, without a
//!   panic.
//!
//! LLVM did not make that table: each selector stays a jump over the members (a
//! `lea` of the member's address per target), so the field is still chosen by control
//! flow, one jump per kind instead of one over all numbers. A second form picks the
//! member by data through an array of accessors per message and kind, indexed by the
//! number (`TOP_I32_AT[n](m)`: an indirect call); [`Form`] chooses, and both are tested.
//! benches/RESULTS.md has what each costs.
//!
//! A prototype for measurement, written by hand for `GoogleMessage1Ref` and its
//! sub-message (both forms) and for the owned `GoogleMessage1` ([`decode_owned`],
//! selectors only), not wired into the generator. It decodes as `MessageRef::decode` /
//! `Message::decode` do with the default options (strict: unknown records refused, depth limit 100),
//! with every check the generated decoder makes and the same errors (code, offset,
//! path): the tests compare both on the datasets, every one-byte change, every cut and
//! depth limit 1. `field5` (`repeated fixed64`), once checked, is handed to the
//! runtime's reader as in the table prototype: a [`FixedRun`] over wire bytes can only be
//! built inside the runtime.

use bijoubuf::__private::{Fixed64 as Fixed64Codec, bool_of, int32_of, push_segment};
use bijoubuf::{DecodeError, DecodeOptions, ErrorKind, FixedRun, PathSegment};

use super::table::{default_present, field_error, in_field, unknown};

use super::bijou::benchmarks::proto3::{
    GoogleMessage1, GoogleMessage1Ref, GoogleMessage1SubMessage, GoogleMessage1SubMessageRef,
};

/// What a field holds and how its record is read: one per codec and shape, so that the
/// loop's `match` has few arms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// A number the message does not declare.
    None,
    /// `int32`, implicit presence.
    Int32,
    /// `int64`, implicit presence.
    Int64,
    /// `uint64`, implicit presence.
    UInt64,
    /// `bool`, implicit presence.
    Bool,
    /// `fixed32`, implicit presence.
    Fixed32,
    /// `fixed64`, implicit presence.
    Fixed64,
    /// `string` as `&str` borrowed from the input, implicit presence.
    Str,
    /// `repeated fixed64` as a [`FixedRun<u64>`] over the input.
    Fixed64Run,
    /// The singular sub-message, explicit presence.
    Message,
}

impl Kind {
    /// The wire type of the kind's record (SPEC §4.4); none for [`Kind::None`].
    #[inline(always)]
    const fn wire(self) -> u8 {
        match self {
            Kind::Int32 | Kind::Int64 | Kind::UInt64 | Kind::Bool => 0,
            Kind::Fixed64 => 1,
            Kind::Fixed32 => 3,
            Kind::Str | Kind::Fixed64Run | Kind::Message => 2,
            Kind::None => 0xFF,
        }
    }
}

/// One slot of a message's number → kind array: the kind and its wire type, in one load
/// (a `match` on the kind for its wire type was a second jump).
#[derive(Debug, Clone, Copy)]
#[repr(C)]
pub struct Slot {
    kind: Kind,
    wire: u8,
}

/// The dense array number → [`Slot`] of a message whose fields are `groups` (each a
/// kind and its numbers), `N` = the largest number + 1; a number given twice fails to
/// build.
const fn kinds<const N: usize>(groups: &[(Kind, &[u32])]) -> [Slot; N] {
    let mut out = [Slot {
        kind: Kind::None,
        wire: Kind::None.wire(),
    }; N];
    let mut g = 0;
    while g < groups.len() {
        let (kind, numbers) = groups[g];
        let mut i = 0;
        while i < numbers.len() {
            let n = numbers[i] as usize;
            assert!(matches!(out[n].kind, Kind::None), "a number given twice");
            out[n] = Slot {
                kind,
                wire: kind.wire(),
            };
            i += 1;
        }
        g += 1;
    }
    out
}

/// A selector: the member of `$m` of number `n` among one kind's fields, by a `match`
/// whose arms differ only by the field's offset; any other number gives the first
/// field (unreachable from the loop, which asks only for numbers of the kind).
macro_rules! selector {
    ($(#[$doc:meta])* fn $name:ident<$($lt:lifetime),*>($m:ident: $mt:ty) -> $t:ty {
        $n0:literal => $f0:ident $(, $n:literal => $f:ident)* $(,)?
    }) => {
        $(#[$doc])*
        #[inline(always)]
        fn $name<$($lt),*>($m: $mt, n: u64) -> $t {
            match n {
                $($n => &mut $m.$f,)*
                _ => &mut $m.$f0,
            }
        }
    };
}

/// The name of field `n` of a message (for an error's path), by a `match` out of line:
/// only errors ask for it.
macro_rules! names {
    ($(#[$doc:meta])* fn $name:ident { $($n:literal => $f:ident),* $(,)? }) => {
        $(#[$doc])*
        #[cold]
        #[inline(never)]
        fn $name(n: u64) -> &'static str {
            match n {
                $($n => stringify!($f),)*
                _ => "",
            }
        }
    };
}

// GoogleMessage1.

const TOP_STR: &[u32] = &[1, 4, 7, 9, 18, 102, 103, 129];
const TOP_INT32: &[u32] = &[
    2, 3, 6, 16, 23, 25, 29, 60, 67, 68, 100, 101, 104, 128, 130, 131, 150, 271, 272, 280,
];
const TOP_BOOL: &[u32] = &[12, 13, 14, 17, 24, 30, 59, 78, 80, 81];

/// GoogleMessage1's number → kind.
static TOP_KINDS: [Slot; 281] = kinds(&[
    (Kind::Str, TOP_STR),
    (Kind::Int32, TOP_INT32),
    (Kind::Bool, TOP_BOOL),
    (Kind::Int64, &[22]),
    (Kind::Fixed64Run, &[5]),
    (Kind::Message, &[15]),
]);

selector! {
    /// GoogleMessage1's `string` fields.
    fn top_str<'m, 'a>(m: &'m mut GoogleMessage1Ref<'a>) -> &'m mut &'a str {
        1 => field1, 4 => field4, 7 => field7, 9 => field9, 18 => field18,
        102 => field102, 103 => field103, 129 => field129,
    }
}

selector! {
    /// GoogleMessage1's `int32` fields.
    fn top_i32<'m, 'a>(m: &'m mut GoogleMessage1Ref<'a>) -> &'m mut i32 {
        2 => field2, 3 => field3, 6 => field6, 16 => field16, 23 => field23,
        25 => field25, 29 => field29, 60 => field60, 67 => field67, 68 => field68,
        100 => field100, 101 => field101, 104 => field104, 128 => field128,
        130 => field130, 131 => field131, 150 => field150, 271 => field271,
        272 => field272, 280 => field280,
    }
}

selector! {
    /// GoogleMessage1's `bool` fields.
    fn top_bool<'m, 'a>(m: &'m mut GoogleMessage1Ref<'a>) -> &'m mut bool {
        12 => field12, 13 => field13, 14 => field14, 17 => field17, 24 => field24,
        30 => field30, 59 => field59, 78 => field78, 80 => field80, 81 => field81,
    }
}

names! {
    /// GoogleMessage1's field names.
    fn top_name {
        1 => field1, 2 => field2, 3 => field3, 4 => field4, 5 => field5, 6 => field6,
        7 => field7, 9 => field9, 12 => field12, 13 => field13, 14 => field14,
        15 => field15, 16 => field16, 17 => field17, 18 => field18, 22 => field22,
        23 => field23, 24 => field24, 25 => field25, 29 => field29, 30 => field30,
        59 => field59, 60 => field60, 67 => field67, 68 => field68, 78 => field78,
        80 => field80, 81 => field81, 100 => field100, 101 => field101,
        102 => field102, 103 => field103, 104 => field104, 128 => field128,
        129 => field129, 130 => field130, 131 => field131, 150 => field150,
        271 => field271, 272 => field272, 280 => field280,
    }
}

// GoogleMessage1SubMessage.

/// The sub-message's number → kind.
static SUB_KINDS: [Slot; 301] = kinds(&[
    (Kind::Int32, &[1, 2, 3, 16, 19, 22, 204]),
    (Kind::Bool, &[12, 20, 23, 28, 206]),
    (Kind::Int64, &[13, 14]),
    (Kind::Str, &[15, 205]),
    (Kind::Fixed64, &[21]),
    (Kind::Fixed32, &[203]),
    (Kind::UInt64, &[207, 300]),
]);

selector! {
    /// The sub-message's `int32` fields.
    fn sub_i32<'m, 'a>(m: &'m mut GoogleMessage1SubMessageRef<'a>) -> &'m mut i32 {
        1 => field1, 2 => field2, 3 => field3, 16 => field16, 19 => field19,
        22 => field22, 204 => field204,
    }
}

selector! {
    /// The sub-message's `bool` fields.
    fn sub_bool<'m, 'a>(m: &'m mut GoogleMessage1SubMessageRef<'a>) -> &'m mut bool {
        12 => field12, 20 => field20, 23 => field23, 28 => field28, 206 => field206,
    }
}

selector! {
    /// The sub-message's `int64` fields.
    fn sub_i64<'m, 'a>(m: &'m mut GoogleMessage1SubMessageRef<'a>) -> &'m mut i64 {
        13 => field13, 14 => field14,
    }
}

selector! {
    /// The sub-message's `string` fields.
    fn sub_str<'m, 'a>(m: &'m mut GoogleMessage1SubMessageRef<'a>) -> &'m mut &'a str {
        15 => field15, 205 => field205,
    }
}

selector! {
    /// The sub-message's `uint64` fields.
    fn sub_u64<'m, 'a>(m: &'m mut GoogleMessage1SubMessageRef<'a>) -> &'m mut u64 {
        207 => field207, 300 => field300,
    }
}

names! {
    /// The sub-message's field names.
    fn sub_name {
        1 => field1, 2 => field2, 3 => field3, 12 => field12, 13 => field13,
        14 => field14, 15 => field15, 16 => field16, 19 => field19, 20 => field20,
        21 => field21, 22 => field22, 23 => field23, 28 => field28, 203 => field203,
        204 => field204, 205 => field205, 206 => field206, 207 => field207,
        300 => field300,
    }
}

// The second form: the member by an array of accessors indexed by the field's number,
// one array per message and kind (an indirect call whose callee is chosen by data).

/// An array of accessors `$at` (one per field number, `$len` of them): the member of
/// number `n` is `$name[n](m)`; numbers not of the kind give the first field, as the
/// selectors' fallback does.
macro_rules! accessors {
    ($(#[$doc:meta])* static $name:ident: [$at:ty; $len:literal] {
        $n0:literal => $f0:ident $(, $n:literal => $f:ident)* $(,)?
    }) => {
        $(#[$doc])*
        static $name: [$at; $len] = {
            let first: $at = |m| &mut m.$f0;
            let mut a: [$at; $len] = [first; $len];
            $(a[$n] = |m| &mut m.$f;)*
            a
        };
    };
}

/// An accessor of a GoogleMessage1 member of type `T`.
type TopAt<T> = for<'m, 'a> fn(&'m mut GoogleMessage1Ref<'a>) -> &'m mut T;
/// An accessor of a GoogleMessage1 `string` member.
type TopStrAt = for<'m, 'a> fn(&'m mut GoogleMessage1Ref<'a>) -> &'m mut &'a str;
/// An accessor of a sub-message member of type `T`.
type SubAt<T> = for<'m, 'a> fn(&'m mut GoogleMessage1SubMessageRef<'a>) -> &'m mut T;
/// An accessor of a sub-message `string` member.
type SubStrAt = for<'m, 'a> fn(&'m mut GoogleMessage1SubMessageRef<'a>) -> &'m mut &'a str;

accessors! {
    /// GoogleMessage1's `string` members by number.
    static TOP_STR_AT: [TopStrAt; 281] {
        1 => field1, 4 => field4, 7 => field7, 9 => field9, 18 => field18,
        102 => field102, 103 => field103, 129 => field129,
    }
}

accessors! {
    /// GoogleMessage1's `int32` members by number.
    static TOP_I32_AT: [TopAt<i32>; 281] {
        2 => field2, 3 => field3, 6 => field6, 16 => field16, 23 => field23,
        25 => field25, 29 => field29, 60 => field60, 67 => field67, 68 => field68,
        100 => field100, 101 => field101, 104 => field104, 128 => field128,
        130 => field130, 131 => field131, 150 => field150, 271 => field271,
        272 => field272, 280 => field280,
    }
}

accessors! {
    /// GoogleMessage1's `bool` members by number.
    static TOP_BOOL_AT: [TopAt<bool>; 281] {
        12 => field12, 13 => field13, 14 => field14, 17 => field17, 24 => field24,
        30 => field30, 59 => field59, 78 => field78, 80 => field80, 81 => field81,
    }
}

accessors! {
    /// The sub-message's `int32` members by number.
    static SUB_I32_AT: [SubAt<i32>; 301] {
        1 => field1, 2 => field2, 3 => field3, 16 => field16, 19 => field19,
        22 => field22, 204 => field204,
    }
}

accessors! {
    /// The sub-message's `bool` members by number.
    static SUB_BOOL_AT: [SubAt<bool>; 301] {
        12 => field12, 20 => field20, 23 => field23, 28 => field28, 206 => field206,
    }
}

accessors! {
    /// The sub-message's `int64` members by number.
    static SUB_I64_AT: [SubAt<i64>; 301] { 13 => field13, 14 => field14 }
}

accessors! {
    /// The sub-message's `string` members by number.
    static SUB_STR_AT: [SubStrAt; 301] { 15 => field15, 205 => field205 }
}

accessors! {
    /// The sub-message's `uint64` members by number.
    static SUB_U64_AT: [SubAt<u64>; 301] { 207 => field207, 300 => field300 }
}

/// Which form picks the member: `false` the selectors' `match`, `true` the arrays of
/// accessors.
pub type Form = bool;

/// Decode `bytes` as `GoogleMessage1Ref` with the default options (strict), the member
/// picked by the selectors.
pub fn decode(bytes: &[u8]) -> Result<GoogleMessage1Ref<'_>, DecodeError> {
    decode_with_depth::<false>(bytes, bijoubuf::DEFAULT_MAX_DEPTH)
}

/// [`decode`] with the member picked by the arrays of accessors.
pub fn decode_by_accessors(bytes: &[u8]) -> Result<GoogleMessage1Ref<'_>, DecodeError> {
    decode_with_depth::<true>(bytes, bijoubuf::DEFAULT_MAX_DEPTH)
}

/// A decode in form `ACCESSORS` (see [`Form`]) with the depth limit `max_depth` (as
/// `DecodeOptions::max_depth`).
pub fn decode_with_depth<const ACCESSORS: Form>(
    bytes: &[u8],
    max_depth: u32,
) -> Result<GoogleMessage1Ref<'_>, DecodeError> {
    let mut m = GoogleMessage1Ref::default();
    match top::<ACCESSORS>(bytes, bytes.len(), max_depth, &mut m) {
        Ok(()) => Ok(m),
        Err(e) => Err(push_segment(e, PathSegment::Message("GoogleMessage1"))),
    }
}

/// A strict decode of `bytes` through this module, the value dropped: the benchmarks'
/// counterpart of `ops::bijou_borrowed_decode`.
pub fn kindsel_borrowed_decode(bytes: &[u8]) -> bool {
    std::hint::black_box(decode(bytes).ok()).is_some()
}

/// [`kindsel_borrowed_decode`] with the member picked by the arrays of accessors.
pub fn kindsel_accessors_borrowed_decode(bytes: &[u8]) -> bool {
    std::hint::black_box(decode_by_accessors(bytes).ok()).is_some()
}

/// The next record's key at `pos` in `bytes`, after the record numbered `*prev`:
/// `(number, wire type, position after the key)`, `*prev` moved on (SPEC §4.1).
#[inline(always)]
fn key(bytes: &[u8], pos: usize, prev: &mut u64) -> Result<(u64, u8, usize), DecodeError> {
    let (v, p) = varint(bytes, pos)?;
    let number = *prev + 1 + (v >> 2);
    *prev = number;
    Ok((number, (v & 3) as u8, p))
}

/// The records of GoogleMessage1 at `buf[0..end]` into `m`, at depth 1 under the limit
/// `max_depth`. Out of line, so that `m` is a pointer here: inlined into its caller, `m`
/// is a local on the stack, and LLVM keeps a selector's `match` as a jump over stack
/// addresses rather than folding it into a table of offsets from `m`.
#[inline(never)]
fn top<'a, const ACCESSORS: Form>(
    buf: &'a [u8],
    end: usize,
    max_depth: u32,
    m: &mut GoogleMessage1Ref<'a>,
) -> Result<(), DecodeError> {
    let bytes = buf.get(..end).unwrap_or_default();
    let mut prev = 0;
    let mut pos = 0;
    while pos < end {
        let key_at = pos;
        let (n, wire, p) = key(bytes, pos, &mut prev)?;
        pos = p;
        let Some(&Slot { kind, wire: w }) = TOP_KINDS.get(n as usize) else {
            return Err(unknown(n, key_at));
        };
        if kind == Kind::None {
            // SPEC §4.3, §8.1
            return Err(unknown(n, key_at));
        }
        if wire != w {
            // SPEC §4.4
            return Err(field_error(
                ErrorKind::WireTypeMismatch,
                key_at,
                top_name(n),
            ));
        }
        let at = |e| in_field(e, top_name(n));
        pos = match kind {
            Kind::Str => {
                let (s, p) = str_value(bytes, pos, key_at).map_err(at)?;
                let slot = if ACCESSORS {
                    TOP_STR_AT[n as usize](m)
                } else {
                    top_str(m, n)
                };
                *slot = s;
                p
            }
            Kind::Int32 => {
                let (x, p) = i32_value(bytes, pos, key_at).map_err(at)?;
                let slot = if ACCESSORS {
                    TOP_I32_AT[n as usize](m)
                } else {
                    top_i32(m, n)
                };
                *slot = x;
                p
            }
            Kind::Bool => {
                let p = true_value(bytes, pos, key_at).map_err(at)?;
                let slot = if ACCESSORS {
                    TOP_BOOL_AT[n as usize](m)
                } else {
                    top_bool(m, n)
                };
                *slot = true;
                p
            }
            Kind::Int64 => {
                let (x, p) = i64_value(bytes, pos, key_at).map_err(at)?;
                m.field22 = x;
                p
            }
            Kind::Fixed64Run => {
                let (start, len) = length(bytes, pos).map_err(at)?;
                if len == 0 {
                    // SPEC §6.1
                    return Err(field_error(ErrorKind::EmptyRepeated, key_at, top_name(n)));
                }
                if len % 8 != 0 {
                    // SPEC §6.2
                    return Err(field_error(
                        ErrorKind::PackedLengthMismatch,
                        pos,
                        top_name(n),
                    ));
                }
                m.field5 = fixed_run_view(buf, key_at, start + len, "field5")?;
                start + len
            }
            Kind::Message => {
                // SPEC §9.3, §10.1: the depth limit at the key, before the length.
                if 1 >= max_depth {
                    return Err(field_error(
                        ErrorKind::DepthLimitExceeded,
                        key_at,
                        top_name(n),
                    ));
                }
                let (start, len) = length(bytes, pos).map_err(at)?;
                let child = m.field15.insert(GoogleMessage1SubMessageRef::default());
                sub::<ACCESSORS>(buf, start, start + len, child).map_err(at)?;
                start + len
            }
            // Not GoogleMessage1's kinds: `TOP_KINDS` gives none of them.
            Kind::None | Kind::UInt64 | Kind::Fixed32 | Kind::Fixed64 => {
                return Err(unknown(n, key_at));
            }
        };
    }
    Ok(())
}

/// The records of the sub-message at `buf[pos..end]` into `m` (it holds no message, so
/// the depth limit is not checked inside).
#[inline(never)]
fn sub<'a, const ACCESSORS: Form>(
    buf: &'a [u8],
    mut pos: usize,
    end: usize,
    m: &mut GoogleMessage1SubMessageRef<'a>,
) -> Result<(), DecodeError> {
    let bytes = buf.get(..end).unwrap_or_default();
    let mut prev = 0;
    while pos < end {
        let key_at = pos;
        let (n, wire, p) = key(bytes, pos, &mut prev)?;
        pos = p;
        let Some(&Slot { kind, wire: w }) = SUB_KINDS.get(n as usize) else {
            return Err(unknown(n, key_at));
        };
        if kind == Kind::None {
            return Err(unknown(n, key_at));
        }
        if wire != w {
            return Err(field_error(
                ErrorKind::WireTypeMismatch,
                key_at,
                sub_name(n),
            ));
        }
        let at = |e| in_field(e, sub_name(n));
        pos = match kind {
            Kind::Int32 => {
                let (x, p) = i32_value(bytes, pos, key_at).map_err(at)?;
                let slot = if ACCESSORS {
                    SUB_I32_AT[n as usize](m)
                } else {
                    sub_i32(m, n)
                };
                *slot = x;
                p
            }
            Kind::Bool => {
                let p = true_value(bytes, pos, key_at).map_err(at)?;
                let slot = if ACCESSORS {
                    SUB_BOOL_AT[n as usize](m)
                } else {
                    sub_bool(m, n)
                };
                *slot = true;
                p
            }
            Kind::Int64 => {
                let (x, p) = i64_value(bytes, pos, key_at).map_err(at)?;
                let slot = if ACCESSORS {
                    SUB_I64_AT[n as usize](m)
                } else {
                    sub_i64(m, n)
                };
                *slot = x;
                p
            }
            Kind::UInt64 => {
                let (x, p) = varint(bytes, pos).map_err(at)?;
                if x == 0 {
                    return Err(default_present(key_at, sub_name(n)));
                }
                let slot = if ACCESSORS {
                    SUB_U64_AT[n as usize](m)
                } else {
                    sub_u64(m, n)
                };
                *slot = x;
                p
            }
            Kind::Str => {
                let (s, p) = str_value(bytes, pos, key_at).map_err(at)?;
                let slot = if ACCESSORS {
                    SUB_STR_AT[n as usize](m)
                } else {
                    sub_str(m, n)
                };
                *slot = s;
                p
            }
            Kind::Fixed64 => {
                let Some(w) = bytes.get(pos..).and_then(|r| r.first_chunk::<8>()) else {
                    return Err(field_error(ErrorKind::Truncated, pos, sub_name(n)));
                };
                let x = u64::from_be_bytes(*w);
                if x == 0 {
                    return Err(default_present(key_at, sub_name(n)));
                }
                m.field21 = x;
                pos + 8
            }
            Kind::Fixed32 => {
                let Some(w) = bytes.get(pos..).and_then(|r| r.first_chunk::<4>()) else {
                    return Err(field_error(ErrorKind::Truncated, pos, sub_name(n)));
                };
                let x = u32::from_be_bytes(*w);
                if x == 0 {
                    return Err(default_present(key_at, sub_name(n)));
                }
                m.field203 = x;
                pos + 4
            }
            // Not the sub-message's kinds: `SUB_KINDS` gives none of them.
            Kind::None | Kind::Fixed64Run | Kind::Message => return Err(unknown(n, key_at)),
        };
    }
    Ok(())
}

// The owned types (`GoogleMessage1`, its `String`s and `Vec<u64>`), selectors only.

selector! {
    /// The owned GoogleMessage1's `string` fields.
    fn owned_top_str<'m>(m: &'m mut GoogleMessage1) -> &'m mut String {
        1 => field1, 4 => field4, 7 => field7, 9 => field9, 18 => field18,
        102 => field102, 103 => field103, 129 => field129,
    }
}

selector! {
    /// The owned GoogleMessage1's `int32` fields.
    fn owned_top_i32<'m>(m: &'m mut GoogleMessage1) -> &'m mut i32 {
        2 => field2, 3 => field3, 6 => field6, 16 => field16, 23 => field23,
        25 => field25, 29 => field29, 60 => field60, 67 => field67, 68 => field68,
        100 => field100, 101 => field101, 104 => field104, 128 => field128,
        130 => field130, 131 => field131, 150 => field150, 271 => field271,
        272 => field272, 280 => field280,
    }
}

selector! {
    /// The owned GoogleMessage1's `bool` fields.
    fn owned_top_bool<'m>(m: &'m mut GoogleMessage1) -> &'m mut bool {
        12 => field12, 13 => field13, 14 => field14, 17 => field17, 24 => field24,
        30 => field30, 59 => field59, 78 => field78, 80 => field80, 81 => field81,
    }
}

selector! {
    /// The owned sub-message's `int32` fields.
    fn owned_sub_i32<'m>(m: &'m mut GoogleMessage1SubMessage) -> &'m mut i32 {
        1 => field1, 2 => field2, 3 => field3, 16 => field16, 19 => field19,
        22 => field22, 204 => field204,
    }
}

selector! {
    /// The owned sub-message's `bool` fields.
    fn owned_sub_bool<'m>(m: &'m mut GoogleMessage1SubMessage) -> &'m mut bool {
        12 => field12, 20 => field20, 23 => field23, 28 => field28, 206 => field206,
    }
}

selector! {
    /// The owned sub-message's `int64` fields.
    fn owned_sub_i64<'m>(m: &'m mut GoogleMessage1SubMessage) -> &'m mut i64 {
        13 => field13, 14 => field14,
    }
}

selector! {
    /// The owned sub-message's `string` fields.
    fn owned_sub_str<'m>(m: &'m mut GoogleMessage1SubMessage) -> &'m mut String {
        15 => field15, 205 => field205,
    }
}

selector! {
    /// The owned sub-message's `uint64` fields.
    fn owned_sub_u64<'m>(m: &'m mut GoogleMessage1SubMessage) -> &'m mut u64 {
        207 => field207, 300 => field300,
    }
}

/// Decode `bytes` as the owned `GoogleMessage1` with the default options (strict), the
/// member picked by the selectors.
pub fn decode_owned(bytes: &[u8]) -> Result<GoogleMessage1, DecodeError> {
    decode_owned_with_depth(bytes, bijoubuf::DEFAULT_MAX_DEPTH)
}

/// [`decode_owned`] with the depth limit `max_depth`.
pub fn decode_owned_with_depth(
    bytes: &[u8],
    max_depth: u32,
) -> Result<GoogleMessage1, DecodeError> {
    let mut m = GoogleMessage1::default();
    match owned_top(bytes, bytes.len(), max_depth, &mut m) {
        Ok(()) => Ok(m),
        Err(e) => Err(push_segment(e, PathSegment::Message("GoogleMessage1"))),
    }
}

/// [`top`] for the owned `GoogleMessage1`: the strings copied into `String`s, field5
/// into a `Vec<u64>`.
#[inline(never)]
fn owned_top(
    buf: &[u8],
    end: usize,
    max_depth: u32,
    m: &mut GoogleMessage1,
) -> Result<(), DecodeError> {
    let bytes = buf.get(..end).unwrap_or_default();
    let mut prev = 0;
    let mut pos = 0;
    while pos < end {
        let key_at = pos;
        let (n, wire, p) = key(bytes, pos, &mut prev)?;
        pos = p;
        let Some(&Slot { kind, wire: w }) = TOP_KINDS.get(n as usize) else {
            return Err(unknown(n, key_at));
        };
        if kind == Kind::None {
            // SPEC §4.3, §8.1
            return Err(unknown(n, key_at));
        }
        if wire != w {
            // SPEC §4.4
            return Err(field_error(
                ErrorKind::WireTypeMismatch,
                key_at,
                top_name(n),
            ));
        }
        let at = |e| in_field(e, top_name(n));
        pos = match kind {
            Kind::Str => {
                let (s, p) = str_value(bytes, pos, key_at).map_err(at)?;
                let slot = owned_top_str(m, n);
                *slot = String::from(s);
                p
            }
            Kind::Int32 => {
                let (x, p) = i32_value(bytes, pos, key_at).map_err(at)?;
                let slot = owned_top_i32(m, n);
                *slot = x;
                p
            }
            Kind::Bool => {
                let p = true_value(bytes, pos, key_at).map_err(at)?;
                let slot = owned_top_bool(m, n);
                *slot = true;
                p
            }
            Kind::Int64 => {
                let (x, p) = i64_value(bytes, pos, key_at).map_err(at)?;
                m.field22 = x;
                p
            }
            Kind::Fixed64Run => {
                let (start, len) = length(bytes, pos).map_err(at)?;
                if len == 0 {
                    // SPEC §6.1
                    return Err(field_error(ErrorKind::EmptyRepeated, key_at, top_name(n)));
                }
                if len % 8 != 0 {
                    // SPEC §6.2
                    return Err(field_error(
                        ErrorKind::PackedLengthMismatch,
                        pos,
                        top_name(n),
                    ));
                }
                m.field5 = bytes[start..start + len]
                    .chunks_exact(8)
                    .map(|w| u64::from_be_bytes(w.try_into().unwrap_or_default()))
                    .collect();
                start + len
            }
            Kind::Message => {
                // SPEC §9.3, §10.1: the depth limit at the key, before the length.
                if 1 >= max_depth {
                    return Err(field_error(
                        ErrorKind::DepthLimitExceeded,
                        key_at,
                        top_name(n),
                    ));
                }
                let (start, len) = length(bytes, pos).map_err(at)?;
                let child = m.field15.insert(GoogleMessage1SubMessage::default());
                owned_sub(buf, start, start + len, child).map_err(at)?;
                start + len
            }
            // Not GoogleMessage1's kinds: `TOP_KINDS` gives none of them.
            Kind::None | Kind::UInt64 | Kind::Fixed32 | Kind::Fixed64 => {
                return Err(unknown(n, key_at));
            }
        };
    }
    Ok(())
}

/// [`sub`] for the owned sub-message.
#[inline(never)]
fn owned_sub(
    buf: &[u8],
    mut pos: usize,
    end: usize,
    m: &mut GoogleMessage1SubMessage,
) -> Result<(), DecodeError> {
    let bytes = buf.get(..end).unwrap_or_default();
    let mut prev = 0;
    while pos < end {
        let key_at = pos;
        let (n, wire, p) = key(bytes, pos, &mut prev)?;
        pos = p;
        let Some(&Slot { kind, wire: w }) = SUB_KINDS.get(n as usize) else {
            return Err(unknown(n, key_at));
        };
        if kind == Kind::None {
            return Err(unknown(n, key_at));
        }
        if wire != w {
            return Err(field_error(
                ErrorKind::WireTypeMismatch,
                key_at,
                sub_name(n),
            ));
        }
        let at = |e| in_field(e, sub_name(n));
        pos = match kind {
            Kind::Int32 => {
                let (x, p) = i32_value(bytes, pos, key_at).map_err(at)?;
                let slot = owned_sub_i32(m, n);
                *slot = x;
                p
            }
            Kind::Bool => {
                let p = true_value(bytes, pos, key_at).map_err(at)?;
                let slot = owned_sub_bool(m, n);
                *slot = true;
                p
            }
            Kind::Int64 => {
                let (x, p) = i64_value(bytes, pos, key_at).map_err(at)?;
                let slot = owned_sub_i64(m, n);
                *slot = x;
                p
            }
            Kind::UInt64 => {
                let (x, p) = varint(bytes, pos).map_err(at)?;
                if x == 0 {
                    return Err(default_present(key_at, sub_name(n)));
                }
                let slot = owned_sub_u64(m, n);
                *slot = x;
                p
            }
            Kind::Str => {
                let (s, p) = str_value(bytes, pos, key_at).map_err(at)?;
                let slot = owned_sub_str(m, n);
                *slot = String::from(s);
                p
            }
            Kind::Fixed64 => {
                let Some(w) = bytes.get(pos..).and_then(|r| r.first_chunk::<8>()) else {
                    return Err(field_error(ErrorKind::Truncated, pos, sub_name(n)));
                };
                let x = u64::from_be_bytes(*w);
                if x == 0 {
                    return Err(default_present(key_at, sub_name(n)));
                }
                m.field21 = x;
                pos + 8
            }
            Kind::Fixed32 => {
                let Some(w) = bytes.get(pos..).and_then(|r| r.first_chunk::<4>()) else {
                    return Err(field_error(ErrorKind::Truncated, pos, sub_name(n)));
                };
                let x = u32::from_be_bytes(*w);
                if x == 0 {
                    return Err(default_present(key_at, sub_name(n)));
                }
                m.field203 = x;
                pos + 4
            }
            // Not the sub-message's kinds: `SUB_KINDS` gives none of them.
            Kind::None | Kind::Fixed64Run | Kind::Message => return Err(unknown(n, key_at)),
        };
    }
    Ok(())
}

/// An `int32` record's value at `pos` (its key at `key_at`): not the default (SPEC
/// §5.1).
#[inline(always)]
fn i32_value(bytes: &[u8], pos: usize, key_at: usize) -> Result<(i32, usize), DecodeError> {
    let (raw, p) = varint(bytes, pos)?;
    let x = int32_of(raw, pos)?;
    if x == 0 {
        return Err(DecodeError::new(ErrorKind::DefaultValuePresent, key_at));
    }
    Ok((x, p))
}

/// An `int64` record's value at `pos`: not the default.
#[inline(always)]
fn i64_value(bytes: &[u8], pos: usize, key_at: usize) -> Result<(i64, usize), DecodeError> {
    let (raw, p) = varint(bytes, pos)?;
    if raw == 0 {
        return Err(DecodeError::new(ErrorKind::DefaultValuePresent, key_at));
    }
    Ok((bijou64::zigzag::decode_i64(raw), p))
}

/// A `bool` record's value at `pos`, which must be `true` (the default is absent).
#[inline(always)]
fn true_value(bytes: &[u8], pos: usize, key_at: usize) -> Result<usize, DecodeError> {
    let (raw, p) = varint(bytes, pos)?;
    if !bool_of(raw, pos)? {
        return Err(DecodeError::new(ErrorKind::DefaultValuePresent, key_at));
    }
    Ok(p)
}

/// A `string` record's value at `pos`: valid UTF-8 (SPEC §7), not empty.
#[inline(always)]
fn str_value(bytes: &[u8], pos: usize, key_at: usize) -> Result<(&str, usize), DecodeError> {
    let (start, len) = length(bytes, pos)?;
    let s = bijoubuf::__private::utf8(&bytes[start..start + len], start)?;
    if s.is_empty() {
        return Err(DecodeError::new(ErrorKind::DefaultValuePresent, key_at));
    }
    Ok((s, start + len))
}

/// One bijou64 at `at` (SPEC §2): the one-byte case inline, longer ones out of line.
#[inline(always)]
fn varint(bytes: &[u8], at: usize) -> Result<(u64, usize), DecodeError> {
    match bytes.get(at) {
        Some(&t) if t < bijou64::FIRST_TIER_TAG => Ok((t as u64, at + 1)),
        _ => varint_wide(bytes, at),
    }
}

/// A bijou64 of two bytes or more at `at`, or none there: cut by the message's bound,
/// it is `truncated` at its tag.
#[inline(never)]
fn varint_wide(bytes: &[u8], at: usize) -> Result<(u64, usize), DecodeError> {
    let Some(&tag) = bytes.get(at) else {
        return Err(DecodeError::new(ErrorKind::Truncated, at));
    };
    let len = 1 + bijou64::payload_len(tag);
    let Some(v) = bytes.get(at..at + len) else {
        return Err(DecodeError::new(ErrorKind::Truncated, at));
    };
    match bijou64::decode(v) {
        Ok((x, n)) => Ok((x, at + n)),
        Err(bijou64::Error::Overflow) => Err(DecodeError::new(ErrorKind::VarintOverflow, at)),
        Err(_) => Err(DecodeError::new(ErrorKind::Truncated, at)),
    }
}

/// A length prefix at `at` and the content it announces, inside the bound (SPEC §9.4):
/// `(content start, length)`.
#[inline(always)]
fn length(bytes: &[u8], at: usize) -> Result<(usize, usize), DecodeError> {
    let (len, start) = varint(bytes, at)?;
    if len > (bytes.len() - start) as u64 {
        return Err(DecodeError::new(ErrorKind::Truncated, at));
    }
    Ok((start, len as usize))
}

/// The checked `repeated fixed64` record at `key_at..run_end` as a [`FixedRun`] over
/// the input, read again by a reader of the runtime (which alone can build one over wire
/// bytes), starting at the record's key with no previous record.
#[inline(never)]
fn fixed_run_view<'a>(
    buf: &'a [u8],
    key_at: usize,
    run_end: usize,
    name: &'static str,
) -> Result<FixedRun<'a, u64>, DecodeError> {
    let opts = DecodeOptions::new();
    let mut r = bijoubuf::__private::message_reader(buf, key_at, run_end, &opts);
    let (v, _) = varint(buf.get(..run_end).unwrap_or_default(), key_at)?;
    r.fixed_run::<Fixed64Codec>((1 + (v >> 2)) as u32, name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::data::Dataset;
    use crate::msg::differential;
    use crate::msg::gm1;
    use bijoubuf::{Message as _, MessageRef as _};

    /// Encoded GoogleMessage1 values of the benchmarks' generator (the gm1-batch64
    /// workload's first batch and more).
    fn inputs() -> Vec<Vec<u8>> {
        let base = Dataset::Gm1Proto3.seed();
        (0..96)
            .map(|j| gm1::proto3(base + j).encode_to_vec().expect("encodes"))
            .collect()
    }

    /// The same result from this decoder and the generated one, with the same error
    /// (code, offset and path) when refused; whether it was accepted.
    fn same(x: &[u8], what: &str) -> bool {
        let generated = GoogleMessage1Ref::decode(x);
        let kindsel = decode(x);
        let accessors = decode_by_accessors(x);
        assert_eq!(kindsel, accessors, "{what}: the two forms differ");
        match (&generated, &kindsel) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: values differ"),
            (Err(a), Err(b)) => {
                assert_eq!(
                    (a.code(), a.offset(), a.path_string()),
                    (b.code(), b.offset(), b.path_string()),
                    "{what}: errors differ"
                );
                assert_eq!(a, b, "{what}");
            }
            _ => panic!("{what}: generated {generated:?}, kindsel {kindsel:?}"),
        }
        let owned = GoogleMessage1::decode(x);
        let kindsel_owned = decode_owned(x);
        match (&owned, &kindsel_owned) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: owned values differ"),
            (Err(a), Err(b)) => assert_eq!(a, b, "{what}: owned errors differ"),
            _ => panic!("{what}: generated {owned:?}, kindsel {kindsel_owned:?}"),
        }
        generated.is_ok()
    }

    #[test]
    fn datasets_decode_as_the_generated_decoder_does() {
        let inputs = inputs();
        for (i, x) in inputs.iter().enumerate() {
            assert!(same(x, &format!("input {i}")), "input {i} is canonical");
            // Not a trivially empty comparison: the values carry the data.
            let m = decode(x).expect("decodes");
            assert_eq!(
                m,
                gm1::proto3(Dataset::Gm1Proto3.seed() + i as u64).borrowed()
            );
        }
        let some = |f: fn(&GoogleMessage1Ref<'_>) -> bool| {
            inputs.iter().any(|x| f(&decode(x).expect("decodes")))
        };
        assert!(some(|m| m.field15.is_some()));
        assert!(some(|m| !m.field5.is_empty()));
    }

    #[test]
    fn every_byte_changed_gives_the_same_result_or_error() {
        let refused = differential::every_byte_changed(&inputs()[..12], same);
        // Many of the changes are refused, so the errors were compared.
        assert!(refused > 1000, "{refused} refused");
    }

    #[test]
    fn every_cut_gives_the_same_error() {
        differential::every_cut(&inputs()[..24], same);
    }

    #[test]
    fn the_depth_limit_is_checked_at_the_key() {
        let opts = DecodeOptions::new().max_depth(1);
        let mut seen = 0;
        for x in inputs() {
            let generated = GoogleMessage1Ref::decode_with(&x, &opts).map(|d| d.into_message());
            let owned = GoogleMessage1::decode_with(&x, &opts).map(|d| d.into_message());
            assert_eq!(owned, decode_owned_with_depth(&x, 1));
            let accessors = decode_with_depth::<true>(&x, 1);
            let kindsel = decode_with_depth::<false>(&x, 1);
            assert_eq!(kindsel, accessors);
            match (generated, kindsel) {
                (Ok(a), Ok(b)) => assert_eq!(a, b),
                (Err(a), Err(b)) => {
                    assert_eq!(a.kind(), ErrorKind::DepthLimitExceeded);
                    assert_eq!(a, b);
                    seen += 1;
                }
                (a, b) => panic!("generated {a:?}, kindsel {b:?}"),
            }
        }
        assert!(seen > 0);
    }

    #[test]
    fn the_benchmark_operation_runs() {
        use crate::msg::otlp::{Workload, op};
        // Each decode asserts it succeeded.
        for name in [
            "bijou-kindsel-decode",
            "bijou-kindsel-fn-decode",
            "bijou-kindsel-owned-decode",
        ] {
            let mut f = op(Workload::Gm1Batch, name, 2).expect("an operation");
            f();
            f();
        }
    }
}
