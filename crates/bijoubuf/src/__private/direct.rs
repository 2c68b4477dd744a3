//! One pass instead of two, for an encoding that fits the room it is written into.
//!
//! The size pass exists only so that each length prefix is known before the content it
//! counts (see [`writer`](super::writer)). Into a region of bounded size a writer can do
//! without it: it reserves one byte for each nested message's, packed run's and map's
//! length, writes the content, then writes the length in front of it, moving the
//! content right by the bytes the length needs past the first (content of 248 bytes or
//! more, SPEC §2.1: one more byte from 248, two from 504, three from 66,040). No size
//! table, and every field is visited once. The region needs no more room than the
//! encoding itself: every reserved byte becomes at least one byte of its length.
//!
//! The pass writes only what it is sure of: a type whose walk is checked (a hand-written
//! `Message`), a value with preserved unknown records, nesting at the depth limit, or a
//! message the pass cannot reach through its codec makes it give up as
//! [`Outcome::Refused`]; an encoding longer than its output as [`Outcome::Full`]. Either
//! way the caller can still encode with the two passes as before (which report the
//! errors, byte for byte the same encoding otherwise). Once it has given up, the rest of
//! the walk writes no nested message, run or map: an encoding longer than the output
//! costs the attempt about the output's length in writing, not its own.
//!
//! A type whose walk is declared [`WalkKind::Plain`] or [`WalkKind::Local`] (generated
//! code) is trusted to walk alike in every pass: the two passes would find a walk that
//! sizes one thing and writes another (a `SizeMismatch`), the one pass writes what the
//! walk writes. Hand-written types keep the default, [`WalkKind::Checked`], which this
//! pass leaves to the two passes.
//!
//! Where it runs:
//! - [`encode`](crate::Message::encode) and its variants into a `Vec` with spare
//!   capacity (a reused buffer) write straight into that capacity ([`OnePass`], through
//!   `BufMut::__put_front`): no size pass, no copy. Into a buffer with less room than the
//!   frame (a new `Vec`, as [`encode_to_vec`](crate::Message::encode_to_vec) makes, or
//!   a slice), or when the capacity was too short, it writes into the thread's frame of
//!   64 KiB (`sink::frame`) and the bytes are copied once into a region claimed at their
//!   exact length (so `encode_to_vec` returns a `Vec` of exactly the encoding's
//!   capacity). An encoding longer than the room and the frame is encoded with the two
//!   passes, which is also the reference the tests hold this pass to.
//! - [`encode_to_sink`](crate::Message::encode_to_sink) and
//!   [`content_id`](crate::Message::content_id) try it first, into the frame.
//!
//! The length-delimited variants write the outer length the same way, in a byte reserved
//! before the content. A length of 248 bytes or more moves its content (one to three
//! bytes right, more only past 16 MiB), so a byte nested `d` levels deep, each
//! level long enough to need a wide prefix, is moved up to `d` times: the pass costs at
//! most the depth limit's number of moves per byte
//! ([`DEFAULT_MAX_DEPTH`](crate::DEFAULT_MAX_DEPTH), 100, unless [`EncodeOptions`]
//! raises it, at most [`MAX_DEPTH_LIMIT`](crate::MAX_DEPTH_LIMIT), 500), where the two
//! passes are linear. Each move is one `memmove` of the level's content; only levels
//! of 248 bytes or more move at all.

use alloc::collections::BTreeMap;
use core::mem::MaybeUninit;

use super::codec::{Codec, EncodeElement, MapEntries, MapKey, Of};
use super::message::Encode;
use super::pass::{Nested, Pass, WalkKind, Written};
use super::reader::WireType;
use super::sizer::Sizer;
use super::writer::{FillFront, Writer, sealed::Sealed, written};
use crate::error::{EncodeError, EncodeErrorKind};
use crate::options::EncodeOptions;

/// The one-pass writer, over a generated message's walk: the field calls of
/// [`PlainWriter`](super::PlainWriter), with lengths written after their content.
struct Direct<'w, 'o, 'v> {
    w: &'w mut Writer<'o, 'v>,
    /// How many more levels of nesting the depth limit allows below this message.
    left: u32,
}

/// What the one pass did with its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome<'o> {
    /// The encoding, at the front of the output; `content` of its bytes follow the
    /// length prefix (all of them when the pass wrote no prefix).
    Wrote { bytes: &'o [u8], content: usize },
    /// The output was too short; more room may do.
    Full,
    /// Given up for another reason (see the module docs): only the two passes encode it.
    Refused,
}

/// Encode `m` in one pass at the front of `out`, after its bijou64 length when
/// `framed` (SPEC §9.2).
///
/// `max_depth` is the depth limit (SPEC §9.3): a message whose nesting reaches it is
/// given up here and refused by the size pass the caller then runs.
pub(crate) fn encode<'o, M: Encode>(
    m: &M,
    out: &'o mut [MaybeUninit<u8>],
    max_depth: u32,
    framed: bool,
) -> Outcome<'o> {
    if !m.__unknown().as_slice().is_empty() {
        return Outcome::Refused;
    }
    // The writer asks a sizer only for its table, which this pass never reads: an empty
    // one (no allocation; `finished` checks that no write asked it for a length).
    let s = Sizer::new(max_depth);
    let (finished, content) = {
        let mut w = Writer::new(&mut *out, &s);
        let prefix = framed.then(|| w.open_len());
        walk(m, &mut w, max_depth.saturating_sub(1));
        let content = w.pos().saturating_sub(prefix.map_or(0, |at| at + 1));
        if let Some(at) = prefix {
            w.close_len(at);
        }
        match w.finished() {
            Some(len) => (len, content),
            None if w.refused() => return Outcome::Refused,
            None => return Outcome::Full,
        }
    };
    let out: &'o [MaybeUninit<u8>] = out;
    match out.get(..finished) {
        Some(b) => Outcome::Wrote {
            bytes: written(b),
            content,
        },
        None => Outcome::Full,
    }
}

/// [`encode`] as a buffer's [`FillFront`]: the one pass into a `Vec`'s spare capacity,
/// with the size limit checked before the buffer takes the bytes.
pub(crate) struct OnePass<'m, M> {
    m: &'m M,
    framed: bool,
    opts: &'m EncodeOptions,
    /// What the pass did, once the buffer has called it (`Wrote` without its bytes,
    /// which the buffer has taken).
    pub(crate) outcome: Option<Outcome<'static>>,
}

impl<'m, M> OnePass<'m, M> {
    pub(crate) fn new(m: &'m M, framed: bool, opts: &'m EncodeOptions) -> Self {
        OnePass {
            m,
            framed,
            opts,
            outcome: None,
        }
    }
}

impl<M> Sealed for OnePass<'_, M> {}

impl<M: Encode> FillFront for OnePass<'_, M> {
    fn fill_front(&mut self, out: &mut [MaybeUninit<u8>]) -> Result<usize, EncodeError> {
        let (outcome, written) = match encode(self.m, out, self.opts.max_depth, self.framed) {
            Outcome::Wrote { bytes, content } => (
                Outcome::Wrote {
                    bytes: &[],
                    content,
                },
                Ok(bytes.len()),
            ),
            // Nothing to take: the caller encodes another way (see `outcome`).
            Outcome::Full => (Outcome::Full, Err(gave_up())),
            Outcome::Refused => (Outcome::Refused, Err(gave_up())),
        };
        if let Outcome::Wrote { content, .. } = outcome {
            within_limit(content, self.opts)?;
        }
        self.outcome = Some(outcome);
        written
    }
}

/// The error a buffer is handed when the one pass gave up (its caller reads the
/// outcome instead).
#[cold]
fn gave_up() -> EncodeError {
    EncodeError::new(EncodeErrorKind::BufferTooSmall, 0)
}

/// Refuse an encoding of `len` bytes past the size limit of `opts`.
pub(crate) fn within_limit(len: usize, opts: &EncodeOptions) -> Result<(), EncodeError> {
    if let Some(max) = opts.max_size
        && len > max
    {
        // SPEC §9, §9.4: the bytes a decoder with this size limit would refuse.
        return Err(EncodeError::over_limit(
            EncodeErrorKind::SizeLimitExceeded,
            len,
            max,
        ));
    }
    Ok(())
}

/// Walk `m`'s fields, or give up for a type whose walk is [`WalkKind::Checked`].
///
/// Why only generated types: their walk is one function for every pass, in an order
/// fixed when it was generated. A hand-written `Message` may walk differently in the
/// size pass and the write pass, and the two passes compare them (a `SizeMismatch` or
/// `FieldOrder` error); one pass has nothing to compare with.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn walk<'v, M: Encode>(m: &'v M, w: &mut Writer<'_, 'v>, left: u32) {
    if matches!(M::WALK, WalkKind::Checked) {
        w.give_up();
    } else {
        m.__walk(&mut Direct { w, left });
    }
}

impl<'v> Nested<'v> for Direct<'_, '_, 'v> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn message<M: Encode>(&mut self, m: &'v M) {
        // SPEC §9.3: the size pass refuses this nesting; unknown records (SPEC §8.2) are
        // interleaved and checked by the two passes only.
        if self.w.given_up() {
            return;
        }
        if self.left == 0 || !m.__unknown().as_slice().is_empty() {
            self.w.give_up();
            return;
        }
        let at = self.w.open_len();
        let prev = self.w.enter();
        walk(m, self.w, self.left - 1);
        self.w.leave(prev);
        self.w.close_len(at);
    }
}

impl<'v> Direct<'_, '_, 'v> {
    /// Write element `v` of `el`: a message through [`Nested::message`], anything else
    /// through the element's own `write`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn element<E: EncodeElement>(&mut self, v: &'v E::Value, el: &E) {
        if !el.visit_message(v, self) {
            el.write(v, self.w);
        }
    }

    /// A singular field that holds a value (SPEC §5).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn field<C: Codec>(&mut self, number: u32, v: &'v C::Value) {
        if C::OPENS_MESSAGE {
            self.w.key_in::<true>(number, C::WIRE);
            if !C::visit_message(v, self) {
                // A message type whose codec cannot hand over its message.
                self.w.give_up();
            }
        } else {
            self.w.explicit_in::<_, true>(number, v, &Of::<C>::NEW);
        }
    }

    /// One LEN record (SPEC §6.1, §6.3): key, then `content`'s bytes after their length.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn record(&mut self, number: u32, content: impl FnOnce(&mut Self)) {
        if self.w.given_up() {
            return;
        }
        self.w.key_in::<true>(number, WireType::Len);
        let at = self.w.open_len();
        content(self);
        self.w.close_len(at);
    }
}

impl<'v> Pass<'v> for Direct<'_, '_, 'v> {
    type Out = Written;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn implicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> Written {
        // SPEC §5.1: nothing for the default.
        if !C::is_default(v) {
            self.field::<C>(number, v);
        }
        Written
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn explicit<C: Codec>(&mut self, number: u32, v: &'v C::Value) -> Written {
        self.field::<C>(number, v);
        Written
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn optional<C: Codec>(&mut self, number: u32, v: Option<&'v C::Value>) -> Written {
        if let Some(v) = v {
            self.field::<C>(number, v);
        }
        Written
    }

    #[inline]
    fn repeated<C: Codec>(&mut self, number: u32, vs: &'v [C::Value]) -> Written {
        if vs.is_empty() {
            return Written;
        }
        if C::FIXED.is_some() {
            // SPEC §6.2: a run of fixed-width words, whose length the writer knows.
            if !self.w.given_up() {
                self.w.repeated_in::<_, true>(number, vs, &Of::<C>::NEW);
            }
        } else if C::OPENS_MESSAGE {
            self.record(number, |d| {
                for (i, v) in vs.iter().enumerate() {
                    super::prefetch::ahead::<C>(vs, i);
                    d.element(v, &Of::<C>::NEW);
                }
            });
        } else {
            self.record(number, |d| C::write_run(vs, d.w));
        }
        Written
    }

    #[inline]
    fn map<K: MapKey, V: Codec>(
        &mut self,
        number: u32,
        m: &'v BTreeMap<K::Value, V::Value>,
    ) -> Written {
        self.map_el(number, m, &Of::<K>::NEW, &Of::<V>::NEW)
    }

    #[inline]
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
        if entries.is_empty() {
            return Written;
        }
        // SPEC §6.3, §6.4: entries in key order, as given.
        self.record(number, |d| {
            for (kv, vv) in entries.entries() {
                k.write(kv, d.w);
                d.element(vv, v);
            }
        });
        Written
    }
}

#[cfg(test)]
mod tests {
    use alloc::collections::BTreeMap;
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;
    use core::mem::MaybeUninit;

    use crate::EncodeOptions;
    use crate::wkt::{ListValue, Struct, Value, value};

    fn string(n: usize) -> Value {
        Value {
            kind: Some(value::Kind::StringValue("s".repeat(n))),
        }
    }

    fn list(values: Vec<Value>) -> Value {
        Value {
            kind: Some(value::Kind::ListValue(ListValue { values })),
        }
    }

    fn object(fields: impl IntoIterator<Item = (&'static str, Value)>) -> Value {
        let fields: BTreeMap<String, Value> =
            fields.into_iter().map(|(k, v)| (k.into(), v)).collect();
        Value {
            kind: Some(value::Kind::StructValue(Struct { fields })),
        }
    }

    /// A value nested five deep (map of messages, repeated messages, oneof messages) whose
    /// lengths at every level pass `n` and its neighbours.
    fn nested(n: usize) -> Value {
        object([
            ("a", list(vec![string(n), object([("b", string(n / 2))])])),
            ("c", string(3)),
        ])
    }

    /// The two passes' encoding of `m` (not `encode_to_vec`, which tries the one pass
    /// first and would compare it with itself).
    fn two_passes<M: crate::__private::Encode>(m: &M, opts: &EncodeOptions) -> Option<Vec<u8>> {
        crate::__private::encode_two_passes(m, false, opts).ok()
    }

    /// The one-pass encoding of `m` into a frame of `room` bytes.
    fn direct<M: crate::__private::Encode>(m: &M, room: usize, depth: u32) -> Option<Vec<u8>> {
        let mut frame = vec![MaybeUninit::new(0u8); room];
        match super::encode(m, &mut frame, depth, false) {
            super::Outcome::Wrote { bytes, .. } => Some(bytes.to_vec()),
            _ => None,
        }
    }

    #[test]
    fn lengths_at_each_bijou64_tier_edge_are_the_two_passes_bytes() {
        // SPEC §2.1: one byte below 248, two from 248, three from 504, four from 66,040.
        let mut sizes: Vec<usize> = Vec::new();
        for edge in [248, 504, 66_040] {
            sizes.extend(edge - 24..edge + 24);
        }
        for n in sizes {
            let v = nested(n);
            let want = two_passes(&v, &EncodeOptions::new()).unwrap();
            assert_eq!(direct(&v, want.len() + 3, 100), Some(want), "{n}");
        }
    }

    #[test]
    fn a_frame_one_byte_short_gives_up() {
        for n in [0, 200, 300, 600] {
            let v = nested(n);
            let want = two_passes(&v, &EncodeOptions::new()).unwrap();
            assert_eq!(direct(&v, want.len(), 100).as_ref(), Some(&want), "{n}");
            assert_eq!(direct(&v, want.len() - 1, 100), None, "{n}");
        }
    }

    #[test]
    fn nesting_past_the_depth_limit_gives_up_where_encode_refuses() {
        let mut v = string(1);
        for _ in 0..6 {
            v = list(vec![v]);
        }
        for max in 0..16 {
            let want = two_passes(&v, &EncodeOptions::new().max_depth(max));
            assert_eq!(direct(&v, 1 << 10, max), want, "max depth {max}");
        }
    }
}
