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

/// The names a module declares as values (`export const`, `class`, `function`): an
/// interface may share its const's name, two values may not.
fn values(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let rest = line.strip_prefix("export ").unwrap_or(line);
        for kind in ["const ", "class ", "function "] {
            if let Some(r) = rest.strip_prefix(kind) {
                let name: String = r
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                    .collect();
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn nested_flattened_names_and_clients_keep_clear_of_other_types() {
    // `A.B` is `A_B` like the top-level `A_B`; `Outer.E` is `Outer_E`; the client of
    // `Tasks` would be the message `TasksClient`.
    let schema = r#"syntax = "proto3";
package clash.v1;
message A { message B { int32 x = 1; } B b = 1; }
message A_B { int32 y = 1; }
message Outer { enum E { E_ZERO = 0; } }
message Outer_E {}
message TasksClient {}
service Tasks { rpc X(TasksClient) returns (A_B); }
"#;
    let compiled = bijoubuf_schema::compile_sources(&[("clash.proto", schema)]).unwrap();
    for services in [false, true] {
        let mut o = Options::new();
        o.services(services);
        let files = generate(&compiled.schema, &o);
        let text = &files
            .iter()
            .find(|f| f.name == "clash.v1.ts")
            .unwrap()
            .content;
        let mut names = values(text);
        names.sort();
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(names, unique, "a name is declared twice in\n{text}");
        // Types keep their names whether or not the client is generated.
        for want in [
            "export const A_B: $bb.MessageType<A_B> = new $bb.MessageType<A_B>(\"clash.v1.A.B\"",
            "export const A_B_: $bb.MessageType<A_B_> = new $bb.MessageType<A_B_>(\"clash.v1.A_B\"",
            "export const Outer_E = {",
            "export const Outer_E_: $bb.MessageType<Outer_E_>",
            "export const TasksClient: $bb.MessageType<TasksClient>",
        ] {
            assert!(text.contains(want), "missing {want:?} in\n{text}");
        }
        if services {
            assert!(text.contains("export class TasksClient_ {"), "{text}");
            assert!(
                text.contains(
                    "x(request: TasksClient, options?: $bb.grpcweb.CallOptions): Promise<A_B_>"
                ),
                "{text}"
            );
        }
    }
}
