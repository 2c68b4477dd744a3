//! The order service over tonic on 127.0.0.1 with the generated client: every streaming
//! shape, refusals as InvalidArgument with the bijoubuf code, protobuf bytes refused by
//! the marker. Each test is bounded: a fixed number of messages and a timeout.

use std::time::Duration;

#[path = "support/raw.rs"]
mod raw;

use bijoubuf::Message as _;
use bijoubuf_examples::orders::orders_client::OrdersClient;
use bijoubuf_examples::orders::{Order, OrderQuery};
use bijoubuf_examples::rpc::{MAX_BATCH, order, serve_orders};
use bijoubuf_tonic::{MARKER, refusal};
use tonic::transport::Channel;
use tonic::{Code, Status};

use raw::{GET, Raw};

const LIMIT: Duration = Duration::from_secs(20);

async fn client(addr: std::net::SocketAddr) -> OrdersClient<Channel> {
    OrdersClient::connect(format!("http://{addr}"))
        .await
        .unwrap()
}

fn bounded<F: std::future::Future>(f: F) -> F::Output {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        tokio::time::timeout(LIMIT, f)
            .await
            .expect("the test finishes in time")
    })
}

#[test]
fn unary_and_server_streaming() {
    bounded(async {
        let server = serve_orders().await.unwrap();
        let mut c = client(server.addr).await;
        let got = c
            .get(OrderQuery { id: 9, count: 0 })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(got, order(9));
        let e = c.get(OrderQuery::default()).await.unwrap_err();
        assert_eq!(e.code(), Code::NotFound);
        assert_eq!(refusal(&e), None);

        let mut stream = c
            .list(OrderQuery { id: 100, count: 5 })
            .await
            .unwrap()
            .into_inner();
        let mut ids = Vec::new();
        while let Some(o) = stream.message().await.unwrap() {
            assert_eq!(o, order(o.id));
            ids.push(o.id);
        }
        assert_eq!(ids, [100, 101, 102, 103, 104]);
        let e = c
            .list(OrderQuery {
                id: 1,
                count: MAX_BATCH + 1,
            })
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::OutOfRange);
    });
}

#[test]
fn client_and_bidi_streaming() {
    bounded(async {
        let server = serve_orders().await.unwrap();
        let mut c = client(server.addr).await;
        let batch: Vec<Order> = (1..=10).map(order).collect();
        let want: u64 = batch.iter().map(|o| u64::from(o.quantity)).sum();
        let summary = c
            .submit(tokio_stream::iter(batch.clone()))
            .await
            .unwrap()
            .into_inner();
        assert_eq!((summary.orders, summary.total_quantity), (10, want));

        let mut back = c
            .exchange(tokio_stream::iter(batch.clone()))
            .await
            .unwrap()
            .into_inner();
        let mut got = Vec::new();
        while let Some(o) = back.message().await.unwrap() {
            got.push((o.id, o.quantity));
        }
        let doubled: Vec<_> = batch.iter().map(|o| (o.id, o.quantity * 2)).collect();
        assert_eq!(got, doubled);
    });
}

/// One unary call to `path` with `payload` as the request message.
async fn call_raw(
    addr: std::net::SocketAddr,
    path: &'static str,
    payload: Vec<u8>,
) -> Result<Vec<u8>, Status> {
    let channel = Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.unwrap();
    grpc.unary(
        tonic::Request::new(payload),
        tonic::codegen::http::uri::PathAndQuery::from_static(path),
        Raw,
    )
    .await
    .map(tonic::Response::into_inner)
}

#[test]
fn the_wire_is_the_marker_then_the_canonical_bytes() {
    bounded(async {
        let server = serve_orders().await.unwrap();
        let mut req = vec![MARKER];
        OrderQuery { id: 3, count: 0 }.encode(&mut req).unwrap();
        let resp = call_raw(server.addr, GET, req).await.unwrap();
        let mut want = vec![MARKER];
        order(3).encode(&mut want).unwrap();
        assert_eq!(resp, want);
    });
}

#[test]
fn a_refused_request_is_invalid_argument_with_the_bijoubuf_code() {
    bounded(async {
        let server = serve_orders().await.unwrap();
        // OrderQuery.id written holding its default: refused, never handed to `get`.
        let e = call_raw(server.addr, GET, vec![MARKER, 0x00, 0x00])
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument);
        assert_eq!(
            e.message(),
            "default-value-present: OrderQuery.id holds its default at byte 0"
        );
        let r = refusal(&e).unwrap();
        assert_eq!(
            (r.code.as_str(), r.offset, r.path.as_str()),
            ("default-value-present", Some(0), "OrderQuery.id")
        );
        // A message cut short after its first key.
        let e = call_raw(server.addr, GET, vec![MARKER, 0x00])
            .await
            .unwrap_err();
        let r = refusal(&e).unwrap();
        assert_eq!((r.code.as_str(), r.offset), ("truncated", Some(1)));
    });
}

/// `OrderQuery` as protobuf sees it.
#[derive(Clone, PartialEq, prost::Message)]
struct OrderQueryProto {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(uint32, tag = "2")]
    count: u32,
}

#[test]
fn protobuf_bytes_are_refused_never_misread() {
    bounded(async {
        let server = serve_orders().await.unwrap();
        // A protobuf client (tonic + prost) calling the same method.
        let channel = Channel::from_shared(format!("http://{}", server.addr))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let mut grpc = tonic::client::Grpc::new(channel);
        grpc.ready().await.unwrap();
        let codec = tonic_prost::ProstCodec::<OrderQueryProto, OrderQueryProto>::default();
        let e = grpc
            .unary(
                tonic::Request::new(OrderQueryProto { id: 1, count: 0 }),
                tonic::codegen::http::uri::PathAndQuery::from_static(GET),
                codec,
            )
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument);
        assert_eq!(refusal(&e).unwrap().code, "missing-marker");
        assert!(
            e.message().contains("not 0x08 at byte 0"),
            "{}",
            e.message()
        );

        // The bytes prost sent, `08 01`, are a valid bijoubuf Order (quantity 1): read
        // without the marker, they would have been a different value.
        let proto = prost::Message::encode_to_vec(&OrderQueryProto { id: 1, count: 0 });
        assert_eq!(proto, [0x08, 0x01]);
        assert_eq!(Order::decode(&proto).unwrap().quantity, 1);
        // The empty protobuf message is refused too.
        let e = call_raw(server.addr, GET, Vec::new()).await.unwrap_err();
        assert_eq!(refusal(&e).unwrap().code, "missing-marker");
    });
}

#[test]
fn the_prost_peer_serves_the_same_orders_and_refuses_bijoubuf_bytes() {
    use bijoubuf_examples::orders_prost::orders_client::OrdersClient as ProstClient;
    bounded(async {
        let server = bijoubuf_examples::rpc_prost::serve_orders().await.unwrap();
        let mut c = ProstClient::connect(format!("http://{}", server.addr))
            .await
            .unwrap();
        let q = bijoubuf_examples::orders_prost::OrderQuery { id: 9, count: 0 };
        let got = c.get(q).await.unwrap().into_inner();
        assert_eq!(got, bijoubuf_examples::rpc_prost::order(9));
        assert_eq!((got.id, got.sku.as_str()), (9, "sku-9"));
        // Our payload, marker first, sent to the protobuf service: prost refuses tag 0.
        let mut req = vec![MARKER];
        OrderQuery { id: 3, count: 0 }.encode(&mut req).unwrap();
        let e = call_raw(server.addr, GET, req).await.unwrap_err();
        assert_eq!(e.code(), Code::Internal, "{e:?}");
    });
}
