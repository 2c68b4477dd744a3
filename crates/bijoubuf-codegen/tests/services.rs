//! Services: generated only when asked for, in tonic's shape, with the schema's method
//! paths, types and comments.

use bijoubuf_codegen::{Options, generate, service_names};

const SHOP: &str = r#"syntax = "proto3";
package shop.v1;
import "google/protobuf/empty.proto";
message Order { uint64 id = 1; }
// Orders of the shop.
service Orders {
  // Fetches one order.
  rpc Get(Order) returns (Order);
  rpc Watch(Order) returns (stream Order);
  rpc Upload(stream Order) returns (google.protobuf.Empty);
  rpc Chat(stream Order) returns (stream Order) { option deprecated = true; }
  rpc type(Order) returns (Order);
}"#;

fn shop(options: &Options) -> String {
    let compiled = bijoubuf_schema::compile_sources(&[("shop.proto", SHOP)]).unwrap();
    assert_eq!(service_names(&compiled.schema), ["shop.v1.Orders"]);
    let files = generate(&compiled.schema, options).unwrap();
    files.into_iter().map(|f| f.content).collect()
}

#[test]
fn services_are_not_generated_unless_asked_for() {
    let text = shop(&Options::new());
    assert!(text.contains("pub struct Order"));
    assert!(!text.contains("orders_server"), "{text}");
}

#[test]
fn a_server_trait_and_client_per_service_with_every_streaming_shape() {
    let mut o = Options::new();
    o.services(true);
    let text = shop(&o);
    for want in [
        "pub mod orders_server",
        "pub trait Orders",
        "pub struct OrdersServer",
        "pub mod orders_client",
        "pub struct OrdersClient",
        "\"/shop.v1.Orders/Get\"",
        "\"/shop.v1.Orders/Watch\"",
        "\"/shop.v1.Orders/Upload\"",
        "\"/shop.v1.Orders/Chat\"",
        "\"/shop.v1.Orders/type\"",
        // One Rust method per rpc, its shape in the signature; a keyword name is raw.
        "async fn get(",
        "type WatchStream",
        "tonic::Streaming<super::Order>",
        "type ChatStream",
        "async fn r#type(",
        // Types seen from the service modules, the well-known type from the runtime.
        "::bijoubuf::wkt::Empty",
        "::bijoubuf_tonic::StrictCodec::default()",
        // The schema's comments.
        "/// Orders of the shop.",
        "/// Fetches one order.",
        "#[deprecated]",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    // No `connect` without transport: the generated code then needs only tonic's codegen.
    assert!(!text.contains("pub async fn connect"));
    o.service_transport(true).codec_path("crate::MyCodec");
    let text = shop(&o);
    assert!(text.contains("pub async fn connect"));
    assert!(text.contains("crate::MyCodec::default()"));
    assert!(!text.contains("StrictCodec"));
}
