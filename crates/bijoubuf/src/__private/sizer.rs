//! The size pass (see [`writer`](super::writer) for why encoding runs two passes):
//! every nested message's, non-fixed run's and map's content length, computed bottom-up
//! and kept in a table in pre-order for the write pass.

use alloc::vec::Vec;

use super::codec::{EncodeElement, MapEntries};
use super::message::Encode;
use super::reader::{MAX_FIELD_NUMBER, WireType};
use super::varint::varint_len;
use crate::error::{EncodeError, EncodeErrorKind};
use crate::unknown::{UnknownField, UnknownValue};

/// How many lengths the size table makes room for when it records its first one.
pub const FIRST_SIZES: usize = 128;

/// Where the size pass keeps the lengths of length-prefixed composites: [`SizeTable`]
/// records them for the write pass; [`NoTable`] (for `encoded_len`, which writes nothing)
/// keeps none. The choice is a type, so each kind of pass is compiled on its own and the
/// recording pass pays nothing for the other.
pub trait Table: Sized {
    #[doc(hidden)]
    fn new() -> Self;
    #[doc(hidden)]
    fn reserve(&mut self) -> usize;
    #[doc(hidden)]
    fn set(&mut self, slot: usize, n: usize);
}

/// Lengths of the value's length-prefixed composites, in pre-order.
///
/// With `std`, the vector is reused: a table takes its thread's spare vector when it
/// records its first length and gives it back, emptied, when dropped (up to
/// [`KEEP_SIZES`] entries of capacity), so a thread that encodes again does not allocate
/// a table again. Why: an allocation and a release cost about 105 instructions per encode
/// of GoogleMessage1 (one sub-message), about 4 % of the encode. An array of the first
/// few lengths inside the table avoided that too, but the second test on every access
/// cost 2-5 % on values with many composites (telemetry, cas).
///
/// Why only at the first length: a value without composites (a small RPC request) then
/// never touches the thread-local slot, whose take and give-back cost about 34
/// instructions per encode of the order service's 3-byte query, 8 % of it.
pub struct SizeTable {
    sizes: Vec<usize>,
}

impl Table for SizeTable {
    #[inline]
    fn new() -> Self {
        SizeTable { sizes: Vec::new() }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self) -> usize {
        if self.sizes.capacity() == 0 {
            self.first();
        }
        let slot = self.sizes.len();
        self.sizes.push(0);
        slot
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn set(&mut self, slot: usize, n: usize) {
        if let Some(x) = self.sizes.get_mut(slot) {
            *x = n;
        }
    }
}

impl Drop for SizeTable {
    #[inline]
    fn drop(&mut self) {
        // A table that recorded nothing took nothing from the thread.
        if self.sizes.capacity() != 0 {
            spare::give(core::mem::take(&mut self.sizes));
        }
    }
}

impl SizeTable {
    /// The thread's spare vector, or room for [`FIRST_SIZES`] entries, when the first
    /// length is recorded (a value without composites takes and allocates nothing); the
    /// vector doubles from there.
    #[cold]
    #[inline(never)]
    fn first(&mut self) {
        self.sizes = spare::take();
        if self.sizes.capacity() == 0 {
            self.sizes.reserve(FIRST_SIZES);
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn get(&self, slot: usize) -> usize {
        self.sizes.get(slot).copied().unwrap_or_default()
    }
}

/// The largest table capacity (in entries) a thread keeps for its next encode: 32 KiB on
/// 64-bit targets. A larger table is released as before.
pub const KEEP_SIZES: usize = 4096;

/// Each thread's spare size-table vector (with `std`; without it every table is new).
#[cfg(feature = "std")]
mod spare {
    use alloc::vec::Vec;
    use core::cell::Cell;

    std::thread_local! {
        static SPARE: Cell<Vec<usize>> = const { Cell::new(Vec::new()) };
    }

    /// This thread's spare vector (empty), or a new one when there is none: a table made
    /// while another is in use (an encode inside a size pass) gets a new one.
    #[inline]
    pub(super) fn take() -> Vec<usize> {
        SPARE.try_with(Cell::take).unwrap_or_default()
    }

    /// Keep `v` as this thread's spare, unless it is larger than
    /// [`KEEP_SIZES`](super::KEEP_SIZES) or the thread is being torn down.
    #[inline]
    pub(super) fn give(mut v: Vec<usize>) {
        if v.capacity() == 0 || v.capacity() > super::KEEP_SIZES {
            return;
        }
        v.clear();
        // The slot is empty unless a table made during this one's life was dropped
        // first; either way one vector is kept and the other released.
        let _ = SPARE.try_with(|c| drop(c.replace(v)));
    }
}

#[cfg(not(feature = "std"))]
mod spare {
    use alloc::vec::Vec;

    #[inline]
    pub(super) fn take() -> Vec<usize> {
        Vec::new()
    }

    #[inline]
    pub(super) fn give(_: Vec<usize>) {}
}

/// No table: the lengths are only summed (`encoded_len`).
pub struct NoTable;

impl Table for NoTable {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn new() -> Self {
        NoTable
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self) -> usize {
        0
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn set(&mut self, _slot: usize, _n: usize) {}
}

/// Field numbers whose keys are always one byte: delta ≤ 61, so `(delta << 2) | 3 < 248`.
pub(super) const ONE_BYTE_KEYS: u32 = 62;

#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn key_value(delta: u32, wire: WireType) -> u64 {
    ((delta as u64) << 2) | wire as u64
}

/// The size pass: sums each message's content length and records composite lengths in
/// its table `T`.
pub struct Sizer<'v, T: Table = SizeTable> {
    table: T,
    prev: u32,
    depth: u32,
    max_depth: u32,
    unknown: &'v [UnknownField],
    /// The current message's declared field numbers, which unknown records may not use.
    declared: &'v [u32],
    error: Option<EncodeErrorKind>,
}

impl<'v, T: Table> Sizer<'v, T> {
    /// A size pass that refuses nesting deeper than `max_depth` (SPEC §9.3).
    pub fn new(max_depth: u32) -> Self {
        Sizer {
            table: T::new(),
            prev: 0,
            depth: 1,
            max_depth,
            unknown: &[],
            declared: &[],
            error: None,
        }
    }

    /// The content length of `m`: the plain body when it has no unknown records.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn content_of<M: Encode>(s: &mut Self, m: &'v M, plain: bool) -> usize {
        if plain && !matches!(M::WALK, super::WalkKind::Checked) {
            m.__walk(&mut s.plain())
        } else {
            m.__walk(s)
        }
    }

    /// The content length of a whole top-level message.
    pub(crate) fn top<M: Encode>(&mut self, m: &'v M) -> usize {
        self.top_with(
            m.__unknown().as_slice(),
            super::message::field_numbers::<M>(),
            move |s, plain| Self::content_of(s, m, plain),
        )
    }

    /// [`top`](Self::top) for a message whose type is known only at run time: its
    /// preserved unknown records `unknown`, its declared field numbers `declared`
    /// (ascending), and `content`, which makes the message's field calls in ascending
    /// number order as a generated `__walk` does in the size pass and returns their sum. `content`'s flag
    /// says the message has no unknown records (the [`plain`](Self::plain) calls may be
    /// used).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn top_with(
        &mut self,
        unknown: &'v [UnknownField],
        declared: &'v [u32],
        content: impl FnOnce(&mut Self, bool) -> usize,
    ) -> usize {
        self.unknown = unknown;
        self.declared = declared;
        if self.unknown.is_empty() {
            return content(self, true);
        }
        content(self, false) + self.rest_unknown()
    }

    /// The lengths recorded so far.
    pub(super) fn table(&self) -> &T {
        &self.table
    }

    /// This pass for a message without unknown records: the same field calls, with no
    /// unknown records to interleave between them. Only for types whose walk is not
    /// [`WalkKind::Checked`](super::WalkKind::Checked): these calls do not check that
    /// field numbers ascend (generated code fixes the order when it is generated).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn plain(&mut self) -> Plain<'_, 'v, T> {
        Plain(self)
    }

    /// The pass's first refusal, if any, as the error `encode` returns.
    pub fn check(&self) -> Result<(), EncodeError> {
        match self.error {
            None => Ok(()),
            Some(EncodeErrorKind::DepthLimitExceeded) => Err(EncodeError::over_limit(
                EncodeErrorKind::DepthLimitExceeded,
                0,
                self.max_depth as usize,
            )),
            Some(kind) => Err(EncodeError::new(kind, 0)),
        }
    }

    /// True once the pass has refused the value (see [`check`](Self::check)): a
    /// dynamic encoder tells by it which field the first refusal was found in.
    #[inline]
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    #[cold]
    fn fail(&mut self, kind: EncodeErrorKind) {
        self.error.get_or_insert(kind);
    }

    /// The length of the key for field `number` (SPEC §4.1), after any preserved unknown
    /// records numbered below it; with `PLAIN` the message has no unknown records, so
    /// there is nothing to interleave and no test for it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn key_in<const PLAIN: bool>(&mut self, number: u32, wire: WireType) -> usize {
        let mut n = 0;
        if !PLAIN
            && let Some(u) = self.unknown.first()
            && u.number < number
        {
            n = self.unknown_below(number);
        }
        // SPEC §4.1, §4.3: only an ascending number in range has a delta key. A
        // hand-written `Message` may write its fields in another order, and its bytes
        // would decode as some other field (or not at all). The `PLAIN` calls are the
        // fast path of generated code, whose order is fixed when it is generated: the
        // check there cost 5-11 % of encode instructions on the message benchmarks.
        if !PLAIN && (number <= self.prev || number > MAX_FIELD_NUMBER) {
            self.fail(EncodeErrorKind::FieldOrder);
        }
        let delta = number.wrapping_sub(self.prev).wrapping_sub(1);
        self.prev = number;
        // Numbers up to 62 have deltas up to 61, so their keys are one byte; `number` is
        // a constant in generated code, so this test folds away.
        if number <= ONE_BYTE_KEYS {
            return n + 1;
        }
        n + varint_len(key_value(delta, wire))
    }

    #[cold]
    fn unknown_below(&mut self, number: u32) -> usize {
        let mut n = 0;
        while let Some((u, rest)) = self.unknown.split_first() {
            if u.number >= number {
                break;
            }
            self.unknown = rest;
            // SPEC §8.2: re-emitted records must decode again: ascending, distinct, and
            // not a number the schema gives a known field.
            if u.number <= self.prev
                || u.number > MAX_FIELD_NUMBER
                || self.declared.binary_search(&u.number).is_ok()
            {
                self.fail(EncodeErrorKind::UnknownFieldOrder);
            }
            let wire = wire_of(&u.value);
            let delta = u.number.wrapping_sub(self.prev).wrapping_sub(1);
            self.prev = u.number;
            n += varint_len(key_value(delta, wire)) + u.value.encoded_len();
        }
        n
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn rest_unknown(&mut self) -> usize {
        if self.unknown.is_empty() {
            0
        } else {
            self.unknown_below(u32::MAX)
        }
    }

    /// The content length of nested message `m` (without its length prefix), recorded in
    /// the table for the write pass. Refuses nesting deeper than the depth limit
    /// (SPEC §9.3).
    #[inline]
    pub fn nested<M: Encode>(&mut self, m: &'v M) -> usize {
        self.nested_with(
            || m.__unknown().as_slice(),
            super::message::field_numbers::<M>(),
            move |s, plain| Self::content_of(s, m, plain),
        )
    }

    /// [`nested`](Self::nested) for a message whose type is known only at run time, as
    /// [`top_with`](Self::top_with) describes: `content` sums the message's field calls,
    /// `unknown` gives its preserved unknown records. Neither is called when the message
    /// would be deeper than the depth limit.
    ///
    /// Why `unknown` is a function: asked for by the caller, before the table slot is
    /// taken (and in the write pass before the length prefix is written), the records'
    /// slice was kept in two more callee-saved registers across that call, in every
    /// nested message's frame: telemetry's encode (a nested message per map value) took
    /// 174,341 instructions against 171,844 asked for here (callgrind, `messages-profile`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn nested_with(
        &mut self,
        unknown: impl FnOnce() -> &'v [UnknownField],
        declared: &'v [u32],
        content: impl FnOnce(&mut Self, bool) -> usize,
    ) -> usize {
        let slot = self.table.reserve();
        if self.depth >= self.max_depth {
            self.fail(EncodeErrorKind::DepthLimitExceeded);
            return 0;
        }
        self.depth += 1;
        let prev = core::mem::replace(&mut self.prev, 0);
        let unknown = unknown();
        let n = if unknown.is_empty() && self.unknown.is_empty() {
            // Nothing to interleave at either level: no unknown state to save.
            content(self, true)
        } else {
            let outer_unknown = core::mem::replace(&mut self.unknown, unknown);
            let outer_declared = core::mem::replace(&mut self.declared, declared);
            let n = content(self, false) + self.rest_unknown();
            self.unknown = outer_unknown;
            self.declared = outer_declared;
            n
        };
        self.prev = prev;
        self.depth -= 1;
        self.table.set(slot, n);
        n
    }

    // ----- field shapes (SPEC §5, §6) -----
    //
    // Each shape comes twice, as the reader's do: by codec type (`implicit::<C>`, what
    // generated code calls) and by element value (`implicit_el`, what an encoder of
    // run-time types calls). The first is the second with the codec's zero-sized element.

    /// An implicit-presence field: nothing when it holds the default (SPEC §5.1).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn implicit_in<E: EncodeElement, const PLAIN: bool>(
        &mut self,
        number: u32,
        v: &'v E::Value,
        el: &E,
    ) -> usize {
        if el.is_default(v) {
            return 0;
        }
        self.key_in::<PLAIN>(number, el.wire()) + el.size(v, self)
    }

    /// An explicit-presence field: written whatever the value (SPEC §5.2); also proto2
    /// `required` fields and the set member of a oneof.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn explicit_in<E: EncodeElement, const PLAIN: bool>(
        &mut self,
        number: u32,
        v: &'v E::Value,
        el: &E,
    ) -> usize {
        self.key_in::<PLAIN>(number, el.wire()) + el.size(v, self)
    }

    /// An explicit-presence field held in an `Option`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn optional_in<E: EncodeElement, const PLAIN: bool>(
        &mut self,
        number: u32,
        v: Option<&'v E::Value>,
        el: &E,
    ) -> usize {
        match v {
            Some(v) => self.explicit_in::<E, PLAIN>(number, v, el),
            None => 0,
        }
    }

    /// A repeated field: one LEN record, nothing when empty (SPEC §6.1).
    #[inline]
    pub(super) fn repeated_in<E: EncodeElement, const PLAIN: bool>(
        &mut self,
        number: u32,
        vs: &'v [E::Value],
        el: &E,
    ) -> usize {
        if vs.is_empty() {
            return 0;
        }
        let key = self.key_in::<PLAIN>(number, WireType::Len);
        let len = match el.fixed() {
            Some(w) => w * vs.len(),
            None => {
                let slot = self.table.reserve();
                let n = el.size_run(vs, self);
                self.table.set(slot, n);
                n
            }
        };
        key + varint_len(len as u64) + len
    }

    /// A map: one LEN record of entries, nothing when empty (SPEC §6.3). `entries` are
    /// in ascending key order (SPEC §6.4).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn map_in<K: EncodeElement, V: EncodeElement, I, const PLAIN: bool>(
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
        if entries.is_empty() {
            return 0;
        }
        let key = self.key_in::<PLAIN>(number, WireType::Len);
        let slot = self.table.reserve();
        let mut n = 0;
        for (kv, vv) in entries.entries() {
            n += k.size(kv, self) + v.size(vv, self);
        }
        self.table.set(slot, n);
        key + varint_len(n as u64) + n
    }

    /// [`Pass::implicit`](super::Pass::implicit) by element.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn implicit_el<E: EncodeElement>(&mut self, number: u32, v: &'v E::Value, el: &E) -> usize {
        self.implicit_in::<E, false>(number, v, el)
    }

    /// [`Pass::explicit`](super::Pass::explicit) by element.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn explicit_el<E: EncodeElement>(&mut self, number: u32, v: &'v E::Value, el: &E) -> usize {
        self.explicit_in::<E, false>(number, v, el)
    }

    /// [`Pass::repeated`](super::Pass::repeated) by element.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn repeated_el<E: EncodeElement>(
        &mut self,
        number: u32,
        vs: &'v [E::Value],
        el: &E,
    ) -> usize {
        self.repeated_in::<E, false>(number, vs, el)
    }

    /// [`Pass::map`](super::Pass::map) by element: `entries` in ascending key order (SPEC §6.4),
    /// from any container.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn map_el<K: EncodeElement, V: EncodeElement, I>(
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

/// The size pass over a message without unknown records (`Sizer::plain`): the
/// [`Sizer`]'s field calls without the test for unknown records before each key.
pub struct Plain<'s, 'v, T: Table = SizeTable>(pub(super) &'s mut Sizer<'v, T>);

#[inline]
pub(super) fn wire_of(v: &UnknownValue) -> WireType {
    match v {
        UnknownValue::Varint(_) => WireType::Varint,
        UnknownValue::I64(_) => WireType::I64,
        UnknownValue::Len(_) => WireType::Len,
        UnknownValue::I32(_) => WireType::I32,
    }
}
