//! The gRPC codecs alone, on tonic's own buffers: what `benches/rpc_codec.rs` times and
//! `rpc-codec-profile` counts, bijoubuf-tonic's codec against tonic-prost's
//! `ProstCodec` on the same messages.
//!
//! tonic builds its `EncodeBuf` and `DecodeBuf` only inside the crate, so each codec is
//! driven through tonic's public types that call it in a real RPC: [`encode`] turns a
//! batch of messages into gRPC frames with `EncodeBody` (as a client sends a request
//! stream: a 5-byte header per message, frames gathered into pieces of up to 32 KiB),
//! and [`decode`] reads them back with `Streaming` (as a server reads a request). The
//! HTTP/2 and the network are left out; tonic's framing is the same for both codecs.
//!
//! [`SafeCodec`] is bijoubuf-tonic's codec with its encode through the safe
//! [`Message::encode_to_buf_mut`] (a chunk on the stack, copied into tonic's buffer)
//! instead of straight into tonic's spare capacity: the reference the codec's `unsafe`
//! encode is measured against.
//!
//! ```
//! use bijoubuf_benches::rpc_codec::{decode, encode, orders};
//! use bijoubuf_examples::orders::Order;
//! use bijoubuf_tonic::StrictCodec;
//!
//! let frames = encode(StrictCodec::<Order, Order>::default(), orders(3));
//! let back = decode(StrictCodec::<Order, Order>::default(), frames).expect("decodes");
//! assert_eq!(back, orders(3));
//! ```

use std::marker::PhantomData;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use bijoubuf::Message;
use bijoubuf_examples::orders::{Order, OrderQuery};
use bytes::{BufMut as _, Bytes, BytesMut};
use http_body_util::Full;
use tokio_stream::Stream;
use tonic::Status;
use tonic::codec::{Codec, Decoder, EncodeBody, EncodeBuf, Encoder, Streaming};
use tonic::codegen::Body as _;

/// The order service's `Get` replies for ids `1..=n`, as its server builds them.
pub fn orders(n: u64) -> Vec<Order> {
    (1..=n).map(bijoubuf_examples::rpc::order).collect()
}

/// The order service's `Get` requests for ids `1..=n`, as the RPC benchmark sends them.
pub fn queries(n: u64) -> Vec<OrderQuery> {
    (1..=n).map(|id| OrderQuery { id, count: 0 }).collect()
}

/// `Order` as prost's type, the same logical value.
pub fn order_to_prost(o: &Order) -> bijoubuf_examples::orders_prost::Order {
    bijoubuf_examples::orders_prost::Order {
        id: o.id,
        sku: o.sku.clone(),
        quantity: o.quantity,
        note: o.note.clone(),
    }
}

/// `OrderQuery` as prost's type, the same logical value.
pub fn query_to_prost(q: &OrderQuery) -> bijoubuf_examples::orders_prost::OrderQuery {
    bijoubuf_examples::orders_prost::OrderQuery {
        id: q.id,
        count: q.count,
    }
}

/// Encode `items` with `codec` into gRPC frames as a client's request stream is, all of
/// them back to back in one buffer.
///
/// # Panics
/// When the codec refuses an item (the benchmark's values are all valid).
pub fn encode<C: Codec>(mut codec: C, items: Vec<C::Encode>) -> Bytes
where
    C::Encoder: Encoder<Error = Status>,
{
    let source = tokio_stream::iter(items.into_iter().map(Ok));
    let mut body = pin!(EncodeBody::new_client(codec.encoder(), source, None, None));
    let mut cx = Context::from_waker(Waker::noop());
    let mut out = BytesMut::new();
    loop {
        match body.as_mut().poll_frame(&mut cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    if out.is_empty() {
                        // One piece (the usual case below 32 KiB): no copy.
                        out = BytesMut::from(data);
                    } else {
                        out.put(data);
                    }
                }
            }
            Poll::Ready(Some(Err(status))) => panic!("encode refused: {status}"),
            Poll::Ready(None) => return out.freeze(),
            // A ready stream never leaves the body pending.
            Poll::Pending => panic!("encode pending on a ready stream"),
        }
    }
}

/// Decode every gRPC frame of `frames` with `codec`, as a server reads a request stream.
///
/// # Errors
/// The first refusal, as the codec's `Status`.
pub fn decode<C: Codec>(mut codec: C, frames: Bytes) -> Result<Vec<C::Decode>, Status>
where
    C::Decoder: Decoder<Error = Status> + Send + 'static,
    C::Decode: Send + 'static,
{
    let body = Full::new(frames);
    let mut stream = pin!(Streaming::new_request(codec.decoder(), body, None, None));
    let mut cx = Context::from_waker(Waker::noop());
    let mut out = Vec::new();
    loop {
        match stream.as_mut().poll_next(&mut cx) {
            Poll::Ready(Some(item)) => out.push(item?),
            Poll::Ready(None) => return Ok(out),
            Poll::Pending => return Err(Status::internal("decode pending on a whole body")),
        }
    }
}

/// bijoubuf-tonic's codec with the encode through the safe
/// [`Message::encode_to_buf_mut`]; decode as bijoubuf-tonic's (see the module docs).
pub struct SafeCodec<E, D>(PhantomData<fn(E) -> D>);

impl<E, D> Default for SafeCodec<E, D> {
    fn default() -> Self {
        SafeCodec(PhantomData)
    }
}

/// The encoding half of [`SafeCodec`].
pub struct SafeEncoder<E>(PhantomData<fn(E)>);

impl<E: Message> Encoder for SafeEncoder<E> {
    type Item = E;
    type Error = Status;

    fn encode(&mut self, item: E, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_u8(bijoubuf_tonic::MARKER);
        item.encode_to_buf_mut(dst)
            .map_err(|e| Status::internal(e.to_string()))
    }
}

impl<E, D> Codec for SafeCodec<E, D>
where
    E: Message + Send + 'static,
    D: Message + Send + 'static,
{
    type Encode = E;
    type Decode = D;
    type Encoder = SafeEncoder<E>;
    type Decoder = bijoubuf_tonic::MessageDecoder<D, bijoubuf_tonic::Strict>;

    fn encoder(&mut self) -> Self::Encoder {
        SafeEncoder(PhantomData)
    }

    fn decoder(&mut self) -> Self::Decoder {
        bijoubuf_tonic::StrictCodec::<E, D>::default().decoder()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bijoubuf_examples::orders_prost as pb;
    use bijoubuf_tonic::StrictCodec;
    use tonic_prost::ProstCodec;

    #[test]
    fn each_codec_reads_back_what_it_wrote() {
        let o = orders(40);
        let q = queries(40);
        let frames = encode(StrictCodec::<Order, Order>::default(), o.clone());
        let back = decode(StrictCodec::<Order, Order>::default(), frames).expect("decodes");
        assert_eq!(back, o);
        let frames = encode(SafeCodec::<OrderQuery, OrderQuery>::default(), q.clone());
        let back = decode(StrictCodec::<OrderQuery, OrderQuery>::default(), frames);
        assert_eq!(back.expect("decodes"), q);
        let po: Vec<pb::Order> = o.iter().map(order_to_prost).collect();
        let frames = encode(ProstCodec::<pb::Order, pb::Order>::default(), po.clone());
        let back = decode(ProstCodec::<pb::Order, pb::Order>::default(), frames);
        assert_eq!(back.expect("decodes"), po);
    }

    #[test]
    fn the_safe_encode_writes_the_same_frames() {
        let o = orders(1000);
        assert_eq!(
            encode(SafeCodec::<Order, Order>::default(), o.clone()),
            encode(StrictCodec::<Order, Order>::default(), o)
        );
    }

    #[test]
    fn frames_are_five_bytes_of_header_the_marker_and_the_message() {
        let o = orders(2);
        let frames = encode(StrictCodec::<Order, Order>::default(), o.clone());
        let mut want = Vec::new();
        for m in &o {
            let body = m.encode_to_vec().expect("encodes");
            want.push(0);
            want.extend_from_slice(&(body.len() as u32 + 1).to_be_bytes());
            want.push(bijoubuf_tonic::MARKER);
            want.extend_from_slice(&body);
        }
        assert_eq!(frames.as_ref(), want.as_slice());
    }

    #[test]
    fn prost_frames_are_refused_by_the_bijoubuf_codec() {
        let po: Vec<pb::Order> = orders(1).iter().map(order_to_prost).collect();
        let frames = encode(ProstCodec::<pb::Order, pb::Order>::default(), po);
        let e = decode(StrictCodec::<Order, Order>::default(), frames).expect_err("refused");
        assert_eq!(
            bijoubuf_tonic::refusal(&e).map(|r| r.code),
            Some(bijoubuf_tonic::MISSING_MARKER.to_string())
        );
    }
}
