//! gRPC round trips on loopback: the order service with bijoubuf (`bijoubuf-tonic`'s
//! codec, generated service) against the same service on tonic + prost, both served and
//! called in this process on 127.0.0.1 over one HTTP/2 connection each.
//!
//! Three workloads:
//! - **sequential**: unary `Get`, one call at a time;
//! - **in flight**: unary `Get`, 32 calls in flight on one connection;
//! - **stream**: server-streaming `List`, one call at a time, 100 orders each.
//!
//! The figure of merit is the **process CPU time per call** (`CLOCK_PROCESS_CPUTIME_ID`:
//! user and system time of every thread, client, server and tokio's workers alike), not
//! wall-clock calls per second: on a shared machine the wall clock counts whatever else
//! the cores did, and swung the calls/s ratio by more than the codecs differ. The work
//! is cut into many short rounds; in each, every workload runs both peers back to back,
//! the first peer alternating from round to round (AB, BA, AB, …), and gives one ratio
//! bijoubuf ÷ tonic + prost. The median of the per-round ratios and their 25th–75th
//! percentile are reported: a slow moment of the machine lands in one round and moves
//! the median little. Calls/s (per-round ratios too) and the sequential p50/p99 latency
//! are reported beside it.
//!
//! Bounded: `RPC_BENCH_ROUNDS` rounds (default 40) of `RPC_BENCH_CALLS` unary calls per
//! peer and workload (default 256; the stream workload makes a tenth of that many
//! calls), after 1,000 warm-up calls each: about 20 s on 2 cores. Not criterion:
//! percentiles need each call's time, and the figure of merit is a ratio of the two
//! peers measured in one run. Run with `cargo bench -p bijoubuf-benches --bench rpc`;
//! results go to `benches/RESULTS-rpc.md` by hand.

use std::time::{Duration, Instant};

use bijoubuf_benches::cpu::process_cpu_now;
use bijoubuf_benches::rpc::{self, IN_FLIGHT, PEERS, Peer, STREAM_LEN, WORKLOADS, Workload};

/// What one peer's turn at one workload in one round measured.
struct Turn {
    calls: usize,
    cpu: Duration,
    wall: Duration,
}

/// `n` calls of workload `w`; each sequential call's latency is added to `lat`.
async fn turn(peer: &mut Peer, w: Workload, n: usize, lat: &mut Vec<Duration>) -> Turn {
    let cpu = process_cpu_now();
    let wall = Instant::now();
    let calls = match w {
        Workload::Sequential => {
            for i in 0..n {
                let t = Instant::now();
                peer.get(1 + i as u64).await;
                lat.push(t.elapsed());
            }
            n
        }
        _ => rpc::calls(peer, w, n).await,
    };
    Turn {
        calls,
        wall: wall.elapsed(),
        cpu: process_cpu_now().saturating_sub(cpu),
    }
}

/// The `p` quantile of `sorted` (nearest rank).
fn quantile<T: Copy>(sorted: &[T], p: f64) -> T {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// Median, 25th and 75th percentile of `v`.
fn spread(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (quantile(&v, 0.5), quantile(&v, 0.25), quantile(&v, 0.75))
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(default)
}

fn main() {
    let rounds = env("RPC_BENCH_ROUNDS", 40);
    let calls = env("RPC_BENCH_CALLS", 256).max(IN_FLIGHT);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let served = [Peer::connect(0).await, Peer::connect(1).await];
        let mut peers = served.each_ref().map(|s| s.peer.clone());
        for p in &mut peers {
            for i in 0..1000 {
                p.get(1 + i).await;
            }
            for i in 0..20 {
                p.list(1 + i).await;
            }
        }
        // turns[workload][peer][round]
        let mut turns: Vec<[Vec<Turn>; 2]> = WORKLOADS.iter().map(|_| [vec![], vec![]]).collect();
        let mut lat: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
        for round in 0..rounds {
            for (w, (workload, _)) in WORKLOADS.iter().enumerate() {
                let n = match workload {
                    Workload::Stream => (calls / 10).max(1),
                    _ => calls,
                };
                for j in 0..2 {
                    let k = (round + j) % 2;
                    let t = turn(&mut peers[k], *workload, n, &mut lat[k]).await;
                    turns[w][k].push(t);
                }
            }
        }
        println!(
            "{rounds} rounds, {calls} unary calls per peer, workload and round ({} per List \
             round, {STREAM_LEN} orders each); first peer alternating",
            (calls / 10).max(1)
        );
        println!();
        println!(
            "| workload | peer | CPU µs per call | calls/s | CPU ratio median [p25, p75] | \
             calls/s ratio median [p25, p75] |"
        );
        println!("|---|---|---:|---:|---:|---:|");
        for (w, (_, name)) in WORKLOADS.iter().enumerate() {
            let [b, p] = &turns[w];
            let cpu_ratio = spread(
                b.iter()
                    .zip(p)
                    .map(|(b, p)| per_call(b.cpu, b.calls) / per_call(p.cpu, p.calls))
                    .collect(),
            );
            let rate_ratio = spread(
                b.iter()
                    .zip(p)
                    .map(|(b, p)| rate(b.wall, b.calls) / rate(p.wall, p.calls))
                    .collect(),
            );
            for (k, peer) in PEERS.iter().enumerate() {
                let t = &turns[w][k];
                let calls: usize = t.iter().map(|t| t.calls).sum();
                let cpu: Duration = t.iter().map(|t| t.cpu).sum();
                let wall: Duration = t.iter().map(|t| t.wall).sum();
                let (cr, rr) = if k == 0 {
                    (fmt3(cpu_ratio), fmt3(rate_ratio))
                } else {
                    (String::new(), String::new())
                };
                println!(
                    "| {name} | {peer} | {:.1} | {:.0} | {cr} | {rr} |",
                    per_call(cpu, calls) * 1e6,
                    rate(wall, calls),
                );
            }
        }
        println!();
        println!("| peer | sequential p50 | p99 |");
        println!("|---|---:|---:|");
        for (k, peer) in PEERS.iter().enumerate() {
            lat[k].sort();
            println!(
                "| {peer} | {:.1} µs | {:.1} µs |",
                quantile(&lat[k], 0.50).as_secs_f64() * 1e6,
                quantile(&lat[k], 0.99).as_secs_f64() * 1e6,
            );
        }
    });
}

/// Seconds per call.
fn per_call(d: Duration, calls: usize) -> f64 {
    d.as_secs_f64() / calls as f64
}

/// Calls per second.
fn rate(d: Duration, calls: usize) -> f64 {
    calls as f64 / d.as_secs_f64()
}

fn fmt3((m, lo, hi): (f64, f64, f64)) -> String {
    format!("{m:.3} [{lo:.3}, {hi:.3}]")
}
