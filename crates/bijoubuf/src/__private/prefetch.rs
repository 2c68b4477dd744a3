//! Loads started early: while one element of a run of messages is encoded, the memory the
//! next element points to (its strings' and byte strings' bytes, its repeated fields'
//! first elements, the same of the messages it holds inline) is asked for.
//!
//! Why: a message's strings and vectors are allocations of their own, scattered over the
//! heap. When the values encoded do not fit the cache, each of those loads waits for
//! memory in turn, and an element's encode (a few hundred to a few thousand
//! instructions) is too long for the processor to reach the next element's loads by
//! itself: the encode of OpenTelemetry traces took two to three times as long on sixteen
//! requests as on one repeated (benches/RESULTS.md). A prefetch of the next element's
//! allocations overlaps those waits with the current element's work.
//!
//! Nothing here changes what is written: a prefetch is a hint, and [`Prefetch`] is a
//! [`Pass`] that only reads the fields the walk hands it.

use alloc::collections::BTreeMap;

use super::codec::{Codec, EncodeElement, MapEntries, MapKey};
use super::message::Encode;
use super::pass::{Pass, Written};

/// The size in memory from which a run's elements are prefetched: 256 bytes, a message of
/// a dozen fields or more (OpenTelemetry's `Span`, 312 bytes, and `LogRecord`, 256). A
/// smaller element is encoded in too few instructions for its prefetch to pay: with
/// every run prefetched (`KeyValue`, 136 bytes, included) traces' encode ran 1.13–1.32×
/// as fast as without, logs' 0.95–1.01×; from 256 bytes up, traces' 1.05–1.24×, logs'
/// 0.98–1.01× (benches/RESULTS.md, "Encode: the next element's memory asked for
/// ahead").
pub const MIN_ELEMENT: usize = 256;

/// Ask for the memory that the run element `v` points to ([`Codec::prefetch`]), when
/// its type is at least [`MIN_ELEMENT`] bytes; otherwise nothing (decided when
/// compiled). The run loops call it for the next element before writing or sizing the
/// current one.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn element<C: Codec + ?Sized>(v: &C::Value) {
    if core::mem::size_of::<C::Value>() >= MIN_ELEMENT {
        C::prefetch(v);
    }
}

/// In a run loop at element `i` of `vs`: [`element`] for the next one, if any. The one
/// place the run loops (the one pass's, [`Codec::write_run`], [`Codec::size_run`]) look
/// ahead.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn ahead<C: Codec + ?Sized>(vs: &[C::Value], i: usize) {
    if let Some(next) = vs.get(i + 1) {
        element::<C>(next);
    }
}

/// Ask for the cache line at `p` to be loaded; no effect on any value. A no-op where the
/// target has no prefetch instruction that stable Rust reaches.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn line<T>(p: *const T) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
    #[allow(unsafe_code)]
    // SAFETY: `prefetcht0` reads no memory architecturally: it raises no fault and has no
    // effect on any value whatever the address (dangling, null, unmapped), so any pointer
    // may be passed. The `sse` feature it requires is enabled (the `cfg` above).
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>());
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
    let _ = p;
}

/// Prefetch the first line of `b`; nothing for an empty slice, which points nowhere (a
/// dangling address in the first page, whose prefetch would cost a page walk for
/// nothing).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn bytes(b: &[u8]) {
    if let Some(first) = b.first() {
        line(first);
    }
}

/// Prefetch what `m`'s fields point to: its walk run with [`Prefetch`].
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn message<M: Encode>(m: &M) {
    let _ = m.__walk(&mut Prefetch);
}

/// The pass that prefetches: each field's value through its codec's
/// [`Codec::prefetch`], a repeated field's first element. Maps are left alone (a tree's
/// nodes are reached only through each other).
pub(crate) struct Prefetch;

impl<'v> Pass<'v> for Prefetch {
    type Out = Written;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn implicit<C: Codec>(&mut self, _: u32, v: &'v C::Value) -> Written {
        C::prefetch(v);
        Written
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn explicit<C: Codec>(&mut self, _: u32, v: &'v C::Value) -> Written {
        C::prefetch(v);
        Written
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn optional<C: Codec>(&mut self, _: u32, v: Option<&'v C::Value>) -> Written {
        if let Some(v) = v {
            C::prefetch(v);
        }
        Written
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn repeated<C: Codec>(&mut self, _: u32, vs: &'v [C::Value]) -> Written {
        if let Some(first) = vs.first() {
            line(first);
        }
        Written
    }

    #[inline(always)]
    fn map<K: MapKey, V: Codec>(&mut self, _: u32, _: &'v BTreeMap<K::Value, V::Value>) -> Written {
        Written
    }

    #[inline(always)]
    fn map_el<K: EncodeElement, V: EncodeElement, I>(
        &mut self,
        _: u32,
        _: I,
        _: &K,
        _: &V,
    ) -> Written
    where
        K::Value: 'v,
        V::Value: 'v,
        I: MapEntries<'v, K::Value, V::Value>,
    {
        Written
    }
}
