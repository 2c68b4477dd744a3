//! The order service (`schemas/examples/orders.proto`) served over tonic: one rpc of each
//! streaming shape, the server the RPC tests, the Node client test and the benchmark run.
//!
//! [`serve`] binds it on a loopback port with tonic-web in front (so gRPC-web clients
//! from browsers and Node reach it too) and returns the address and a handle that stops
//! the server when dropped.

use std::net::SocketAddr;
use std::pin::Pin;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio_stream::wrappers::TcpListenerStream;
use tokio_stream::{Stream, StreamExt as _};
use tonic::{Request, Response, Status, Streaming};

use crate::orders::orders_server::{Orders, OrdersServer};
use crate::orders::{Order, OrderQuery, Summary};

/// The most orders one `List` call streams, and one `Submit` or `Exchange` call takes: a
/// server bounds what one request can make it do.
pub const MAX_BATCH: u32 = 1000;

/// A stateless order book: order `n` is `sku-n`, quantity `n % 7 + 1`.
#[derive(Debug, Default, Clone, Copy)]
pub struct OrderBook;

/// The order numbered `id`.
pub fn order(id: u64) -> Order {
    Order {
        id,
        sku: format!("sku-{id}"),
        quantity: (id % 7) as u32 + 1,
        note: String::new(),
    }
}

type OrderStream = Pin<Box<dyn Stream<Item = Result<Order, Status>> + Send>>;

#[tonic::async_trait]
impl Orders for OrderBook {
    async fn get(&self, request: Request<OrderQuery>) -> Result<Response<Order>, Status> {
        let q = request.into_inner();
        if q.id == 0 {
            return Err(Status::not_found("order 0 does not exist"));
        }
        Ok(Response::new(order(q.id)))
    }

    type ListStream = OrderStream;

    async fn list(&self, request: Request<OrderQuery>) -> Result<Response<OrderStream>, Status> {
        let q = request.into_inner();
        if q.count > MAX_BATCH {
            return Err(Status::out_of_range(format!(
                "at most {MAX_BATCH} orders per list"
            )));
        }
        let first = q.id;
        let orders = (0..u64::from(q.count)).map(move |i| Ok(order(first + i)));
        Ok(Response::new(Box::pin(tokio_stream::iter(orders))))
    }

    async fn submit(
        &self,
        request: Request<Streaming<Order>>,
    ) -> Result<Response<Summary>, Status> {
        let mut stream = request.into_inner();
        let mut summary = Summary::default();
        // A refused message ends the call with the codec's status (`?`).
        while let Some(o) = stream.message().await? {
            if summary.orders == MAX_BATCH {
                return Err(Status::out_of_range(format!(
                    "at most {MAX_BATCH} orders per batch"
                )));
            }
            summary.orders += 1;
            summary.total_quantity += u64::from(o.quantity);
        }
        Ok(Response::new(summary))
    }

    type ExchangeStream = OrderStream;

    async fn exchange(
        &self,
        request: Request<Streaming<Order>>,
    ) -> Result<Response<OrderStream>, Status> {
        let doubled = request.into_inner().take(MAX_BATCH as usize).map(|o| {
            o.map(|mut o| {
                o.quantity = o.quantity.saturating_mul(2);
                o
            })
        });
        Ok(Response::new(Box::pin(doubled)))
    }
}

/// A running server; dropping it stops the server.
#[derive(Debug)]
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    _stop: oneshot::Sender<()>,
}

/// Serve `service` (any tonic service, such as `OrdersServer::new(OrderBook)`) on
/// 127.0.0.1 at a port the system picks, with gRPC-web accepted next to gRPC.
///
/// # Errors
/// The listener cannot be bound.
pub async fn serve<S>(service: S) -> std::io::Result<Running>
where
    S: tonic::codegen::Service<
            tonic::codegen::http::Request<tonic::body::Body>,
            Response = tonic::codegen::http::Response<tonic::body::Body>,
            Error = std::convert::Infallible,
        > + tonic::server::NamedService
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tonic::transport::Server::builder()
        .accept_http1(true)
        .layer(tonic_web::GrpcWebLayer::new())
        .add_service(service)
        .serve_with_incoming_shutdown(TcpListenerStream::new(listener), async {
            let _ = stopped.await;
        });
    tokio::spawn(server);
    Ok(Running { addr, _stop: stop })
}

/// [`serve`] the order book.
///
/// # Errors
/// The listener cannot be bound.
pub async fn serve_orders() -> std::io::Result<Running> {
    serve(OrdersServer::new(OrderBook)).await
}
