//! A table-driven strict decoder, measured against the generated decoders (#27 item 2,
//! hypothesis d): one shared loop over a message's records, driven by a static table of
//! its fields (number, kind, offset in the struct), instead of one generated `__decode`
//! per message.
//!
//! A prototype for measurement, not wired into the generator: the tables below are
//! written by hand for two message families, `benchmarks.proto3.GoogleMessage1` and its
//! sub-message, borrowed twins ([`GoogleMessage1Ref`]) and owned types
//! ([`GoogleMessage1`]), OpenTelemetry's attributes (`KeyValueList`, `KeyValue`,
//! `AnyValue` with its oneof, `ArrayValue`; borrowed twins, [`KeyValueListRef`], and
//! owned types, [`KeyValueList`]), and OpenTelemetry's whole logs request, owned
//! ([`LogsData`] with `ResourceLogs`, `Resource`, `ScopeLogs`, `InstrumentationScope` and
//! `LogRecord`; `Resource.entity_refs`, absent from the benchmark's inputs, is handed to
//! the runtime's reader out of line, [`Kind::Runtime`]).
//! It decodes as `Message::decode` / `MessageRef::decode` do with
//! the default options (strict: unknown records refused, depth limit 100) and keeps every
//! check of SPEC §10 that these types can meet, with the same error codes, byte offsets
//! and paths (the tests compare both decoders on the datasets and on every one-byte
//! change and every cut of them). Preserving unknown fields is not implemented.
//!
//! The loop reads a key, finds the field by its number in a dense index (number → field),
//! checks the wire type and jumps on the field's kind: the field's code is in the loop
//! once for all messages, and the cursor (position, bound, previous number) lives in
//! locals. A value is written at its field's offset into a value that starts as the
//! type's default; a nested message is `Some(default)` first and is read where it lies.
//!
//! The one borrowed repeated field (`field5`, `repeated fixed64`) is handed to the
//! runtime's reader after the loop has checked it: a [`FixedRun`] over wire bytes can
//! only be built inside the runtime. That costs a reader's set-up per run (out of line,
//! `fixed_run_view`, counted on its own in benches/RESULTS.md); a generated table
//! would have the runtime build it directly.

use core::mem::offset_of;

use bijoubuf::__private::{Fixed64 as Fixed64Codec, bool_of, int32_of, push_segment, uint32_of};
use bijoubuf::{DecodeError, DecodeOptions, ErrorKind, FixedRun, PathSegment};

use super::bijou::benchmarks::proto3::{
    GoogleMessage1, GoogleMessage1Ref, GoogleMessage1SubMessage, GoogleMessage1SubMessageRef,
};

/// The largest field number (SPEC §4.3).
const MAX_FIELD_NUMBER: u64 = (1 << 29) - 1;

/// The depth limit of the default options (SPEC §9.3).
const MAX_DEPTH: u32 = bijoubuf::DEFAULT_MAX_DEPTH;

/// What a field holds and how its record is read: the schema type and, for strings and
/// runs, the Rust type it is stored as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// `bool`, implicit presence.
    Bool,
    /// `int32`, implicit presence.
    Int32,
    /// `int64`, implicit presence.
    Int64,
    /// `uint32`, implicit presence.
    UInt32,
    /// `uint64`, implicit presence.
    UInt64,
    /// `fixed32`, implicit presence.
    Fixed32,
    /// `fixed64`, implicit presence.
    Fixed64,
    /// `string` as `&str` borrowed from the input, implicit presence.
    StrRef,
    /// `string` as `String`, implicit presence.
    String,
    /// `repeated fixed64` as a [`FixedRun<u64>`] over the input.
    Fixed64Run,
    /// `repeated fixed64` as a `Vec<u64>`.
    Fixed64Vec,
    /// A singular message field (explicit presence) as `Option<M>`; the field's
    /// `Field::sub` says how.
    Message,
    /// A repeated message field as `Vec<M>`, each element read where it lies; the
    /// field's `Field::sub` says how.
    MessageVec,
    /// A member of a oneof: the field's offset is the oneof's `Option<enum>`, and its
    /// `Field::member` says how the member is read and set.
    Member,
    /// `bytes` as `Vec<u8>`, implicit presence.
    Bytes,
    /// `bytes` as `&[u8]` borrowed from the input, implicit presence.
    BytesRef,
    /// A rare field handed to the runtime's reader, out of line: its
    /// `Field::runtime` reads the record and writes the field.
    Runtime,
}

impl Kind {
    /// The wire type of the kind's record (SPEC §4.4).
    const fn wire(self) -> u8 {
        match self {
            Kind::Bool | Kind::Int32 | Kind::Int64 | Kind::UInt32 | Kind::UInt64 => 0,
            Kind::Fixed64 => 1,
            Kind::Fixed32 => 3,
            Kind::StrRef
            | Kind::String
            | Kind::Fixed64Run
            | Kind::Fixed64Vec
            | Kind::Message
            | Kind::MessageVec
            | Kind::Bytes
            | Kind::BytesRef
            | Kind::Runtime => 2,
            // A member's wire type is its own (`Field::member_of`).
            Kind::Member => 2,
        }
    }
}

/// One field of a message's table.
#[derive(Debug)]
pub struct Field {
    number: u32,
    kind: Kind,
    wire: u8,
    /// Byte offset of the field in the message's struct.
    offset: u32,
    name: &'static str,
    /// For [`Kind::Message`] and [`Kind::MessageVec`]: the child's table and how its
    /// `Option` or `Vec` is filled.
    sub: Option<&'static Sub>,
    /// For [`Kind::Member`]: how the member is read and set.
    member: Option<&'static Member>,
    /// For [`Kind::Runtime`]: the out-of-line read of the record.
    runtime: Option<RuntimeRead>,
}

/// The out-of-line read of a [`Kind::Runtime`] record: `(message bytes, the record's key
/// offset, the depth limit as seen from a reader at depth 1, the field, its name)` →
/// the offset after the record.
///
/// # Safety
/// The pointer is the field of the type the reader writes.
pub type RuntimeRead =
    unsafe fn(&[u8], usize, u32, *mut u8, &'static str) -> Result<usize, DecodeError>;

impl Field {
    /// A field; built only by the `field!` macro below, which takes the offset from
    /// `offset_of!` and checks that the kind's Rust type is the field's.
    const fn new(
        number: u32,
        kind: Kind,
        offset: usize,
        name: &'static str,
        sub: Option<&'static Sub>,
    ) -> Field {
        Field {
            number,
            kind,
            wire: kind.wire(),
            offset: offset as u32,
            name,
            sub,
            member: None,
            runtime: None,
        }
    }

    /// A field read out of line by `read` ([`Kind::Runtime`]).
    const fn runtime(number: u32, offset: usize, name: &'static str, read: RuntimeRead) -> Field {
        let mut f = Field::new(number, Kind::Runtime, offset, name, None);
        f.runtime = Some(read);
        f
    }

    /// A oneof member of wire type `wire` (SPEC §4.4) whose oneof is at `offset`.
    const fn member_of(
        number: u32,
        wire: u8,
        offset: usize,
        name: &'static str,
        member: &'static Member,
    ) -> Field {
        Field {
            number,
            kind: Kind::Member,
            wire,
            offset: offset as u32,
            name,
            sub: None,
            member: Some(member),
            runtime: None,
        }
    }
}

/// How a oneof member is read and set into the oneof's `Option<enum>` at a pointer:
/// `taken` says whether a member is already set (SPEC §5.4), `set` is by the member's
/// type.
#[derive(Debug)]
pub struct Member {
    taken: unsafe fn(*const u8) -> bool,
    set: Set,
}

/// A oneof member's setter, by the member's type: each makes the `Option<enum>` at the
/// pointer `Some` of its variant.
#[derive(Debug)]
pub enum Set {
    /// `string`, borrowed.
    Str(for<'x> unsafe fn(*mut u8, &'x str)),
    /// `bytes`, borrowed.
    Bytes(for<'x> unsafe fn(*mut u8, &'x [u8])),
    /// `bool`.
    Bool(unsafe fn(*mut u8, bool)),
    /// `int32`.
    Int32(unsafe fn(*mut u8, i32)),
    /// `int64`.
    Int64(unsafe fn(*mut u8, i64)),
    /// `double` (one NaN, SPEC §3.5).
    Double(unsafe fn(*mut u8, f64)),
    /// A message: its table, and the function that sets the variant to the message's
    /// default and returns a pointer to it (read in place).
    Message(&'static Table, unsafe fn(*mut u8) -> *mut u8),
}

/// A nested message field's child: its table, and the function that makes the parent's
/// `Option<M>` at a pointer `Some(M::default())` and returns a pointer to the `M`.
#[derive(Debug)]
pub struct Sub {
    table: &'static Table,
    some: unsafe fn(*mut u8) -> *mut u8,
    /// The `Vec<M>` at a pointer given room for the run's counted elements (at most as
    /// the reader reserves: see [`reserve`]).
    reserve: unsafe fn(*mut u8, usize, usize),
    /// A default `M` pushed onto the `Vec<M>` at a pointer; returns a pointer to it.
    push: unsafe fn(*mut u8) -> *mut u8,
}

impl Sub {
    /// The `Sub` of message type `M` with table `table`.
    const fn of<M: Default>(table: &'static Table) -> Sub {
        Sub {
            table,
            some: some_default::<M>,
            reserve: reserve::<M>,
            push: push_default::<M>,
        }
    }
}

/// A message's fields, in ascending number, and the dense index from field number to
/// what the loop needs of the field (numbers past the index are unknown).
#[derive(Debug)]
pub struct Table {
    fields: &'static [Field],
    index: &'static [Entry],
}

/// One slot of a table's dense index: what the loop needs of a field, in one load of
/// eight bytes (the field's number is the slot's).
#[derive(Debug, Clone, Copy)]
#[repr(C, align(8))]
pub struct Entry {
    offset: u32,
    kind: Kind,
    wire: u8,
    /// The field's position in [`Table::fields`] + 1; 0 for a number the schema does not
    /// know.
    field: u8,
}

/// The dense index of `fields` (see [`Table`]), `N` = the largest number + 1.
const fn index<const N: usize>(fields: &[Field]) -> [Entry; N] {
    let mut out = [Entry {
        offset: 0,
        kind: Kind::Bool,
        wire: 0,
        field: 0,
    }; N];
    let mut i = 0;
    while i < fields.len() {
        assert!(i < 255, "at most 254 fields");
        if i > 0 {
            assert!(fields[i - 1].number < fields[i].number, "ascending numbers");
        }
        let f = &fields[i];
        out[f.number as usize] = Entry {
            offset: f.offset,
            kind: f.kind,
            wire: f.wire,
            field: (i + 1) as u8,
        };
        i += 1;
    }
    out
}

impl Table {
    /// The field of index entry `e` (one with a field).
    #[inline(always)]
    fn field(&self, e: &Entry) -> &Field {
        &self.fields[e.field as usize - 1]
    }
}

/// `Option<M>` at `p` made `Some(M::default())`; returns a pointer to the `M`.
///
/// # Safety
/// `p` points to a valid, writable `Option<M>`.
unsafe fn some_default<M: Default>(p: *mut u8) -> *mut u8 {
    // SAFETY: the caller's contract: `p` is a valid `Option<M>`, borrowed for this call.
    let slot = unsafe { &mut *p.cast::<Option<M>>() };
    let m: *mut M = slot.insert(M::default());
    m.cast()
}

/// Room in the `Vec<M>` at `p` for a run of `count` elements over `run_len` bytes: all of
/// them when that is at most 16 bytes of vector per input byte, else as many as that
/// budget holds (the reader's rule, SPEC §9.4: no allocation the input did not pay for).
///
/// # Safety
/// `p` points to a valid, writable `Vec<M>`.
unsafe fn reserve<M>(p: *mut u8, count: usize, run_len: usize) {
    // SAFETY: the caller's contract.
    let v = unsafe { &mut *p.cast::<Vec<M>>() };
    let budget = run_len.saturating_mul(16) / core::mem::size_of::<M>().max(1);
    v.reserve_exact(count.min(budget.max(1)));
}

/// A default `M` pushed onto the `Vec<M>` at `p`; returns a pointer to it.
///
/// # Safety
/// `p` points to a valid, writable `Vec<M>`.
unsafe fn push_default<M: Default>(p: *mut u8) -> *mut u8 {
    // SAFETY: the caller's contract.
    let v = unsafe { &mut *p.cast::<Vec<M>>() };
    v.push(M::default());
    let last: *mut M = v.as_mut_ptr().wrapping_add(v.len() - 1);
    last.cast()
}

/// A type the table decoder can read: its table and its schema name.
///
/// # Safety
/// [`TABLE`](Self::TABLE) describes `Self`: each field's offset is that of a field of
/// `Self` whose Rust type is the one its kind writes (`&'a str` for
/// [`Kind::StrRef`], `FixedRun<'a, u64>` for [`Kind::Fixed64Run`], `Option<M>` with
/// `M: TableDecode<'a>` and `M`'s table for [`Kind::Message`], …), so that the borrowed
/// values written live as long as the input `'a`.
pub unsafe trait TableDecode<'a>: Default {
    /// The message's fields.
    const TABLE: &'static Table;
    /// The message's short name (the root of an error's path).
    const NAME: &'static str;
}

/// Decode `bytes` as `T` with the default options (strict), through `T`'s table.
pub fn decode<'a, T: TableDecode<'a>>(bytes: &'a [u8]) -> Result<T, DecodeError> {
    decode_with_depth(bytes, MAX_DEPTH)
}

/// [`decode`] with the depth limit `max_depth` (as `DecodeOptions::max_depth`; the tests
/// use it to reach the depth check with GoogleMessage1's one level of nesting).
pub fn decode_with_depth<'a, T: TableDecode<'a>>(
    bytes: &'a [u8],
    max_depth: u32,
) -> Result<T, DecodeError> {
    let mut m = T::default();
    let cx = Cx {
        buf: bytes,
        max_depth,
    };
    // SAFETY: `m` is a valid `T`, and `T`'s table describes `T` (the `TableDecode`
    // contract), with borrowed values of the input's lifetime `'a`.
    match unsafe { cx.message(0, bytes.len(), 1, T::TABLE, (&raw mut m).cast()) } {
        Ok(()) => Ok(m),
        Err(e) => Err(push_segment(e, PathSegment::Message(T::NAME))),
    }
}

/// What every message of one decode shares: the whole input (offsets are absolute) and
/// the depth limit.
struct Cx<'a> {
    buf: &'a [u8],
    max_depth: u32,
}

impl<'a> Cx<'a> {
    /// Read the records of the message at `buf[pos..end]` (depth `depth`) into the value
    /// at `base`, which `table` describes; every field starts at its default.
    ///
    /// # Safety
    /// `base` points to a valid, writable value of a type `table` describes as
    /// [`TableDecode`] requires, with borrowed values of lifetime `'a`.
    unsafe fn message(
        &self,
        mut pos: usize,
        end: usize,
        depth: u32,
        table: &Table,
        base: *mut u8,
    ) -> Result<(), DecodeError> {
        // The message's bytes: every read below is bounded by the message's end.
        let bytes = self.buf.get(..end).unwrap_or_default();
        let mut prev: u64 = 0;
        while pos < end {
            // SPEC §4.1: the key, then number = prev + 1 + (key >> 2).
            let key_at = pos;
            let v = match bytes.get(pos) {
                Some(&t) if t < bijou64::FIRST_TIER_TAG => {
                    pos += 1;
                    t as u64
                }
                _ => {
                    let (v, p) = varint_wide(bytes, pos)?;
                    pos = p;
                    v
                }
            };
            let number = prev + 1 + (v >> 2);
            prev = number;
            let f = match table.index.get(number as usize) {
                Some(e) if e.field != 0 => e,
                // SPEC §4.3, §8.1
                _ => return Err(unknown(number, key_at)),
            };
            if (v & 3) as u8 != f.wire {
                // SPEC §4.4
                return Err(field_error(
                    ErrorKind::WireTypeMismatch,
                    key_at,
                    table.field(f).name,
                ));
            }
            // SAFETY: `f.offset` is the offset of a field of the value at `base` (the
            // caller's contract), so `dst` points into that value.
            let dst = unsafe { base.add(f.offset as usize) };
            pos = match f.kind {
                Kind::Bool => {
                    let (raw, p) =
                        varint(bytes, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    let b = bool_of(raw, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    if !b {
                        return Err(default_present(key_at, table.field(f).name));
                    }
                    // SAFETY: a `Bool` field is a `bool` (the table's contract).
                    unsafe { dst.cast::<bool>().write(true) };
                    p
                }
                Kind::Int32 => {
                    let (raw, p) =
                        varint(bytes, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    let x = int32_of(raw, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    if x == 0 {
                        return Err(default_present(key_at, table.field(f).name));
                    }
                    // SAFETY: an `Int32` field is an `i32`.
                    unsafe { dst.cast::<i32>().write(x) };
                    p
                }
                Kind::Int64 => {
                    let (raw, p) =
                        varint(bytes, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    if raw == 0 {
                        return Err(default_present(key_at, table.field(f).name));
                    }
                    let x = bijou64::zigzag::decode_i64(raw);
                    // SAFETY: an `Int64` field is an `i64`.
                    unsafe { dst.cast::<i64>().write(x) };
                    p
                }
                Kind::UInt32 => {
                    let (raw, p) =
                        varint(bytes, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    let x = uint32_of(raw, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    if x == 0 {
                        return Err(default_present(key_at, table.field(f).name));
                    }
                    // SAFETY: a `UInt32` field is a `u32`.
                    unsafe { dst.cast::<u32>().write(x) };
                    p
                }
                Kind::UInt64 => {
                    let (raw, p) =
                        varint(bytes, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    if raw == 0 {
                        return Err(default_present(key_at, table.field(f).name));
                    }
                    // SAFETY: a `UInt64` field is a `u64`.
                    unsafe { dst.cast::<u64>().write(raw) };
                    p
                }
                Kind::Fixed32 => {
                    let Some(w) = bytes.get(pos..).and_then(|r| r.first_chunk::<4>()) else {
                        return Err(field_error(ErrorKind::Truncated, pos, table.field(f).name));
                    };
                    let x = u32::from_be_bytes(*w);
                    if x == 0 {
                        return Err(default_present(key_at, table.field(f).name));
                    }
                    // SAFETY: a `Fixed32` field is a `u32`.
                    unsafe { dst.cast::<u32>().write(x) };
                    pos + 4
                }
                Kind::Fixed64 => {
                    let Some(w) = bytes.get(pos..).and_then(|r| r.first_chunk::<8>()) else {
                        return Err(field_error(ErrorKind::Truncated, pos, table.field(f).name));
                    };
                    let x = u64::from_be_bytes(*w);
                    if x == 0 {
                        return Err(default_present(key_at, table.field(f).name));
                    }
                    // SAFETY: a `Fixed64` field is a `u64`.
                    unsafe { dst.cast::<u64>().write(x) };
                    pos + 8
                }
                Kind::StrRef | Kind::String => {
                    let (start, len) =
                        length(bytes, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    let s = &bytes[start..start + len];
                    // SPEC §7
                    let s = bijoubuf::__private::utf8(s, start)
                        .map_err(|e| in_field(e, table.field(f).name))?;
                    if s.is_empty() {
                        return Err(default_present(key_at, table.field(f).name));
                    }
                    if f.kind == Kind::StrRef {
                        // SAFETY: a `StrRef` field is a `&'a str`, and `s` borrows the
                        // input, which lives for `'a`.
                        unsafe { dst.cast::<&'a str>().write(s) };
                    } else {
                        // SAFETY: a `String` field is a `String`, valid (the default or
                        // a value read before), so it is assigned and the old one dropped.
                        unsafe { *dst.cast::<String>() = String::from(s) };
                    }
                    start + len
                }
                Kind::Fixed64Run | Kind::Fixed64Vec => {
                    let len_at = pos;
                    let (start, len) =
                        length(bytes, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    if len == 0 {
                        // SPEC §6.1
                        return Err(field_error(
                            ErrorKind::EmptyRepeated,
                            key_at,
                            table.field(f).name,
                        ));
                    }
                    if len % 8 != 0 {
                        // SPEC §6.2
                        return Err(field_error(
                            ErrorKind::PackedLengthMismatch,
                            len_at,
                            table.field(f).name,
                        ));
                    }
                    let run = &bytes[start..start + len];
                    if f.kind == Kind::Fixed64Run {
                        let r = fixed_run_view(
                            self.buf,
                            key_at,
                            start + len,
                            number,
                            table.field(f).name,
                        )?;
                        // SAFETY: a `Fixed64Run` field is a `FixedRun<'a, u64>` over the
                        // input, which lives for `'a`.
                        unsafe { dst.cast::<FixedRun<'a, u64>>().write(r) };
                    } else {
                        let v: Vec<u64> = run
                            .chunks_exact(8)
                            .map(|w| u64::from_be_bytes(w.try_into().unwrap_or_default()))
                            .collect();
                        // SAFETY: a `Fixed64Vec` field is a valid `Vec<u64>`: assigned,
                        // the old one dropped.
                        unsafe { *dst.cast::<Vec<u64>>() = v };
                    }
                    start + len
                }
                Kind::Message => {
                    // SPEC §9.3, §10.1: the depth limit at the key, before the length.
                    if depth >= self.max_depth {
                        return Err(field_error(
                            ErrorKind::DepthLimitExceeded,
                            key_at,
                            table.field(f).name,
                        ));
                    }
                    let (start, len) =
                        length(bytes, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    let Some(sub) = table.field(f).sub else {
                        return Err(field_error(
                            ErrorKind::UnknownField,
                            key_at,
                            table.field(f).name,
                        ));
                    };
                    // SAFETY: a `Message` field is an `Option<M>` whose `sub.some` fills
                    // it (the table's contract), and `M` is described by `sub.table`.
                    unsafe {
                        let child = (sub.some)(dst);
                        self.message(start, start + len, depth + 1, sub.table, child)
                    }
                    .map_err(|e| in_field(e, table.field(f).name))?;
                    start + len
                }
                Kind::MessageVec => {
                    let name = table.field(f).name;
                    // SPEC §9.3: at the key, before the length.
                    if depth >= self.max_depth {
                        return Err(field_error(ErrorKind::DepthLimitExceeded, key_at, name));
                    }
                    let (start, len) = length(bytes, pos).map_err(|e| in_field(e, name))?;
                    if len == 0 {
                        // SPEC §6.1
                        return Err(field_error(ErrorKind::EmptyRepeated, key_at, name));
                    }
                    let Some(sub) = table.field(f).sub else {
                        return Err(field_error(ErrorKind::UnknownField, key_at, name));
                    };
                    let run_end = start + len;
                    let run = &bytes[..run_end];
                    // SAFETY: a `MessageVec` field is a `Vec<M>` whose `sub` is `M`'s,
                    // and `M` is described by `sub.table` (the table's contract).
                    unsafe { (sub.reserve)(dst, count_len_elements(run, start), len) };
                    let mut p = start;
                    let mut i = 0;
                    while p < run_end {
                        // Each element: a length prefix and a message, inside the run.
                        let (s, l) = length(run, p).map_err(|e| in_element(e, i, name))?;
                        // SAFETY: as above; the element is read where it was pushed.
                        unsafe {
                            let child = (sub.push)(dst);
                            self.message(s, s + l, depth + 1, sub.table, child)
                        }
                        .map_err(|e| in_element(e, i, name))?;
                        p = s + l;
                        i += 1;
                    }
                    run_end
                }
                Kind::Bytes | Kind::BytesRef => {
                    let (start, len) =
                        length(bytes, pos).map_err(|e| in_field(e, table.field(f).name))?;
                    if len == 0 {
                        return Err(default_present(key_at, table.field(f).name));
                    }
                    let b = &bytes[start..start + len];
                    if f.kind == Kind::BytesRef {
                        // SAFETY: a `BytesRef` field is a `&'a [u8]`, and `b` borrows the
                        // input, which lives for `'a`.
                        unsafe { dst.cast::<&'a [u8]>().write(b) };
                    } else {
                        // SAFETY: a `Bytes` field is a valid `Vec<u8>`: assigned, the old
                        // one dropped.
                        unsafe { *dst.cast::<Vec<u8>>() = b.to_vec() };
                    }
                    start + len
                }
                Kind::Runtime => {
                    let field = table.field(f);
                    let Some(read) = field.runtime else {
                        return Err(field_error(ErrorKind::UnknownField, key_at, field.name));
                    };
                    // A reader starts at depth 1: the limit it sees is shifted so that
                    // its checks fall where this message's depth puts them.
                    let limit = self.max_depth.saturating_sub(depth) + 1;
                    // SAFETY: a `Runtime` field is the type its `read` writes (the
                    // table's contract).
                    unsafe { read(bytes, key_at, limit, dst, field.name) }?
                }
                Kind::Member => {
                    let name = table.field(f).name;
                    let Some(m) = table.field(f).member else {
                        return Err(field_error(ErrorKind::UnknownField, key_at, name));
                    };
                    // SPEC §5.4: a second member is refused at its key, before its value.
                    // SAFETY: a `Member` field's offset is its oneof's (the table's
                    // contract), which `m`'s functions read and set.
                    if unsafe { (m.taken)(dst) } {
                        return Err(field_error(ErrorKind::OneofConflict, key_at, name));
                    }
                    // SAFETY (each `set` below): as for `taken`.
                    match m.set {
                        Set::Str(set) => {
                            let (start, len) = length(bytes, pos).map_err(|e| in_field(e, name))?;
                            let s = bijoubuf::__private::utf8(&bytes[start..start + len], start)
                                .map_err(|e| in_field(e, name))?;
                            // SAFETY: as above; `s` borrows the input.
                            unsafe { set(dst, s) };
                            start + len
                        }
                        Set::Bytes(set) => {
                            let (start, len) = length(bytes, pos).map_err(|e| in_field(e, name))?;
                            // SAFETY: as above.
                            unsafe { set(dst, &bytes[start..start + len]) };
                            start + len
                        }
                        Set::Bool(set) => {
                            let (raw, p) = varint(bytes, pos).map_err(|e| in_field(e, name))?;
                            let b = bool_of(raw, pos).map_err(|e| in_field(e, name))?;
                            // SAFETY: as above.
                            unsafe { set(dst, b) };
                            p
                        }
                        Set::Int32(set) => {
                            let (raw, p) = varint(bytes, pos).map_err(|e| in_field(e, name))?;
                            let x = int32_of(raw, pos).map_err(|e| in_field(e, name))?;
                            // SAFETY: as above.
                            unsafe { set(dst, x) };
                            p
                        }
                        Set::Int64(set) => {
                            let (raw, p) = varint(bytes, pos).map_err(|e| in_field(e, name))?;
                            // SAFETY: as above.
                            unsafe { set(dst, bijou64::zigzag::decode_i64(raw)) };
                            p
                        }
                        Set::Double(set) => {
                            let Some(w) = bytes.get(pos..).and_then(|r| r.first_chunk::<8>())
                            else {
                                return Err(field_error(ErrorKind::Truncated, pos, name));
                            };
                            let bits = u64::from_be_bytes(*w);
                            if !bijoubuf::__private::f64_bits_ok(bits) {
                                // SPEC §3.5
                                return Err(field_error(ErrorKind::NonCanonicalNan, pos, name));
                            }
                            // SAFETY: as above.
                            unsafe { set(dst, f64::from_bits(bits)) };
                            pos + 8
                        }
                        Set::Message(sub, put) => {
                            if depth >= self.max_depth {
                                return Err(field_error(
                                    ErrorKind::DepthLimitExceeded,
                                    key_at,
                                    name,
                                ));
                            }
                            let (start, len) = length(bytes, pos).map_err(|e| in_field(e, name))?;
                            // SAFETY: as above; `put` returns the variant's message, which
                            // `sub` describes.
                            unsafe {
                                let child = put(dst);
                                self.message(start, start + len, depth + 1, sub, child)
                            }
                            .map_err(|e| in_field(e, name))?;
                            start + len
                        }
                    }
                }
            };
        }
        Ok(())
    }
}

/// How many length-prefixed elements `run[at..]` holds, at most (the reader's count: a
/// malformed element stops it, and the decode that follows reports it).
#[inline]
fn count_len_elements(run: &[u8], mut at: usize) -> usize {
    let mut n = 0;
    while let Some(&tag) = run.get(at) {
        let next = if tag < bijou64::FIRST_TIER_TAG {
            at + 1 + tag as usize
        } else {
            match run.get(at..).map(bijou64::decode) {
                Some(Ok((len, k))) => at
                    .saturating_add(k)
                    .saturating_add(usize::try_from(len).unwrap_or(usize::MAX)),
                _ => break,
            }
        };
        if next > run.len() {
            break;
        }
        at = next;
        n += 1;
    }
    n
}

/// An element's error: its index, then the field.
#[cold]
#[inline(never)]
fn in_element(e: DecodeError, i: usize, name: &'static str) -> DecodeError {
    in_field(push_segment(e, PathSegment::Index(i)), name)
}

/// One bijou64 at `at` (SPEC §2): the one-byte case inline, longer ones out of line.
#[inline(always)]
fn varint(bytes: &[u8], at: usize) -> Result<(u64, usize), DecodeError> {
    match bytes.get(at) {
        Some(&t) if t < bijou64::FIRST_TIER_TAG => Ok((t as u64, at + 1)),
        _ => varint_wide(bytes, at),
    }
}

/// A bijou64 of two bytes or more at `at`, or none there: its tag's length checked
/// against the message's bound first (a value cut by it is `truncated` at its tag).
#[inline(never)]
fn varint_wide(bytes: &[u8], at: usize) -> Result<(u64, usize), DecodeError> {
    let Some(&tag) = bytes.get(at) else {
        return Err(DecodeError::new(ErrorKind::Truncated, at));
    };
    // With nine bytes left in the message, one window load decodes any tier.
    if let Some(w) = bytes
        .get(at..)
        .and_then(|r| r.first_chunk::<{ bijou64::MAX_LEN }>())
    {
        return match bijou64::decode_window(w) {
            Ok((x, n)) => Ok((x, at + n)),
            Err(e) => Err(varint_error(e, at)),
        };
    }
    let len = 1 + bijou64::payload_len(tag);
    let Some(v) = bytes.get(at..at + len) else {
        return Err(DecodeError::new(ErrorKind::Truncated, at));
    };
    match bijou64::decode(v) {
        Ok((x, n)) => Ok((x, at + n)),
        Err(e) => Err(varint_error(e, at)),
    }
}

#[cold]
#[inline(never)]
fn varint_error(e: bijou64::Error, at: usize) -> DecodeError {
    match e {
        bijou64::Error::Overflow => DecodeError::new(ErrorKind::VarintOverflow, at),
        _ => DecodeError::new(ErrorKind::Truncated, at),
    }
}

/// A length prefix at `at` and the content it announces, inside the bound (SPEC §9.4:
/// a length past the end is `truncated` at the prefix): `(content start, length)`.
#[inline(always)]
fn length(bytes: &[u8], at: usize) -> Result<(usize, usize), DecodeError> {
    let (len, start) = varint(bytes, at)?;
    if len > (bytes.len() - start) as u64 {
        return Err(DecodeError::new(ErrorKind::Truncated, at));
    }
    Ok((start, len as usize))
}

/// The checked `repeated fixed64` record at `key_at..run_end` (its field number
/// `number`) as a [`FixedRun`] over the input: read again by a reader of the runtime,
/// which alone can build one over wire bytes. The reader starts at the record's key with
/// no previous record, so the key's delta names field `1 + (key >> 2)`.
#[inline(never)]
fn fixed_run_view<'a>(
    buf: &'a [u8],
    key_at: usize,
    run_end: usize,
    number: u64,
    name: &'static str,
) -> Result<FixedRun<'a, u64>, DecodeError> {
    let opts = DecodeOptions::new();
    let mut r = bijoubuf::__private::message_reader(buf, key_at, run_end, &opts);
    let (v, _) = varint(buf.get(..run_end).unwrap_or_default(), key_at)?;
    // The reader sees the key as a delta from 0; `number` is what the message's delta
    // made of it. Both name the record at `key_at`.
    debug_assert!(number > v >> 2);
    r.fixed_run::<Fixed64Codec>((1 + (v >> 2)) as u32, name)
}

/// A repeated message field of element type `M` read by a reader of the runtime, out of
/// line ([`Kind::Runtime`]): the record at `key_at` of the message `bytes`, the reader
/// at depth 1 with depth limit `max_depth` (shifted by the caller). As in
/// [`fixed_run_view`], the reader sees the key as a delta from 0.
///
/// # Safety
/// `dst` points to a valid, writable `Vec<M>`.
#[inline(never)]
unsafe fn runtime_vec<M: for<'x> bijoubuf::__private::Decode<'x>>(
    bytes: &[u8],
    key_at: usize,
    max_depth: u32,
    dst: *mut u8,
    name: &'static str,
) -> Result<usize, DecodeError> {
    let opts = DecodeOptions::new().max_depth(max_depth);
    let mut r = bijoubuf::__private::message_reader(bytes, key_at, bytes.len(), &opts);
    let (v, _) = varint(bytes, key_at)?;
    let out = r.repeated::<bijoubuf::__private::Msg<M>>((1 + (v >> 2)) as u32, name)?;
    // SAFETY: the caller's contract.
    unsafe { *dst.cast::<Vec<M>>() = out };
    Ok(r.position())
}

#[cold]
#[inline(never)]
pub(super) fn in_field(e: DecodeError, name: &'static str) -> DecodeError {
    push_segment(e, PathSegment::Field(name))
}

#[cold]
#[inline(never)]
pub(super) fn field_error(kind: ErrorKind, at: usize, name: &'static str) -> DecodeError {
    in_field(DecodeError::new(kind, at), name)
}

/// SPEC §5.1: an implicit-presence record holding the default, at its key.
#[cold]
#[inline(never)]
pub(super) fn default_present(key_at: usize, name: &'static str) -> DecodeError {
    field_error(ErrorKind::DefaultValuePresent, key_at, name)
}

/// A record whose number is past the largest (SPEC §4.3) or not in the schema (strict,
/// SPEC §8.1), at its key.
#[cold]
#[inline(never)]
pub(super) fn unknown(number: u64, key_at: usize) -> DecodeError {
    if number > MAX_FIELD_NUMBER {
        return DecodeError::new(ErrorKind::FieldNumberOverflow, key_at);
    }
    push_segment(
        DecodeError::new(ErrorKind::UnknownField, key_at),
        PathSegment::Unknown(number as u32),
    )
}

/// A table field of struct `$ty`: `$kind` at `offset_of!($ty, $f)`, whose Rust type must
/// be `$rust` (checked by the compiler: the closure does not compile otherwise).
macro_rules! field {
    ($ty:ty, $f:ident = $n:literal, $kind:ident, $rust:ty $(, $sub:expr)?) => {
        Field::new(
            $n,
            Kind::$kind,
            {
                let _: for<'m> fn(&'m $ty) -> &'m $rust = |m| &m.$f;
                offset_of!($ty, $f)
            },
            stringify!($f),
            field!(@sub $($sub)?),
        )
    };
    (@sub) => { None };
    (@sub $sub:expr) => { Some($sub) };
}

/// A message's dense index and table over its field list `$fields` (the index `$n`
/// slots long: its highest field number plus one), and with `$sub` its `Sub` for the
/// messages that hold it.
macro_rules! table {
    ($fields:ident, $index:ident: $n:literal, $table:ident $(, $sub:ident: $ty:ty)?) => {
        static $index: [Entry; $n] = index(&$fields);
        static $table: Table = Table {
            fields: &$fields,
            index: &$index,
        };
        $(static $sub: Sub = Sub::of::<$ty>(&$table);)?
    };
}

/// The fields of `GoogleMessage1SubMessage` (or its twin `$ty`), `$str` the string kind
/// and `$s` its Rust type.
macro_rules! sub_fields {
    ($ty:ty, $str:ident, $s:ty) => {
        [
            field!($ty, field1 = 1, Int32, i32),
            field!($ty, field2 = 2, Int32, i32),
            field!($ty, field3 = 3, Int32, i32),
            field!($ty, field12 = 12, Bool, bool),
            field!($ty, field13 = 13, Int64, i64),
            field!($ty, field14 = 14, Int64, i64),
            field!($ty, field15 = 15, $str, $s),
            field!($ty, field16 = 16, Int32, i32),
            field!($ty, field19 = 19, Int32, i32),
            field!($ty, field20 = 20, Bool, bool),
            field!($ty, field21 = 21, Fixed64, u64),
            field!($ty, field22 = 22, Int32, i32),
            field!($ty, field23 = 23, Bool, bool),
            field!($ty, field28 = 28, Bool, bool),
            field!($ty, field203 = 203, Fixed32, u32),
            field!($ty, field204 = 204, Int32, i32),
            field!($ty, field205 = 205, $str, $s),
            field!($ty, field206 = 206, Bool, bool),
            field!($ty, field207 = 207, UInt64, u64),
            field!($ty, field300 = 300, UInt64, u64),
        ]
    };
}

/// The fields of `GoogleMessage1` (or its twin `$ty`): `$str`/`$s` the string kind and
/// type, `$run`/`$r` field5's, `$sub_ty` the sub-message's type and `$sub` its [`Sub`].
macro_rules! top_fields {
    ($ty:ty, $str:ident, $s:ty, $run:ident, $r:ty, $sub_ty:ty, $sub:expr) => {
        [
            field!($ty, field1 = 1, $str, $s),
            field!($ty, field2 = 2, Int32, i32),
            field!($ty, field3 = 3, Int32, i32),
            field!($ty, field4 = 4, $str, $s),
            field!($ty, field5 = 5, $run, $r),
            field!($ty, field6 = 6, Int32, i32),
            field!($ty, field7 = 7, $str, $s),
            field!($ty, field9 = 9, $str, $s),
            field!($ty, field12 = 12, Bool, bool),
            field!($ty, field13 = 13, Bool, bool),
            field!($ty, field14 = 14, Bool, bool),
            field!($ty, field15 = 15, Message, Option<$sub_ty>, $sub),
            field!($ty, field16 = 16, Int32, i32),
            field!($ty, field17 = 17, Bool, bool),
            field!($ty, field18 = 18, $str, $s),
            field!($ty, field22 = 22, Int64, i64),
            field!($ty, field23 = 23, Int32, i32),
            field!($ty, field24 = 24, Bool, bool),
            field!($ty, field25 = 25, Int32, i32),
            field!($ty, field29 = 29, Int32, i32),
            field!($ty, field30 = 30, Bool, bool),
            field!($ty, field59 = 59, Bool, bool),
            field!($ty, field60 = 60, Int32, i32),
            field!($ty, field67 = 67, Int32, i32),
            field!($ty, field68 = 68, Int32, i32),
            field!($ty, field78 = 78, Bool, bool),
            field!($ty, field80 = 80, Bool, bool),
            field!($ty, field81 = 81, Bool, bool),
            field!($ty, field100 = 100, Int32, i32),
            field!($ty, field101 = 101, Int32, i32),
            field!($ty, field102 = 102, $str, $s),
            field!($ty, field103 = 103, $str, $s),
            field!($ty, field104 = 104, Int32, i32),
            field!($ty, field128 = 128, Int32, i32),
            field!($ty, field129 = 129, $str, $s),
            field!($ty, field130 = 130, Int32, i32),
            field!($ty, field131 = 131, Int32, i32),
            field!($ty, field150 = 150, Int32, i32),
            field!($ty, field271 = 271, Int32, i32),
            field!($ty, field272 = 272, Int32, i32),
            field!($ty, field280 = 280, Int32, i32),
        ]
    };
}

// The borrowed twins. Lifetimes do not change a type's layout, so the tables are built
// for `'static` and serve every `'a`.

const SUB_REF_FIELDS: [Field; 20] =
    sub_fields!(GoogleMessage1SubMessageRef<'static>, StrRef, &'static str);
table!(SUB_REF_FIELDS, SUB_REF_INDEX: 301, SUB_REF_TABLE, SUB_REF: GoogleMessage1SubMessageRef<'static>);

const TOP_REF_FIELDS: [Field; 41] = top_fields!(
    GoogleMessage1Ref<'static>,
    StrRef,
    &'static str,
    Fixed64Run,
    FixedRun<'static, u64>,
    GoogleMessage1SubMessageRef<'static>,
    &SUB_REF
);
table!(TOP_REF_FIELDS, TOP_REF_INDEX: 281, TOP_REF_TABLE);

// SAFETY: the table is built field by field with `offset_of!` on this type, each
// field's Rust type checked against its kind by `field!`; the strings and runs borrow
// for `'a`, as the twin's fields do, and the sub-message's `Sub` is this family's.
unsafe impl<'a> TableDecode<'a> for GoogleMessage1SubMessageRef<'a> {
    const TABLE: &'static Table = &SUB_REF_TABLE;
    const NAME: &'static str = "GoogleMessage1SubMessage";
}

// SAFETY: as for the sub-message's twin.
unsafe impl<'a> TableDecode<'a> for GoogleMessage1Ref<'a> {
    const TABLE: &'static Table = &TOP_REF_TABLE;
    const NAME: &'static str = "GoogleMessage1";
}

// The owned types.

const SUB_FIELDS: [Field; 20] = sub_fields!(GoogleMessage1SubMessage, String, String);
table!(SUB_FIELDS, SUB_INDEX: 301, SUB_TABLE, SUB: GoogleMessage1SubMessage);

const TOP_FIELDS: [Field; 41] = top_fields!(
    GoogleMessage1,
    String,
    String,
    Fixed64Vec,
    Vec<u64>,
    GoogleMessage1SubMessage,
    &SUB
);
table!(TOP_FIELDS, TOP_INDEX: 281, TOP_TABLE);

// SAFETY: as for the twins; every string is an owned `String`, field5 a `Vec<u64>`.
unsafe impl TableDecode<'_> for GoogleMessage1SubMessage {
    const TABLE: &'static Table = &SUB_TABLE;
    const NAME: &'static str = "GoogleMessage1SubMessage";
}

// SAFETY: as for the sub-message.
unsafe impl TableDecode<'_> for GoogleMessage1 {
    const TABLE: &'static Table = &TOP_TABLE;
    const NAME: &'static str = "GoogleMessage1";
}

// OpenTelemetry's attribute family, borrowed twins: `KeyValueList`, `KeyValue`,
// `AnyValue` (a oneof of eight members, two of them messages) and `ArrayValue`.

use super::bijou::opentelemetry::proto::common::v1::{
    AnyValueRef, ArrayValueRef, KeyValueListRef, KeyValueRef, any_value::ValueRef,
};

/// The `Option<ValueRef>` of an `AnyValueRef`, at a pointer.
type AnyOneof = Option<ValueRef<'static>>;

/// Whether the oneof at `p` holds a member.
///
/// # Safety
/// `p` points to a valid `Option<ValueRef>`.
unsafe fn any_taken(p: *const u8) -> bool {
    // SAFETY: the caller's contract.
    unsafe { (*p.cast::<AnyOneof>()).is_some() }
}

/// Setters of `AnyValue`'s members; each makes the `Option<ValueRef<'x>>` at `p` its
/// variant.
///
/// # Safety (each)
/// `p` points to a valid, writable `Option<ValueRef<'x>>`, and a borrowed value lives
/// as long as the input the oneof borrows from.
macro_rules! any_setter {
    ($f:ident, $variant:ident, $ty:ty) => {
        // `'x` names the oneof's type in the body, also for the scalar members.
        #[allow(clippy::extra_unused_lifetimes)]
        unsafe fn $f<'x>(p: *mut u8, v: $ty) {
            // SAFETY: the caller's contract: `p` is the oneof of `'x`.
            unsafe { *p.cast::<Option<ValueRef<'x>>>() = Some(ValueRef::$variant(v)) };
        }
    };
}
any_setter!(any_str, StringValue, &'x str);
any_setter!(any_bytes, BytesValue, &'x [u8]);
any_setter!(any_bool, BoolValue, bool);
any_setter!(any_int, IntValue, i64);
any_setter!(any_double, DoubleValue, f64);
any_setter!(any_strindex, StringValueStrindex, i32);

/// `AnyValue.array_value` set to the default `ArrayValueRef`; returns a pointer to it.
///
/// # Safety
/// `p` points to a valid, writable `Option<ValueRef>`.
unsafe fn any_array(p: *mut u8) -> *mut u8 {
    // SAFETY: the caller's contract.
    let slot = unsafe { &mut *p.cast::<AnyOneof>() };
    match slot.insert(ValueRef::ArrayValue(ArrayValueRef::default())) {
        ValueRef::ArrayValue(m) => (m as *mut ArrayValueRef<'static>).cast(),
        _ => unreachable!("the variant just set"),
    }
}

/// `AnyValue.kvlist_value` set to the default `KeyValueListRef`; returns a pointer to it.
///
/// # Safety
/// As [`any_array`].
unsafe fn any_kvlist(p: *mut u8) -> *mut u8 {
    // SAFETY: the caller's contract.
    let slot = unsafe { &mut *p.cast::<AnyOneof>() };
    match slot.insert(ValueRef::KvlistValue(KeyValueListRef::default())) {
        ValueRef::KvlistValue(m) => (m as *mut KeyValueListRef<'static>).cast(),
        _ => unreachable!("the variant just set"),
    }
}

static ANY_MEMBERS: [Member; 8] = [
    Member {
        taken: any_taken,
        set: Set::Str(any_str),
    },
    Member {
        taken: any_taken,
        set: Set::Bool(any_bool),
    },
    Member {
        taken: any_taken,
        set: Set::Int64(any_int),
    },
    Member {
        taken: any_taken,
        set: Set::Double(any_double),
    },
    Member {
        taken: any_taken,
        set: Set::Message(&ARRAY_TABLE, any_array),
    },
    Member {
        taken: any_taken,
        set: Set::Message(&KVLIST_TABLE, any_kvlist),
    },
    Member {
        taken: any_taken,
        set: Set::Bytes(any_bytes),
    },
    Member {
        taken: any_taken,
        set: Set::Int32(any_strindex),
    },
];

/// A member of `AnyValue`'s oneof `value`: number, wire type, name, setter.
macro_rules! any_member {
    ($n:literal, $wire:literal, $name:literal) => {
        any_member!(
            AnyValueRef<'static>,
            AnyOneof,
            ANY_MEMBERS,
            $n,
            $wire,
            $name
        )
    };
    ($ty:ty, $oneof:ty, $members:ident, $n:literal, $wire:literal, $name:literal) => {
        Field::member_of(
            $n,
            $wire,
            {
                let _: for<'m> fn(&'m $ty) -> &'m $oneof = |m| &m.value;
                offset_of!($ty, value)
            },
            $name,
            &$members[$n - 1],
        )
    };
}

static ANY_FIELDS: [Field; 8] = [
    any_member!(1, 2, "string_value"),
    any_member!(2, 0, "bool_value"),
    any_member!(3, 0, "int_value"),
    any_member!(4, 1, "double_value"),
    any_member!(5, 2, "array_value"),
    any_member!(6, 2, "kvlist_value"),
    any_member!(7, 2, "bytes_value"),
    any_member!(8, 0, "string_value_strindex"),
];
table!(ANY_FIELDS, ANY_INDEX: 9, ANY_TABLE, ANY_SUB: AnyValueRef<'static>);

static KV_FIELDS: [Field; 3] = [
    field!(KeyValueRef<'static>, key = 1, StrRef, &'static str),
    field!(
        KeyValueRef<'static>,
        value = 2,
        Message,
        Option<AnyValueRef<'static>>,
        &ANY_SUB
    ),
    field!(KeyValueRef<'static>, key_strindex = 3, Int32, i32),
];
table!(KV_FIELDS, KV_INDEX: 4, KV_TABLE, KV_SUB: KeyValueRef<'static>);

static KVLIST_FIELDS: [Field; 1] = [field!(
    KeyValueListRef<'static>,
    values = 1,
    MessageVec,
    Vec<KeyValueRef<'static>>,
    &KV_SUB
)];
table!(KVLIST_FIELDS, KVLIST_INDEX: 2, KVLIST_TABLE);

static ARRAY_FIELDS: [Field; 1] = [field!(
    ArrayValueRef<'static>,
    values = 1,
    MessageVec,
    Vec<AnyValueRef<'static>>,
    &ANY_SUB
)];
table!(ARRAY_FIELDS, ARRAY_INDEX: 2, ARRAY_TABLE);

// SAFETY: built with `offset_of!` on each type, kinds checked by `field!` and the
// oneof's type by `any_member!`; the setters write the variant of their member, the
// strings and bytes borrowing for `'a` as the twins' fields do.
unsafe impl<'a> TableDecode<'a> for KeyValueListRef<'a> {
    const TABLE: &'static Table = &KVLIST_TABLE;
    const NAME: &'static str = "KeyValueList";
}

// OpenTelemetry's attribute family, owned types: the same tables over `KeyValueList`,
// `KeyValue`, `AnyValue` and `ArrayValue`, strings and bytes copied.

use super::bijou::opentelemetry::proto::common::v1::{
    AnyValue, ArrayValue, EntityRef, InstrumentationScope, KeyValue, KeyValueList, any_value::Value,
};
use super::bijou::opentelemetry::proto::logs::v1::{LogRecord, LogsData, ResourceLogs, ScopeLogs};
use super::bijou::opentelemetry::proto::resource::v1::Resource;

/// The `Option<Value>` of an `AnyValue`, at a pointer.
type AnyOwnedOneof = Option<Value>;

/// Whether the owned oneof at `p` holds a member.
///
/// # Safety
/// `p` points to a valid `Option<Value>`.
unsafe fn any_owned_taken(p: *const u8) -> bool {
    // SAFETY: the caller's contract.
    unsafe { (*p.cast::<AnyOwnedOneof>()).is_some() }
}

/// Setters of the owned `AnyValue`'s members; each makes the `Option<Value>` at `p` its
/// variant, strings and bytes copied.
///
/// # Safety (each)
/// `p` points to a valid, writable `Option<Value>`.
macro_rules! any_owned_setter {
    ($f:ident, $variant:ident, $ty:ty, $conv:expr) => {
        unsafe fn $f(p: *mut u8, v: $ty) {
            // SAFETY: the caller's contract.
            unsafe { *p.cast::<AnyOwnedOneof>() = Some(Value::$variant($conv(v))) };
        }
    };
}
any_owned_setter!(any_owned_str, StringValue, &str, String::from);
any_owned_setter!(any_owned_bytes, BytesValue, &[u8], <[u8]>::to_vec);
any_owned_setter!(any_owned_bool, BoolValue, bool, core::convert::identity);
any_owned_setter!(any_owned_int, IntValue, i64, core::convert::identity);
any_owned_setter!(any_owned_double, DoubleValue, f64, core::convert::identity);
any_owned_setter!(
    any_owned_strindex,
    StringValueStrindex,
    i32,
    core::convert::identity
);

/// The owned `AnyValue.array_value` set to the default; returns a pointer to it.
///
/// # Safety
/// `p` points to a valid, writable `Option<Value>`.
unsafe fn any_owned_array(p: *mut u8) -> *mut u8 {
    // SAFETY: the caller's contract.
    let slot = unsafe { &mut *p.cast::<AnyOwnedOneof>() };
    match slot.insert(Value::ArrayValue(ArrayValue::default())) {
        Value::ArrayValue(m) => (m as *mut ArrayValue).cast(),
        _ => unreachable!("the variant just set"),
    }
}

/// The owned `AnyValue.kvlist_value` set to the default; returns a pointer to it.
///
/// # Safety
/// As [`any_owned_array`].
unsafe fn any_owned_kvlist(p: *mut u8) -> *mut u8 {
    // SAFETY: the caller's contract.
    let slot = unsafe { &mut *p.cast::<AnyOwnedOneof>() };
    match slot.insert(Value::KvlistValue(KeyValueList::default())) {
        Value::KvlistValue(m) => (m as *mut KeyValueList).cast(),
        _ => unreachable!("the variant just set"),
    }
}

static ANY_OWNED_MEMBERS: [Member; 8] = [
    Member {
        taken: any_owned_taken,
        set: Set::Str(any_owned_str),
    },
    Member {
        taken: any_owned_taken,
        set: Set::Bool(any_owned_bool),
    },
    Member {
        taken: any_owned_taken,
        set: Set::Int64(any_owned_int),
    },
    Member {
        taken: any_owned_taken,
        set: Set::Double(any_owned_double),
    },
    Member {
        taken: any_owned_taken,
        set: Set::Message(&ARRAY_OWNED_TABLE, any_owned_array),
    },
    Member {
        taken: any_owned_taken,
        set: Set::Message(&KVLIST_OWNED_TABLE, any_owned_kvlist),
    },
    Member {
        taken: any_owned_taken,
        set: Set::Bytes(any_owned_bytes),
    },
    Member {
        taken: any_owned_taken,
        set: Set::Int32(any_owned_strindex),
    },
];

/// A member of the owned `AnyValue`'s oneof.
macro_rules! any_owned_member {
    ($n:literal, $wire:literal, $name:literal) => {
        any_member!(AnyValue, AnyOwnedOneof, ANY_OWNED_MEMBERS, $n, $wire, $name)
    };
}

static ANY_OWNED_FIELDS: [Field; 8] = [
    any_owned_member!(1, 2, "string_value"),
    any_owned_member!(2, 0, "bool_value"),
    any_owned_member!(3, 0, "int_value"),
    any_owned_member!(4, 1, "double_value"),
    any_owned_member!(5, 2, "array_value"),
    any_owned_member!(6, 2, "kvlist_value"),
    any_owned_member!(7, 2, "bytes_value"),
    any_owned_member!(8, 0, "string_value_strindex"),
];
table!(ANY_OWNED_FIELDS, ANY_OWNED_INDEX: 9, ANY_OWNED_TABLE, ANY_OWNED_SUB: AnyValue);

static KV_OWNED_FIELDS: [Field; 3] = [
    field!(KeyValue, key = 1, String, String),
    field!(
        KeyValue,
        value = 2,
        Message,
        Option<AnyValue>,
        &ANY_OWNED_SUB
    ),
    field!(KeyValue, key_strindex = 3, Int32, i32),
];
table!(KV_OWNED_FIELDS, KV_OWNED_INDEX: 4, KV_OWNED_TABLE, KV_OWNED_SUB: KeyValue);

static KVLIST_OWNED_FIELDS: [Field; 1] = [field!(
    KeyValueList,
    values = 1,
    MessageVec,
    Vec<KeyValue>,
    &KV_OWNED_SUB
)];
table!(KVLIST_OWNED_FIELDS, KVLIST_OWNED_INDEX: 2, KVLIST_OWNED_TABLE);

static ARRAY_OWNED_FIELDS: [Field; 1] = [field!(
    ArrayValue,
    values = 1,
    MessageVec,
    Vec<AnyValue>,
    &ANY_OWNED_SUB
)];
table!(ARRAY_OWNED_FIELDS, ARRAY_OWNED_INDEX: 2, ARRAY_OWNED_TABLE);

// SAFETY: as for the twins; the setters copy strings and bytes into the owned variants.
unsafe impl TableDecode<'_> for KeyValueList {
    const TABLE: &'static Table = &KVLIST_OWNED_TABLE;
    const NAME: &'static str = "KeyValueList";
}

// OpenTelemetry's logs request, owned: `LogsData` → `ResourceLogs` → `Resource` (its
// attributes), `ScopeLogs` → `InstrumentationScope`, `LogRecord`. `Resource.entity_refs`
// (not in the benchmark's inputs) is read by the runtime's reader, out of line.

static RESOURCE_FIELDS: [Field; 3] = [
    field!(
        Resource,
        attributes = 1,
        MessageVec,
        Vec<KeyValue>,
        &KV_OWNED_SUB
    ),
    field!(Resource, dropped_attributes_count = 2, UInt32, u32),
    Field::runtime(
        3,
        {
            let _: for<'m> fn(&'m Resource) -> &'m Vec<EntityRef> = |m| &m.entity_refs;
            offset_of!(Resource, entity_refs)
        },
        "entity_refs",
        runtime_vec::<EntityRef>,
    ),
];
table!(RESOURCE_FIELDS, RESOURCE_INDEX: 4, RESOURCE_TABLE, RESOURCE_SUB: Resource);

static SCOPE_FIELDS: [Field; 4] = [
    field!(InstrumentationScope, name = 1, String, String),
    field!(InstrumentationScope, version = 2, String, String),
    field!(
        InstrumentationScope,
        attributes = 3,
        MessageVec,
        Vec<KeyValue>,
        &KV_OWNED_SUB
    ),
    field!(
        InstrumentationScope,
        dropped_attributes_count = 4,
        UInt32,
        u32
    ),
];
table!(SCOPE_FIELDS, SCOPE_INDEX: 5, SCOPE_TABLE, SCOPE_SUB: InstrumentationScope);

static LOG_RECORD_FIELDS: [Field; 11] = [
    field!(LogRecord, time_unix_nano = 1, Fixed64, u64),
    // An open enum: any `int32`, kept as its number (SPEC §3.6).
    field!(LogRecord, severity_number = 2, Int32, i32),
    field!(LogRecord, severity_text = 3, String, String),
    field!(
        LogRecord,
        body = 5,
        Message,
        Option<AnyValue>,
        &ANY_OWNED_SUB
    ),
    field!(
        LogRecord,
        attributes = 6,
        MessageVec,
        Vec<KeyValue>,
        &KV_OWNED_SUB
    ),
    field!(LogRecord, dropped_attributes_count = 7, UInt32, u32),
    field!(LogRecord, flags = 8, Fixed32, u32),
    field!(LogRecord, trace_id = 9, Bytes, Vec<u8>),
    field!(LogRecord, span_id = 10, Bytes, Vec<u8>),
    field!(LogRecord, observed_time_unix_nano = 11, Fixed64, u64),
    field!(LogRecord, event_name = 12, String, String),
];
table!(LOG_RECORD_FIELDS, LOG_RECORD_INDEX: 13, LOG_RECORD_TABLE, LOG_RECORD_SUB: LogRecord);

static SCOPE_LOGS_FIELDS: [Field; 3] = [
    field!(
        ScopeLogs,
        scope = 1,
        Message,
        Option<InstrumentationScope>,
        &SCOPE_SUB
    ),
    field!(
        ScopeLogs,
        log_records = 2,
        MessageVec,
        Vec<LogRecord>,
        &LOG_RECORD_SUB
    ),
    field!(ScopeLogs, schema_url = 3, String, String),
];
table!(SCOPE_LOGS_FIELDS, SCOPE_LOGS_INDEX: 4, SCOPE_LOGS_TABLE, SCOPE_LOGS_SUB: ScopeLogs);

static RESOURCE_LOGS_FIELDS: [Field; 3] = [
    field!(
        ResourceLogs,
        resource = 1,
        Message,
        Option<Resource>,
        &RESOURCE_SUB
    ),
    field!(
        ResourceLogs,
        scope_logs = 2,
        MessageVec,
        Vec<ScopeLogs>,
        &SCOPE_LOGS_SUB
    ),
    field!(ResourceLogs, schema_url = 3, String, String),
];
table!(RESOURCE_LOGS_FIELDS, RESOURCE_LOGS_INDEX: 4, RESOURCE_LOGS_TABLE, RESOURCE_LOGS_SUB: ResourceLogs);

static LOGS_DATA_FIELDS: [Field; 1] = [field!(
    LogsData,
    resource_logs = 1,
    MessageVec,
    Vec<ResourceLogs>,
    &RESOURCE_LOGS_SUB
)];
table!(LOGS_DATA_FIELDS, LOGS_DATA_INDEX: 2, LOGS_DATA_TABLE);

// SAFETY: every table above is built with `offset_of!` on its type, each field's Rust
// type checked against its kind by `field!` (and `entity_refs`'s by its closure); the
// values are owned.
unsafe impl TableDecode<'_> for LogsData {
    const TABLE: &'static Table = &LOGS_DATA_TABLE;
    const NAME: &'static str = "LogsData";
}

// The same request, borrowed twins: strings and bytes borrowed, the attribute family's
// twin tables above, `entity_refs` read by the runtime's reader as for the owned type.

use super::bijou::opentelemetry::proto::common::v1::{EntityRefRef, InstrumentationScopeRef};
use super::bijou::opentelemetry::proto::logs::v1::{
    LogRecordRef, LogsDataRef, ResourceLogsRef, ScopeLogsRef,
};
use super::bijou::opentelemetry::proto::resource::v1::ResourceRef;

/// `ResourceRef.entity_refs` read by a reader of the runtime, out of line: as
/// [`runtime_vec`], the references borrowing from `bytes`.
///
/// # Safety
/// `dst` points to a valid, writable `Vec<EntityRefRef<'a>>`, and `bytes` lives for
/// `'a`.
#[inline(never)]
unsafe fn runtime_entity_refs_ref(
    bytes: &[u8],
    key_at: usize,
    max_depth: u32,
    dst: *mut u8,
    name: &'static str,
) -> Result<usize, DecodeError> {
    let opts = DecodeOptions::new().max_depth(max_depth);
    let mut r = bijoubuf::__private::message_reader(bytes, key_at, bytes.len(), &opts);
    let (v, _) = varint(bytes, key_at)?;
    let out =
        r.repeated::<bijoubuf::__private::Msg<EntityRefRef<'_>>>((1 + (v >> 2)) as u32, name)?;
    // SAFETY: the caller's contract: the references borrow the input, which lives as
    // long as the vector's type says.
    unsafe { *dst.cast::<Vec<EntityRefRef<'_>>>() = out };
    Ok(r.position())
}

static RESOURCE_REF_FIELDS: [Field; 3] = [
    field!(
        ResourceRef<'static>,
        attributes = 1,
        MessageVec,
        Vec<KeyValueRef<'static>>,
        &KV_SUB
    ),
    field!(
        ResourceRef<'static>,
        dropped_attributes_count = 2,
        UInt32,
        u32
    ),
    Field::runtime(
        3,
        {
            let _: for<'m> fn(&'m ResourceRef<'static>) -> &'m Vec<EntityRefRef<'static>> =
                |m| &m.entity_refs;
            offset_of!(ResourceRef<'static>, entity_refs)
        },
        "entity_refs",
        runtime_entity_refs_ref,
    ),
];
table!(RESOURCE_REF_FIELDS, RESOURCE_REF_INDEX: 4, RESOURCE_REF_TABLE, RESOURCE_REF_SUB: ResourceRef<'static>);

static SCOPE_REF_FIELDS: [Field; 4] = [
    field!(
        InstrumentationScopeRef<'static>,
        name = 1,
        StrRef,
        &'static str
    ),
    field!(
        InstrumentationScopeRef<'static>,
        version = 2,
        StrRef,
        &'static str
    ),
    field!(
        InstrumentationScopeRef<'static>,
        attributes = 3,
        MessageVec,
        Vec<KeyValueRef<'static>>,
        &KV_SUB
    ),
    field!(
        InstrumentationScopeRef<'static>,
        dropped_attributes_count = 4,
        UInt32,
        u32
    ),
];
table!(SCOPE_REF_FIELDS, SCOPE_REF_INDEX: 5, SCOPE_REF_TABLE, SCOPE_REF_SUB: InstrumentationScopeRef<'static>);

static LOG_RECORD_REF_FIELDS: [Field; 11] = [
    field!(LogRecordRef<'static>, time_unix_nano = 1, Fixed64, u64),
    field!(LogRecordRef<'static>, severity_number = 2, Int32, i32),
    field!(
        LogRecordRef<'static>,
        severity_text = 3,
        StrRef,
        &'static str
    ),
    field!(
        LogRecordRef<'static>,
        body = 5,
        Message,
        Option<AnyValueRef<'static>>,
        &ANY_SUB
    ),
    field!(
        LogRecordRef<'static>,
        attributes = 6,
        MessageVec,
        Vec<KeyValueRef<'static>>,
        &KV_SUB
    ),
    field!(
        LogRecordRef<'static>,
        dropped_attributes_count = 7,
        UInt32,
        u32
    ),
    field!(LogRecordRef<'static>, flags = 8, Fixed32, u32),
    field!(LogRecordRef<'static>, trace_id = 9, BytesRef, &'static [u8]),
    field!(LogRecordRef<'static>, span_id = 10, BytesRef, &'static [u8]),
    field!(
        LogRecordRef<'static>,
        observed_time_unix_nano = 11,
        Fixed64,
        u64
    ),
    field!(LogRecordRef<'static>, event_name = 12, StrRef, &'static str),
];
table!(LOG_RECORD_REF_FIELDS, LOG_RECORD_REF_INDEX: 13, LOG_RECORD_REF_TABLE, LOG_RECORD_REF_SUB: LogRecordRef<'static>);

static SCOPE_LOGS_REF_FIELDS: [Field; 3] = [
    field!(
        ScopeLogsRef<'static>,
        scope = 1,
        Message,
        Option<InstrumentationScopeRef<'static>>,
        &SCOPE_REF_SUB
    ),
    field!(
        ScopeLogsRef<'static>,
        log_records = 2,
        MessageVec,
        Vec<LogRecordRef<'static>>,
        &LOG_RECORD_REF_SUB
    ),
    field!(ScopeLogsRef<'static>, schema_url = 3, StrRef, &'static str),
];
table!(SCOPE_LOGS_REF_FIELDS, SCOPE_LOGS_REF_INDEX: 4, SCOPE_LOGS_REF_TABLE, SCOPE_LOGS_REF_SUB: ScopeLogsRef<'static>);

static RESOURCE_LOGS_REF_FIELDS: [Field; 3] = [
    field!(
        ResourceLogsRef<'static>,
        resource = 1,
        Message,
        Option<ResourceRef<'static>>,
        &RESOURCE_REF_SUB
    ),
    field!(
        ResourceLogsRef<'static>,
        scope_logs = 2,
        MessageVec,
        Vec<ScopeLogsRef<'static>>,
        &SCOPE_LOGS_REF_SUB
    ),
    field!(
        ResourceLogsRef<'static>,
        schema_url = 3,
        StrRef,
        &'static str
    ),
];
table!(RESOURCE_LOGS_REF_FIELDS, RESOURCE_LOGS_REF_INDEX: 4, RESOURCE_LOGS_REF_TABLE, RESOURCE_LOGS_REF_SUB: ResourceLogsRef<'static>);

static LOGS_DATA_REF_FIELDS: [Field; 1] = [field!(
    LogsDataRef<'static>,
    resource_logs = 1,
    MessageVec,
    Vec<ResourceLogsRef<'static>>,
    &RESOURCE_LOGS_REF_SUB
)];
table!(LOGS_DATA_REF_FIELDS, LOGS_DATA_REF_INDEX: 2, LOGS_DATA_REF_TABLE);

// SAFETY: as for the owned request; the strings and bytes borrow for `'a`, as the
// twins' fields do, and so do the entity references of the out-of-line read.
unsafe impl<'a> TableDecode<'a> for LogsDataRef<'a> {
    const TABLE: &'static Table = &LOGS_DATA_REF_TABLE;
    const NAME: &'static str = "LogsData";
}

/// A strict decode of `bytes` as `LogsDataRef` through the table, the value dropped.
pub fn table_logs_ref_decode(bytes: &[u8]) -> bool {
    std::hint::black_box(decode::<LogsDataRef<'_>>(bytes).ok()).is_some()
}

/// A strict decode of `bytes` as the owned `LogsData` through the table, the value
/// dropped.
pub fn table_logs_decode(bytes: &[u8]) -> bool {
    std::hint::black_box(decode::<LogsData>(bytes).ok()).is_some()
}

/// A strict decode of `bytes` as the borrowed twin through the table, the value dropped:
/// the benchmarks' counterpart of `ops::bijou_borrowed_decode`.
pub fn table_borrowed_decode(bytes: &[u8]) -> bool {
    std::hint::black_box(decode::<GoogleMessage1Ref<'_>>(bytes).ok()).is_some()
}

/// The attributes of every span of the traces input of `seed` (`otlp::traces`), each
/// span's list encoded as one `KeyValueList`: the attribute workload of the benchmarks.
pub fn span_attributes(seed: u64) -> Vec<Vec<u8>> {
    use super::bijou::opentelemetry::proto::common::v1::KeyValueList;
    use bijoubuf::Message as _;
    let t = super::otlp::traces(seed);
    t.resource_spans
        .iter()
        .flat_map(|r| &r.scope_spans)
        .flat_map(|s| &s.spans)
        .map(|span| {
            KeyValueList {
                values: span.attributes.clone(),
                ..Default::default()
            }
            .encode_to_vec()
            .expect("encodes")
        })
        .collect()
}

/// A strict decode of `bytes` as `KeyValueListRef` through the table, the value dropped.
pub fn table_kvlist_decode(bytes: &[u8]) -> bool {
    std::hint::black_box(decode::<KeyValueListRef<'_>>(bytes).ok()).is_some()
}

/// The attribute workload's operations (not in `otlp::OPS`): `bijou-kvl-decode` (the
/// generated `KeyValueListRef` decoder) and `bijou-table-kvl-decode` (the table's), each
/// call decoding every span's attribute list of one traces input, `variants` inputs
/// cycled; `None` for another name.
pub fn attribute_op(name: &str, variants: u64) -> Option<super::otlp::Op> {
    use super::otlp::Signal;
    let decode: fn(&[u8]) -> bool = match name {
        "bijou-kvl-decode" => {
            |x: &[u8]| super::ops::bijou_borrowed_decode::<KeyValueListRef<'_>>(x)
        }
        "bijou-table-kvl-decode" => table_kvlist_decode,
        _ => return None,
    };
    let inputs: Vec<Vec<Vec<u8>>> = (0..variants)
        .map(|i| span_attributes(Signal::Traces.seed(i)))
        .collect();
    let mut i = 0;
    Some(Box::new(move || {
        for x in &inputs[i] {
            assert!(decode(std::hint::black_box(x)));
        }
        i = (i + 1) % inputs.len();
    }))
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

    /// The same result from the table and from the generated decoder, with the same
    /// error (code, offset and path) when refused, borrowed and owned.
    fn same(x: &[u8], what: &str) -> bool {
        let twin = GoogleMessage1Ref::decode(x);
        let table = decode::<GoogleMessage1Ref<'_>>(x);
        match (&twin, &table) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: borrowed values differ"),
            (Err(a), Err(b)) => {
                assert_eq!(
                    (a.code(), a.offset(), a.path_string()),
                    (b.code(), b.offset(), b.path_string()),
                    "{what}: borrowed errors differ"
                );
                assert_eq!(a, b, "{what}");
            }
            _ => panic!("{what}: generated {twin:?}, table {table:?}"),
        }
        let owned = GoogleMessage1::decode(x);
        let table_owned = decode::<GoogleMessage1>(x);
        match (&owned, &table_owned) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: owned values differ"),
            (Err(a), Err(b)) => assert_eq!(
                (a.code(), a.offset(), a.path_string()),
                (b.code(), b.offset(), b.path_string()),
                "{what}: owned errors differ"
            ),
            _ => panic!("{what}: generated {owned:?}, table {table_owned:?}"),
        }
        twin.is_ok()
    }

    #[test]
    fn datasets_decode_as_the_generated_decoder_does() {
        let inputs = inputs();
        for (i, x) in inputs.iter().enumerate() {
            assert!(same(x, &format!("input {i}")), "input {i} is canonical");
            // Not a trivially empty comparison: the values carry the data.
            let m = decode::<GoogleMessage1Ref<'_>>(x).expect("decodes");
            assert_eq!(
                m,
                gm1::proto3(Dataset::Gm1Proto3.seed() + i as u64).borrowed()
            );
        }
        // Some inputs have the sub-message and field5, so both paths are compared.
        let some = |f: fn(&GoogleMessage1) -> bool| {
            inputs
                .iter()
                .any(|x| f(&GoogleMessage1::decode(x).expect("decodes")))
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

    /// The same result from the table and the generated decoder for `KeyValueListRef`.
    fn same_kvlist(x: &[u8], what: &str) -> bool {
        let generated = KeyValueListRef::decode(x);
        let table = decode::<KeyValueListRef<'_>>(x);
        match (&generated, &table) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: values differ"),
            (Err(a), Err(b)) => {
                assert_eq!(
                    (a.code(), a.offset(), a.path_string()),
                    (b.code(), b.offset(), b.path_string()),
                    "{what}: errors differ"
                );
                assert_eq!(a, b, "{what}");
            }
            _ => panic!("{what}: generated {generated:?}, table {table:?}"),
        }
        let owned = KeyValueList::decode(x);
        let table_owned = decode::<KeyValueList>(x);
        match (&owned, &table_owned) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: owned values differ"),
            (Err(a), Err(b)) => assert_eq!(a, b, "{what}: owned errors differ"),
            _ => panic!("{what}: owned: generated {owned:?}, table {table_owned:?}"),
        }
        generated.is_ok()
    }

    /// Span attribute lists, and one list holding every member of `AnyValue` (an array
    /// and a nested list among them).
    fn kvlist_inputs() -> Vec<Vec<u8>> {
        use crate::msg::bijou::opentelemetry::proto::common::v1::{
            AnyValue, ArrayValue, KeyValue, KeyValueList, any_value::Value,
        };
        let any = |v: Value| AnyValue {
            value: Some(v),
            ..Default::default()
        };
        let kv = |k: &str, v: Option<AnyValue>| KeyValue {
            key: k.into(),
            value: v,
            ..Default::default()
        };
        let every = KeyValueList {
            values: vec![
                kv("s", Some(any(Value::StringValue("é".into())))),
                kv("b", Some(any(Value::BoolValue(false)))),
                kv("i", Some(any(Value::IntValue(-3)))),
                kv("d", Some(any(Value::DoubleValue(2.5)))),
                kv(
                    "a",
                    Some(any(Value::ArrayValue(ArrayValue {
                        values: vec![any(Value::IntValue(0)), AnyValue::default()],
                        ..Default::default()
                    }))),
                ),
                kv(
                    "l",
                    Some(any(Value::KvlistValue(KeyValueList {
                        values: vec![kv("x", None), kv("", Some(any(Value::BytesValue(vec![1]))))],
                        ..Default::default()
                    }))),
                ),
                kv("y", Some(any(Value::BytesValue(Vec::new())))),
                kv("n", Some(any(Value::StringValueStrindex(7)))),
                KeyValue {
                    key_strindex: 2,
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        let mut inputs = vec![every.encode_to_vec().expect("encodes")];
        inputs.extend(span_attributes(crate::msg::otlp::Signal::Traces.seed(0)));
        inputs
    }

    #[test]
    fn attribute_lists_decode_as_the_generated_decoder_does() {
        let inputs = kvlist_inputs();
        assert!(inputs.len() > 400);
        for (i, x) in inputs.iter().enumerate() {
            assert!(
                same_kvlist(x, &format!("list {i}")),
                "list {i} is canonical"
            );
        }
        let every = decode::<KeyValueListRef<'_>>(&inputs[0]).expect("decodes");
        assert_eq!(every.values.len(), 9);
        for (i, x) in inputs.iter().take(40).enumerate() {
            for at in 0..x.len() {
                for b in [0x00, 0x01, 0x02, 0x03, 0x05, 0x7F, 0xF8, 0xFF, x[at] ^ 0x04] {
                    let mut y = x.clone();
                    y[at] = b;
                    same_kvlist(&y, &format!("list {i}, byte {at} = {b:#x}"));
                }
            }
            for n in 0..x.len() {
                same_kvlist(&x[..n], &format!("list {i} cut at {n}"));
            }
        }
        // Depth: the nested list of the first input is at depth 4.
        for depth in 1..5 {
            let opts = DecodeOptions::new().max_depth(depth);
            let generated =
                KeyValueListRef::decode_with(&inputs[0], &opts).map(|d| d.into_message());
            let table = decode_with_depth::<KeyValueListRef<'_>>(&inputs[0], depth);
            match (generated, table) {
                (Err(a), Err(b)) => assert_eq!(a, b, "depth {depth}"),
                (a, b) => panic!("depth {depth}: generated {a:?}, table {b:?}"),
            }
        }
    }

    /// The same result from the table and the generated decoder for the owned `LogsData`
    /// (the same error: code, offset and path).
    fn same_logs(x: &[u8], what: &str) -> bool {
        let generated = LogsData::decode(x);
        let table = decode::<LogsData>(x);
        match (&generated, &table) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: values differ"),
            (Err(a), Err(b)) => {
                assert_eq!(
                    (a.code(), a.offset(), a.path_string()),
                    (b.code(), b.offset(), b.path_string()),
                    "{what}: errors differ"
                );
                assert_eq!(a, b, "{what}");
            }
            _ => panic!("{what}: generated {generated:?}, table {table:?}"),
        }
        let twin = LogsDataRef::decode(x);
        let table_twin = decode::<LogsDataRef<'_>>(x);
        match (&twin, &table_twin) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: borrowed values differ"),
            (Err(a), Err(b)) => assert_eq!(a, b, "{what}: borrowed errors differ"),
            _ => panic!("{what}: borrowed: generated {twin:?}, table {table_twin:?}"),
        }
        generated.is_ok()
    }

    /// Small logs requests for the byte-by-byte tests: the benchmark's first request cut
    /// to one resource, one scope and `n` records, and one with every field set (an
    /// entity reference, a list and an array as bodies, a negative severity), also
    /// without the resource's attributes.
    fn small_logs() -> Vec<LogsData> {
        use crate::msg::bijou::opentelemetry::proto::common::v1::{EntityRef, any_value};
        use crate::msg::otlp::{Signal, logs};
        let full = logs(Signal::Logs.seed(0));
        let mut out = Vec::new();
        for (n, skip) in [(1, 0), (2, 5), (3, 11)] {
            let mut l = full.clone();
            l.resource_logs.truncate(1);
            let r = &mut l.resource_logs[0];
            r.scope_logs.truncate(1);
            let recs = &mut r.scope_logs[0].log_records;
            *recs = recs.iter().skip(skip).take(n).cloned().collect();
            out.push(l);
        }
        let mut every = out[0].clone();
        let r = &mut every.resource_logs[0];
        let res = r.resource.as_mut().expect("a resource");
        res.dropped_attributes_count = 3;
        res.entity_refs = vec![EntityRef {
            schema_url: "u".into(),
            r#type: "service".into(),
            id_keys: vec!["a".into(), String::new()],
            description_keys: vec!["d".into()],
            ..Default::default()
        }];
        let s = &mut r.scope_logs[0];
        let scope = s.scope.as_mut().expect("a scope");
        scope.dropped_attributes_count = 1;
        scope.attributes = s.log_records[0].attributes.clone();
        let mut rec = s.log_records[0].clone();
        rec.severity_number = -2;
        rec.dropped_attributes_count = 7;
        rec.flags = 0x0102_0304;
        rec.event_name = "ev".into();
        rec.trace_id = vec![1; 16];
        rec.span_id = vec![2; 8];
        rec.body = Some(AnyValue {
            value: Some(any_value::Value::KvlistValue(KeyValueList {
                values: rec.attributes.clone(),
                ..Default::default()
            })),
            ..Default::default()
        });
        let mut rec2 = rec.clone();
        rec2.body = Some(AnyValue {
            value: Some(any_value::Value::ArrayValue(ArrayValue {
                values: vec![
                    AnyValue::default(),
                    AnyValue {
                        value: Some(any_value::Value::BytesValue(vec![9])),
                        ..Default::default()
                    },
                ],
                ..Default::default()
            })),
            ..Default::default()
        });
        s.log_records.extend([rec, rec2]);
        // The same without the resource's attributes: the entity references are the
        // resource's first nested messages, so the depth limit falls on them.
        let mut bare = every.clone();
        if let Some(res) = bare.resource_logs[0].resource.as_mut() {
            res.attributes.clear();
        }
        out.extend([every, bare]);
        out
    }

    #[test]
    fn logs_requests_decode_as_the_generated_decoder_does() {
        use crate::msg::otlp::{Signal, logs};
        // Whole requests of the benchmark (300 records each).
        for i in 0..4 {
            let x = logs(Signal::Logs.seed(i)).encode_to_vec().expect("encodes");
            assert!(same_logs(&x, &format!("request {i}")), "request {i}");
            let m = decode::<LogsData>(&x).expect("decodes");
            assert_eq!(m, logs(Signal::Logs.seed(i)));
        }
        let small: Vec<Vec<u8>> = small_logs()
            .iter()
            .map(|l| l.encode_to_vec().expect("encodes"))
            .collect();
        let every = decode::<LogsData>(&small[3]).expect("decodes");
        assert_eq!(every, small_logs()[3]);
        assert_eq!(
            every.resource_logs[0]
                .resource
                .as_ref()
                .map(|r| r.entity_refs.len()),
            Some(1)
        );
        let mut refused = 0;
        for (i, x) in small.iter().enumerate() {
            assert!(same_logs(x, &format!("small {i}")));
            for at in 0..x.len() {
                for b in [0x00, 0x01, 0x02, 0x03, 0x05, 0x7F, 0xF8, 0xFF, x[at] ^ 0x04] {
                    let mut y = x.clone();
                    y[at] = b;
                    refused +=
                        usize::from(!same_logs(&y, &format!("small {i}, byte {at} = {b:#x}")));
                }
            }
            for n in 0..x.len() {
                same_logs(&x[..n], &format!("small {i} cut at {n}"));
            }
            for b in [0x00, 0x02, 0xF8, 0xFF] {
                let mut y = x.clone();
                y.push(b);
                assert!(!same_logs(&y, &format!("small {i} + {b:#x}")));
            }
        }
        assert!(refused > 1000, "{refused} refused");
        // Depth: the requests with every field nest to 6 (the body's list's values).
        let mut seen = 0;
        for (x, depth) in small[3..].iter().flat_map(|x| (1..8).map(move |d| (x, d))) {
            let opts = DecodeOptions::new().max_depth(depth);
            let generated = LogsData::decode_with(x, &opts).map(|d| d.into_message());
            let table = decode_with_depth::<LogsData>(x, depth);
            let twin = LogsDataRef::decode_with(x, &opts).map(|d| d.into_message());
            let table_twin = decode_with_depth::<LogsDataRef<'_>>(x, depth);
            match (twin, table_twin) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "borrowed, depth {depth}"),
                (Err(a), Err(b)) => assert_eq!(a, b, "borrowed, depth {depth}"),
                (a, b) => panic!("borrowed, depth {depth}: generated {a:?}, table {b:?}"),
            }
            match (generated, table) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "depth {depth}"),
                (Err(a), Err(b)) => {
                    assert_eq!(a, b, "depth {depth}");
                    assert_eq!(a.kind(), ErrorKind::DepthLimitExceeded);
                    seen += 1;
                }
                (a, b) => panic!("depth {depth}: generated {a:?}, table {b:?}"),
            }
        }
        assert!(seen >= 10, "{seen}");
    }

    #[test]
    fn the_benchmark_operations_run() {
        use crate::msg::otlp::{Workload, op};
        for name in ["bijou-table-decode", "bijou-table-owned-decode"] {
            // Each decode asserts it succeeded.
            let mut f = op(Workload::Gm1Batch, name, 2).expect("an operation");
            f();
            f();
        }
        for name in ["bijou-table-decode", "bijou-table-owned-decode"] {
            let mut f =
                op(Workload::Otlp(crate::msg::otlp::Signal::Logs), name, 2).expect("an operation");
            f();
            f();
        }
        for name in ["bijou-kvl-decode", "bijou-table-kvl-decode"] {
            let mut f = op(Workload::Otlp(crate::msg::otlp::Signal::Traces), name, 2)
                .expect("an operation");
            f();
            f();
        }
    }

    #[test]
    fn the_depth_limit_is_checked_at_the_key() {
        let opts = DecodeOptions::new().max_depth(1);
        let mut seen = 0;
        for x in inputs() {
            let generated = GoogleMessage1Ref::decode_with(&x, &opts).map(|d| d.into_message());
            let table = decode_with_depth::<GoogleMessage1Ref<'_>>(&x, 1);
            match (generated, table) {
                (Ok(a), Ok(b)) => assert_eq!(a, b),
                (Err(a), Err(b)) => {
                    assert_eq!(a.kind(), ErrorKind::DepthLimitExceeded);
                    assert_eq!(a, b);
                    seen += 1;
                }
                (a, b) => panic!("generated {a:?}, table {b:?}"),
            }
        }
        assert!(seen > 0);
    }
}
