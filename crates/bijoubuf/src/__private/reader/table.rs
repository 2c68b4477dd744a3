//! The third shape of generated `__decode`: *table*.
//!
//! A dispatch decoder (`dispatch.rs`) is a generated loop with a `match` on the record's
//! number and one call per arm; every message has its own copy of the loop. A table
//! decoder has none: the generated code is a static [`DecodeTable`] (per field its
//! number, name, byte offset in the struct and the shared read that fills it) and one
//! loop here, [`run`], serves every message of every schema, so the decoding code a
//! program runs is one loop plus one read per shape and codec, whatever the number of
//! message types (the instruction cache is the point, issue #27 item 2).
//!
//! The loop reads a key with [`Reader::record`], finds the field by a cursor over the
//! table (keys are delta-encoded, SPEC §4.1, so numbers ascend and the cursor only moves
//! forward) and calls the field's read, which writes at the field's offset with the same
//! body as dispatch's `*_here` reads (the same checks, error kinds, offsets and paths);
//! any other number goes to [`Reader::unknown_here`]. Oneof members, whose value is a
//! variant of an enum rather than a member of the struct, go to the message's generated
//! *arm* (`fn(&mut Self, &mut Reader, number)`, dispatch's arm for that field). After the
//! end, [`Reader::finish`] (or `finish_into` the type's unknown-field storage) and the
//! proto2 `required` checks in number order, as the walk makes them (SPEC §5.3).
//!
//! # Soundness
//!
//! The loop is not generic: it sees the message as a `*mut u8`, the table as untyped
//! entries. What ties them together is [`TableDecode`], an `unsafe trait` whose contract
//! is that every entry's offset is a field of `Self` of the Rust type its read writes,
//! and that its arm takes `Self`. Generated code never writes `unsafe`: it invokes
//! [`decode_table!`](crate::__bijoubuf_decode_table), which writes the `unsafe impl`
//! and makes each entry from `core::mem::offset_of!(Self, field)` beside a closure
//! `|m: &mut Self| &mut m.field` that must type-check as returning the read's value type
//! (a field of another type fails to compile). The macro's `unsafe` is this crate's, so
//! a schema crate's `#![forbid(unsafe_code)]` does not refuse it: rustc does not report
//! the lint inside a macro defined in another crate (checked with rustc 1.95, and by
//! `conformance`'s table schemas, compiled under `forbid(unsafe_code)`).
//!
//! The arm and the reads are stored type-erased (`&mut Self` as `*mut u8`, `Reader<'a>`
//! as any reader lifetime): pointers and references to sized types are ABI-compatible
//! (the `fn` pointer docs, "ABI compatibility"), and [`table_decode`] only ever hands a
//! table's functions the `Self` and the `Reader<'a>` the table was built for.

// The one place the table shape is unsafe: erased pointers and offsets (module docs).
#![allow(unsafe_code)]

use alloc::collections::BTreeMap;

use super::Reader;
use crate::__private::codec::{
    Bool, Double, Enum, Fixed64, Int32, Int64, MapKey, ReadCodec, Str, StrRef, UInt32, UInt64,
};
use crate::__private::message::Decode;
use crate::error::DecodeError;
use crate::unknown::UnknownFields;

/// A field's read: the reader, the message (type-erased), the field's entry.
type Read = for<'r> unsafe fn(&mut Reader<'r>, *mut u8, &TableField) -> Result<(), DecodeError>;

/// A message's arm for its oneof members: the message (type-erased), the reader, the
/// record's number.
pub type TableArm = for<'r> unsafe fn(*mut u8, &mut Reader<'r>, u32) -> Result<(), DecodeError>;

/// A message type whose decode is its [`DecodeTable`]; not API.
///
/// # Safety
/// Every entry of [`TABLE`](Self::TABLE) that has an offset names a field of `Self` at
/// that offset whose type is the one the entry's read writes (the entry's constructor
/// says which), the table's unknown-field offset (if any) is an [`UnknownFields`] field
/// of `Self`, and its arm (if any) was made by [`table_arm`] from a function of `Self`
/// reading from a `Reader<'a>`. [`decode_table!`](crate::__bijoubuf_decode_table)
/// implements it so.
pub unsafe trait TableDecode<'a>: Decode<'a> + Default {
    /// The message's table.
    const TABLE: &'static DecodeTable;
}

/// One field of a [`DecodeTable`].
#[derive(Debug)]
pub struct TableField {
    number: u32,
    /// Byte offset of the field in the message (unused by oneof members).
    offset: u32,
    /// The field's name, for errors.
    name: &'static str,
    /// A proto2 `required` field: checked after the end (SPEC §5.3).
    required: bool,
    /// `0`, or the [`InlineRead::KIND`] of the field's codec: the loop reads the field
    /// itself, without the call through `read`.
    kind: u8,
    /// The field's read; `None` for a oneof member, read by the table's arm.
    read: Option<Read>,
}

/// A message's decode table: its fields ascending by number, an index from the small
/// numbers to them, the arm for its oneof members, where it keeps unknown records.
#[derive(Debug)]
pub struct DecodeTable {
    fields: &'static [TableField],
    /// `index[n]`: one more than the position in `fields` of field number `n`, `0` when
    /// `n` is no field's: one load finds a field or tells an unknown number, where a
    /// scan of the fields cost a step per field passed (GoogleMessage1: 41 fields,
    /// numbered up to 300, most absent). Numbers past the index are scanned for. A
    /// position fits: field numbers start at 1 and ascend, so the field numbered `n`
    /// is at most at position `n - 1 < 255`.
    index: [u8; INDEX_LEN],
    /// The position in `fields` of the first field numbered past the index.
    high: u32,
    /// Bit `i`: field `i` is a proto2 `required` field.
    required: u64,
    arm: Option<TableArm>,
    unknown: Option<u32>,
}

/// Field numbers below this are found through a table's index.
const INDEX_LEN: usize = 256;

/// The proto2 `required` fields of a table must be among its first this many fields:
/// the loop notes which fields it saw in one word (the generator decodes other messages
/// by dispatch).
pub const TABLE_REQUIRED_MAX: usize = 64;

impl DecodeTable {
    /// The table of `fields` (ascending by number), `arm` for the oneof members,
    /// `unknown` the offset of the type's [`UnknownFields`] when it keeps them.
    ///
    /// # Safety
    /// As [`TableDecode`]: the table is the one of the type its entries' offsets, `arm`
    /// and `unknown` belong to.
    pub const unsafe fn new(
        fields: &'static [TableField],
        arm: Option<TableArm>,
        unknown: Option<usize>,
    ) -> DecodeTable {
        let mut index = [0u8; INDEX_LEN];
        let mut high = fields.len() as u32;
        let mut required = 0u64;
        let mut i = 0;
        while i < fields.len() {
            let f = &fields[i];
            // The cursor in `run` moves forward only: the fields must ascend.
            assert!(i == 0 || fields[i - 1].number < f.number);
            // Field numbers start at 1 (SPEC §4.3): with the line above, the field
            // numbered `n` is at most at position `n - 1`, which the index's `u8` holds.
            assert!(f.number != 0);
            assert!(!f.required || i < TABLE_REQUIRED_MAX);
            if f.required {
                required |= 1 << i;
            }
            if (f.number as usize) < INDEX_LEN {
                index[f.number as usize] = i as u8 + 1;
            } else if high == fields.len() as u32 {
                high = i as u32;
            }
            i += 1;
        }
        DecodeTable {
            fields,
            index,
            high,
            required,
            arm,
            unknown: match unknown {
                Some(o) => Some(o as u32),
                None => None,
            },
        }
    }
}

/// The oneof arm `f` of a message type `T`, type-erased for its [`DecodeTable`].
///
/// `'a` is early-bound (the `where` clause) so that `decode_table!` names it: the arm
/// must read from the `Reader<'a>` of the table's impl, not from a reader it chose (an
/// arm taking `Reader<'static>` could keep a borrow of the input past the decode).
///
/// An arm over the table's reader is taken:
/// ```
/// use bijoubuf::__private::{Reader, TableArm, table_arm};
/// fn arm<'a>(_: &mut u8, _: &mut Reader<'a>, _: u32) -> Result<(), bijoubuf::DecodeError> {
///     Ok(())
/// }
/// fn erased<'a>() -> TableArm {
///     table_arm::<'a, u8>(arm)
/// }
/// ```
/// and one that chose its own reader's lifetime is refused:
/// ```compile_fail
/// use bijoubuf::__private::{Reader, TableArm, table_arm};
/// fn arm(_: &mut u8, _: &mut Reader<'static>, _: u32) -> Result<(), bijoubuf::DecodeError> {
///     Ok(())
/// }
/// fn erased<'a>() -> TableArm {
///     table_arm::<'a, u8>(arm)
/// }
/// ```
pub const fn table_arm<'a, T>(
    f: fn(&mut T, &mut Reader<'a>, u32) -> Result<(), DecodeError>,
) -> TableArm
where
    'a: 'a,
{
    // SAFETY: `&mut T` and `*mut u8` are ABI-compatible (both thin pointers, T sized),
    // as are readers of any lifetime; `run` calls the arm only with the `T` and the
    // reader the table was built for (`TableDecode`'s contract), and the erased type is
    // an `unsafe fn`, so no safe code can call it with anything else.
    unsafe {
        core::mem::transmute::<fn(&mut T, &mut Reader<'a>, u32) -> Result<(), DecodeError>, TableArm>(
            f,
        )
    }
}

/// Type-checks a field access: `decode_table!` passes `|m| &mut m.field` with `V` the
/// type the field's read writes, beside the field's `offset_of!`.
#[inline(always)]
pub const fn table_witness<T, V>(_field: fn(&mut T) -> &mut V) {}

/// Erases a read's reader lifetime (see the module docs).
const fn erase<'a>(
    f: unsafe fn(&mut Reader<'a>, *mut u8, &TableField) -> Result<(), DecodeError>,
) -> Read {
    // SAFETY: the two types differ only in the reader's lifetime, which does not change
    // the ABI; `run` hands the read the reader its table was built for.
    unsafe {
        core::mem::transmute::<
            unsafe fn(&mut Reader<'a>, *mut u8, &TableField) -> Result<(), DecodeError>,
            Read,
        >(f)
    }
}

impl TableField {
    const fn at(number: u32, name: &'static str, offset: usize, read: Read) -> TableField {
        TableField {
            number,
            offset: offset as u32,
            name,
            required: false,
            kind: 0,
            read: Some(read),
        }
    }

    /// An implicit-presence field (SPEC §5.1) of type `C::Value` at `offset`.
    ///
    /// # Safety
    /// `offset` is a field of type `C::Value` of the table's type.
    pub const unsafe fn implicit<'a, C: ReadCodec<'a>>(
        number: u32,
        name: &'static str,
        offset: usize,
    ) -> TableField {
        Self::at(number, name, offset, erase(implicit_at::<C>))
    }

    /// An implicit-presence field of type `C::Value` at `offset` that the loop reads
    /// inline (the same read as [`implicit`](Self::implicit), without the call).
    ///
    /// # Safety
    /// `offset` is a field of type `C::Value` of the table's type.
    pub const unsafe fn implicit_inline<'a, C: InlineRead<'a>>(
        number: u32,
        name: &'static str,
        offset: usize,
    ) -> TableField {
        let mut f = Self::at(number, name, offset, erase(implicit_at::<C>));
        f.kind = C::KIND;
        f
    }

    /// An explicit-presence field (SPEC §5.2) of type `Option<C::Value>` at `offset`.
    ///
    /// # Safety
    /// `offset` is a field of type `Option<C::Value>` of the table's type.
    pub const unsafe fn optional<'a, C: ReadCodec<'a>>(
        number: u32,
        name: &'static str,
        offset: usize,
    ) -> TableField {
        Self::at(number, name, offset, erase(optional_at::<C>))
    }

    /// A proto2 `required` field (SPEC §5.3) of type `C::Value` at `offset`.
    ///
    /// # Safety
    /// `offset` is a field of type `C::Value` of the table's type.
    pub const unsafe fn required<'a, C: ReadCodec<'a>>(
        number: u32,
        name: &'static str,
        offset: usize,
    ) -> TableField {
        let mut f = Self::at(number, name, offset, erase(required_at::<C>));
        f.required = true;
        f
    }

    /// A repeated field (SPEC §6.1, §6.2) of type `Vec<C::Value>` at `offset`.
    ///
    /// # Safety
    /// `offset` is a field of type `Vec<C::Value>` of the table's type.
    pub const unsafe fn repeated<'a, C: ReadCodec<'a>>(
        number: u32,
        name: &'static str,
        offset: usize,
    ) -> TableField {
        Self::at(number, name, offset, erase(repeated_at::<C>))
    }

    /// A repeated fixed-width field of a borrowed twin, of type
    /// `FixedRun<'a, C::Value>` at `offset`.
    ///
    /// # Safety
    /// `offset` is a field of type `FixedRun<'a, C::Value>` of the table's type.
    pub const unsafe fn fixed_run<'a, C: ReadCodec<'a>>(
        number: u32,
        name: &'static str,
        offset: usize,
    ) -> TableField
    where
        C::Value: crate::FixedWidth + 'a,
    {
        Self::at(number, name, offset, erase(fixed_run_at::<C>))
    }

    /// A map field (SPEC §6.3) of type `BTreeMap<K::Value, V::Value>` at `offset`.
    ///
    /// # Safety
    /// `offset` is a field of type `BTreeMap<K::Value, V::Value>` of the table's type.
    pub const unsafe fn map<'a, K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
        number: u32,
        name: &'static str,
        offset: usize,
    ) -> TableField {
        Self::at(number, name, offset, erase(map_at::<K, V>))
    }

    /// A map field of a borrowed twin, of type `SortedMap<K::Value, V::Value>` at
    /// `offset`.
    ///
    /// # Safety
    /// `offset` is a field of type `SortedMap<K::Value, V::Value>` of the table's type.
    pub const unsafe fn sorted_map<'a, K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
        number: u32,
        name: &'static str,
        offset: usize,
    ) -> TableField {
        Self::at(number, name, offset, erase(sorted_map_at::<K, V>))
    }

    /// A oneof member (SPEC §5.4): its record goes to the table's arm.
    pub const fn arm(number: u32, name: &'static str) -> TableField {
        TableField {
            number,
            offset: 0,
            name,
            required: false,
            kind: 0,
            read: None,
        }
    }
}

/// A codec whose implicit-presence fields the table loop reads inline, by a `match` on
/// the entry's kind, where other fields cost a call through the entry's read: the
/// common scalars and strings of measured messages (OpenTelemetry, GoogleMessage1).
///
/// # Safety
/// `KIND` is the arm of `run`'s `match` that reads this very codec (the arm reads the
/// field as its `Value`); no two codecs share a kind, and `0` is none.
pub unsafe trait InlineRead<'a>: ReadCodec<'a> {
    /// The codec's arm in the loop.
    const KIND: u8;
}

macro_rules! inline_kinds {
    ($($kind:ident = $n:literal: $codec:ty;)*) => {
        $(
            const $kind: u8 = $n;
            // SAFETY: `run`'s arm for this kind reads this codec.
            unsafe impl<'a> InlineRead<'a> for $codec {
                const KIND: u8 = $kind;
            }
        )*
    };
}

inline_kinds! {
    K_INT32 = 1: Int32;
    K_INT64 = 2: Int64;
    K_UINT32 = 3: UInt32;
    K_UINT64 = 4: UInt64;
    K_BOOL = 5: Bool;
    K_ENUM = 6: Enum;
    K_DOUBLE = 7: Double;
    K_FIXED64 = 8: Fixed64;
    K_STR = 9: Str;
    K_STR_REF = 10: StrRef<'a>;
}

/// The field of `f` in message `m`, as a `V`.
///
/// # Safety
/// `m` points to a message whose field at `f`'s offset is a `V`, with no other live
/// reference to it.
#[inline(always)]
unsafe fn field<'m, V>(m: *mut u8, f: &TableField) -> &'m mut V {
    // SAFETY: the caller's contract.
    unsafe { &mut *m.add(f.offset as usize).cast::<V>() }
}

// The reads. Each is one function per codec for the whole program, called through the
// table; its body is dispatch's read, inlined.
// SAFETY (for each): `m` is the message the table's entry `f` was made for, so the
// field at `f`'s offset has the type the entry's constructor names (`TableDecode`).

unsafe fn implicit_at<'a, C: ReadCodec<'a>>(
    r: &mut Reader<'a>,
    m: *mut u8,
    f: &TableField,
) -> Result<(), DecodeError> {
    // SAFETY: see above.
    r.implicit_in::<C>(f.name, unsafe { field(m, f) })
}

unsafe fn optional_at<'a, C: ReadCodec<'a>>(
    r: &mut Reader<'a>,
    m: *mut u8,
    f: &TableField,
) -> Result<(), DecodeError> {
    // SAFETY: see above.
    r.optional_in::<C>(f.name, unsafe { field(m, f) })
}

unsafe fn required_at<'a, C: ReadCodec<'a>>(
    r: &mut Reader<'a>,
    m: *mut u8,
    f: &TableField,
) -> Result<(), DecodeError> {
    // SAFETY: see above.
    r.required_in::<C>(f.name, unsafe { field(m, f) })
}

unsafe fn repeated_at<'a, C: ReadCodec<'a>>(
    r: &mut Reader<'a>,
    m: *mut u8,
    f: &TableField,
) -> Result<(), DecodeError> {
    // SAFETY: see above.
    r.repeated_in::<C>(f.name, unsafe { field(m, f) })
}

unsafe fn fixed_run_at<'a, C: ReadCodec<'a>>(
    r: &mut Reader<'a>,
    m: *mut u8,
    f: &TableField,
) -> Result<(), DecodeError>
where
    C::Value: crate::FixedWidth + 'a,
{
    let run = r.fixed_run_in::<C>(f.name)?;
    // SAFETY: see above.
    *unsafe { field::<crate::FixedRun<'a, C::Value>>(m, f) } = run;
    Ok(())
}

unsafe fn map_at<'a, K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
    r: &mut Reader<'a>,
    m: *mut u8,
    f: &TableField,
) -> Result<(), DecodeError> {
    // SAFETY: see above.
    let out: &mut BTreeMap<K::Value, V::Value> = unsafe { field(m, f) };
    r.map_in::<K, V>(f.name, out)
}

unsafe fn sorted_map_at<'a, K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
    r: &mut Reader<'a>,
    m: *mut u8,
    f: &TableField,
) -> Result<(), DecodeError> {
    let map = r.sorted_map_in::<K, V>(f.name)?;
    // SAFETY: see above.
    *unsafe { field::<crate::SortedMap<K::Value, V::Value>>(m, f) } = map;
    Ok(())
}

/// Decode `m`'s content with its type's table: what a table-shaped `__decode`,
/// `__decode_push` and `__decode_some` call on a default value.
#[inline(always)]
pub fn table_decode<'a, T: TableDecode<'a>>(
    r: &mut Reader<'a>,
    m: &mut T,
) -> Result<(), DecodeError> {
    // SAFETY: `T::TABLE` is `T`'s (`TableDecode`'s contract) and `m` is a `T` this
    // call borrows exclusively.
    unsafe { run(r, (m as *mut T).cast::<u8>(), T::TABLE) }
}

/// The loop every table decoder runs (see the module docs).
///
/// # Safety
/// `m` points to a value of the type `t` was made for, borrowed exclusively, and `r`
/// has the lifetime `t`'s reads were made for.
#[inline(never)]
unsafe fn run<'r>(r: &mut Reader<'r>, m: *mut u8, t: &DecodeTable) -> Result<(), DecodeError> {
    let fields = t.fields;
    // The scan's cursor, for numbers past the index: no field before `high` has one.
    let mut i = t.high as usize;
    // Bit `j`: field `j` was read (only `required` fields are asked about).
    let mut seen: u64 = 0;
    loop {
        let number = r.record()?;
        if number == 0 {
            break;
        }
        let j = match t.index.get(number as usize) {
            // `0` (no field) wraps to a position past every table: unknown below.
            Some(&k) => (k as usize).wrapping_sub(1),
            None => {
                // SPEC §4.1: numbers ascend, so the fields before the cursor are behind us.
                while let Some(f) = fields.get(i) {
                    if f.number >= number {
                        break;
                    }
                    i += 1;
                }
                i
            }
        };
        let f = match fields.get(j) {
            Some(f) if f.number == number => f,
            _ => {
                r.unknown_here(number)?;
                continue;
            }
        };
        // A field of an inline kind, read here.
        macro_rules! inline {
            ($codec:ty) => {{
                // SAFETY: the entry was made by `implicit_inline` for the codec of its
                // kind (`InlineRead`), so its field is that codec's `Value`.
                let v = unsafe { field(m, f) };
                r.implicit_in::<$codec>(f.name, v)?
            }};
        }
        match f.kind {
            K_INT32 => inline!(Int32),
            K_INT64 => inline!(Int64),
            K_UINT32 => inline!(UInt32),
            K_UINT64 => inline!(UInt64),
            K_BOOL => inline!(Bool),
            K_ENUM => inline!(Enum),
            K_DOUBLE => inline!(Double),
            K_FIXED64 => inline!(Fixed64),
            K_STR => inline!(Str),
            K_STR_REF => inline!(StrRef<'r>),
            // No kind: the entry's read, or the arm for a oneof member.
            _ => match (f.read, t.arm) {
                // SAFETY: `f` is an entry of `m`'s type's table.
                (Some(read), _) => unsafe { read(r, m, f)? },
                // SAFETY: the arm is `m`'s type's (`TableDecode`).
                (None, Some(arm)) => unsafe { arm(m, r, number)? },
                // Not made by `decode_table!`: a member without an arm.
                (None, None) => r.unknown_here(number)?,
            },
        }
        // Only the first 64 fields are noted (`TABLE_REQUIRED_MAX`): no branch.
        seen |= u64::from(j < 64) << (j & 63);
    }
    match t.unknown {
        // SAFETY: the offset is `m`'s type's `UnknownFields` (`TableDecode`).
        Some(o) => r.finish_into(unsafe { &mut *m.add(o as usize).cast::<UnknownFields>() })?,
        None => {
            r.finish()?;
        }
    }
    // SPEC §5.3: the lowest absent `required` field is reported, after the end.
    let missing = t.required & !seen;
    if missing != 0 {
        let name = fields
            .get(missing.trailing_zeros() as usize)
            .map_or("", |f| f.name);
        r.require(None::<()>, name)?;
    }
    Ok(())
}

/// The [`TableDecode`] impl of a generated message type, in generated code as
/// `__bb::decode_table! { impl<'a> for Type; arm: ...; unknown: ...; fields: ... }`:
/// per field its number, name, shape, member and codecs (`implicit`, `optional`,
/// `required`, `repeated`, `fixed_run` with one codec; `map`, `sorted_map` with two;
/// `member` for a oneof member, read by the arm). Each entry's offset is
/// `offset_of!(Self, member)` and is checked against the shape's Rust type by a closure
/// `|m| &mut m.member` that must compile as `fn(&mut Self) -> &mut V` (see the module
/// docs of the runtime's `reader/table.rs`); the `unsafe` stays inside this macro.
#[doc(hidden)]
#[macro_export]
macro_rules! __bijoubuf_decode_table {
    (
        impl<$lt:lifetime> for $ty:ty;
        arm: $($arm:path)?;
        unknown: $($unknown:ident)?;
        fields: $( $number:literal $name:literal $shape:ident $( $member:ident ($($codec:ty),+) )? );* $(;)?
    ) => {
        #[allow(deprecated)]
        // SAFETY: every offset is `offset_of!(Self, member)` of a member whose type the
        // witness beside it checks; the arm is a method of `Self`.
        unsafe impl<$lt> $crate::__private::TableDecode<$lt> for $ty {
            const TABLE: &'static $crate::__private::DecodeTable = &{
                // SAFETY: as the impl's.
                unsafe {
                    $crate::__private::DecodeTable::new(
                        &[$(
                            $crate::__bijoubuf_table_field!(
                                $lt; $shape $number $name $( $member ($($codec),+) )?
                            )
                        ),*],
                        $crate::__bijoubuf_table_field!(@arm $lt; $($arm)?),
                        $crate::__bijoubuf_table_field!(@unknown $($unknown)?),
                    )
                }
            };
        }
    };
}

/// One entry of [`__bijoubuf_decode_table!`]; its `unsafe` calls are inside that macro's
/// `unsafe` block.
#[doc(hidden)]
#[macro_export]
macro_rules! __bijoubuf_table_field {
    (@arm $lt:lifetime;) => {
        $crate::__private::None
    };
    (@arm $lt:lifetime; $arm:path) => {
        $crate::__private::Some($crate::__private::table_arm::<$lt, Self>($arm))
    };
    (@unknown) => {
        $crate::__private::None
    };
    (@unknown $unknown:ident) => {{
        $crate::__private::table_witness::<Self, $crate::UnknownFields>(|m| &mut m.$unknown);
        $crate::__private::Some(::core::mem::offset_of!(Self, $unknown))
    }};
    ($lt:lifetime; member $number:literal $name:literal) => {
        $crate::__private::TableField::arm($number, $name)
    };
    ($lt:lifetime; implicit $number:literal $name:literal $member:ident ($codec:ty)) => {{
        $crate::__private::table_witness::<Self, <$codec as $crate::__private::Codec>::Value>(
            |m| &mut m.$member,
        );
        $crate::__private::TableField::implicit::<$lt, $codec>(
            $number,
            $name,
            ::core::mem::offset_of!(Self, $member),
        )
    }};
    ($lt:lifetime; implicit_inline $number:literal $name:literal $member:ident ($codec:ty)) => {{
        $crate::__private::table_witness::<Self, <$codec as $crate::__private::Codec>::Value>(
            |m| &mut m.$member,
        );
        $crate::__private::TableField::implicit_inline::<$lt, $codec>(
            $number,
            $name,
            ::core::mem::offset_of!(Self, $member),
        )
    }};
    ($lt:lifetime; required $number:literal $name:literal $member:ident ($codec:ty)) => {{
        $crate::__private::table_witness::<Self, <$codec as $crate::__private::Codec>::Value>(
            |m| &mut m.$member,
        );
        $crate::__private::TableField::required::<$lt, $codec>(
            $number,
            $name,
            ::core::mem::offset_of!(Self, $member),
        )
    }};
    ($lt:lifetime; optional $number:literal $name:literal $member:ident ($codec:ty)) => {{
        $crate::__private::table_witness::<
            Self,
            ::core::option::Option<<$codec as $crate::__private::Codec>::Value>,
        >(|m| &mut m.$member);
        $crate::__private::TableField::optional::<$lt, $codec>(
            $number,
            $name,
            ::core::mem::offset_of!(Self, $member),
        )
    }};
    ($lt:lifetime; repeated $number:literal $name:literal $member:ident ($codec:ty)) => {{
        $crate::__private::table_witness::<
            Self,
            $crate::__private::Vec<<$codec as $crate::__private::Codec>::Value>,
        >(|m| &mut m.$member);
        $crate::__private::TableField::repeated::<$lt, $codec>(
            $number,
            $name,
            ::core::mem::offset_of!(Self, $member),
        )
    }};
    ($lt:lifetime; fixed_run $number:literal $name:literal $member:ident ($codec:ty)) => {{
        $crate::__private::table_witness::<
            Self,
            $crate::FixedRun<$lt, <$codec as $crate::__private::Codec>::Value>,
        >(|m| &mut m.$member);
        $crate::__private::TableField::fixed_run::<$lt, $codec>(
            $number,
            $name,
            ::core::mem::offset_of!(Self, $member),
        )
    }};
    ($lt:lifetime; map $number:literal $name:literal $member:ident ($key:ty, $value:ty)) => {{
        $crate::__private::table_witness::<
            Self,
            $crate::__private::BTreeMap<
                <$key as $crate::__private::Codec>::Value,
                <$value as $crate::__private::Codec>::Value,
            >,
        >(|m| &mut m.$member);
        $crate::__private::TableField::map::<$lt, $key, $value>(
            $number,
            $name,
            ::core::mem::offset_of!(Self, $member),
        )
    }};
    ($lt:lifetime; sorted_map $number:literal $name:literal $member:ident ($key:ty, $value:ty)) => {{
        $crate::__private::table_witness::<
            Self,
            $crate::SortedMap<
                <$key as $crate::__private::Codec>::Value,
                <$value as $crate::__private::Codec>::Value,
            >,
        >(|m| &mut m.$member);
        $crate::__private::TableField::sorted_map::<$lt, $key, $value>(
            $number,
            $name,
            ::core::mem::offset_of!(Self, $member),
        )
    }};
}
