//! The `bytes` crate's buffers (feature `bytes`): encoding into a `BytesMut` or any
//! `bytes::BufMut`, decoding from a `Bytes` or any `bytes::Buf`, so a transport that
//! holds those does not copy into a `Vec` first.
//!
//! - `BytesMut` is a [`BufMut`](crate::BufMut) like `Vec<u8>`: `m.encode(&mut bytes_mut)`
//!   appends the encoding, claimed once at its exact size.
//! - Any other `bytes::BufMut` (a `Limit`, a chain, a writer's buffer) takes the
//!   encoding in pieces through [`Message::encode_to_buf_mut`](crate::Message::encode_to_buf_mut),
//!   after a check that it has room for all of it: nothing is written otherwise, where
//!   `bytes::BufMut::put_slice` would panic.
//! - A `Bytes` is a byte slice: `M::decode(&bytes)`, and borrowed twins borrow from it.
//!   Any `bytes::Buf` is read by [`Message::decode_buf`](crate::Message::decode_buf) and
//!   [`Message::decode_length_delimited_buf`](crate::Message::decode_length_delimited_buf),
//!   straight from its chunk when the rest of the input is one chunk (a `Bytes`, a
//!   `BytesMut`, a slice), else from one copy of it.
//!
//! ```
//! use bijoubuf::Message;
//! use bijoubuf::wkt::Timestamp;
//! use bytes::{Buf, BytesMut};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let t = Timestamp { seconds: 7, nanos: 0 };
//! let mut out = BytesMut::new();
//! t.encode_length_delimited(&mut out)?;
//! t.encode_length_delimited(&mut out)?;
//! let mut input = out.freeze();
//! assert_eq!(Timestamp::decode_length_delimited_buf(&mut input)?, t);
//! assert_eq!(Timestamp::decode_length_delimited_buf(&mut input)?, t);
//! assert!(!input.has_remaining());
//! # Ok(()) }
//! ```

use alloc::vec::Vec;

use bytes::Buf;

use crate::error::{EncodeError, EncodeErrorKind};
use crate::sink::{ByteSink, encode_checked};
use crate::{DecodeError, EncodeOptions, Message};

impl crate::BufMut for bytes::BytesMut {
    #[inline]
    fn claim(&mut self, len: usize) -> Option<&mut [u8]> {
        let start = self.len();
        self.resize(start.checked_add(len)?, 0);
        self.get_mut(start..)
    }
}

/// A `bytes::BufMut` as a [`ByteSink`]; the encode checked its room first.
struct BufSink<'b, B: ?Sized>(&'b mut B);

impl<B: bytes::BufMut + ?Sized> ByteSink for BufSink<'_, B> {
    fn accept(&mut self, bytes: &[u8]) {
        self.0.put_slice(bytes);
    }
}

/// Encode `m` into `buf` in pieces after checking its room (see the module docs).
pub(crate) fn encode_to_buf_mut<M: crate::__private::Encode, B: bytes::BufMut + ?Sized>(
    m: &M,
    buf: &mut B,
    opts: &EncodeOptions,
) -> Result<(), EncodeError> {
    let room = buf.remaining_mut();
    encode_checked(m, &mut BufSink(buf), opts, |len| {
        if len > room {
            Err(EncodeError::new(EncodeErrorKind::BufferTooSmall, len))
        } else {
            Ok(())
        }
    })
}

/// Decode the rest of `buf` as one message. Consumed on success; an input split
/// across chunks (a chain) is copied once and consumed whatever the outcome.
pub(crate) fn decode_buf<M: Message, B: Buf + ?Sized>(buf: &mut B) -> Result<M, DecodeError> {
    let n = buf.remaining();
    if buf.chunk().len() == n {
        let m = M::decode(buf.chunk())?;
        buf.advance(n);
        Ok(m)
    } else {
        M::decode(&buf.copy_to_bytes(n))
    }
}

/// Decode one length-delimited frame at the front of `buf` (SPEC §9.2) and consume it.
pub(crate) fn decode_frame_buf<M: Message, B: Buf + ?Sized>(buf: &mut B) -> Result<M, DecodeError> {
    let chunk = buf.chunk();
    let in_chunk = match bijou64::decode(chunk) {
        Ok((len, prefix)) => (prefix as u64).saturating_add(len) <= chunk.len() as u64,
        Err(_) => false,
    };
    if in_chunk || chunk.len() == buf.remaining() {
        // The whole frame (or all the input there is) in the first chunk: decoded in
        // place, with `decode_length_delimited`'s checks, errors and offsets.
        let (m, used) = M::decode_length_delimited(chunk)?;
        buf.advance(used);
        return Ok(m);
    }
    // A frame split across chunks: its prefix (`payload_len` from the tag byte) and its
    // body are copied into one vector and decoded there, so the checks and offsets are
    // the contiguous case's. An incomplete frame is refused as `truncated`, and what
    // there was of it is consumed.
    let tag = chunk.first().copied().unwrap_or(0);
    let prefix = 1 + bijou64::payload_len(tag);
    let mut frame: Vec<u8> = alloc::vec![0u8; prefix.min(buf.remaining())];
    if frame.len() < prefix {
        buf.copy_to_slice(&mut frame);
        return M::decode_length_delimited(&frame).map(|(m, _)| m);
    }
    buf.copy_to_slice(&mut frame);
    if let Ok((len, _)) = bijou64::decode(&frame)
        && len <= buf.remaining() as u64
    {
        frame.extend_from_slice(&buf.copy_to_bytes(len as usize));
    }
    M::decode_length_delimited(&frame).map(|(m, _)| m)
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec;

    use bytes::{Buf, BufMut as _, Bytes, BytesMut};

    use crate::wkt::{ListValue, Value, value::Kind};
    use crate::{EncodeErrorKind, ErrorKind, Message};

    fn list(n: usize, len: usize) -> ListValue {
        let values = (0..n)
            .map(|i| Value {
                kind: Some(Kind::StringValue(String::from("abcdefgh").repeat(len + i))),
            })
            .collect();
        ListValue { values }
    }

    #[test]
    fn bytes_mut_takes_the_encoding_after_what_it_holds() {
        let v = list(5, 3);
        let mut out = BytesMut::from(&b"ab"[..]);
        v.encode(&mut out).unwrap();
        assert_eq!(&out[..2], b"ab");
        assert_eq!(&out[2..], &v.encode_to_vec().unwrap()[..]);
    }

    #[test]
    fn any_buf_mut_takes_the_encoding_or_nothing() {
        let v = list(40, 300);
        let want = v.encode_to_vec().unwrap();
        let mut out = Vec::new().limit(want.len());
        v.encode_to_buf_mut(&mut out).unwrap();
        assert_eq!(out.get_ref(), &want);
        // One byte short: refused before a byte is put (put_slice would panic).
        let mut short = Vec::new().limit(want.len() - 1);
        let e = v.encode_to_buf_mut(&mut short).unwrap_err();
        assert_eq!(e.kind(), EncodeErrorKind::BufferTooSmall);
        assert!(short.get_ref().is_empty());
    }

    #[test]
    fn frames_decode_from_one_chunk_or_across_chunks() {
        let (a, b) = (list(3, 1), list(60, 200));
        let mut stream = Vec::new();
        a.encode_length_delimited(&mut stream).unwrap();
        b.encode_length_delimited(&mut stream).unwrap();
        // In place from a `Bytes`.
        let mut input = Bytes::from(stream.clone());
        assert_eq!(
            ListValue::decode_length_delimited_buf(&mut input),
            Ok(a.clone())
        );
        assert_eq!(
            ListValue::decode_length_delimited_buf(&mut input),
            Ok(b.clone())
        );
        assert!(!input.has_remaining());
        // Split at every byte of the first frame and near the second's prefix: a chain.
        let first = a.encoded_len() + 1;
        for cut in (0..=first + 4).chain([stream.len() - 1]) {
            let (x, y) = stream.split_at(cut);
            let mut chain = Bytes::copy_from_slice(x).chain(Bytes::copy_from_slice(y));
            assert_eq!(
                ListValue::decode_length_delimited_buf(&mut chain),
                Ok(a.clone()),
                "{cut}"
            );
            assert_eq!(
                ListValue::decode_length_delimited_buf(&mut chain),
                Ok(b.clone()),
                "{cut}"
            );
            assert!(!chain.has_remaining());
        }
        // A cut frame is `truncated` at its prefix, from one chunk or two.
        let cut = &stream[..first - 1];
        let e = ListValue::decode_length_delimited_buf(&mut &cut[..]).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (ErrorKind::Truncated, 0));
        let mut chain = cut[..1].chain(&cut[1..]);
        let e = ListValue::decode_length_delimited_buf(&mut chain).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (ErrorKind::Truncated, 0));
    }

    #[test]
    fn a_message_decodes_from_any_buf() {
        let v = list(30, 100);
        let bytes = v.encode_to_vec().unwrap();
        let mut one = Bytes::from(bytes.clone());
        assert_eq!(ListValue::decode_buf(&mut one), Ok(v.clone()));
        assert!(!one.has_remaining());
        let (x, y) = bytes.split_at(bytes.len() / 2);
        let mut two = x.chain(y);
        assert_eq!(ListValue::decode_buf(&mut two), Ok(v));
        // Refused in place: left as it was.
        let mut bad = Bytes::from(vec![0x02, 0x00]);
        assert!(ListValue::decode_buf(&mut bad).is_err());
        assert_eq!(bad.remaining(), 2);
    }
}
