//! Encoding into a byte sink (a hasher, a writer) without a buffer of the message's size.
//!
//! [`Message::encode_to_sink`](crate::Message::encode_to_sink) runs the size pass as every
//! encode does, then the write pass into a chunk of [`CHUNK`] bytes on the stack, handed
//! to the sink each time it is full; a `string` or `bytes` value spanning more than a
//! chunk goes to the sink in whole chunks' worth straight from the message. The sink receives exactly the bytes
//! [`encode_to_vec`](crate::Message::encode_to_vec) returns, in order, in pieces: no
//! allocation for the output, no copy of long values, and memory touched once. That is
//! what content addressing wants: [`content_id`](crate::Message::content_id) (feature
//! `blake3`) is BLAKE3 of the canonical bytes, and any hasher of the `digest` traits
//! (feature `digest`) takes an encoding the same way.
//!
//! ```
//! use bijoubuf::Message;
//! use bijoubuf::wkt::Timestamp;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let t = Timestamp { seconds: 1, nanos: 5 };
//! let mut pieces: Vec<u8> = Vec::new();
//! t.encode_to_sink(&mut pieces)?;
//! assert_eq!(pieces, t.encode_to_vec()?);
//!
//! let mut file = Vec::new(); // any `std::io::Write`
//! t.encode_to_writer(&mut file)?;
//! assert_eq!(file, pieces);
//! # Ok(()) }
//! ```

use core::mem::MaybeUninit;

use crate::__private::{Encode, Sizer, Spill, Writer};
use crate::error::{EncodeError, EncodeErrorKind};
use crate::options::EncodeOptions;

/// The size of the chunk an encoding into a sink is written through, on the stack.
///
/// Every piece a sink is given is a whole number of chunks but the last (a long value
/// is handed over in whole chunks' worth straight from the message).
///
/// Why 16 KiB: a sink call costs a few dozen instructions whatever its length, and
/// hashers run fastest on long aligned inputs (BLAKE3 hashes sixteen of its 1 KiB
/// chunks at once with AVX-512, eight with AVX2), while a larger frame would sit on the
/// stack of every caller.
pub const CHUNK: usize = 16 * 1024;

/// A destination that takes an encoding in pieces, in order: a hasher, a writer, a
/// network buffer. Implemented for `Vec<u8>` (appends), `blake3::Hasher` (feature
/// `blake3`) and, through [`DigestSink`], every hasher of the `digest` traits (feature
/// `digest`).
pub trait ByteSink {
    /// Take the next `bytes` of the encoding.
    fn accept(&mut self, bytes: &[u8]);
}

impl<S: ByteSink + ?Sized> ByteSink for &mut S {
    fn accept(&mut self, bytes: &[u8]) {
        (**self).accept(bytes);
    }
}

impl ByteSink for alloc::vec::Vec<u8> {
    fn accept(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

#[cfg(feature = "blake3")]
impl ByteSink for blake3::Hasher {
    fn accept(&mut self, bytes: &[u8]) {
        self.update(bytes);
    }
}

/// A hasher of the `digest` traits (SHA-2, SHA-3, BLAKE2, …) as a [`ByteSink`]
/// (feature `digest`): `message.encode_to_sink(&mut DigestSink(&mut hasher))`, or
/// [`Message::encode_to_digest`](crate::Message::encode_to_digest).
#[cfg(feature = "digest")]
#[derive(Debug)]
pub struct DigestSink<'d, D: ?Sized>(pub &'d mut D);

#[cfg(feature = "digest")]
impl<D: digest::Update + ?Sized> ByteSink for DigestSink<'_, D> {
    fn accept(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

/// A sink that counts what it has taken, so the encode can check the total.
struct Counted<'s, S: ?Sized> {
    sink: &'s mut S,
    taken: usize,
}

impl<S: ByteSink + ?Sized> Spill for Counted<'_, S> {
    fn spill(&mut self, bytes: &[u8]) {
        self.taken += bytes.len();
        self.sink.accept(bytes);
    }
}

/// Encode `m` into `sink` through a chunk on the stack (see the module docs).
///
/// The depth and size limits are checked by the size pass, before the sink sees a byte;
/// a `SizeMismatch` or `FieldOrder` error (a hand-written `Message` whose passes
/// disagree) is found after the sink has taken some of the output.
pub(crate) fn encode_into<M: Encode, S: ByteSink + ?Sized>(
    m: &M,
    sink: &mut S,
    opts: &EncodeOptions,
) -> Result<(), EncodeError> {
    encode_checked(m, sink, opts, |_| Ok(()))
}

/// [`encode_into`], with `room` asked whether the sink takes the encoding's length
/// before it is given a byte.
pub(crate) fn encode_checked<M: Encode, S: ByteSink + ?Sized>(
    m: &M,
    sink: &mut S,
    opts: &EncodeOptions,
    room: impl FnOnce(usize) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    let mut s = Sizer::new(opts.max_depth);
    let len = s.top(m);
    s.check()?;
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
    room(len)?;
    let mut chunk = [const { MaybeUninit::<u8>::uninit() }; CHUNK];
    let out = chunk.get_mut(..len.min(CHUNK)).unwrap_or_default();
    let mut counted = Counted { sink, taken: 0 };
    {
        let mut w = Writer::new_spilling(out, &s, &mut counted);
        w.top(m)?;
        w.spill_out();
    }
    if counted.taken != len {
        return Err(EncodeError::new(EncodeErrorKind::SizeMismatch, 0));
    }
    Ok(())
}

/// An `io::Write` as a sink: the first error is kept and what follows is dropped.
#[cfg(feature = "std")]
struct WriteSink<W> {
    w: W,
    error: Option<std::io::Error>,
}

#[cfg(feature = "std")]
impl<W: std::io::Write> ByteSink for WriteSink<W> {
    fn accept(&mut self, bytes: &[u8]) {
        if self.error.is_none()
            && let Err(e) = self.w.write_all(bytes)
        {
            self.error = Some(e);
        }
    }
}

/// Encode `m` into `w` in chunks; an encode error is `InvalidInput` wrapping the
/// [`EncodeError`].
#[cfg(feature = "std")]
pub(crate) fn encode_to_writer<M: Encode, W: std::io::Write>(
    m: &M,
    w: W,
    opts: &EncodeOptions,
) -> std::io::Result<()> {
    let mut sink = WriteSink { w, error: None };
    let encoded = encode_into(m, &mut sink, opts);
    if let Some(e) = sink.error {
        return Err(e);
    }
    encoded.map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))
}
