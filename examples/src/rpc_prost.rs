//! The order service of [`crate::rpc`] on tonic + prost: the same handlers over prost's
//! types and codec, for the RPC benchmark's comparison (`benches/rpc.rs`).

use std::pin::Pin;

use tokio_stream::{Stream, StreamExt as _};
use tonic::{Request, Response, Status, Streaming};

use crate::orders_prost::orders_server::{Orders, OrdersServer};
use crate::orders_prost::{Order, OrderQuery, Summary};
use crate::rpc::MAX_BATCH;

/// [`crate::rpc::OrderBook`] with prost's types.
#[derive(Debug, Default, Clone, Copy)]
pub struct ProstOrderBook;

/// The order numbered `id`, as [`crate::rpc::order`] makes it.
pub fn order(id: u64) -> Order {
    let o = crate::rpc::order(id);
    Order {
        id: o.id,
        sku: o.sku,
        quantity: o.quantity,
        note: o.note,
    }
}

type OrderStream = Pin<Box<dyn Stream<Item = Result<Order, Status>> + Send>>;

#[tonic::async_trait]
impl Orders for ProstOrderBook {
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

/// [`crate::rpc::serve`] the prost order book.
///
/// # Errors
/// The listener cannot be bound.
pub async fn serve_orders() -> std::io::Result<crate::rpc::Running> {
    crate::rpc::serve(OrdersServer::new(ProstOrderBook)).await
}
