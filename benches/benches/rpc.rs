//! Unary gRPC round trips on loopback: the order service's `Get` with bijoubuf
//! (`bijoubuf-tonic`'s codec, generated service) against the same service on tonic +
//! prost, both served and called in this process on 127.0.0.1 over one HTTP/2
//! connection each.
//!
//! Two workloads, each run in alternating rounds so both peers see the same machine:
//! - **sequential**: one call at a time; round trips per second and the p50/p99 latency;
//! - **concurrent**: 32 calls in flight on one connection; round trips per second.
//!
//! Bounded: `RPC_BENCH_CALLS` calls per peer and workload (default 20,000), after 1,000
//! warm-up calls each. Not criterion: percentiles need each call's time, and the figure
//! of merit is a ratio of the two peers measured in one run. Run with
//! `cargo bench -p bijoubuf-benches --bench rpc`; results go to `benches/RESULTS.md` by hand.

use std::time::{Duration, Instant};

use bijoubuf_examples::orders::OrderQuery;
use bijoubuf_examples::orders::orders_client::OrdersClient;
use bijoubuf_examples::orders_prost::OrderQuery as ProstQuery;
use bijoubuf_examples::orders_prost::orders_client::OrdersClient as ProstClient;
use tonic::transport::Channel;

const ROUNDS: usize = 10;
const IN_FLIGHT: usize = 32;

/// One peer: a way to make one `Get` call.
#[derive(Clone)]
enum Peer {
    Bijou(OrdersClient<Channel>),
    Prost(ProstClient<Channel>),
}

impl Peer {
    async fn get(&mut self, id: u64) {
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
}

/// `n` sequential calls; each call's latency.
async fn sequential(peer: &mut Peer, n: usize, first: u64) -> Vec<Duration> {
    let mut times = Vec::with_capacity(n);
    for i in 0..n {
        let t = Instant::now();
        peer.get(first + i as u64).await;
        times.push(t.elapsed());
    }
    times
}

/// `n` calls with `IN_FLIGHT` at a time on clones of one client (one connection).
async fn concurrent(peer: &Peer, n: usize) -> Duration {
    let t = Instant::now();
    let per = n / IN_FLIGHT;
    let mut tasks = Vec::new();
    for k in 0..IN_FLIGHT {
        let mut p = peer.clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..per {
                p.get(1 + (k * per + i) as u64).await;
            }
        }));
    }
    for task in tasks {
        task.await.expect("task");
    }
    t.elapsed()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn main() {
    let calls: usize = std::env::var("RPC_BENCH_CALLS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let per_round = (calls / ROUNDS).max(IN_FLIGHT);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let bijou_server = bijoubuf_examples::rpc::serve_orders().await.expect("serve");
        let prost_server = bijoubuf_examples::rpc_prost::serve_orders()
            .await
            .expect("serve");
        let mut peers = [
            (
                "bijoubuf",
                Peer::Bijou(
                    OrdersClient::connect(format!("http://{}", bijou_server.addr))
                        .await
                        .expect("connect"),
                ),
            ),
            (
                "tonic + prost",
                Peer::Prost(
                    ProstClient::connect(format!("http://{}", prost_server.addr))
                        .await
                        .expect("connect"),
                ),
            ),
        ];
        for (_, p) in &mut peers {
            sequential(p, 1000, 1).await;
        }
        let mut lat: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
        let mut seq_time = [Duration::ZERO; 2];
        let mut conc_time = [Duration::ZERO; 2];
        for round in 0..ROUNDS {
            // Alternate which peer goes first.
            for j in 0..2 {
                let k = (round + j) % 2;
                let times = sequential(&mut peers[k].1, per_round, 1).await;
                seq_time[k] += times.iter().sum::<Duration>();
                lat[k].extend(times);
                conc_time[k] += concurrent(&peers[k].1, per_round).await;
            }
        }
        let n = (per_round * ROUNDS) as f64;
        let conc_n = ((per_round / IN_FLIGHT) * IN_FLIGHT * ROUNDS) as f64;
        println!(
            "unary Get on loopback, {} calls per peer and workload, {ROUNDS} alternating rounds",
            per_round * ROUNDS
        );
        println!("| peer | sequential calls/s | p50 | p99 | {IN_FLIGHT} in flight calls/s |");
        println!("|---|---:|---:|---:|---:|");
        let mut rates = [(0.0, 0.0); 2];
        for k in 0..2 {
            lat[k].sort();
            let seq = n / seq_time[k].as_secs_f64();
            let conc = conc_n / conc_time[k].as_secs_f64();
            rates[k] = (seq, conc);
            println!(
                "| {} | {:.0} | {:.1} µs | {:.1} µs | {:.0} |",
                peers[k].0,
                seq,
                percentile(&lat[k], 0.50).as_secs_f64() * 1e6,
                percentile(&lat[k], 0.99).as_secs_f64() * 1e6,
                conc
            );
        }
        println!(
            "bijoubuf ÷ tonic + prost, calls/s: sequential {:.3}, {IN_FLIGHT} in flight {:.3}",
            rates[0].0 / rates[1].0,
            rates[0].1 / rates[1].1
        );
    });
}
