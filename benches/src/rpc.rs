//! The order service's whole gRPC calls, for `benches/rpc.rs` (CPU time per call) and
//! `rpc-profile` (instructions per call under callgrind): one [`Peer`] per library, both
//! served and called in this process on 127.0.0.1 over one HTTP/2 connection each.
//!
//! Three workloads ([`Workload`]): unary `Get` one call at a time; unary `Get` with
//! [`IN_FLIGHT`] calls in flight on the one connection; server-streaming `List` of
//! [`STREAM_LEN`] orders, one call at a time. Every reply is checked, so a peer that
//! answered wrongly stops the run instead of being timed.

use bijoubuf_examples::orders::OrderQuery;
use bijoubuf_examples::orders::orders_client::OrdersClient;
use bijoubuf_examples::orders_prost::OrderQuery as ProstQuery;
use bijoubuf_examples::orders_prost::orders_client::OrdersClient as ProstClient;
use bijoubuf_examples::rpc::Running;
use tonic::transport::Channel;

/// Calls in flight in [`Workload::InFlight`].
pub const IN_FLIGHT: usize = 32;
/// Orders per `List` call.
pub const STREAM_LEN: u32 = 100;
/// The peers' names, in the order [`Peer::connect`] takes them.
pub const PEERS: [&str; 2] = ["bijoubuf", "tonic + prost"];

/// One peer: a client connected to its own server, and a way to make each call.
#[derive(Clone)]
pub enum Peer {
    /// `bijoubuf-tonic`'s codec and the generated bijoubuf service.
    Bijou(OrdersClient<Channel>),
    /// The same service on tonic + prost.
    Prost(ProstClient<Channel>),
}

/// A peer's server and its connected client; dropping it stops the server.
pub struct Served {
    /// The client.
    pub peer: Peer,
    _server: Running,
}

impl Peer {
    /// Serve peer `k` (0: bijoubuf, 1: tonic + prost, as [`PEERS`]) on the current tokio
    /// runtime and connect a client to it.
    ///
    /// # Panics
    /// `k` is neither 0 nor 1, or the server cannot be bound or reached.
    pub async fn connect(k: usize) -> Served {
        let server = match k {
            0 => bijoubuf_examples::rpc::serve_orders().await,
            1 => bijoubuf_examples::rpc_prost::serve_orders().await,
            _ => panic!("no peer {k}"),
        }
        .expect("serve");
        let url = format!("http://{}", server.addr);
        let peer = match k {
            0 => Peer::Bijou(OrdersClient::connect(url).await.expect("connect")),
            _ => Peer::Prost(ProstClient::connect(url).await.expect("connect")),
        };
        Served {
            peer,
            _server: server,
        }
    }

    /// One unary `Get` of order `id`, the reply checked.
    ///
    /// # Panics
    /// The call fails or answers with another order.
    pub async fn get(&mut self, id: u64) {
        match self {
            Peer::Bijou(c) => {
                let o = c.get(OrderQuery { id, count: 0 }).await.expect("call");
                assert_eq!(o.get_ref().id, id);
            }
            Peer::Prost(c) => {
                let o = c.get(ProstQuery { id, count: 0 }).await.expect("call");
                assert_eq!(o.get_ref().id, id);
            }
        }
    }

    /// One `List` of [`STREAM_LEN`] orders from `id`, every one read and checked.
    ///
    /// # Panics
    /// The call fails or a message is missing or wrong.
    pub async fn list(&mut self, id: u64) {
        let mut n = 0;
        match self {
            Peer::Bijou(c) => {
                let mut s = c
                    .list(OrderQuery {
                        id,
                        count: STREAM_LEN,
                    })
                    .await
                    .expect("call")
                    .into_inner();
                while let Some(o) = s.message().await.expect("message") {
                    assert_eq!(o.id, id + n);
                    n += 1;
                }
            }
            Peer::Prost(c) => {
                let mut s = c
                    .list(ProstQuery {
                        id,
                        count: STREAM_LEN,
                    })
                    .await
                    .expect("call")
                    .into_inner();
                while let Some(o) = s.message().await.expect("message") {
                    assert_eq!(o.id, id + n);
                    n += 1;
                }
            }
        }
        assert_eq!(n, u64::from(STREAM_LEN));
    }

    /// About `n` unary `Get`s, [`IN_FLIGHT`] at a time on this peer's one connection (each
    /// of [`IN_FLIGHT`] tasks makes `n / IN_FLIGHT` calls, rounded up); returns how many
    /// calls were made.
    ///
    /// # Panics
    /// A call fails.
    pub async fn in_flight(&self, n: usize) -> usize {
        let per = n.div_ceil(IN_FLIGHT);
        let mut tasks = Vec::with_capacity(IN_FLIGHT);
        for k in 0..IN_FLIGHT {
            let mut p = self.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..per {
                    p.get(1 + (k * per + i) as u64).await;
                }
            }));
        }
        for task in tasks {
            task.await.expect("task");
        }
        per * IN_FLIGHT
    }
}

/// The three ways of calling the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// Unary `Get`, one call at a time.
    Sequential,
    /// Unary `Get`, [`IN_FLIGHT`] calls in flight.
    InFlight,
    /// Server-streaming `List` of [`STREAM_LEN`] orders, one call at a time.
    Stream,
}

/// Every workload with the name the results give it.
pub const WORKLOADS: [(Workload, &str); 3] = [
    (Workload::Sequential, "sequential Get"),
    (Workload::InFlight, "32 in flight Get"),
    (Workload::Stream, "stream List ×100"),
];

/// About `n` calls of workload `w` (see [`Peer::in_flight`]); returns how many were made.
pub async fn calls(peer: &mut Peer, w: Workload, n: usize) -> usize {
    match w {
        Workload::Sequential => {
            for i in 0..n {
                peer.get(1 + i as u64).await;
            }
            n
        }
        Workload::InFlight => peer.in_flight(n).await,
        Workload::Stream => {
            for i in 0..n {
                peer.list(1 + i as u64).await;
            }
            n
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both peers answer every workload on a one-thread runtime (as `rpc-profile` runs
    /// them), and the counts of calls are what was asked for.
    #[test]
    fn every_peer_answers_every_workload() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async {
            for k in 0..PEERS.len() {
                let mut s = Peer::connect(k).await;
                assert_eq!(calls(&mut s.peer, Workload::Sequential, 3).await, 3);
                assert_eq!(calls(&mut s.peer, Workload::InFlight, 40).await, 64);
                assert_eq!(calls(&mut s.peer, Workload::Stream, 2).await, 2);
            }
        });
    }
}
