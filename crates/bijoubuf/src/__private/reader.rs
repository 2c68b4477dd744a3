//! The decoding cursor generated code drives.
//!
//! Generated `__decode` asks for its known fields once each, in ascending field number,
//! with straight-line calls (`implicit`, `optional`, `repeated`, `map`, `oneof`, …) and
//! ends with [`Reader::finish`]. The reader holds one record of lookahead: a request for
//! field `n` first disposes of every record numbered below `n` (those are unknown, since
//! the known ones below `n` were requested already), then answers "absent" or hands over
//! the record. Delta keys make the numbers strictly ascending (SPEC §4.1), so this single
//! forward pass sees every violation in byte order.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

mod dispatch;
pub(super) mod table;

use super::codec::{
    Element, KeyElement, MapKey, Of, ReadCodec, f32_exponent_ones, f64_exponent_ones,
};
use super::message::Decode;
use crate::error::{DecodeError, ErrorKind, FieldName, PathSegment};
use crate::options::{DecodeOptions, UnknownFieldPolicy};
use crate::unknown::{UnknownField, UnknownFields, UnknownValue};

/// The largest field number (SPEC §4.3).
pub const MAX_FIELD_NUMBER: u32 = (1 << 29) - 1;

/// Wire types (SPEC §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum WireType {
    /// One bijou64.
    Varint = 0,
    /// Eight big-endian bytes.
    I64 = 1,
    /// bijou64 length, then that many bytes.
    Len = 2,
    /// Four big-endian bytes.
    I32 = 3,
}

/// A decoded vector keeps at most this many slots per element; more is given back.
const SLACK: usize = 2;

/// No record loaded in the lookahead (field numbers start at 1).
const NONE: u32 = 0;

/// The lookahead found the end of the current message: above every field number, so
/// every later question is answered "absent" by one comparison.
const END: u32 = u32::MAX;

/// A cursor over one decode: the whole input (offsets are absolute), the current
/// message's bounds, the lookahead key, and the per-decode limits.
pub struct Reader<'a> {
    buf: &'a [u8],
    /// The input up to the end of the current message's content (or of the current
    /// run): its length is the bound, so one bounds check both stays inside the message
    /// and reads the byte.
    cur: &'a [u8],
    pos: usize,
    /// Number of the last record whose key was read in the current message.
    prev: u32,
    /// Lookahead: the number of the record whose key was read but not yet handed out.
    next: u32,
    next_wire: u8,
    /// Offset of the last key read (the lookahead's, or the record being read).
    key_pos: usize,
    depth: u32,
    max_depth: u32,
    /// The caller asked to preserve unknown fields.
    preserve: bool,
    /// Unknown records of the current message are kept: `preserve`, and the message type
    /// has somewhere to keep them ([`Message::KEEPS_UNKNOWN_FIELDS`](crate::Message::KEEPS_UNKNOWN_FIELDS)).
    keep: bool,
    unknown: UnknownFields,
    unknown_count: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `buf[start..end]` as the top-level message (depth 1); `end` is at
    /// most `buf.len()`.
    pub(crate) fn new(buf: &'a [u8], start: usize, end: usize, opts: &DecodeOptions) -> Self {
        Reader {
            buf,
            cur: buf.get(..end).unwrap_or(buf),
            pos: start,
            prev: 0,
            next: NONE,
            next_wire: 0,
            key_pos: start,
            depth: 1,
            max_depth: opts.max_depth,
            preserve: opts.unknown == UnknownFieldPolicy::Preserve,
            keep: false,
            unknown: UnknownFields::new(),
            unknown_count: 0,
        }
    }

    pub(crate) fn unknown_count(&self) -> usize {
        self.unknown_count
    }

    /// The offset of the next unread byte.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The offset of the key of the record most recently handed out.
    #[inline]
    pub fn key_position(&self) -> usize {
        self.key_pos
    }

    /// True when the current message or run has no bytes left.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.pos >= self.end()
    }

    /// The number of bytes left in the current message or run.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.end().saturating_sub(self.pos)
    }

    /// The end of the current message's content or run.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end(&self) -> usize {
        self.cur.len()
    }

    /// Make `end` the current bound; the caller has checked `end <= self.end()` (a
    /// length read with [`length`](Self::length)), so the bound only ever shrinks here.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn bound(&mut self, end: usize) {
        self.cur = self.cur.get(..end).unwrap_or(self.cur);
    }

    // ----- raw element reads (SPEC §3, §7) -----

    /// Read one bijou64 (SPEC §2): the one-byte case inline, a longer value through the
    /// one out-of-line copy of the multi-byte read ([`varint_wide`](Self::varint_wide)).
    ///
    /// Small enough to inline into every field read. With the nine-byte window path
    /// inlined too, the scalar codecs' reads (`Int32::read`, `Bool::read`, …) stayed out
    /// of line, one call per field, and every length and unknown record carried a copy
    /// of the window path (the OTLP decoders 6 % larger in machine code,
    /// benches/RESULTS.md).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn varint(&mut self) -> Result<u64, DecodeError> {
        let at = self.pos;
        // A one-byte value (most keys, lengths and small numbers): one bounds check.
        if let Some(&tag) = self.cur.get(at)
            && tag < bijou64::FIRST_TIER_TAG
        {
            self.pos = at + 1;
            return Ok(tag as u64);
        }
        self.varint_wide(at)
    }

    /// A bijou64 of two bytes or more at `at`: a key after a gap of 62 numbers or more,
    /// or any value read by [`varint`](Self::varint) past its one-byte case. One
    /// out-of-line copy, called from every field's inlined read instead of copied into
    /// each (not `#[cold]`: GoogleMessage1's numbering puts such keys on its hot path,
    /// and lengths of 248 bytes or more are common).
    #[inline(never)]
    fn varint_wide(&mut self, at: usize) -> Result<u64, DecodeError> {
        // Two bytes (tag F8: 248 to 503, lengths of most nested messages and strings
        // past the one-byte case), read without the window's general decode: the tag
        // and the byte after it, inside the bound, are the value.
        if let Some(&[tag, low]) = self.cur.get(at..).and_then(|r| r.first_chunk::<2>())
            && tag == bijou64::FIRST_TIER_TAG
        {
            self.pos = at + 2;
            return Ok(bijou64::OFFSETS[1] + low as u64);
        }
        // With nine bytes of input left, one window load decodes any tier; the tag's
        // length is checked against the current bound, so a value cut by the bound is
        // `truncated`, never read from the bytes beyond it.
        if let Some(&tag) = self.cur.get(at)
            && let Some(w) = self
                .buf
                .get(at..)
                .and_then(|r| r.first_chunk::<{ bijou64::MAX_LEN }>())
            && bijou64::payload_len(tag) < self.end() - at
        {
            return match bijou64::decode_window(w) {
                Ok((v, n)) => {
                    self.pos = at + n;
                    Ok(v)
                }
                Err(e) => Err(varint_error(e, at)),
            };
        }
        self.varint_long(at)
    }

    /// The last eight bytes of the input, or a value cut by the bound: the tag fixes the
    /// length, which is checked against the bound before the payload is read.
    #[inline(never)]
    fn varint_long(&mut self, at: usize) -> Result<u64, DecodeError> {
        let Some(&tag) = self.cur.get(at) else {
            return Err(DecodeError::new(ErrorKind::Truncated, at));
        };
        let len = 1 + bijou64::payload_len(tag);
        if len > self.end() - at {
            return Err(DecodeError::new(ErrorKind::Truncated, at));
        }
        let rest = self.buf.get(at..).unwrap_or(&[]);
        let r = match rest.first_chunk::<{ bijou64::MAX_LEN }>() {
            Some(w) => bijou64::decode_window(w),
            None => bijou64::decode(rest),
        };
        match r {
            Ok((v, n)) => {
                self.pos = at + n;
                Ok(v)
            }
            Err(e) => Err(varint_error(e, at)),
        }
    }

    /// Read bijou64s up to the current bound (a packed varint run), converting each with
    /// `conv(value, offset)` and appending it to `out`. While nine bytes of input remain
    /// the cursor stays local; the rest, and any value the window path declines (cut by
    /// the bound, overflowing), go through [`varint`](Self::varint), which reports it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn varint_run<T>(
        &mut self,
        out: &mut Vec<T>,
        conv: impl Fn(u64, usize) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        let buf = self.buf;
        let end = self.end();
        let mut pos = self.pos;
        // Positions below `window_end` have a full window in `buf`.
        let window_end = end.min(buf.len().saturating_sub(bijou64::MAX_LEN - 1));
        while pos < window_end {
            let Some(w) = buf
                .get(pos..)
                .and_then(|r| r.first_chunk::<{ bijou64::MAX_LEN }>())
            else {
                break;
            };
            let at = pos;
            let tag = w[0];
            let v = if tag < bijou64::FIRST_TIER_TAG {
                pos += 1;
                tag as u64
            } else if bijou64::payload_len(tag) < end - at
                && let Ok((v, n)) = bijou64::decode_window(w)
            {
                pos += n;
                v
            } else {
                break;
            };
            match conv(v, at) {
                Ok(x) => out.push(x),
                Err(e) => {
                    self.pos = pos;
                    return Err(e);
                }
            }
        }
        self.pos = pos;
        while self.pos < self.end() {
            let at = self.pos;
            let v = self.varint()?;
            out.push(conv(v, at)?);
        }
        Ok(())
    }

    /// Read `N` raw bytes (a fixed-width value, SPEC §3.4).
    #[inline]
    pub fn fixed<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let at = self.pos;
        match self.cur.get(at..).and_then(|r| r.first_chunk::<N>()) {
            Some(b) => {
                self.pos = at + N;
                Ok(*b)
            }
            None => Err(DecodeError::new(ErrorKind::Truncated, at)),
        }
    }

    /// The offset and bytes from the position to the current bound (a fixed-width
    /// packed run's content), consumed.
    #[inline]
    pub(crate) fn rest_of_run(&mut self) -> (usize, &'a [u8]) {
        let at = self.pos;
        self.pos = self.end().max(at);
        (at, self.cur.get(at..).unwrap_or_default())
    }

    /// Read a bijou64 length and check it against the bytes left in the current message
    /// before anything is allocated (SPEC §9.4): a length past the end is `truncated` at
    /// the length prefix.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn length(&mut self) -> Result<usize, DecodeError> {
        let at = self.pos;
        let len = self.varint()?;
        let left = (self.end() - self.pos) as u64;
        if len > left {
            return Err(DecodeError::new(ErrorKind::Truncated, at));
        }
        Ok(len as usize)
    }

    /// Read a length-prefixed byte string and return it borrowed from the input.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn len_bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let len_at = self.pos;
        let len = self.varint()?;
        // The bytes left in the message, then the first `len` of them: the length is
        // checked against the bound (SPEC §9.4) by the same comparison that slices.
        let rest = self.cur.get(self.pos..).unwrap_or_default();
        match usize::try_from(len).ok().and_then(|n| rest.get(..n)) {
            Some(bytes) => {
                self.pos += bytes.len();
                Ok(bytes)
            }
            None => Err(DecodeError::new(ErrorKind::Truncated, len_at)),
        }
    }

    // ----- keys and unknown fields (SPEC §4, §8) -----

    /// Read the key at the current position (there must be one: `pos < end`): its field
    /// number and wire type. Records the key's offset and makes it the previous record.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_key(&mut self) -> Result<(u32, u8), DecodeError> {
        let at = self.pos;
        let v = self.varint()?;
        self.key_of(at, v)
    }

    /// The field number and wire type of key value `v` read at `at`; records the key's
    /// offset and makes it the previous record.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn key_of(&mut self, at: usize, v: u64) -> Result<(u32, u8), DecodeError> {
        // SPEC §4.1: number = prev + 1 + (key >> 2); cannot wrap in u64.
        let number = self.prev as u64 + 1 + (v >> 2);
        if number > MAX_FIELD_NUMBER as u64 {
            // SPEC §4.3
            return Err(DecodeError::new(ErrorKind::FieldNumberOverflow, at));
        }
        self.key_pos = at;
        self.prev = number as u32;
        Ok((number as u32, (v & 3) as u8))
    }

    /// Load the next key into the lookahead; `false` at the end of the message.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn load_key(&mut self) -> Result<bool, DecodeError> {
        if self.pos >= self.end() {
            return Ok(false);
        }
        let (number, wire) = self.read_key()?;
        self.next = number;
        self.next_wire = wire;
        Ok(true)
    }

    /// Ask for known field `number` with wire type `wire`: `Ok(true)` when its record is
    /// next (the value is then read with an element read), `Ok(false)` when the field is
    /// absent. Records numbered below `number` are unknown and are rejected or kept
    /// (SPEC §8); a wrong wire type is `wire-type-mismatch` (SPEC §4.4).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn field<N: FieldName>(
        &mut self,
        number: u32,
        wire: WireType,
        name: N,
    ) -> Result<bool, DecodeError> {
        if self.next > number {
            // The lookahead is past `number` (`NONE` is 0, below every number; `END` is
            // above all of them): absent. On a sparse message this is most questions, so
            // it is asked first.
            return Ok(false);
        }
        if self.next == NONE {
            // A key read here that matches is handed out without passing through the
            // lookahead; the end of the message is the same bounds check as the read.
            let at = self.pos;
            let Some(&tag) = self.cur.get(at) else {
                self.next = END;
                return Ok(false);
            };
            let v = if tag < bijou64::FIRST_TIER_TAG {
                self.pos = at + 1;
                tag as u64
            } else {
                self.varint_wide(at)?
            };
            // SPEC §4.1: number = prev + 1 + (key >> 2); cannot wrap in u64.
            let next = self.prev as u64 + 1 + (v >> 2);
            self.key_pos = at;
            if next == number as u64 {
                // `number` is a field number, so no overflow check is needed here.
                self.prev = number;
                if (v & 3) as u8 != wire as u8 {
                    // SPEC §4.4
                    return Err(wire_mismatch(at, name));
                }
                return Ok(true);
            }
            if next > MAX_FIELD_NUMBER as u64 {
                // SPEC §4.3
                return Err(DecodeError::new(ErrorKind::FieldNumberOverflow, at));
            }
            self.prev = next as u32;
            self.next = next as u32;
            self.next_wire = (v & 3) as u8;
            if next > number as u64 {
                return Ok(false);
            }
        } else if self.next == number {
            self.next = NONE;
            if self.next_wire != wire as u8 {
                // SPEC §4.4
                return Err(wire_mismatch(self.key_pos, name));
            }
            return Ok(true);
        }
        // The lookahead is below `number`: an unknown record comes first.
        self.field_after_unknown(number, wire, name)
    }

    /// [`field`](Self::field) when unknown records come first: dispose of them, then ask
    /// again.
    #[cold]
    #[inline(never)]
    fn field_after_unknown<N: FieldName>(
        &mut self,
        number: u32,
        wire: WireType,
        name: N,
    ) -> Result<bool, DecodeError> {
        loop {
            self.unknown_record()?;
            if !self.load_key()? {
                return Ok(false);
            }
            if self.next >= number {
                return self.field(number, wire, name);
            }
        }
    }

    /// Dispose of the lookahead record, which the schema does not know.
    #[cold]
    fn unknown_record(&mut self) -> Result<(), DecodeError> {
        let number = self.next;
        self.next = NONE;
        let seg = || PathSegment::Unknown(number);
        if !self.keep {
            // SPEC §8.1
            return Err(DecodeError::new(ErrorKind::UnknownField, self.key_pos).push(seg()));
        }
        // SPEC §8.2: keep number, wire type and payload.
        let value = match self.next_wire {
            0 => UnknownValue::Varint(self.varint().map_err(|e| e.push(seg()))?),
            1 => UnknownValue::I64(u64::from_be_bytes(
                self.fixed::<8>().map_err(|e| e.push(seg()))?,
            )),
            2 => UnknownValue::Len(self.len_bytes().map_err(|e| e.push(seg()))?.to_vec()),
            _ => UnknownValue::I32(u32::from_be_bytes(
                self.fixed::<4>().map_err(|e| e.push(seg()))?,
            )),
        };
        self.unknown.push(UnknownField { number, value });
        self.unknown_count += 1;
        Ok(())
    }

    /// End of the current message: dispose of the records after the last known field and
    /// return the unknown fields kept for this message (empty unless preserving).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn finish(&mut self) -> Result<UnknownFields, DecodeError> {
        if self.all_read() {
            // The parent's lookahead is empty while a nested message is read: leave it so.
            self.next = NONE;
            // Without `keep` nothing was stored: no state to move out and reset.
            return Ok(if self.keep {
                core::mem::take(&mut self.unknown)
            } else {
                UnknownFields::new()
            });
        }
        self.finish_unknown()
    }

    /// [`finish`](Self::finish) into a message's own set, for a decode in place: the
    /// same checks and errors. When the message ends with no record kept and `unknown`
    /// is empty already (the common case), nothing is stored: assigning `finish()`'s
    /// result dropped the old, empty set and wrote a new one at every message's end
    /// (about 10 instructions a message, benches/RESULTS.md).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn finish_into(&mut self, unknown: &mut UnknownFields) -> Result<(), DecodeError> {
        if self.all_read() {
            // The parent's lookahead is empty while a nested message is read: leave it so.
            self.next = NONE;
            if self.keep && !self.unknown.is_empty() {
                *unknown = core::mem::take(&mut self.unknown);
            } else if !unknown.is_empty() {
                unknown.clear();
            }
            return Ok(());
        }
        *unknown = self.finish_unknown()?;
        Ok(())
    }

    /// [`finish`](Self::finish) when records remain: all of them are unknown.
    #[cold]
    #[inline(never)]
    fn finish_unknown(&mut self) -> Result<UnknownFields, DecodeError> {
        if self.next == END {
            self.next = NONE;
        }
        loop {
            if self.next == NONE && !self.load_key()? {
                break;
            }
            self.unknown_record()?;
        }
        Ok(core::mem::take(&mut self.unknown))
    }

    // ----- nested messages (SPEC §9.1, §9.3) -----

    /// Read a length-prefixed nested message at the current position. The field shapes
    /// below have checked the depth limit at the record's key (SPEC §9.3) before calling
    /// this (through [`Msg`](super::Msg)).
    ///
    /// Left to the inliner, unlike [`map`](Self::map): out of line (one copy per message
    /// type) it cost telemetry's borrowed decode 5 % more instructions and its owned
    /// decode 13 % more misses in an 8 KiB instruction cache (cachegrind, benches/RESULTS.md).
    #[inline]
    pub fn nested<M: Decode<'a>>(&mut self) -> Result<M, DecodeError> {
        self.nested_with(super::message::keeps_unknown::<M>(), M::__decode)
    }

    /// [`nested`](Self::nested) for a message whose type is known only at run time: its
    /// content is read by `decode`, which asks for the message's fields and ends with
    /// [`finish`](Self::finish) as a generated `__decode` does; `keeps` says whether the
    /// type keeps unknown fields when the decode preserves them
    /// ([`Message::KEEPS_UNKNOWN_FIELDS`](crate::Message::KEEPS_UNKNOWN_FIELDS)).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn nested_with<T>(
        &mut self,
        keeps: bool,
        decode: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        let len = self.length()?;
        // The record was handed out, so there is no lookahead to save.
        let outer = self.cur;
        let outer_prev = self.prev;
        self.bound(self.pos + len);
        self.prev = 0;
        self.depth += 1;
        // The result is passed through as is (an error ends the whole decode, so the
        // restores below are then merely harmless): unwrapping and rewrapping it would
        // copy the message once more.
        // Only a preserving decode has unknown-field state to set aside; `decode` is
        // called from one place, so a child's decoder inlined here is inlined once.
        let parent = if self.preserve {
            Some(self.set_aside(keeps))
        } else {
            None
        };
        let mut m = decode(self);
        if let Some(parent) = parent {
            self.restore(parent);
        }
        if m.is_ok() && !self.all_read() {
            // Replaced in place, not returned early: `m` stays the one value returned,
            // which the compiler builds in the caller's slot (an early return of
            // another value cost a copy of every nested message).
            m = Err(self.unread());
        }
        self.depth -= 1;
        self.cur = outer;
        self.prev = outer_prev;
        // A child that ended without `finish` may leave `END`, which is the child's.
        self.next = NONE;
        m
    }

    /// Set the parent's unknown-field state aside for a child of a type that keeps
    /// unknown fields when `keeps` (a preserving decode only).
    #[inline(never)]
    fn set_aside(&mut self, keeps: bool) -> SetAside {
        let outer = SetAside {
            unknown: core::mem::take(&mut self.unknown),
            keep: self.keep,
        };
        self.keep = keeps;
        outer
    }

    /// Give the parent back the state [`set_aside`](Self::set_aside) took.
    #[inline(never)]
    fn restore(&mut self, outer: SetAside) {
        self.unknown = outer.unknown;
        self.keep = outer.keep;
    }

    /// [`nested`](Self::nested) into `m`, reusing its allocations (`decode_into`).
    #[inline]
    pub fn nested_into<M: Decode<'a>>(&mut self, m: &mut M) -> Result<(), DecodeError> {
        self.nested_with(super::message::keeps_unknown::<M>(), |r| m.__decode_into(r))
    }

    /// [`top`](Self::top) into `m`, reusing its allocations (`decode_into`).
    pub(crate) fn top_into<M: Decode<'a>>(&mut self, m: &mut M) -> Result<(), DecodeError> {
        self.top_with(super::message::keeps_unknown::<M>(), |r| m.__decode_into(r))
            .map_err(|e| e.in_message(super::message::name::<M>()))
    }

    /// SPEC §9.3, §10.1 step 1: a record whose type opens a message is refused at its
    /// key, before its payload is read, when the message would be deeper than the limit.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn check_depth<N: FieldName>(&self, name: N) -> Result<(), DecodeError> {
        if self.depth >= self.max_depth {
            return Err(field_error(
                ErrorKind::DepthLimitExceeded,
                self.key_pos,
                name,
            ));
        }
        Ok(())
    }

    /// [`field`](Self::field), then, for a record that opens a message, the depth check
    /// at its key ([`check_depth`](Self::check_depth)): how every singular shape, by
    /// element or into a value, asks for its record.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn present<N: FieldName>(
        &mut self,
        number: u32,
        wire: WireType,
        opens_message: bool,
        name: N,
    ) -> Result<bool, DecodeError> {
        if !self.field(number, wire, name)? {
            return Ok(false);
        }
        if opens_message {
            self.check_depth(name)?;
        }
        Ok(true)
    }

    /// SPEC §5.1: an implicit-presence record holding the default is
    /// `default-value-present` at its key `key`; the one check of
    /// [`implicit_el`](Self::implicit_el) and [`implicit_into`](Self::implicit_into).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn not_default<N: FieldName>(key: usize, is_default: bool, name: N) -> Result<(), DecodeError> {
        if is_default {
            return Err(field_error(ErrorKind::DefaultValuePresent, key, name));
        }
        Ok(())
    }

    /// The top-level message over the whole range, path rooted at the schema's
    /// `Message::NAME`: [`Decode::__decode_top`], called last so that the value it
    /// returns is the caller's.
    #[inline]
    pub(crate) fn top<M: Decode<'a>>(&mut self) -> Result<M, DecodeError> {
        self.keep = self.preserve && super::message::keeps_unknown::<M>();
        M::__decode_top(self)
    }

    /// [`Decode::__decode_top`] by default: `M::__decode`, then the test that every
    /// record was read ([`all_read`](Self::all_read)), an error rooted at the type's name.
    ///
    /// The value `M::__decode` returns is copied once more here, into the caller's slot,
    /// across the test: a callee that can unwind cannot be handed that slot. For a walk
    /// decoder, which builds its value in its return slot, that is the one copy; for
    /// one that builds a default in its own frame and returns it (dispatch, table) it is
    /// a second, so those use [`top_in_place`](Self::top_in_place). The result is tested
    /// by variant only (never borrowed) and each change reassigns the one value, which
    /// measured one copy fewer than going through [`top_with`](Self::top_with) and
    /// rooting the error in place (benches/RESULTS.md, "Decode: the top-level result
    /// copied once").
    #[inline]
    // `matches!` rather than `is_ok`: the form measured, which takes no borrow of `m`.
    #[allow(clippy::redundant_pattern_matching)]
    pub fn top_by_value<M: Decode<'a>>(&mut self) -> Result<M, DecodeError> {
        let mut m = M::__decode(self);
        if matches!(m, Ok(_)) && !self.all_read() {
            m = Err(self.unread());
        }
        if let Err(e) = m {
            m = Err(e.in_message(super::message::name::<M>()));
        }
        m
    }

    /// [`Decode::__decode_top`] of a generated type that reads into a value in place
    /// (dispatch and table decoders): the default, `read` into it, then the checks of
    /// [`top_by_value`](Self::top_by_value) (every record read, the error rooted). The
    /// value is built where it is returned from, so it is copied once on its way out
    /// (into the caller's slot), as `Self::default()` followed by `merge` is in prost;
    /// through `__decode` and `top_by_value` it was copied twice.
    #[inline(always)]
    pub fn top_in_place<M: Decode<'a> + Default>(
        &mut self,
        read: impl FnOnce(&mut M, &mut Self) -> Result<(), DecodeError>,
    ) -> Result<M, DecodeError> {
        let mut m = M::default();
        let read = match read(&mut m, self) {
            Ok(()) if self.all_read() => return Ok(m),
            Ok(()) => self.unread(),
            Err(e) => e,
        };
        Err(read.in_message(super::message::name::<M>()))
    }

    /// [`top`](Self::top) for a message whose type is known only at run time, read by
    /// `decode` as in [`nested_with`](Self::nested_with). The caller roots the error path
    /// at the type's name.
    pub fn top_with<T>(
        &mut self,
        keeps: bool,
        decode: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        self.keep = self.preserve && keeps;
        let mut m = decode(self);
        if m.is_ok() && !self.all_read() {
            m = Err(self.unread());
        }
        m
    }

    /// True when every record of the current message has been handed out or disposed
    /// of. Generated code ends `__decode` with [`finish`](Self::finish), which disposes of
    /// every record it did not ask for; a hand-written `Message` that forgets it, or asks
    /// for a field after it, would otherwise accept bytes it never looked at, so the
    /// top-level reads ([`top_by_value`](Self::top_by_value) and
    /// [`top_in_place`](Self::top_in_place), one of which ends every `__decode_top` the
    /// runtime and the generator write) and [`nested`](Self::nested) check this after
    /// every message, in every build.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn all_read(&self) -> bool {
        (self.next == NONE || self.next == END) && self.pos >= self.end()
    }

    /// The error for a message that left records unread (see [`all_read`](Self::all_read)):
    /// the first record left is refused as `unknown-field` (SPEC §8.1), in every mode: the
    /// message did not ask for it and has not kept it.
    #[cold]
    #[inline(never)]
    fn unread(&mut self) -> DecodeError {
        self.keep = false;
        match self.finish_unknown() {
            Err(e) => e,
            // Unreachable: a record is left and `keep` is off, so disposing of it fails.
            Ok(_) => DecodeError::new(ErrorKind::UnknownField, self.pos),
        }
    }

    // ----- field shapes generated code calls (SPEC §5, §6) -----
    //
    // Each shape comes twice: by codec type (`implicit::<C>`, what generated code calls)
    // and by element value (`implicit_el`, what a decoder of run-time types calls). The
    // first is the second with the codec's zero-sized element, so both are one rule.
    //
    // They are inlined into each generated `__decode` on purpose. Out of line, one body
    // per codec behind an inlined lookahead test (all shapes, or strings, bytes, messages
    // and runs only), they cut `Span`'s decoder from 17.2 KB of machine code to 3–7 KB
    // and cachegrind's instruction-cache misses by 64–71 % on OTLP traces, but cost
    // 6–45 % more instructions and made the decodes measured slower, not faster
    // (benches/RESULTS.md, #27).

    /// An implicit-presence singular field (SPEC §5.1): absent means the default, and a
    /// record holding the default is `default-value-present` at its key.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn implicit<C: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: impl FieldName,
    ) -> Result<C::Value, DecodeError>
    where
        C::Value: Default,
    {
        match self.implicit_el(number, name, &Of::<C>::NEW)? {
            Some(v) => Ok(v),
            None => Ok(C::Value::default()),
        }
    }

    /// [`implicit`](Self::implicit) by element: `None` when the field is absent.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn implicit_el<E: Element<'a>, N: FieldName>(
        &mut self,
        number: u32,
        name: N,
        el: &E,
    ) -> Result<Option<E::Value>, DecodeError> {
        if !self.present(number, el.wire(), el.opens_message(), name)? {
            return Ok(None);
        }
        let key = self.key_pos;
        let v = el.read(self).map_err(|e| e.in_field(name))?;
        Self::not_default(key, el.is_default(&v), name)?;
        Ok(Some(v))
    }

    /// An explicit-presence singular field (SPEC §5.2): proto3 `optional`, proto2
    /// `optional`/`required`, message-typed fields (with `Msg<M>`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn optional<C: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: impl FieldName,
    ) -> Result<Option<C::Value>, DecodeError> {
        self.optional_el(number, name, &Of::<C>::NEW)
    }

    /// [`optional`](Self::optional) by element.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn optional_el<E: Element<'a>, N: FieldName>(
        &mut self,
        number: u32,
        name: N,
        el: &E,
    ) -> Result<Option<E::Value>, DecodeError> {
        if !self.present(number, el.wire(), el.opens_message(), name)? {
            return Ok(None);
        }
        el.read(self).map(Some).map_err(|e| e.in_field(name))
    }

    /// [`implicit`](Self::implicit) into `v`, reusing its allocation; an absent field
    /// leaves `v` the default.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn implicit_into<C: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: &'static str,
        v: &mut C::Value,
    ) -> Result<(), DecodeError>
    where
        C::Value: Default,
    {
        if !self.present(number, C::WIRE, C::OPENS_MESSAGE, name)? {
            if !C::clear_in_place(v) {
                *v = C::Value::default();
            }
            return Ok(());
        }
        let key = self.key_pos;
        C::read_into(self, v).map_err(|e| e.in_field(name))?;
        Self::not_default(key, C::is_default(v), name)
    }

    /// [`optional`](Self::optional) into `v`, reusing the value it holds; an absent field
    /// makes `v` `None`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn optional_into<C: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: &'static str,
        v: &mut Option<C::Value>,
    ) -> Result<(), DecodeError> {
        if !self.present(number, C::WIRE, C::OPENS_MESSAGE, name)? {
            *v = None;
            return Ok(());
        }
        match v {
            Some(x) => C::read_into(self, x),
            None => C::read_some(self, v),
        }
        .map_err(|e| e.in_field(name))
    }

    /// A proto2 `required` field read into `v` (which keeps its value when absent):
    /// whether it was present, for [`require`](Self::require) after
    /// [`finish`](Self::finish).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn required_into<C: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: &'static str,
        v: &mut C::Value,
    ) -> Result<Option<()>, DecodeError> {
        if !self.present(number, C::WIRE, C::OPENS_MESSAGE, name)? {
            return Ok(None);
        }
        C::read_into(self, v).map_err(|e| e.in_field(name))?;
        Ok(Some(()))
    }

    /// A oneof member (SPEC §5.4): `taken` says whether an earlier member of the same
    /// oneof was present; if so this record is `oneof-conflict` at its key, checked before
    /// its value is read.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn oneof<C: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: impl FieldName,
        taken: bool,
    ) -> Result<Option<C::Value>, DecodeError> {
        self.oneof_el(number, name, taken, &Of::<C>::NEW)
    }

    /// [`oneof`](Self::oneof) by element.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn oneof_el<E: Element<'a>, N: FieldName>(
        &mut self,
        number: u32,
        name: N,
        taken: bool,
        el: &E,
    ) -> Result<Option<E::Value>, DecodeError> {
        if !self.field(number, el.wire(), name)? {
            return Ok(None);
        }
        if taken {
            // SPEC §5.4
            return Err(field_error(ErrorKind::OneofConflict, self.key_pos, name));
        }
        if el.opens_message() {
            self.check_depth(name)?;
        }
        el.read(self).map(Some).map_err(|e| e.in_field(name))
    }

    /// [`oneof`](Self::oneof) read where it lies, for a decode in place: `slot` is the
    /// message's own oneof field (emptied before its first member is asked), and `place`
    /// stores this member's default in it and hands out that value to read into. The
    /// same checks, in the same order, with the same codes, offsets and paths; the
    /// conflict check reads `slot` only when the member is present. Decoded by value, a
    /// nested message member was moved twice more (into the oneof's local, then into
    /// the field), and the `taken` flag was computed before each member's key check
    /// (benches/RESULTS.md).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn oneof_into<C: ReadCodec<'a>, O, N: FieldName>(
        &mut self,
        number: u32,
        name: N,
        slot: &mut Option<O>,
        place: impl FnOnce(&mut Option<O>) -> Option<&mut C::Value>,
    ) -> Result<(), DecodeError> {
        if !self.field(number, C::WIRE, name)? {
            return Ok(());
        }
        if slot.is_some() {
            // SPEC §5.4
            return Err(field_error(ErrorKind::OneofConflict, self.key_pos, name));
        }
        if C::OPENS_MESSAGE {
            self.check_depth(name)?;
        }
        match place(slot) {
            Some(v) => C::read_into(self, v).map_err(|e| e.in_field(name)),
            // Not reached: `place` has just stored this member.
            None => Ok(()),
        }
    }

    /// After [`finish`](Self::finish): a proto2 `required` field read with
    /// [`optional`](Self::optional) must be present (SPEC §5.3); the error's offset is
    /// the end of the message's content.
    #[inline]
    pub fn require<T>(&self, value: Option<T>, name: impl FieldName) -> Result<T, DecodeError> {
        match value {
            Some(v) => Ok(v),
            None => Err(field_error(ErrorKind::MissingRequiredField, self.pos, name)),
        }
    }

    /// Open a repeated or map record: `Ok(None)` when absent, else the end of its run.
    /// `LEN 0` is `empty-repeated` at the key (SPEC §6.1); a fixed-width run whose length
    /// is not a multiple of `width` is `packed-length-mismatch` at the length prefix
    /// (SPEC §6.2).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn open_run<N: FieldName>(
        &mut self,
        number: u32,
        name: N,
        width: Option<usize>,
        opens_message: bool,
    ) -> Result<Option<usize>, DecodeError> {
        if !self.present(number, WireType::Len, opens_message, name)? {
            return Ok(None);
        }
        self.run_here(name, width).map(Some)
    }

    /// The checks of [`open_run`](Self::open_run) after its record was handed out: the
    /// run's length, then `empty-repeated` and `packed-length-mismatch`; the end of the
    /// run. Shared with the dispatch decoder (`dispatch.rs`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn run_here<N: FieldName>(
        &mut self,
        name: N,
        width: Option<usize>,
    ) -> Result<usize, DecodeError> {
        let len_at = self.pos;
        let len = self.length().map_err(|e| e.in_field(name))?;
        if len == 0 {
            // SPEC §6.1
            return Err(field_error(ErrorKind::EmptyRepeated, self.key_pos, name));
        }
        if let Some(w) = width
            && len % w != 0
        {
            // SPEC §6.2
            return Err(field_error(ErrorKind::PackedLengthMismatch, len_at, name));
        }
        Ok(self.pos + len)
    }

    /// A repeated field of any element kind: one LEN record of key-less elements
    /// (SPEC §6.1, §6.2).
    #[inline]
    pub fn repeated<C: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: impl FieldName,
    ) -> Result<Vec<C::Value>, DecodeError> {
        self.repeated_el(number, name, &Of::<C>::NEW)
    }

    /// [`repeated`](Self::repeated) by element.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn repeated_el<E: Element<'a>, N: FieldName>(
        &mut self,
        number: u32,
        name: N,
        el: &E,
    ) -> Result<Vec<E::Value>, DecodeError> {
        let Some(run_end) = self.open_run(number, name, el.fixed(), el.opens_message())? else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        self.run_into(run_end, name, el, &mut out)?;
        // A varint run of mostly long values gives back what the one-slot-per-byte
        // reservation over-estimated (`decode_into` keeps its capacity instead).
        if out.capacity() > SLACK * out.len() {
            out.shrink_to_fit();
        }
        Ok(out)
    }

    /// A repeated fixed-width field as a view of its bytes (borrowed twins): the checks
    /// of [`repeated`](Self::repeated), with the same errors, offsets and paths, and no
    /// vector.
    #[inline]
    pub fn fixed_run<C: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: impl FieldName,
    ) -> Result<crate::FixedRun<'a, C::Value>, DecodeError>
    where
        C::Value: crate::FixedWidth,
    {
        debug_assert_eq!(C::FIXED, Some(<C::Value as crate::FixedWidth>::WIDTH));
        let Some(run_end) = self.open_run(number, name, C::FIXED, false)? else {
            return Ok(crate::FixedRun::new());
        };
        self.fixed_run_at::<C>(run_end, name)
    }

    /// The elements of an opened fixed-width run up to `run_end` as a view: the body of
    /// [`fixed_run`](Self::fixed_run), shared with the dispatch decoder.
    #[inline]
    fn fixed_run_at<C: ReadCodec<'a>>(
        &mut self,
        run_end: usize,
        name: impl FieldName,
    ) -> Result<crate::FixedRun<'a, C::Value>, DecodeError>
    where
        C::Value: crate::FixedWidth,
    {
        let start = self.pos;
        let run = self.buf.get(start..run_end).unwrap_or_default();
        if <C::Value as crate::FixedWidth>::CHECKED {
            // A `float` or `double` word can be refused (a NaN other than the one, SPEC
            // §3.5): every word checked in one pass over the run's bytes, the first refused
            // one reported as its element read reports it (at its offset, with its index).
            // Read element by element through `C::read`, the check cost 15 instructions a
            // `double` (OpenTelemetry's histogram bounds, benches/RESULTS.md).
            // The run is first tested whole, without a branch per word, for a word with
            // an exponent of all ones (an infinity or a NaN: the only words refused), as
            // the owned run's read does (`codec.rs`); only a run holding one is searched.
            let w = <C::Value as crate::FixedWidth>::WIDTH;
            let suspect = match w {
                4 => run
                    .as_chunks::<4>()
                    .0
                    .iter()
                    .fold(false, |s, b| s | f32_exponent_ones(*b)),
                8 => run
                    .as_chunks::<8>()
                    .0
                    .iter()
                    .fold(false, |s, b| s | f64_exponent_ones(*b)),
                _ => true,
            };
            if suspect
                && let Some(i) = run
                    .chunks_exact(w)
                    .position(|b| !<C::Value as crate::FixedWidth>::wire_ok(b))
            {
                return Err(DecodeError::new(ErrorKind::NonCanonicalNan, start + i * w)
                    .push(PathSegment::Index(i))
                    .in_field(name));
            }
        }
        // Every other word is a value; the run's length was checked.
        self.pos = run_end;
        Ok(crate::FixedRun::from_wire(run))
    }

    /// [`repeated`](Self::repeated) into `out`, which is cleared first and keeps its
    /// capacity (a run never reserves more than it would in a new vector).
    #[inline]
    pub fn repeated_into<C: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: &'static str,
        out: &mut Vec<C::Value>,
    ) -> Result<(), DecodeError> {
        // Tested first: `clear` on a vector of messages is an out-of-line drop of its
        // elements even when there are none, as in every message read in place from its
        // default (one call per repeated field per message).
        if !out.is_empty() {
            out.clear();
        }
        let Some(run_end) = self.open_run(number, name, C::FIXED, C::OPENS_MESSAGE)? else {
            return Ok(());
        };
        self.run_into(run_end, name, &Of::<C>::NEW, out)
    }

    /// The elements of an opened run up to `run_end`, appended to the empty `out`: the
    /// one body of [`repeated_el`](Self::repeated_el) and
    /// [`repeated_into`](Self::repeated_into).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn run_into<E: Element<'a>, N: FieldName>(
        &mut self,
        run_end: usize,
        name: N,
        el: &E,
        out: &mut Vec<E::Value>,
    ) -> Result<(), DecodeError> {
        let outer = self.cur;
        self.bound(run_end);
        let run_len = run_end - self.pos;
        let count = match (el.fixed(), el.wire()) {
            // A fixed-width run's count is exact.
            (Some(w), _) => run_len / w,
            // Strings, bytes and messages: count the length prefixes first so the vector
            // is allocated once; every element costs at least one input byte.
            (None, WireType::Len) => self.count_len_elements(run_end),
            // Varints: every element takes one to nine bytes, so one slot per byte of the
            // run always suffices: one allocation, no regrowth, no counting pass over the
            // tags (`repeated_el` gives back the excess of a run of long values).
            _ => run_len,
        };
        reserve_first(out, first_capacity::<E::Value>(count, run_len));
        let read = if el.fixed().is_none() && matches!(el.wire(), WireType::Len) {
            self.len_run(el, out, count)
        } else {
            el.read_run(self, out)
        };
        if let Err(e) = read {
            return Err(e.push(PathSegment::Index(out.len())).in_field(name));
        }
        self.cur = outer;
        Ok(())
    }

    /// The elements of a run of length-prefixed elements, up to the bound: at most `count`
    /// (the counted number), the vector growing toward it as checked elements arrive
    /// (see [`first_capacity`]). On error, `out.len()` is the failing element's index.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn len_run<E: Element<'a>>(
        &mut self,
        el: &E,
        out: &mut Vec<E::Value>,
        count: usize,
    ) -> Result<(), DecodeError> {
        while !self.at_end() {
            // Grown only when full after `capacity` checked elements (the first
            // reservation holds one at least when the count is not 0), and only toward
            // the count; past it, `push` grows by itself.
            if out.len() == out.capacity() && out.len() < count {
                grow(out, count);
            }
            // Read where it lies (a message is not built aside and copied in); a failed
            // element is taken off again, so the length is its index.
            let i = out.len();
            if let Err(e) = el.read_push(self, out) {
                out.truncate(i);
                return Err(e);
            }
        }
        Ok(())
    }

    /// How many length-prefixed elements `pos..run_end` holds, at most; a malformed run
    /// stops the count early (the decode that follows reports it).
    #[inline]
    fn count_len_elements(&self, run_end: usize) -> usize {
        let run = self.cur.get(self.pos..run_end).unwrap_or(&[]);
        let mut i = 0usize;
        let mut n = 0;
        // Each step passes one length prefix and its content: one byte or more.
        while let Some(next) = skip_element(run, i, None, WireType::Len) {
            i = next;
            n += 1;
        }
        n
    }

    /// How many key-value entries `pos..run_end` holds, at most (each costs two input
    /// bytes or more); a malformed entry stops the count (the decode reports it).
    #[inline]
    fn count_entries<K: Element<'a>, V: Element<'a>>(&self, run_end: usize, k: &K, v: &V) -> usize {
        let run = self.cur.get(self.pos..run_end).unwrap_or(&[]);
        let mut i = 0usize;
        let mut n = 0;
        while let Some(after_key) = skip_element(run, i, k.fixed(), k.wire())
            && let Some(next) = skip_element(run, after_key, v.fixed(), v.wire())
        {
            i = next;
            n += 1;
        }
        n
    }

    /// A map: one LEN record of key-element value-element entries, keys strictly
    /// ascending (SPEC §6.3, §6.4): [`map_into`](Self::map_into) a new tree.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn map<K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: impl FieldName,
    ) -> Result<BTreeMap<K::Value, V::Value>, DecodeError> {
        let mut map = BTreeMap::new();
        self.map_into::<K, V>(number, name, &mut map)?;
        Ok(map)
    }

    /// [`map`](Self::map) into `out`, which is emptied first (a message read in place:
    /// `__decode_into`). A small map's entries are inserted into `out` itself, so the
    /// empty tree a default holds is filled where it lies, not dropped and replaced (a
    /// drop per message read in place). Out of line, one copy per key and value type,
    /// shared by every map field of that shape: a map's read holds two entry loops and a
    /// tree's insert, too much to copy into each message's decoder. On error `out` may
    /// hold the entries before the failing one.
    #[inline(never)]
    pub fn map_into<K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: impl FieldName,
        out: &mut BTreeMap<K::Value, V::Value>,
    ) -> Result<(), DecodeError> {
        if !out.is_empty() {
            out.clear();
        }
        let (k, v) = (&Of::<K>::NEW, &Of::<V>::NEW);
        let Some(run_end) = self.open_run(number, name, None, v.opens_message())? else {
            return Ok(());
        };
        self.map_at(run_end, name, k, v, out)
    }

    /// The entries of an opened map run up to `run_end` into the empty `out`: the body
    /// of [`map_into`](Self::map_into), shared with the dispatch decoder.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map_at<K: KeyElement<'a>, V: Element<'a>, N: FieldName>(
        &mut self,
        run_end: usize,
        name: N,
        k: &K,
        v: &V,
        out: &mut BTreeMap<K::Value, V::Value>,
    ) -> Result<(), DecodeError> {
        let outer = self.cur;
        self.bound(run_end);
        let count = self.count_entries(run_end, k, v);
        if count <= SMALL_MAP {
            self.map_direct(run_end, name, k, v, out)?;
        } else {
            *out = self
                .map_collected(run_end, name, count, k, v)?
                .into_iter()
                .collect();
        }
        self.cur = outer;
        Ok(())
    }

    /// [`map`](Self::map) into a [`SortedMap`](crate::SortedMap): the checked entries
    /// appended to one vector in the wire's order, which is the key order (borrowed twins'
    /// maps); out of line as [`map`](Self::map) is.
    #[inline(never)]
    pub fn sorted_map<K: MapKey + ReadCodec<'a>, V: ReadCodec<'a>>(
        &mut self,
        number: u32,
        name: impl FieldName,
    ) -> Result<crate::SortedMap<K::Value, V::Value>, DecodeError> {
        let entries = self.map_el(number, name, &Of::<K>::NEW, &Of::<V>::NEW)?;
        Ok(crate::SortedMap::from_ordered(entries))
    }

    /// [`map`](Self::map) by element: the entries in ascending key order (the wire
    /// order), in a vector.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn map_el<K: KeyElement<'a>, V: Element<'a>, N: FieldName>(
        &mut self,
        number: u32,
        name: N,
        k: &K,
        v: &V,
    ) -> Result<Entries<'a, K, V>, DecodeError> {
        let Some(run_end) = self.open_run(number, name, None, v.opens_message())? else {
            return Ok(Vec::new());
        };
        self.map_el_at(run_end, name, k, v)
    }

    /// The entries of an opened map run up to `run_end`, in a vector: the body of
    /// [`map_el`](Self::map_el), shared with the dispatch decoder.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map_el_at<K: KeyElement<'a>, V: Element<'a>, N: FieldName>(
        &mut self,
        run_end: usize,
        name: N,
        k: &K,
        v: &V,
    ) -> Result<Entries<'a, K, V>, DecodeError> {
        let outer = self.cur;
        self.bound(run_end);
        let count = self.count_entries(run_end, k, v);
        let entries = self.map_collected(run_end, name, count, k, v)?;
        self.cur = outer;
        Ok(entries)
    }

    /// One map entry's key, checked against the previous key (SPEC §6.4), then its value.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn map_entry<K: KeyElement<'a>, V: Element<'a>, N: FieldName>(
        &mut self,
        name: N,
        kel: &K,
        vel: &V,
        last: Option<&K::Value>,
    ) -> Result<(K::Value, V::Value), DecodeError> {
        let key_at = self.pos;
        let k = kel.read(self).map_err(|e| e.in_field(name))?;
        if let Some(last) = last
            && k <= *last
        {
            // SPEC §6.4
            return Err(DecodeError::new(ErrorKind::MapKeyOrder, key_at)
                .push(kel.segment(&k))
                .in_field(name));
        }
        match vel.read(self) {
            Ok(v) => Ok((k, v)),
            Err(e) => Err(e.push(kel.segment(&k)).in_field(name)),
        }
    }

    /// A small map's entries inserted straight into the empty tree `map`: for a few
    /// entries the tree's own key comparisons cost less than an entry vector and a bulk
    /// build.
    #[inline]
    fn map_direct<K: KeyElement<'a>, V: Element<'a>, N: FieldName>(
        &mut self,
        run_end: usize,
        name: N,
        k: &K,
        v: &V,
        map: &mut BTreeMap<K::Value, V::Value>,
    ) -> Result<(), DecodeError> {
        while self.pos < run_end {
            let (key, value) = self.map_entry(name, k, v, map.last_key_value().map(|(k, _)| k))?;
            map.insert(key, value);
        }
        Ok(())
    }

    /// A larger map's entries collected into a vector of the counted size (a tree is
    /// then built from it in one pass: keys are ascending, so the build appends).
    #[inline(never)]
    fn map_collected<K: KeyElement<'a>, V: Element<'a>, N: FieldName>(
        &mut self,
        run_end: usize,
        name: N,
        count: usize,
        k: &K,
        v: &V,
    ) -> Result<Entries<'a, K, V>, DecodeError> {
        let run_len = run_end - self.pos;
        let mut entries: Vec<(K::Value, V::Value)> =
            Vec::with_capacity(first_capacity::<(K::Value, V::Value)>(count, run_len));
        while self.pos < run_end {
            let e = self.map_entry(name, k, v, entries.last().map(|(k, _)| k))?;
            if entries.len() == entries.capacity() && entries.len() < count {
                grow(&mut entries, count);
            }
            entries.push(e);
        }
        Ok(entries)
    }
}

/// A map's entries in ascending key order, as [`Reader::map_el`] returns them.
pub type Entries<'a, K, V> = Vec<(<K as Element<'a>>::Value, <V as Element<'a>>::Value)>;

/// Bytes of vector a run may reserve per byte of its content before any of its elements
/// has been checked (SPEC §9.4).
const RESERVE_PER_BYTE: usize = 16;

/// The first reservation for a run of at most `count` elements of type `T` spanning
/// `run_len` input bytes: all of them when that is at most [`RESERVE_PER_BYTE`] bytes per
/// input byte (every scalar: `count` is at most `run_len` and a scalar is at most eight
/// bytes), else as many as that budget holds (but one at least). The count is taken before
/// any element is checked, so a run of elements wider in memory than on the wire (empty
/// messages, empty strings) would otherwise reserve `count × size_of::<T>()` for an input
/// whose first element is bad; past the budget the vector grows as checked elements
/// arrive, so what it holds is what the input has shown to be there.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn first_capacity<T>(count: usize, run_len: usize) -> usize {
    let budget = run_len.saturating_mul(RESERVE_PER_BYTE) / core::mem::size_of::<T>().max(1);
    count.min(budget.max(1))
}

/// Make room for `n` more elements in the empty `out` (a run's first reservation).
///
/// Why not `reserve_exact` alone: on a vector without an allocation (every vector of a
/// message decoded anew or read in place from its default) it goes through the
/// out-of-line growth path (`do_reserve_and_handle`, `finish_grow`: its checks for an
/// allocation to grow or move), where `Vec::with_capacity` is the allocation itself
/// (benches/RESULTS.md, "Owned decode: the runtime's own work"). A vector read into again
/// keeps its capacity, as before.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn reserve_first<T>(out: &mut Vec<T>, n: usize) {
    if out.capacity() == 0 {
        // Nothing to free or keep: the empty vector is replaced by an allocated one.
        *out = Vec::with_capacity(n);
    } else {
        out.reserve_exact(n);
    }
}

/// Room for more elements in the full vector `out`, which holds fewer than the `count`
/// counted: it grows by its length (doubling, so pushes stay amortized O(1)) but never
/// past `count`, so a run read to its end leaves no spare slots.
#[cold]
#[inline(never)]
fn grow<T>(out: &mut Vec<T>, count: usize) {
    let len = out.len();
    out.reserve_exact(len.min(count.saturating_sub(len)).max(1));
}

/// Maps with up to this many entries are built by inserting into the tree directly.
const SMALL_MAP: usize = 6;

/// The offset just past the element of shape (`fixed`, `wire`) at `run[i..]`, or `None`
/// when none is complete there. Used only to size vectors: an element counted here costs
/// at least one byte of `run`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn skip_element(run: &[u8], i: usize, fixed: Option<usize>, wire: WireType) -> Option<usize> {
    let &tag = run.get(i)?;
    let next = match (fixed, wire) {
        (Some(w), _) => i + w,
        (None, WireType::Len) if tag < bijou64::FIRST_TIER_TAG => i + 1 + tag as usize,
        (None, WireType::Len) => {
            let (len, k) = bijou64::decode(run.get(i..)?).ok()?;
            i.saturating_add(k)
                .saturating_add(usize::try_from(len).unwrap_or(usize::MAX))
        }
        (None, _) => i + 1 + bijou64::payload_len(tag),
    };
    (next <= run.len()).then_some(next)
}

#[cold]
fn varint_error(e: bijou64::Error, at: usize) -> DecodeError {
    let kind = match e {
        bijou64::Error::Overflow => ErrorKind::VarintOverflow,
        _ => ErrorKind::Truncated,
    };
    DecodeError::new(kind, at)
}

#[cold]
#[inline(never)]
fn wire_mismatch<N: FieldName>(at: usize, name: N) -> DecodeError {
    field_error(ErrorKind::WireTypeMismatch, at, name)
}

/// An error of `kind` at `at` in field `name`: built out of line, so a field read's
/// inlined code holds a call for each refusal and nothing more.
#[cold]
#[inline(never)]
fn field_error<N: FieldName>(kind: ErrorKind, at: usize, name: N) -> DecodeError {
    DecodeError::new(kind, at).in_field(name)
}

/// A parent's unknown-field state while a child is read ([`Reader::set_aside`]).
struct SetAside {
    unknown: UnknownFields,
    keep: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Reader::varint` at offset 1 of `buf`, with the bound at `end`: the value and
    /// position after it, or the error's kind and offset.
    fn varint_at(buf: &[u8], end: usize) -> Result<(u64, usize), (ErrorKind, usize)> {
        let mut r = Reader::new(buf, 1, end, &DecodeOptions::default());
        match r.varint() {
            Ok(v) => Ok((v, r.position())),
            Err(e) => Err((e.kind(), e.offset())),
        }
    }

    #[test]
    fn two_byte_values_read_as_bijou64_decodes_them() {
        // Every two-byte value (tag F8), with input after it and without, and cut by
        // the bound or by the end of the input after its tag.
        for low in 0..=255u8 {
            let value = bijou64::OFFSETS[1] + low as u64;
            for tail in [0usize, 1, 7, 8, 12] {
                let mut buf = vec![0x55, 0xF8, low];
                buf.extend(core::iter::repeat_n(0xFF, tail));
                assert_eq!(bijou64::decode(&buf[1..]), Ok((value, 2)));
                assert_eq!(varint_at(&buf, buf.len()), Ok((value, 3)), "{buf:02x?}");
                // The bound after the tag: the value is cut, whatever follows.
                assert_eq!(
                    varint_at(&buf, 2),
                    Err((ErrorKind::Truncated, 1)),
                    "{buf:02x?}"
                );
            }
            assert_eq!(varint_at(&[0x55, 0xF8], 2), Err((ErrorKind::Truncated, 1)));
        }
        // The tags either side still take the other paths: one byte, three bytes.
        let mut three = vec![0x55, 0xF9, 0x01, 0x02];
        assert_eq!(varint_at(&three, 4), Ok((bijou64::OFFSETS[2] + 0x0102, 4)));
        assert_eq!(varint_at(&three, 3), Err((ErrorKind::Truncated, 1)));
        three.extend([0u8; 9]);
        assert_eq!(varint_at(&three, 4), Ok((bijou64::OFFSETS[2] + 0x0102, 4)));
        assert_eq!(varint_at(&[0x55, 0xF7, 0xF8], 3), Ok((0xF7, 2)));
    }

    #[test]
    fn a_runs_first_reservation_keeps_a_buffer_it_has() {
        // A vector without an allocation gets the room asked for; an emptied vector with
        // one (a message read into again) keeps that buffer when it is large enough,
        // rather than trading it for a new allocation; a smaller one grows to the room.
        let mut fresh: Vec<u32> = Vec::new();
        reserve_first(&mut fresh, 5);
        assert_eq!(fresh.capacity(), 5);
        let mut kept: Vec<u32> = Vec::with_capacity(40);
        let buffer = kept.as_ptr();
        reserve_first(&mut kept, 5);
        assert_eq!((kept.capacity(), kept.as_ptr()), (40, buffer));
        let mut small: Vec<u32> = Vec::with_capacity(2);
        reserve_first(&mut small, 9);
        assert!(small.capacity() >= 9, "{}", small.capacity());
    }

    /// `fixed_run_at` over the words of `buf` after a two-byte prefix: the run's
    /// length, or the error's kind and offset.
    fn borrowed_run<C>(buf: &[u8]) -> Result<usize, (ErrorKind, usize)>
    where
        C: for<'b> ReadCodec<'b>,
        C::Value: crate::FixedWidth,
    {
        let opts = DecodeOptions::default();
        let mut r = Reader::new(buf, 2, buf.len(), &opts);
        r.fixed_run_at::<C>(buf.len(), "f")
            .map(|run| run.len())
            .map_err(|e| (e.kind(), e.offset()))
    }

    #[test]
    fn borrowed_float_runs_with_two_special_words_are_checked() {
        // Two words with an exponent of all ones at every pair of positions, the first or
        // both refused: a test of the whole run whose words cancel (an even number of
        // them) would take the run for clean and hand out a refused word. Two infinities
        // (accepted) are read whole.
        use crate::__private::codec::{Double, Float};
        let inf = 0x7FF0_0000_0000_0000u64;
        let inf32 = 0x7F80_0000u64;
        for len in 2..10usize {
            for i in 0..len {
                for j in i + 1..len {
                    for (width, inf, bad, other) in [
                        (8, inf, inf + 1, u64::MAX),
                        (4, inf32, inf32 + 1, 0xFFC0_0000),
                    ] {
                        for (a, b) in [(inf, bad), (bad, inf), (bad, other), (inf, inf)] {
                            let mut bytes = vec![0xAA, 0xBB];
                            for k in 0..len {
                                let w = match k {
                                    _ if k == i => a,
                                    _ if k == j => b,
                                    _ => k as u64,
                                };
                                bytes.extend_from_slice(&w.to_be_bytes()[8 - width..]);
                            }
                            let first = [(i, a), (j, b)].into_iter().find(|&(_, w)| w != inf);
                            let want = match first {
                                Some((at, _)) => Err((ErrorKind::NonCanonicalNan, 2 + at * width)),
                                None => Ok(len),
                            };
                            let got = match width {
                                8 => borrowed_run::<Double>(&bytes),
                                _ => borrowed_run::<Float>(&bytes),
                            };
                            assert_eq!(got, want, "{bytes:02x?}");
                        }
                    }
                }
            }
        }
    }
}
