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

/// The names of the top-level modules of generated `text`, sorted.
fn top_modules(text: &str) -> Vec<String> {
    let file = syn::parse_file(text).expect("generated code parses");
    let mut modules: Vec<String> = file
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Mod(m) => Some(m.ident.to_string()),
            _ => None,
        })
        .collect();
    modules.sort();
    modules
}

/// Every generated file of `schema` (as file `name`), services on or off, joined.
fn all_generated(name: &str, schema: &str, services: bool) -> String {
    let compiled = bijoubuf_schema::compile_sources(&[(name, schema)]).unwrap();
    let mut o = Options::new();
    o.services(services);
    generate(&compiled.schema, &o)
        .unwrap()
        .into_iter()
        .map(|f| f.content)
        .collect()
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
    // `connect` by default, as tonic-build's clients have it.
    assert!(text.contains("pub async fn connect"), "{text}");
    // Without transport the generated code needs only tonic's codegen.
    o.service_transport(false).codec_path("crate::MyCodec");
    let text = shop(&o);
    assert!(!text.contains("pub async fn connect"), "{text}");
    assert!(!text.contains("transport"), "{text}");
    assert!(text.contains("crate::MyCodec::default()"));
    assert!(!text.contains("StrictCodec"));
}

/// Every inherent method name of `FooClient`, across its `impl` blocks.
fn client_methods(text: &str, client: &str) -> Vec<String> {
    let file = syn::parse_file(text).expect("generated code parses");
    let mut names = Vec::new();
    let mut items: Vec<&syn::Item> = file.items.iter().collect();
    while let Some(item) = items.pop() {
        match item {
            syn::Item::Mod(m) => items.extend(m.content.iter().flat_map(|(_, i)| i)),
            syn::Item::Impl(i) if i.trait_.is_none() => {
                if let syn::Type::Path(p) = &*i.self_ty
                    && p.path.segments.last().is_some_and(|s| s.ident == client)
                {
                    for f in &i.items {
                        if let syn::ImplItem::Fn(f) = f {
                            names.push(f.sig.ident.to_string());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    names
}

#[test]
fn rpc_names_give_way_to_the_clients_own_methods_and_to_each_other() {
    // An rpc `Connect` (containerd's task service, Milvus) would define `connect` twice
    // on the client; `GetFoo` and `get_foo` are distinct rpcs with one snake-case name.
    let schema = r#"syntax = "proto3";
package clash.v1;
message M {}
service Tasks {
  rpc Connect(M) returns (M);
  rpc New(M) returns (M);
  rpc SendCompressed(M) returns (stream M);
  rpc GetFoo(M) returns (M);
  rpc get_foo(M) returns (M);
  rpc connect_(M) returns (M);
}"#;
    let compiled = bijoubuf_schema::compile_sources(&[("clash.proto", schema)]).unwrap();
    let mut o = Options::new();
    o.services(true);
    let text: String = generate(&compiled.schema, &o)
        .unwrap()
        .into_iter()
        .map(|f| f.content)
        .collect();
    let mut names = client_methods(&text, "TasksClient");
    names.sort();
    let mut unique = names.clone();
    unique.dedup();
    assert_eq!(names, unique, "a client method is defined twice in\n{text}");
    for rpc in [
        "connect_",
        "new_",
        "send_compressed_",
        "get_foo",
        "get_foo_",
        "connect__",
    ] {
        assert!(names.iter().any(|n| n == rpc), "no {rpc} in {names:?}");
        assert!(text.contains(&format!("async fn {rpc}(")), "{rpc}");
    }
    // The server trait takes the same names, and the paths stay the schema's.
    assert!(text.contains("\"/clash.v1.Tasks/Connect\""));
    assert!(text.contains("<T as Tasks>::connect_("), "{text}");
}

#[test]
fn message_modules_and_services_of_one_rust_name_keep_clear_of_the_service_modules() {
    // The nested types of `TasksServer` would sit in `tasks_server`, the module of the
    // server of `Tasks`; `foo_bar` and `FooBar` are one Rust name `FooBar`.
    let schema = r#"syntax = "proto3";
package clash.v1;
message TasksServer { message Inner {} Inner i = 1; }
message M {}
service Tasks { rpc X(M) returns (M); }
service FooBar { rpc X(M) returns (M); }
service foo_bar { rpc X(M) returns (M); }
"#;
    for services in [false, true] {
        let text = all_generated("clash.proto", schema, services);
        let modules = top_modules(&text);
        let mut unique = modules.clone();
        unique.dedup();
        assert_eq!(modules, unique, "a module is defined twice in\n{text}");
        // The message's module is the same with or without services.
        assert!(
            modules.contains(&"tasks_server_".to_string()),
            "{modules:?}"
        );
        if services {
            for m in [
                "tasks_server",
                "tasks_client",
                "foo_bar_server",
                "foo_bar__server",
            ] {
                assert!(modules.contains(&m.to_string()), "no {m} in {modules:?}");
            }
            assert!(text.contains("\"/clash.v1.foo_bar/X\""), "{text}");
        }
    }
}

#[test]
fn a_service_steps_aside_from_sub_packages_named_like_its_modules() {
    // Regression: package `clash` held service `Foo`, whose modules are `foo_server` and
    // `foo_client`, beside sub-packages `clash.foo_server` and `clash.foo_client`, whose
    // modules (a package's path is its name) have the same names: E0428 where the
    // packages nest. The service takes the next Rust name, `Foo_`.
    let schema = r#"syntax = "proto3";
package clash;
message M {}
service Foo { rpc X(M) returns (M); }
service Bar { rpc X(M) returns (M); }
"#;
    let sub = |name: &str| format!("syntax = \"proto3\";\npackage clash.{name};\nmessage N {{}}\n");
    let (server, client) = (sub("foo_server"), sub("foo_client"));
    let compiled = bijoubuf_schema::compile_sources(&[
        ("clash.proto", schema),
        ("server.proto", &server),
        ("client.proto", &client),
    ])
    .unwrap();
    let mut o = Options::new();
    o.services(true);
    let files = generate(&compiled.schema, &o).unwrap();
    let root = files
        .iter()
        .find(|f| f.package == "clash")
        .expect("the root package's file");
    let modules = top_modules(&root.content);
    // The sub-packages' modules, where the packages nest, and the services' own.
    let subs = ["foo_client", "foo_server"];
    assert!(
        modules.iter().all(|m| !subs.contains(&m.as_str())),
        "{modules:?}"
    );
    assert_eq!(
        modules,
        ["bar_client", "bar_server", "foo__client", "foo__server"],
        "{}",
        root.content
    );
    // The method path keeps the schema's name.
    assert!(
        root.content.contains("\"/clash.Foo/X\""),
        "{}",
        root.content
    );
}

#[test]
fn a_service_named_like_what_tonic_names_in_its_modules_steps_aside() {
    // Regression: the server's trait is named after the service inside a module that
    // `use`s `tonic::codegen::*` and has generic parameters `T` and `B`, so `service Body`
    // or `service T` hid what tonic's code meant (E0404, E0782), as did `service CallSvc`
    // the handler tonic declares for `rpc Call`. Names tonic's code does not use as they
    // are (`Service`) keep theirs.
    let schema = r#"syntax = "proto3";
package tn;
message M {}
service Body { rpc X(M) returns (M); }
service T { rpc X(M) returns (stream M); }
service Default { rpc X(stream M) returns (M); }
service CallSvc { rpc Call(M) returns (M); }
service Service { rpc X(M) returns (M); }
"#;
    let text = all_generated("tn.proto", schema, true);
    let modules: Vec<String> = top_modules(&text)
        .into_iter()
        .filter(|m| m.ends_with("_server"))
        .collect();
    assert_eq!(
        modules,
        [
            "body__server",
            "call_svc__server",
            "default__server",
            "service_server",
            "t__server"
        ]
    );
    for (path, server) in [
        ("/tn.Body/X", "Body_Server"),
        ("/tn.T/X", "T_Server"),
        ("/tn.Service/X", "ServiceServer"),
    ] {
        assert!(text.contains(&format!("\"{path}\"")), "no {path}");
        assert!(
            text.contains(&format!("pub struct {server}<")),
            "no {server}"
        );
    }
}

#[test]
fn services_are_described_by_name_up_to_five_then_counted() {
    let names: Vec<String> = (1..=7).map(|i| format!("a.S{i}")).collect();
    assert_eq!(
        bijoubuf_codegen::describe_services(&names[..1]),
        "service a.S1"
    );
    assert_eq!(
        bijoubuf_codegen::describe_services(&names[..5]),
        "services a.S1, a.S2, a.S3, a.S4, a.S5"
    );
    assert_eq!(
        bijoubuf_codegen::describe_services(&names),
        "7 services (a.S1, a.S2, a.S3, a.S4, a.S5 and 2 more)"
    );
}
