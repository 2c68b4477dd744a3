//! `Options::services`: grpc-go services in a second file per Go package. A snapshot of
//! the order service (one method per streaming shape), the switch's default, and (with
//! Go installed) services in both layouts compiled against grpc-go and the codec package
//! `go/grpc`, gofmt- and vet-clean.

#[path = "support/go.rs"]
mod go_tool;

use std::path::{Path, PathBuf};
use std::process::Command;

use bijoubuf_codegen_go::{GeneratedFile, Options, generate};
use bijoubuf_schema::Compiler;
use go_tool::{go, run};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn examples(names: &[&str], services: bool) -> Vec<GeneratedFile> {
    let compiled = Compiler::new()
        .include(repo().join("schemas/examples"))
        .compile(names)
        .unwrap_or_else(|e| panic!("{names:?} do not compile: {e}"));
    let mut options = Options::new();
    options.module("example.com/gen").services(services);
    generate(&compiled.schema, &options)
}

fn names(files: &[GeneratedFile]) -> Vec<&str> {
    files.iter().map(|f| f.name.as_str()).collect()
}

#[test]
fn orders_service() {
    let files = examples(&["orders.proto"], true);
    assert_eq!(
        names(&files),
        [
            "examples/orders/v1/v1.bb.go",
            "examples/orders/v1/v1_grpc.bb.go"
        ]
    );
    insta::assert_snapshot!("orders_service", files[1].content);
}

#[test]
fn services_are_off_by_default_and_the_messages_file_does_not_change() {
    let without = examples(&["deposit.proto"], false);
    let with = examples(&["deposit.proto"], true);
    assert_eq!(
        names(&without),
        [
            "examples/deposit/v1/v1.bb.go",
            "examples/signed/v1/v1.bb.go"
        ]
    );
    assert_eq!(
        names(&with),
        [
            "examples/deposit/v1/v1.bb.go",
            "examples/deposit/v1/v1_grpc.bb.go",
            "examples/signed/v1/v1.bb.go"
        ]
    );
    assert_eq!(without[0], with[0]);
    assert_eq!(without[1], with[2]);
    assert!(!with[0].content.contains("google.golang.org/grpc"));
    // A request type of another package is imported under an alias.
    let svc = &with[1].content;
    assert!(
        svc.contains("\tv1 \"example.com/gen/examples/signed/v1\"\n"),
        "{svc}"
    );
    assert!(
        svc.contains("Deposit(ctx context.Context, in *v1.SignedMessage, opts ...grpc.CallOption) (*Receipt, error)"),
        "{svc}"
    );
    assert!(
        svc.contains("\"/examples.deposit.v1.Deposits/History\""),
        "{svc}"
    );
}

/// A message package named like a local of the generated handlers (`bs`, `stream`, …)
/// is imported under another alias, so that no handler's local hides it.
#[test]
fn import_aliases_step_aside_from_the_handlers_locals() {
    let compiled = bijoubuf_schema::compile_sources(&[
        (
            "a/bs/m.proto",
            r#"syntax = "proto3"; package a.bs; message M { uint64 id = 1; }"#,
        ),
        (
            "a/stream/n.proto",
            r#"syntax = "proto3"; package a.stream; message N { uint64 id = 1; }"#,
        ),
        (
            "s.proto",
            r#"syntax = "proto3"; package q; import "a/bs/m.proto"; import "a/stream/n.proto";
            service S { rpc Talk(stream a.bs.M) returns (stream a.stream.N); }"#,
        ),
    ])
    .expect("compiles");
    let mut options = Options::new();
    options.module("example.com/gen").services(true);
    let files = generate(&compiled.schema, &options);
    let svc = &files
        .iter()
        .find(|f| f.name == "q/q_grpc.bb.go")
        .expect("the services file")
        .content;
    for alias in ["bs", "stream"] {
        assert!(
            !svc.contains(&format!("\t{alias} \"example.com/gen/a/{alias}\"")),
            "{svc}"
        );
    }
    assert!(svc.contains("bs.End("), "{svc}");
}

/// Names of the services file that a message already has get a trailing `_` on the
/// service's name; a package of services only gets a services file alone.
#[test]
fn service_names_step_aside_from_types() {
    let compiled = bijoubuf_schema::compile_sources(&[
        (
            "m.proto",
            r#"syntax = "proto3"; package p;
            message ShopClient { uint64 id = 1; }"#,
        ),
        (
            "s.proto",
            r#"syntax = "proto3"; package q; import "m.proto";
            service Shop { rpc Get(p.ShopClient) returns (p.ShopClient); }"#,
        ),
        (
            "t.proto",
            r#"syntax = "proto3"; package p; import "m.proto";
            service Shop { rpc Get(ShopClient) returns (ShopClient); }"#,
        ),
    ])
    .expect("compiles");
    let mut options = Options::new();
    options.module("example.com/gen").services(true);
    let files = generate(&compiled.schema, &options);
    assert_eq!(
        names(&files),
        ["p/p.bb.go", "p/p_grpc.bb.go", "q/q_grpc.bb.go"]
    );
    assert!(files[1].content.contains("type Shop_Client interface"));
    assert!(files[1].content.contains("func NewShop_Client("));
    assert!(files[2].content.contains("type ShopClient interface"));
}

/// Write `generated` into a scratch module that requires grpc-go as `go/grpc` does
/// (its go.sum copied) and uses this repository's runtime and codec package; gofmt and
/// go vet must find it clean.
fn check_module(go: &Path, generated: &[GeneratedFile], tag: &str) {
    let dir = std::env::temp_dir().join(format!(
        "bijoubuf-codegen-go-services-{tag}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    for f in generated {
        let path = dir.join(&f.name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, &f.content).expect("write");
    }
    let root = repo().join("go").canonicalize().expect("go/");
    let grpc_mod = std::fs::read_to_string(root.join("grpc/go.mod")).expect("go/grpc/go.mod");
    let grpc_version = grpc_mod
        .lines()
        .find_map(|l| l.trim().strip_prefix("google.golang.org/grpc "))
        .expect("go/grpc requires grpc-go");
    std::fs::write(
        dir.join("go.mod"),
        format!(
            "module example.com/gen\n\ngo 1.26\n\nrequire (\n\tgithub.com/bijoubuf/bijoubuf/go v0.0.0\n\tgithub.com/bijoubuf/bijoubuf/go/grpc v0.0.0\n\tgoogle.golang.org/grpc {grpc_version}\n)\n\nreplace github.com/bijoubuf/bijoubuf/go => {}\n\nreplace github.com/bijoubuf/bijoubuf/go/grpc => {}\n",
            root.display(),
            root.join("grpc").display()
        ),
    )
    .expect("go.mod");
    std::fs::copy(root.join("grpc/go.sum"), dir.join("go.sum")).expect("go.sum");
    let goroot = run(go, Path::new("."), &["env", "GOROOT"]);
    let gofmt = Path::new(goroot.trim()).join("bin").join("gofmt");
    let out = Command::new(gofmt)
        .args(["-l", "."])
        .current_dir(&dir)
        .output()
        .expect("gofmt");
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && listed.trim().is_empty(),
        "gofmt would change: {listed}"
    );
    run(go, &dir, &["vet", "./..."]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn services_compile_against_grpc_go_in_both_layouts() {
    let Some(go) = go() else {
        return;
    };
    check_module(
        &go,
        &examples(&["orders.proto", "deposit.proto"], true),
        "default",
    );

    // Laid out by go_package: a service whose types live in another Go package, and
    // two proto packages in one Go package, each with a service.
    let schema = bijoubuf_schema::compile_sources(&[
        (
            "a.proto",
            r#"syntax = "proto3"; package shop.a;
            option go_package = "example.com/gen/api;api";
            message Item { string sku = 1; }
            service Items { rpc Watch(stream Item) returns (stream Item); }"#,
        ),
        (
            "b.proto",
            r#"syntax = "proto3"; package shop.b; import "a.proto";
            option go_package = "example.com/gen/api;api";
            // Carts of items.
            service Carts {
              // Adds items.
              rpc Add(stream shop.a.Item) returns (shop.a.Item);
            }"#,
        ),
        (
            "c.proto",
            r#"syntax = "proto3"; package shop.c; import "a.proto";
            option go_package = "example.com/gen/c/client";
            service Lookup { rpc Find(shop.a.Item) returns (stream shop.a.Item); }"#,
        ),
    ])
    .expect("compiles")
    .schema;
    let mut options = Options::new();
    options.module("example.com/gen").services(true);
    options.go_package_layout(&schema).expect("layout");
    let files = generate(&schema, &options);
    assert_eq!(
        names(&files),
        [
            "api/api.bb.go",
            "api/api_grpc.bb.go",
            "c/client/client_grpc.bb.go"
        ]
    );
    check_module(&go, &files, "go-package");

    // Every shape of descriptor: unary methods only, streams only, no methods; in the
    // empty package, whose method paths have no package part.
    let schema = bijoubuf_schema::compile_sources(&[(
        "p.proto",
        r#"syntax = "proto3";
        message P { uint64 n = 1; }
        service Ping { rpc Ping(P) returns (P); rpc Pong(P) returns (P); }
        service Feed { rpc Watch(P) returns (stream P); }
        service Quiet {}"#,
    )])
    .expect("compiles")
    .schema;
    let mut options = Options::new();
    options.module("example.com/gen").services(true);
    let files = generate(&schema, &options);
    assert_eq!(names(&files), ["gen.bb.go", "gen_grpc.bb.go"]);
    assert!(
        files[1].content.contains("\"/Ping/Pong\""),
        "{}",
        files[1].content
    );
    check_module(&go, &files, "shapes");
}

/// rpcs whose names come to one Go name in camel case (`get_order`, `GetOrder`) are
/// distinct methods of the client and server interfaces: the later gets a trailing `_`,
/// and each keeps its own method path. The module compiles where Go is installed.
#[test]
fn rpcs_of_one_camel_case_name_get_distinct_methods() {
    let schema = bijoubuf_schema::compile_sources(&[(
        "s.proto",
        r#"syntax = "proto3"; package s;
        message M { uint64 n = 1; }
        service Shop {
          rpc get_order(M) returns (M);
          rpc GetOrder(M) returns (stream M);
          rpc Get_Order(M) returns (M);
          rpc GetOrder_(stream M) returns (M);
        }"#,
    )])
    .expect("compiles")
    .schema;
    let mut options = Options::new();
    options.module("example.com/gen").services(true);
    let files = generate(&schema, &options);
    let svc = &files
        .iter()
        .find(|f| f.name == "s/s_grpc.bb.go")
        .expect("the services file")
        .content;
    for line in [
        "\tShop_GetOrder_FullMethodName   = \"/s.Shop/get_order\"",
        "\tShop_GetOrder__FullMethodName  = \"/s.Shop/GetOrder\"",
        "\tShop_Get_Order_FullMethodName  = \"/s.Shop/Get_Order\"",
        "\tShop_GetOrder___FullMethodName = \"/s.Shop/GetOrder_\"",
        "\tGetOrder_(ctx context.Context, in *M, opts ...grpc.CallOption) (grpc.ServerStreamingClient[M], error)",
        "\tGetOrder__(ctx context.Context, opts ...grpc.CallOption) (grpc.ClientStreamingClient[M, M], error)",
        "func _Shop_GetOrder___Handler(",
    ] {
        assert!(svc.contains(line), "{line:?} missing in:\n{svc}");
    }
    if let Some(go) = go() {
        check_module(&go, &files, "camel");
    }
}
