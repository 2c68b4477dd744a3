//! The two encoding passes generated code drives.
//!
//! Why two passes: a LEN record's length prefix comes before its content, and in a
//! nested tree each message's length depends on every message below it. Recomputing a
//! sub-message's size at every level (as a naive single pass does) costs O(depth) per
//! byte. Instead the [`Sizer`] walks the value once, computes every nested message's,
//! packed run's and map's length bottom-up and stores them in a table in pre-order; the
//! [`Writer`] then walks the value in the same order, reading each length from the table
//! when it writes the prefix. Both passes are linear, the output buffer is sized exactly
//! once, and the table is one vector of lengths, allocated only for a value that has
//! length-prefixed composites (room for [`FIRST_SIZES`](super::FIRST_SIZES) at first)
//! and, with `std`, kept by the thread for its next encode.
//! `encoded_len` walks the same way with no table ([`NoTable`](super::NoTable)). The size
//! pass lives in [`sizer`](super::sizer).
//!
//! Both passes track the previous field number of the current message so keys are
//! written as deltas (SPEC §4.1), and both re-emit preserved unknown fields in number
//! order among the known ones (SPEC §8.2).

use core::mem::MaybeUninit;

use super::codec::{EncodeElement, MapEntries};
use super::reader::{MAX_FIELD_NUMBER, WireType};
use super::sizer::{ONE_BYTE_KEYS, SizeTable, key_value, wire_of};
// The codecs name both passes' types through this module.
use super::message::Encode;
use super::pass::WalkKind;
pub(super) use super::sizer::{Sizer, Table};
use super::varint::{write_varint, write_varint_uninit};
use crate::error::{EncodeError, EncodeErrorKind};
use crate::unknown::{UnknownField, UnknownValue};

/// Copy `src` into all of `dst`, with 8 to 32 bytes copied inline as two overlapping
/// fixed-size moves instead of a `memcpy` call: short strings and bytes are the common
/// case. (Inline moves below 8 bytes too took GoogleMessage1's encode from 2,104 to 2,053
/// instructions but cas's from 177,819 to 180,354, for the longer chain of tests.) The lengths are equal at every call; were they not, `copy_from_slice` would
/// panic rather than leave a byte of `dst` unwritten (see [`Fill`]).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn copy_short(dst: &mut [MaybeUninit<u8>], src: &[u8]) {
    let n = src.len();
    if dst.len() != n {
        dst.copy_from_slice(as_uninit_ref(src));
    } else if (16..=32).contains(&n) {
        copy_two::<16>(dst, src);
    } else if (8..16).contains(&n) {
        copy_two::<8>(dst, src);
    } else {
        dst.copy_from_slice(as_uninit_ref(src));
    }
}

/// Copy `src` into `dst` (of equal length, `N` to `2 * N` bytes) as its first and last
/// `N` bytes, which overlap.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn copy_two<const N: usize>(dst: &mut [MaybeUninit<u8>], src: &[u8]) {
    if let (Some(d), Some(s)) = (dst.first_chunk_mut::<N>(), src.first_chunk::<N>()) {
        *d = s.map(MaybeUninit::new);
    }
    if let (Some(d), Some(s)) = (dst.last_chunk_mut::<N>(), src.last_chunk::<N>()) {
        *d = s.map(MaybeUninit::new);
    }
}

/// `b` seen as `MaybeUninit` bytes, so that it can be copied into the writer's buffer
/// with `copy_from_slice` (one `memcpy`).
///
/// Why: the writer's buffer is `[MaybeUninit<u8>]` (a `Vec`'s spare capacity is written
/// without zero-filling it first), and the safe alternative, a byte loop, took cas encode
/// from 222k to 240k instructions (`MaybeUninit`'s slice copy is newer than the crate's
/// minimum Rust version).
#[allow(unsafe_code)]
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn as_uninit_ref(b: &[u8]) -> &[MaybeUninit<u8>] {
    // SAFETY: `MaybeUninit<u8>` has the size and alignment of `u8` and admits every value
    // a `u8` does, so this is the same memory, same length, read-only (nothing can be
    // written through a shared reference).
    unsafe { &*(b as *const [u8] as *const [MaybeUninit<u8>]) }
}

/// Write the bijou64 `v` at `pos` in `out`, exactly its bytes and no more: the writer's
/// slow path within the last eight bytes of the buffer, and a frame's length prefix.
/// Returns the position after it, or `None` when it does not fit (nothing written).
///
/// Why a function of the buffer and not of the [`Writer`]: a call that is given the
/// writer makes the optimizer assume the writer's fields may change under any store to
/// the output, and reload them around every field of the message being written. The
/// value is encoded by the fast routine into a local array and its bytes copied, where
/// `bijou64::encode` took about 84 instructions.
#[inline(never)]
fn varint_near_end(out: &mut [MaybeUninit<u8>], pos: usize, v: u64) -> Option<usize> {
    // The common cases here, a key with a wide delta or a length a little over F7: two
    // bytes (tag F8, then `v − OFFSETS[1]`) or three (tag F9, then `v − OFFSETS[2]` in
    // two big-endian bytes), stored directly (SPEC §2.1).
    let tag = bijou64::FIRST_TIER_TAG;
    if let Some(p) = v.checked_sub(bijou64::OFFSETS[1])
        && p < 0x100
    {
        let d = out.get_mut(pos..)?.first_chunk_mut::<2>()?;
        *d = [tag, p as u8].map(MaybeUninit::new);
        return Some(pos + 2);
    }
    if let Some(p) = v.checked_sub(bijou64::OFFSETS[2])
        && p < 0x1_0000
    {
        let d = out.get_mut(pos..)?.first_chunk_mut::<3>()?;
        let [hi, lo] = (p as u16).to_be_bytes();
        *d = [tag + 1, hi, lo].map(MaybeUninit::new);
        return Some(pos + 3);
    }
    let mut e = [0u8; bijou64::MAX_LEN];
    let n = write_varint(v, &mut e);
    let dst = out.get_mut(pos..pos.checked_add(n)?)?;
    let src = e.get(..n)?;
    // Two to nine bytes (the value is multi-byte), as two overlapping moves: no
    // `memcpy` call.
    match n {
        8.. => copy_two::<8>(dst, src),
        4.. => copy_two::<4>(dst, src),
        2.. => copy_two::<2>(dst, src),
        _ => dst.copy_from_slice(as_uninit_ref(src)),
    }
    Some(pos + n)
}

/// Where a spilling [`Writer`] hands each chunk it has filled, in order.
pub(crate) trait Spill {
    /// Take the next `bytes` of the encoding.
    fn spill(&mut self, bytes: &[u8]);
}

/// `b`, a prefix of the writer's output before its cursor, as the bytes written there.
///
/// Why: a spilling writer hands the bytes it wrote to a sink without zero-filling its
/// chunk first (the point of encoding into a sink is not to touch memory twice).
#[allow(unsafe_code)]
pub(super) fn written(b: &[MaybeUninit<u8>]) -> &[u8] {
    // SAFETY: `b` is `out[..pos]`: every write stores bytes at the cursor and only then
    // moves the cursor past them, and a spill resets the cursor to 0, so each of the
    // `pos` bytes before it has been stored since (the invariant `Fill` states). They
    // are initialized, and `MaybeUninit<u8>` has `u8`'s size and alignment.
    unsafe { &*(b as *const [MaybeUninit<u8>] as *const [u8]) }
}

pub(super) mod sealed {
    /// Only this crate implements [`Fill`](super::Fill) and [`FillFront`](super::FillFront).
    #[allow(unreachable_pub)]
    pub trait Sealed {}
}

/// Writes an encoding into a region of a [`BufMut`](crate::BufMut); implemented only by
/// the encoder (sealed), which buffers call from [`BufMut::__put`](crate::BufMut::__put).
///
/// The contract a buffer may rely on: `fill` returns `Ok` only after it has written
/// every byte of `out`, so `out` may start uninitialized (a `Vec`'s spare capacity) and is
/// initialized afterwards. `fill` never writes an uninitialized byte, so an initialized
/// region stays initialized whatever it returns.
pub trait Fill: sealed::Sealed {
    /// Write the encoding into `out`, which must be exactly its length.
    fn fill(&mut self, out: &mut [MaybeUninit<u8>]) -> Result<(), EncodeError>;
}

/// One encode: the value, its size pass, and the frame's length prefix (if any).
pub(crate) struct Encoding<'s, 'v, M> {
    m: &'v M,
    sizer: &'s Sizer<'v>,
    /// The content's length, written first as a bijou64 when `framed` (SPEC §9.2).
    len: usize,
    framed: bool,
}

impl<'s, 'v, M: Encode> Encoding<'s, 'v, M> {
    pub(crate) fn new(m: &'v M, sizer: &'s Sizer<'v>, len: usize, framed: bool) -> Self {
        Encoding {
            m,
            sizer,
            len,
            framed,
        }
    }
}

impl<M> sealed::Sealed for Encoding<'_, '_, M> {}

impl<M: Encode> Fill for Encoding<'_, '_, M> {
    fn fill(&mut self, out: &mut [MaybeUninit<u8>]) -> Result<(), EncodeError> {
        let body = if self.framed {
            // The prefix is written completely or this is an error, and the body is
            // written by the writer, which fails unless its cursor ends at the end of
            // `body`: every byte of `out` is written when this returns `Ok`.
            let n = varint_near_end(out, 0, self.len as u64)
                .ok_or(EncodeError::new(EncodeErrorKind::SizeMismatch, 0))?;
            out.get_mut(n..).unwrap_or_default()
        } else {
            // Nothing before the body (an empty prefix would cost a `memcpy` call).
            out
        };
        Writer::new(body, self.sizer).top(self.m)
    }
}

/// One encode of a message whose type is known only at run time: the size pass that
/// [`encode_with`](super::encode_with) ran, and the write pass's field calls.
pub(crate) struct EncodingWith<'s, 'v, F> {
    sizer: &'s Sizer<'v>,
    unknown: &'v [UnknownField],
    write: Option<F>,
}

impl<'s, 'v, F> EncodingWith<'s, 'v, F> {
    pub(crate) fn new(sizer: &'s Sizer<'v>, unknown: &'v [UnknownField], write: F) -> Self {
        EncodingWith {
            sizer,
            unknown,
            write: Some(write),
        }
    }
}

impl<F> sealed::Sealed for EncodingWith<'_, '_, F> {}

impl<'v, F: for<'o> FnOnce(&mut Writer<'o, 'v>, bool)> Fill for EncodingWith<'_, 'v, F> {
    fn fill(&mut self, out: &mut [MaybeUninit<u8>]) -> Result<(), EncodeError> {
        // A buffer fills once; a second call has nothing left to write with.
        let write = self
            .write
            .take()
            .ok_or(EncodeError::new(EncodeErrorKind::SizeMismatch, 0))?;
        Writer::new(out, self.sizer).top_with(self.unknown, write)
    }
}

/// An encoding already written (by the one pass, into a frame), copied into a buffer's
/// region of its exact length.
pub(crate) struct Copied<'b>(pub(crate) &'b [u8]);

impl sealed::Sealed for Copied<'_> {}

impl Fill for Copied<'_> {
    fn fill(&mut self, out: &mut [MaybeUninit<u8>]) -> Result<(), EncodeError> {
        if out.len() != self.0.len() {
            return Err(EncodeError::new(EncodeErrorKind::SizeMismatch, 0));
        }
        out.copy_from_slice(as_uninit_ref(self.0));
        Ok(())
    }
}

/// Writes an encoding of a length not known in advance at the front of a buffer's spare
/// room (the one pass, the `direct` module); implemented only by the encoder
/// (sealed), which a `Vec` calls from `BufMut::__put_front`.
///
/// The contract a buffer may rely on: `fill_front` returns `Ok(n)` only with
/// `n <= out.len()` and after it has written each of the first `n` bytes of `out`, so
/// `out` may be uninitialized memory (a `Vec`'s spare capacity) of which those `n` are
/// initialized afterwards. It never writes an uninitialized byte.
pub trait FillFront: sealed::Sealed {
    /// Write the encoding at the front of `out`; its length. An error leaves nothing to
    /// use (the caller learns from the encoder whether to encode another way).
    fn fill_front(&mut self, out: &mut [MaybeUninit<u8>]) -> Result<usize, EncodeError>;
}

/// The write pass: writes into a buffer of exactly the size the [`Sizer`] computed.
///
/// Every write stores bytes at the cursor and moves the cursor past them, so when the
/// cursor has reached the end of `out` without an overrun, every byte of `out` has been
/// written: the buffer may be uninitialized memory to begin with (see [`Fill`]).
pub struct Writer<'o, 'v> {
    out: &'o mut [MaybeUninit<u8>],
    pos: usize,
    table: &'o SizeTable,
    slot: usize,
    prev: u32,
    unknown: &'v [UnknownField],
    overrun: bool,
    /// A field number was not above the previous one (or out of range): see
    /// [`key_in`](Self::key_in).
    disorder: bool,
    /// Where a full `out` is handed when encoding in pieces ([`Spill`]); `None` when
    /// `out` is the whole encoding. Only the writes' slow paths (no room left) look.
    spill: Option<&'o mut dyn Spill>,
    /// The one-pass writer gave up for a reason other than room (see
    /// [`give_up`](Self::give_up)): more room would not help.
    refused: bool,
}

impl<'o, 'v> Writer<'o, 'v> {
    pub(crate) fn new(out: &'o mut [MaybeUninit<u8>], sizer: &'o Sizer<'_>) -> Self {
        Writer {
            out,
            pos: 0,
            table: sizer.table(),
            slot: 0,
            prev: 0,
            unknown: &[],
            overrun: false,
            disorder: false,
            spill: None,
            refused: false,
        }
    }

    /// A writer into `out`, a chunk that is handed to `spill` whenever a write finds no
    /// room in it, and then written again from its start. The caller hands over the last
    /// `pos` bytes after [`top`](Self::top) with [`spill_out`](Self::spill_out).
    pub(crate) fn new_spilling(
        out: &'o mut [MaybeUninit<u8>],
        sizer: &'o Sizer<'_>,
        spill: &'o mut dyn Spill,
    ) -> Self {
        let mut w = Self::new(out, sizer);
        w.spill = Some(spill);
        w
    }

    /// Hand the bytes written so far to the spill and start the chunk over; `false`
    /// (nothing done) for a writer without one, whose output is simply full.
    #[cold]
    #[inline(never)]
    pub(crate) fn spill_out(&mut self) -> bool {
        let Some(s) = self.spill.as_mut() else {
            return false;
        };
        if self.pos > 0 {
            s.spill(written(self.out.get(..self.pos).unwrap_or_default()));
        }
        self.pos = 0;
        true
    }

    /// [`bytes`](Self::bytes) with no room left: fill the chunk with the head of `b`,
    /// spill it, hand whole chunks' worth of what follows to the spill straight from `b`
    /// (a long string or blob is not copied), and start the next chunk with the rest.
    ///
    /// Why every piece is a whole chunk: a hasher is fastest on long pieces aligned to
    /// its own blocks (BLAKE3 hashes eight or sixteen 1 KiB chunks at once only when an
    /// update hands it that many whole ones); chunks cut short where a write did not
    /// fit made BLAKE3 through a sink 1.46 times slower than hashing a `Vec` on telemetry.
    #[cold]
    #[inline(never)]
    fn bytes_slow(&mut self, b: &[u8]) {
        if self.spill.is_none() || self.out.is_empty() {
            self.overrun = true;
            return;
        }
        let room = self.out.len().saturating_sub(self.pos);
        let (head, rest) = b.split_at(room.min(b.len()));
        if let Some(dst) = self.out.get_mut(self.pos..self.pos + head.len()) {
            dst.copy_from_slice(as_uninit_ref(head));
            self.pos += head.len();
        }
        self.spill_out();
        let whole = rest.len() - rest.len() % self.out.len();
        let (direct, tail) = rest.split_at(whole);
        if let (Some(s), false) = (self.spill.as_mut(), direct.is_empty()) {
            s.spill(direct);
        }
        if let Some(dst) = self.out.get_mut(..tail.len()) {
            dst.copy_from_slice(as_uninit_ref(tail));
            self.pos = tail.len();
        }
    }

    /// [`byte`](Self::byte) with no room left.
    #[cold]
    #[inline(never)]
    fn byte_slow(&mut self, b: u8) {
        match self.spill_out().then(|| self.out.first_mut()).flatten() {
            Some(x) => {
                *x = MaybeUninit::new(b);
                self.pos = 1;
            }
            None => self.overrun = true,
        }
    }

    /// Write `m`'s fields: the plain body when it has no unknown records.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn write_of<M: Encode>(w: &mut Self, m: &'v M, plain: bool) {
        match M::WALK {
            WalkKind::Plain if plain => m.__walk(&mut w.plain()),
            WalkKind::Local if plain => m.__walk(&mut w.plain_local()),
            _ => m.__walk(w),
        };
    }

    /// Write a whole top-level message.
    pub(crate) fn top<M: Encode>(&mut self, m: &'v M) -> Result<(), EncodeError> {
        self.top_with(m.__unknown().as_slice(), move |w, plain| {
            Self::write_of(w, m, plain)
        })
    }

    /// [`top`](Self::top) for a message whose type is known only at run time: `write`
    /// makes the field calls its size pass made ([`Sizer::top_with`]), with the same
    /// flag; `unknown` are its preserved unknown records.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn top_with(
        &mut self,
        unknown: &'v [UnknownField],
        write: impl FnOnce(&mut Self, bool),
    ) -> Result<(), EncodeError> {
        self.unknown = unknown;
        let len = self.out.len();
        if self.unknown.is_empty() {
            write(self, true);
        } else {
            write(self, false);
            self.rest_unknown();
        }
        if self.disorder {
            return Err(EncodeError::new(EncodeErrorKind::FieldOrder, 0));
        }
        // The output must be the one this writer started with: a `LocalWriter` takes it
        // and gives it back when dropped, and one that is forgotten (safe code may do
        // that) leaves this writer an empty output and a cursor that says nothing about
        // the bytes written through it.
        // A spilling writer's cursor is within its current chunk: its caller counts.
        let whole = self.spill.is_none();
        if self.overrun || (whole && self.pos != len) || self.out.len() != len {
            return Err(EncodeError::new(EncodeErrorKind::SizeMismatch, 0));
        }
        Ok(())
    }

    /// Write raw bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        let end = self.pos + b.len();
        match self.out.get_mut(self.pos..end) {
            Some(dst) => {
                copy_short(dst, b);
                self.pos = end;
            }
            None => self.bytes_slow(b),
        }
    }

    /// Write a fixed-width value's bytes (SPEC §3.4).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn fixed<const N: usize>(&mut self, b: [u8; N]) {
        self.bytes(&b);
    }

    /// Write a bijou64 length, then `b` (a string's or bytes' element, SPEC §7).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn len_bytes(&mut self, b: &[u8]) {
        let n = b.len();
        // A length below F8 is its own one-byte bijou64 (SPEC §2.1): the prefix and the
        // bytes go into one region, checked once.
        if n < bijou64::FIRST_TIER_TAG as usize
            && let Some((first, rest)) = self
                .out
                .get_mut(self.pos..self.pos + 1 + n)
                .and_then(|r| r.split_first_mut())
        {
            *first = MaybeUninit::new(n as u8);
            copy_short(rest, b);
            self.pos += 1 + n;
            return;
        }
        self.varint(n as u64);
        self.bytes(b);
    }

    /// Write one bijou64.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn varint(&mut self, v: u64) {
        if v < bijou64::FIRST_TIER_TAG as u64 {
            self.byte(v as u8);
            return;
        }
        // A multi-byte value with nine bytes of room: one tag store and one 8-byte store,
        // inline because multi-byte lengths and ids are common in real data.
        if let Some(w) = self
            .out
            .get_mut(self.pos..)
            .and_then(|r| r.first_chunk_mut::<{ bijou64::MAX_LEN }>())
        {
            self.pos += write_varint_uninit(v, w);
            return;
        }
        self.varint_tail(v);
    }

    /// Write `enc(v)` for each of `vs` as bijou64s: the run's elements (a packed varint
    /// run's content). The cursor stays in a register while nine bytes of room remain.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn varint_run<T>(&mut self, vs: &[T], enc: impl Fn(&T) -> u64) {
        let mut i = 0;
        let mut pos = self.pos;
        while let Some(v) = vs.get(i) {
            let Some(w) = self
                .out
                .get_mut(pos..)
                .and_then(|r| r.first_chunk_mut::<{ bijou64::MAX_LEN }>())
            else {
                break;
            };
            pos += write_varint_uninit(enc(v), w);
            i += 1;
        }
        self.pos = pos;
        for v in vs.get(i..).unwrap_or_default() {
            self.varint(enc(v));
        }
    }

    /// Write `enc(v)` for each of `vs`: a fixed-width run's words, into one region of the
    /// buffer checked once (the cursor is stored once, not per word).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn fixed_run<T, const N: usize>(&mut self, vs: &[T], enc: impl Fn(&T) -> [u8; N]) {
        let end = self.pos.saturating_add(N.saturating_mul(vs.len()));
        match self.out.get_mut(self.pos..end) {
            Some(dst) => {
                for (d, v) in dst.as_chunks_mut::<N>().0.iter_mut().zip(vs) {
                    *d = enc(v).map(MaybeUninit::new);
                }
                self.pos = end;
            }
            // No room for the whole run: word by word, spilling where the chunk fills.
            None => {
                for v in vs {
                    self.bytes(&enc(v));
                }
            }
        }
    }

    /// A multi-byte value within the last eight bytes of the buffer.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn varint_tail(&mut self, v: u64) {
        match varint_near_end(self.out, self.pos, v) {
            Some(end) => self.pos = end,
            None => self.varint_slow(v),
        }
    }

    /// [`varint_tail`](Self::varint_tail) with no room left.
    #[cold]
    #[inline(never)]
    fn varint_slow(&mut self, v: u64) {
        let mut e = [0u8; bijou64::MAX_LEN];
        let n = write_varint(v, &mut e);
        // Split at the chunk's end like any bytes (see `bytes_slow`).
        self.bytes_slow(e.get(..n).unwrap_or_default());
    }

    /// Write the key of field `number` (SPEC §4.1), after any preserved unknown records
    /// numbered below it; with `PLAIN` the message has no unknown records, so there is
    /// nothing to interleave and no test for it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn key_in<const PLAIN: bool>(&mut self, number: u32, wire: WireType) {
        if !PLAIN
            && let Some(u) = self.unknown.first()
            && u.number < number
        {
            self.unknown_below(number);
        }
        // SPEC §4.1, §4.3: the size pass refuses a number not above the previous one, but
        // a hand-written `Message` may write in another order than it sized. Not checked
        // on the `PLAIN` path, as in the size pass.
        if !PLAIN && (number <= self.prev || number > MAX_FIELD_NUMBER) {
            self.disorder = true;
        }
        let delta = number.wrapping_sub(self.prev).wrapping_sub(1);
        self.prev = number;
        if number <= ONE_BYTE_KEYS {
            self.byte(key_value(delta, wire) as u8);
        } else {
            self.varint(key_value(delta, wire));
        }
    }

    /// Write one byte.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn byte(&mut self, b: u8) {
        match self.out.get_mut(self.pos) {
            Some(x) => {
                *x = MaybeUninit::new(b);
                self.pos += 1;
            }
            None => self.byte_slow(b),
        }
    }

    #[cold]
    fn unknown_below(&mut self, number: u32) {
        while let Some((u, rest)) = self.unknown.split_first() {
            if u.number >= number {
                break;
            }
            self.unknown = rest;
            let delta = u.number.wrapping_sub(self.prev).wrapping_sub(1);
            self.prev = u.number;
            self.varint(key_value(delta, wire_of(&u.value)));
            match &u.value {
                UnknownValue::Varint(v) => self.varint(*v),
                UnknownValue::I64(v) => self.bytes(&v.to_be_bytes()),
                UnknownValue::I32(v) => self.bytes(&v.to_be_bytes()),
                UnknownValue::Len(b) => {
                    self.varint(b.len() as u64);
                    self.bytes(b);
                }
            }
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn rest_unknown(&mut self) {
        if !self.unknown.is_empty() {
            self.unknown_below(u32::MAX);
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_size(&mut self) -> usize {
        let n = self.table.get(self.slot);
        self.slot += 1;
        n
    }

    /// Write nested message `m` as length prefix + content, the length taken from the
    /// size table.
    #[inline]
    pub fn nested<M: Encode>(&mut self, m: &'v M) {
        self.nested_with(
            || m.__unknown().as_slice(),
            move |w, plain| Self::write_of(w, m, plain),
        )
    }

    /// [`nested`](Self::nested) for a message whose type is known only at run time:
    /// `write` makes the field calls its [`Sizer::nested_with`] content made, with the
    /// same flag; `unknown` gives its preserved unknown records (a function, asked after
    /// the length prefix is written, for the reason given at [`Sizer::nested_with`]).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn nested_with(
        &mut self,
        unknown: impl FnOnce() -> &'v [UnknownField],
        write: impl FnOnce(&mut Self, bool),
    ) {
        let n = self.next_size();
        self.varint(n as u64);
        let prev = core::mem::replace(&mut self.prev, 0);
        let unknown = unknown();
        if unknown.is_empty() && self.unknown.is_empty() {
            write(self, true);
        } else {
            let outer_unknown = core::mem::replace(&mut self.unknown, unknown);
            write(self, false);
            self.rest_unknown();
            self.unknown = outer_unknown;
        }
        self.prev = prev;
    }

    // ----- field shapes (SPEC §5, §6): by codec type and by element value, as in the
    // size pass -----

    /// An implicit-presence field: nothing when it holds the default (SPEC §5.1).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn implicit_in<E: EncodeElement, const PLAIN: bool>(
        &mut self,
        number: u32,
        v: &'v E::Value,
        el: &E,
    ) {
        if !el.is_default(v) {
            self.key_in::<PLAIN>(number, el.wire());
            el.write(v, self);
        }
    }

    /// An explicit-presence field, written whatever the value (SPEC §5.2).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn explicit_in<E: EncodeElement, const PLAIN: bool>(
        &mut self,
        number: u32,
        v: &'v E::Value,
        el: &E,
    ) {
        self.key_in::<PLAIN>(number, el.wire());
        el.write(v, self);
    }

    /// An explicit-presence field held in an `Option`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn optional_in<E: EncodeElement, const PLAIN: bool>(
        &mut self,
        number: u32,
        v: Option<&'v E::Value>,
        el: &E,
    ) {
        if let Some(v) = v {
            self.explicit_in::<E, PLAIN>(number, v, el);
        }
    }

    /// A repeated field: one LEN record, nothing when empty (SPEC §6.1).
    #[inline]
    pub(super) fn repeated_in<E: EncodeElement, const PLAIN: bool>(
        &mut self,
        number: u32,
        vs: &'v [E::Value],
        el: &E,
    ) {
        if vs.is_empty() {
            return;
        }
        self.key_in::<PLAIN>(number, WireType::Len);
        let len = match el.fixed() {
            Some(w) => w * vs.len(),
            None => self.next_size(),
        };
        self.varint(len as u64);
        el.write_run(vs, self);
    }

    /// A map: entries in ascending key order, as given (SPEC §6.4).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn map_in<K: EncodeElement, V: EncodeElement, I, const PLAIN: bool>(
        &mut self,
        number: u32,
        entries: I,
        k: &K,
        v: &V,
    ) where
        K::Value: 'v,
        V::Value: 'v,
        I: MapEntries<'v, K::Value, V::Value>,
    {
        if entries.is_empty() {
            return;
        }
        self.key_in::<PLAIN>(number, WireType::Len);
        let n = self.next_size();
        self.varint(n as u64);
        for (kv, vv) in entries.entries() {
            k.write(kv, self);
            v.write(vv, self);
        }
    }

    /// [`Pass::implicit`](super::Pass::implicit) by element.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn implicit_el<E: EncodeElement>(&mut self, number: u32, v: &'v E::Value, el: &E) {
        self.implicit_in::<E, false>(number, v, el);
    }

    /// [`Pass::explicit`](super::Pass::explicit) by element.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn explicit_el<E: EncodeElement>(&mut self, number: u32, v: &'v E::Value, el: &E) {
        self.explicit_in::<E, false>(number, v, el);
    }

    /// [`Pass::repeated`](super::Pass::repeated) by element.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn repeated_el<E: EncodeElement>(&mut self, number: u32, vs: &'v [E::Value], el: &E) {
        self.repeated_in::<E, false>(number, vs, el);
    }

    /// [`Pass::map`](super::Pass::map) by element: `entries` in ascending key order (SPEC §6.4), the
    /// same entries [`Sizer::map_el`] was given.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn map_el<K: EncodeElement, V: EncodeElement, I>(
        &mut self,
        number: u32,
        entries: I,
        k: &K,
        v: &V,
    ) where
        K::Value: 'v,
        V::Value: 'v,
        I: MapEntries<'v, K::Value, V::Value>,
    {
        self.map_in::<K, V, I, false>(number, entries, k, v);
    }

    /// This pass for a message without unknown records: the same field calls, with no
    /// unknown records to interleave between them. Only for types whose walk is not
    /// [`WalkKind::Checked`]: these calls do not check that field numbers ascend
    /// (generated code fixes the order when it is generated).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn plain(&mut self) -> PlainWriter<'_, 'o, 'v> {
        PlainWriter(self)
    }

    /// [`plain`](Self::plain) through a copy of this writer's state, given back when
    /// the [`LocalWriter`] is dropped: for a message with many scalar fields (see
    /// [`LocalWriter`] for why and when).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn plain_local(&mut self) -> LocalWriter<'_, 'o, 'v> {
        let w = self.detach();
        LocalWriter { outer: self, w }
    }

    /// A writer with this one's state and its output, which this one keeps an empty
    /// output until [`attach`](Self::attach) gives it back.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn detach(&mut self) -> Self {
        Writer {
            out: core::mem::take(&mut self.out),
            pos: self.pos,
            table: self.table,
            slot: self.slot,
            prev: self.prev,
            unknown: self.unknown,
            overrun: self.overrun,
            disorder: self.disorder,
            spill: self.spill.take(),
            refused: self.refused,
        }
    }

    /// Take back the output and the state of `w`, made by [`detach`](Self::detach)
    /// (the unknown records are this writer's, which the plain calls do not move).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn attach(&mut self, w: &mut Self) {
        self.out = core::mem::take(&mut w.out);
        self.pos = w.pos;
        self.slot = w.slot;
        self.prev = w.prev;
        self.overrun = w.overrun;
        self.disorder = w.disorder;
        self.spill = w.spill.take();
        self.refused = w.refused;
    }
}

/// What the one-pass writer of a bounded frame ([`direct`](super::direct)) needs of a
/// [`Writer`]: a length prefix written after its content, and the writer's state.
impl<'o, 'v> Writer<'o, 'v> {
    /// Reserve one byte for the length prefix of what follows; its position, for
    /// [`close_len`](Self::close_len).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn open_len(&mut self) -> usize {
        let at = self.pos;
        self.byte(0);
        at
    }

    /// Write at `at` (from [`open_len`](Self::open_len)) the bijou64 length of what was
    /// written after it. A length past one byte moves the content right to make room:
    /// only content of 248 bytes or more moves, by one or two bytes (SPEC §2.1).
    #[inline]
    pub(super) fn close_len(&mut self, at: usize) {
        if self.overrun {
            return;
        }
        let body = at + 1;
        let n = self.pos - body;
        if n < bijou64::FIRST_TIER_TAG as usize {
            if let Some(x) = self.out.get_mut(at) {
                *x = MaybeUninit::new(n as u8);
            }
            return;
        }
        self.close_wide(at, n);
    }

    /// [`close_len`](Self::close_len) of a length of two bytes or more.
    #[inline(never)]
    fn close_wide(&mut self, at: usize, n: usize) {
        let body = at + 1;
        let extra = super::varint::varint_len(n as u64) - 1;
        let end = self.pos + extra;
        if end > self.out.len() {
            self.overrun = true;
            return;
        }
        self.out.copy_within(body..self.pos, body + extra);
        match varint_near_end(self.out, at, n as u64) {
            Some(p) if p == body + extra => self.pos = end,
            _ => self.overrun = true,
        }
    }

    /// Start a nested message: the previous field number, to give back to
    /// [`leave`](Self::leave).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn enter(&mut self) -> u32 {
        core::mem::replace(&mut self.prev, 0)
    }

    /// End a nested message begun by [`enter`](Self::enter).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn leave(&mut self, prev: u32) {
        self.prev = prev;
    }

    /// Give up for a reason more room would not change: the output is not to be used
    /// (as when it overruns), and the caller must encode with the two passes.
    #[cold]
    pub(super) fn give_up(&mut self) {
        self.overrun = true;
        self.refused = true;
    }

    /// The current length of the output.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    /// True once the output is not to be used: the rest of the walk need write nothing.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn given_up(&self) -> bool {
        self.overrun
    }

    /// The length written, if the output may be used: nothing overran or was given up,
    /// every key ascended, and no length was read from the size table (a write that
    /// needed one, such as a message written through a codec's `write`, had none).
    pub(super) fn finished(&self) -> Option<usize> {
        (!self.overrun && !self.refused() && self.spill.is_none()).then_some(self.pos)
    }

    /// True when the output is not to be used for a reason other than room: the pass
    /// [gave up](Self::give_up), a key did not ascend, or a write asked the size table
    /// for a length.
    pub(super) fn refused(&self) -> bool {
        self.refused || self.disorder || self.slot != 0
    }
}

/// The write pass over a message without unknown records (`Writer::plain`): the
/// [`Writer`]'s field calls without the test for unknown records before each key.
pub struct PlainWriter<'w, 'o, 'v>(pub(super) &'w mut Writer<'o, 'v>);

/// [`PlainWriter`] through a copy of the writer's state (`Writer::plain_local`): the
/// same field calls, for a message with many scalar fields.
///
/// It writes through a copy of the writer's state (cursor, previous field number, output)
/// that lives in the generated function's own frame and is never handed to a call that
/// may not be inlined, so the optimizer keeps it in registers. Through the caller's
/// `&mut Writer` it reloaded and stored the cursor around every field, since a store to
/// the output might, for all it could tell, change the writer. Fields that open a
/// message, and runs and maps (whose element loops are not always inlined), are written
/// through the caller's writer, with the state handed back before and taken again after.
///
/// The copy and its return cost about 20 instructions per message, and as much again per
/// field written through the caller's writer, where each scalar field saves a few: on
/// GoogleMessage1 (proto3 2,080 → 2,041 instructions per encode, proto2 2,431 → 2,346)
/// and the wide dataset (−5 %) it pays; for every message of telemetry and cas it cost
/// 5–7 %. Generated code uses it for a message with at least 8 + 8·c singular scalar
/// fields, where c counts its message, repeated and map fields.
pub struct LocalWriter<'w, 'o, 'v> {
    outer: &'w mut Writer<'o, 'v>,
    pub(super) w: Writer<'o, 'v>,
}

impl Drop for LocalWriter<'_, '_, '_> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn drop(&mut self) {
        self.outer.attach(&mut self.w);
    }
}

impl<'o, 'v> LocalWriter<'_, 'o, 'v> {
    /// Run `f` on the caller's writer, with the state handed back for it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn outside(&mut self, f: impl FnOnce(&mut Writer<'o, 'v>)) {
        self.outer.attach(&mut self.w);
        f(self.outer);
        self.w = self.outer.detach();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slow path against `bijou64::encode`: every tier's edges, at every position
    /// where the value just fits and where it does not.
    #[test]
    fn varint_near_end_writes_what_bijou64_does_or_nothing() {
        let mut values = alloc::vec![0, 1, 247, 248, 249, 300, 503, 504, 505, u64::MAX];
        for &o in &bijou64::OFFSETS[1..] {
            values.extend([o - 1, o, o + 1]);
        }
        for v in values {
            let want = bijou64::encode(v);
            let want = want.as_slice();
            for room in 0..=bijou64::MAX_LEN + 1 {
                let mut out = [MaybeUninit::new(0xAAu8); 3 + bijou64::MAX_LEN + 1];
                let got = varint_near_end(&mut out[..3 + room], 3, v);
                if room < want.len() {
                    assert_eq!(got, None, "{v} in {room} bytes");
                    assert!(out.iter().all(|b| byte_of(b) == 0xAA), "{v}");
                } else {
                    assert_eq!(got, Some(3 + want.len()), "{v} in {room} bytes");
                    let written: alloc::vec::Vec<u8> =
                        out[3..3 + want.len()].iter().map(byte_of).collect();
                    assert_eq!(written, want, "{v} in {room} bytes");
                }
            }
        }
    }

    /// A byte of a buffer the test initialized whole.
    #[allow(unsafe_code)]
    fn byte_of(b: &MaybeUninit<u8>) -> u8 {
        // SAFETY: every byte of the test's buffers is initialized (0xAA) when the buffer
        // is made, and the writer stores only initialized bytes.
        unsafe { b.assume_init() }
    }
}
