//! The generated TypeScript gRPC-web clients, run by Node, against the Rust servers on
//! 127.0.0.1 (tonic with tonic-web): unary and server-streaming calls, a refusal by the
//! server's codec as a typed error with the bijoubuf code, the signed deposit.
//!
//! Needs Node 20 and npm: without them a local run says what to install and passes; in
//! CI (`CI` set) that is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use bijoubuf_examples::rpc::serve_orders;
use bijoubuf_examples::signing::demo_key;

fn package_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../typescript")
}

fn node_available() -> bool {
    let ok = |cmd: &str| {
        Command::new(cmd)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if ok("node") && ok("npm") {
        return true;
    }
    let msg = "the gRPC-web client test needs Node.js 20 or newer with npm";
    assert!(std::env::var_os("CI").is_none(), "CI: {msg}");
    eprintln!("note: skipping; {msg}");
    false
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Generate the clients into `typescript/gen/rpc` and compile them with the package's
/// pinned TypeScript into `typescript/dist/rpc-test`.
fn build() {
    let dir = package_dir();
    if !dir.join("node_modules/typescript").is_dir() {
        run(
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&dir),
            "npm ci in typescript/",
        );
    }
    let compiled = bijoubuf_schema::Compiler::new()
        .include(Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/examples"))
        .compile(&["orders.proto", "deposit.proto"])
        .expect("the example schemas compile");
    let mut options = bijoubuf_codegen_ts::Options::new();
    options.runtime_import("../../src/index.js").services(true);
    let gen_dir = dir.join("gen/rpc");
    std::fs::create_dir_all(&gen_dir).unwrap();
    for f in bijoubuf_codegen_ts::generate(&compiled.schema, &options) {
        std::fs::write(gen_dir.join(&f.name), f.content).unwrap();
    }
    run(
        Command::new("node")
            .args(["node_modules/typescript/bin/tsc", "-p", "tsconfig.rpc.json"])
            .current_dir(&dir),
        "tsc -p typescript/tsconfig.rpc.json",
    );
}

#[test]
fn node_calls_the_rust_servers_over_grpc_web() {
    if !node_available() {
        return;
    }
    build();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let key = demo_key();
    let (orders, deposits) = rt.block_on(async {
        (
            serve_orders().await.unwrap(),
            bijoubuf_examples::deposits::serve(key.verifying_key())
                .await
                .unwrap(),
        )
    });
    let seed: String = key.to_bytes().iter().map(|b| format!("{b:02x}")).collect();
    let script = package_dir().join("dist/rpc-test/rpc/client.js");
    let mut child = Command::new("node");
    child.arg(&script).args([
        format!("http://{}", orders.addr),
        format!("http://{}", deposits.addr),
        seed,
    ]);
    // Bounded: the script's calls have 10 s deadlines; the whole run gets 60 s.
    let out = rt.block_on(async {
        tokio::time::timeout(
            Duration::from_secs(60),
            tokio::process::Command::from(child).output(),
        )
        .await
        .expect("node finishes in time")
        .expect("node runs")
    });
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "node failed:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "get: 9 sku-9 3",
            "list: 100,101,102",
            "not found: RpcError 5 order 0 does not exist",
            "refused: RefusedError 3 default-value-present at 0 OrderQuery.id (by server)",
            "deposit: dora 700",
            "tampered: RpcError 16 bad-signature: the signature does not match the canonical bytes of examples.deposit.v1.Deposit",
            "history: 1:700",
        ]
    );
}
