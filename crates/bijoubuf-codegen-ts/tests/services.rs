//! Services: a gRPC-web client class per service, only when asked for.

use bijoubuf_codegen_ts::{Options, generate};

const SHOP: &str = r#"syntax = "proto3";
package shop.v1;
import "google/protobuf/empty.proto";
message Order { uint64 id = 1; }
// Orders of the shop.
service Orders {
  // Fetches one order.
  rpc Get(Order) returns (Order);
  rpc Watch(google.protobuf.Empty) returns (stream Order);
  rpc Upload(stream Order) returns (Order);
  rpc Chat(stream Order) returns (stream Order);
}"#;

fn shop(options: &Options) -> String {
    let compiled = bijoubuf_schema::compile_sources(&[("shop.proto", SHOP)]).unwrap();
    let files = generate(&compiled.schema, options);
    let file = files.iter().find(|f| f.name == "shop.v1.ts").unwrap();
    file.content.clone()
}

#[test]
fn no_client_unless_asked_for() {
    assert!(!shop(&Options::new()).contains("OrdersClient"));
}

#[test]
fn a_client_with_unary_and_server_streaming_methods() {
    let mut o = Options::new();
    o.services(true);
    let text = shop(&o);
    for want in [
        "export class OrdersClient {",
        "constructor(readonly transport: $bb.grpcweb.Transport) {}",
        " * Orders of the shop.",
        "Not callable over gRPC-web, which has no client streaming: Upload, Chat.",
        "   * Fetches one order.\n   */\n  get(",
        "  get(request: Order, options?: $bb.grpcweb.CallOptions): Promise<Order> {",
        "return $bb.grpcweb.unary(this.transport, \"/shop.v1.Orders/Get\", Order, Order, request, options);",
        "  watch(request: $pkg_google_protobuf.Empty, options?: $bb.grpcweb.CallOptions): AsyncGenerator<Order, void, undefined> {",
        "$bb.grpcweb.serverStream(this.transport, \"/shop.v1.Orders/Watch\", $pkg_google_protobuf.Empty, Order, request, options);",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    assert!(!text.contains("upload("), "{text}");
    assert!(!text.contains("chat("), "{text}");
}
