//! Go and Rust over gRPC, both ways: the generated Go client (grpc-go, `go/grpc`) calls
//! the tonic order service, and the generated tonic client calls the Go one
//! (`go/grpc/internal/cmd/orders-server`), each side reading the other's refusals from
//! its trailers. Run when `go` is installed (1.26 or newer); outside CI a missing `go`
//! is a note and a pass, in CI (`CI` set) a failure. The Go module's dependencies come
//! from the module cache or the proxy, as its committed go.sum pins them.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

#[path = "support/raw.rs"]
mod raw;

use bijoubuf::Message as _;
use bijoubuf_examples::orders::orders_client::OrdersClient;
use bijoubuf_examples::orders::{Order, OrderQuery};
use bijoubuf_examples::rpc::{order, serve_orders};
use bijoubuf_tonic::{MARKER, refusal};
use tonic::Code;
use tonic::transport::Channel;

use raw::{GET, Raw};

/// The `go` binary, or `None` (after a note) when it is missing outside CI.
fn go() -> Option<PathBuf> {
    let go = PathBuf::from(std::env::var_os("GO").unwrap_or_else(|| "go".into()));
    if Command::new(&go)
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return Some(go);
    }
    let msg = "the Go leg of the RPC tests needs Go 1.26 or newer (`go` on the PATH, or GO)";
    assert!(std::env::var_os("CI").is_none(), "CI: {msg}");
    eprintln!("note: skipping; {msg}");
    None
}

fn module() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../go/grpc")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn the_go_client_calls_the_tonic_server() {
    let Some(go) = go() else {
        return;
    };
    let rt = runtime();
    let server = rt.block_on(serve_orders()).unwrap();
    // The server runs on the runtime's workers while the Go test calls it.
    let out = Command::new(&go)
        .args([
            "test",
            "-count=1",
            "-v",
            "-run",
            "^TestAgainstATonicServer$",
            ".",
        ])
        .current_dir(module())
        .env("BIJOUBUF_TONIC_ADDR", server.addr.to_string())
        .output()
        .expect("go test starts");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "go test failed:\n{text}");
    assert!(
        text.contains("--- PASS: TestAgainstATonicServer"),
        "the Go test did not run:\n{text}"
    );
}

/// The Go order server, stopped (its standard input closed, then killed) on drop.
struct GoServer {
    child: Child,
    addr: String,
}

impl GoServer {
    fn start(go: &Path) -> GoServer {
        let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
            PathBuf::from,
        );
        let exe = target.join("go").join("orders-server");
        let out = Command::new(go)
            .args(["build", "-o"])
            .arg(&exe)
            .arg("./internal/cmd/orders-server")
            .current_dir(module())
            .output()
            .expect("go build starts");
        assert!(
            out.status.success(),
            "go build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut child = Command::new(&exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the Go server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the Go server prints its address");
        GoServer {
            child,
            addr: line.trim().to_string(),
        }
    }
}

impl Drop for GoServer {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_tonic_client_calls_the_go_server() {
    let Some(go) = go() else {
        return;
    };
    let server = GoServer::start(&go);
    let url = format!("http://{}", server.addr);
    runtime().block_on(async {
        tokio::time::timeout(Duration::from_secs(20), async {
            let mut c = OrdersClient::connect(url.clone()).await.unwrap();
            // tonic sends `application/grpc`: the Go server takes it.
            let got = c.get(OrderQuery { id: 9, count: 0 }).await.unwrap();
            assert_eq!(got.into_inner(), order(9));
            let e = c.get(OrderQuery::default()).await.unwrap_err();
            assert_eq!(e.code(), Code::NotFound);
            assert_eq!(refusal(&e), None);
            let mut list = c
                .list(OrderQuery { id: 100, count: 3 })
                .await
                .unwrap()
                .into_inner();
            let mut ids = Vec::new();
            while let Some(o) = list.message().await.unwrap() {
                assert_eq!(o, order(o.id));
                ids.push(o.id);
            }
            assert_eq!(ids, [100, 101, 102]);
            let batch: Vec<Order> = (1..=10).map(order).collect();
            let sum = c
                .submit(tokio_stream::iter(batch.clone()))
                .await
                .unwrap()
                .into_inner();
            assert_eq!(sum.orders, 10);
            let mut back = c
                .exchange(tokio_stream::iter(batch.clone()))
                .await
                .unwrap()
                .into_inner();
            let mut doubled = Vec::new();
            while let Some(o) = back.message().await.unwrap() {
                doubled.push((o.id, o.quantity));
            }
            let want: Vec<_> = batch.iter().map(|o| (o.id, o.quantity * 2)).collect();
            assert_eq!(doubled, want);

            // The Go server's answer to `OrderQuery { id: 3 }` is the marker then
            // `order(3)`'s canonical bytes; its refusals reach tonic's `refusal`.
            let channel = Channel::from_shared(url.clone())
                .unwrap()
                .connect()
                .await
                .unwrap();
            let mut grpc = tonic::client::Grpc::new(channel);
            let mut call = async |payload: Vec<u8>| {
                grpc.ready().await.unwrap();
                grpc.unary(
                    tonic::Request::new(payload),
                    tonic::codegen::http::uri::PathAndQuery::from_static(GET),
                    Raw,
                )
                .await
                .map(tonic::Response::into_inner)
            };
            let mut req = vec![MARKER];
            OrderQuery { id: 3, count: 0 }.encode(&mut req).unwrap();
            let mut want = vec![MARKER];
            order(3).encode(&mut want).unwrap();
            assert_eq!(call(req).await.unwrap(), want);
            let e = call(vec![0x08, 0x01]).await.unwrap_err();
            assert_eq!(e.code(), Code::InvalidArgument);
            assert!(
                e.message().contains("not 0x08 at byte 0"),
                "{}",
                e.message()
            );
            let r = refusal(&e).unwrap();
            assert_eq!(
                (r.code.as_str(), r.offset, r.path.as_str()),
                ("missing-marker", Some(0), "")
            );
            let e = call(vec![MARKER, 0x00, 0x00]).await.unwrap_err();
            assert_eq!(
                e.message(),
                "default-value-present: OrderQuery.id holds its default at byte 0"
            );
            let r = refusal(&e).unwrap();
            assert_eq!(
                (r.code.as_str(), r.offset, r.path.as_str()),
                ("default-value-present", Some(0), "OrderQuery.id")
            );
        })
        .await
        .expect("the calls finish in time");
    });
}
