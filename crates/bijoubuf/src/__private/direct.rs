//! One pass instead of two, for an encoding that fits a bounded frame.
//!
//! The size pass exists only so that each length prefix is known before the content it
//! counts (see [`writer`](super::writer)). Into a frame of bounded size a writer can do
//! without it: it reserves one byte for each nested message's, packed run's and map's
//! length, writes the content, then writes the length in front of it, moving the
//! content right by one or two bytes when the length needs a wider bijou64 (content of
//! 248 bytes or more, SPEC §2.1). No size table, and every field is visited once.
//!
//! The pass writes only what it is sure of: a type whose walk is checked (a hand-written
//! `Message`), a value with preserved unknown records, nesting at the depth limit, a
//! message the pass cannot reach through its codec, or an encoding longer than the frame
//! makes it give up, and the
//! caller encodes with the two passes as before (which report the errors). Once it has
//! given up, the rest of the walk writes no nested message, run or map: an encoding
//! longer than the frame costs the attempt about a frame's worth of writing, not its
//! own length's.
//! [`encode_to_sink`](crate::Message::encode_to_sink) and
//! [`content_id`](crate::Message::content_id) try it first.

use alloc::collections::BTreeMap;
use core::mem::MaybeUninit;

use super::codec::{Codec, EncodeElement, MapEntries, MapKey, Of};
use super::message::Encode;
use super::pass::{Nested, Pass, WalkKind, Written};
use super::reader::WireType;
use super::sizer::Sizer;
use super::writer::{Writer, written};

/// The one-pass writer, over a generated message's walk: the field calls of
/// [`PlainWriter`](super::PlainWriter), with lengths written after their content.
struct Direct<'w, 'o, 'v> {
    w: &'w mut Writer<'o, 'v>,
    /// How many more levels of nesting the depth limit allows below this message.
    left: u32,
}

/// Encode `m` into `frame` in one pass; the bytes written, or `None` when the pass gave
/// up (see the module docs) and the caller must encode with the two passes.
///
/// `max_depth` is the depth limit (SPEC §9.3): a message whose nesting reaches it is
/// given up here and refused by the size pass the caller then runs.
pub(crate) fn encode<'f, M: Encode>(
    m: &M,
    frame: &'f mut [MaybeUninit<u8>],
    max_depth: u32,
) -> Option<&'f [u8]> {
    if !m.__unknown().as_slice().is_empty() {
        return None;
    }
    // The writer asks a sizer only for its table, which this pass never reads: an empty
    // one (no allocation; `finished` checks that no write asked it for a length).
    let s = Sizer::new(max_depth);
    let len = {
        let mut w = Writer::new(&mut *frame, &s);
        walk(m, &mut w, max_depth.saturating_sub(1));
        w.finished()?
    };
    frame.get(..len).map(written)
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
                for v in vs {
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

    use crate::wkt::{ListValue, Struct, Value, value};
    use crate::{EncodeOptions, Message};

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

    /// The one-pass encoding of `m` into a frame of `room` bytes.
    fn direct<M: crate::__private::Encode>(m: &M, room: usize, depth: u32) -> Option<Vec<u8>> {
        let mut frame = vec![MaybeUninit::new(0u8); room];
        super::encode(m, &mut frame, depth).map(<[u8]>::to_vec)
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
            let want = v.encode_to_vec().unwrap();
            assert_eq!(direct(&v, want.len() + 3, 100), Some(want), "{n}");
        }
    }

    #[test]
    fn a_frame_one_byte_short_gives_up() {
        for n in [0, 200, 300, 600] {
            let v = nested(n);
            let want = v.encode_to_vec().unwrap();
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
            let two_passes = v
                .encode_to_vec_with(&EncodeOptions::new().max_depth(max))
                .ok();
            assert_eq!(direct(&v, 1 << 10, max), two_passes, "max depth {max}");
        }
    }
}
