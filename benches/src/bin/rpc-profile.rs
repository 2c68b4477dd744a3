//! Whole gRPC calls of one peer in a loop, for instruction counts: the service and
//! workloads of `benches/rpc.rs` under `valgrind --tool=callgrind`, repeatable where
//! CPU time on a shared machine is not.
//!
//! ```text
//! rpc-profile PEER WORKLOAD N
//! valgrind --tool=callgrind --toggle-collect='*timed*' \
//!     target/release/rpc-profile bijoubuf get 200
//! ```
//! PEER is `bijoubuf` or `prost` (tonic + prost); WORKLOAD is `get` (unary `Get`, one at
//! a time), `in-flight` (unary `Get`, 32 in flight) or `list` (server-streaming `List` of
//! 100 orders). The client, the server and every task they spawn run on one
//! current-thread tokio runtime, on the main thread, so one thread does the whole call:
//! HTTP/2, hyper, tokio, the loopback socket calls and the codec. The server is started,
//! the client connected and the peer warmed up (1,000 `Get`s, 20 `List`s, one round of
//! the workload) before `timed`, which drives N calls to completion; with
//! `--toggle-collect='*timed*'` only those are counted. Divide the total by the number of
//! calls printed for instructions per call. As a check that nothing runs outside `timed`
//! (another thread, setup), count the whole run without the option for N and 2N calls:
//! the difference divided by N agrees.

use bijoubuf_benches::rpc::{Peer, Workload, calls};
use tokio::runtime::Runtime;

/// The calls callgrind collects: `n` of workload `w`, run to completion on `rt`.
#[inline(never)]
fn timed(rt: &Runtime, peer: &mut Peer, w: Workload, n: usize) -> usize {
    rt.block_on(calls(peer, w, n))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(peer), Some(workload), Some(n)) = (args.first(), args.get(1), args.get(2)) else {
        return Err("usage: rpc-profile PEER WORKLOAD N".into());
    };
    let k = match peer.as_str() {
        "bijoubuf" => 0,
        "prost" => 1,
        _ => return Err(format!("unknown peer {peer} (bijoubuf, prost)")),
    };
    let w = match workload.as_str() {
        "get" => Workload::Sequential,
        "in-flight" => Workload::InFlight,
        "list" => Workload::Stream,
        _ => {
            return Err(format!(
                "unknown workload {workload} (get, in-flight, list)"
            ));
        }
    };
    let n: usize = n.parse().map_err(|e| format!("N: {e}"))?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    let mut served = rt.block_on(async {
        let mut s = Peer::connect(k).await;
        calls(&mut s.peer, Workload::Sequential, 1000).await;
        calls(&mut s.peer, Workload::Stream, 20).await;
        calls(&mut s.peer, w, n).await;
        s
    });
    let made = timed(&rt, &mut served.peer, w, n);
    println!("{made} calls");
    Ok(())
}
