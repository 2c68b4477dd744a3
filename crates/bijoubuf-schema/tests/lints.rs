//! The lint rules at buf STANDARD breadth, and their configuration: allow, deny, cap.

use bijoubuf_schema::{Compiled, Compiler, Diagnostics, LINT_RULES, LintLevel, Lints};

fn compile(name: &str, text: &str, lints: Lints) -> Result<Compiled, Diagnostics> {
    Compiler::new()
        .source(name, text)
        .lints(lints)
        .compile(&[name])
}

/// (code, line) of every warning.
fn warnings(name: &str, text: &str) -> Vec<(&'static str, usize)> {
    compile(name, text, Lints::default())
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()))
        .warnings
        .iter()
        .map(|w| (w.code(), w.line()))
        .collect()
}

const SERVICES: &str = r#"syntax = "proto3";
package shop.v1;
message GetOrderRequest {}
message GetOrderResponse {}
message OrderServiceListOrdersRequest {}
message ListOrdersResponse {}
message Shared {}
service OrderService {
  rpc GetOrder(GetOrderRequest) returns (GetOrderResponse);
  rpc ListOrders(OrderServiceListOrdersRequest) returns (ListOrdersResponse);
  rpc Touch(Shared) returns (Shared);
  rpc delete_order(Shared) returns (GetOrderResponse);
}
service orders {}
"#;

#[test]
fn service_and_rpc_rules() {
    let got = warnings("shop/v1/s.proto", SERVICES);
    // The same 12 places buf 1.75 reports for this file with STANDARD (checked by hand).
    let want = [
        // GetOrderResponse is also delete_order's response.
        ("lint-rpc-request-response-unique", 9),
        // Touch: Shared is shared, and both request and response; nonstandard names.
        ("lint-rpc-request-response-unique", 11),
        ("lint-rpc-request-response-unique", 11),
        ("lint-rpc-request-standard-name", 11),
        ("lint-rpc-response-standard-name", 11),
        // delete_order: shared types, not PascalCase, nonstandard names.
        ("lint-rpc-request-response-unique", 12),
        ("lint-rpc-request-response-unique", 12),
        ("lint-rpc-pascal-case", 12),
        ("lint-rpc-request-standard-name", 12),
        ("lint-rpc-response-standard-name", 12),
        ("lint-service-pascal-case", 14),
        ("lint-service-suffix", 14),
    ];
    let mut got_sorted = got.clone();
    got_sorted.sort();
    let mut want_sorted = want.to_vec();
    want_sorted.sort();
    assert_eq!(got_sorted, want_sorted, "{got:?}");
}

#[test]
fn naming_rules_for_enum_values_and_oneofs() {
    let text = r#"syntax = "proto3";
package shop.v1;
enum Color { COLOR_UNSPECIFIED = 0; COLOR_dark_red = 1; COLOR_BLUE2 = 2; }
message M { oneof PaymentMethod { int32 card = 1; } oneof kind_2 { int32 cash = 2; } optional int32 x = 3; }
"#;
    assert_eq!(
        warnings("shop/v1/n.proto", text),
        [
            ("lint-enum-value-upper-snake-case", 3),
            ("lint-oneof-lower-snake-case", 4)
        ]
    );
}

#[test]
fn package_rules() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("shop/v1/a.proto", "shop.v1", &[]),
        ("shop/v1p1beta1/a.proto", "shop.v1p1beta1", &[]),
        ("shop/v2test/a.proto", "shop.v2test", &[]),
        ("shop/a.proto", "shop", &["lint-package-version-suffix"]),
        ("a.proto", "shop.v1", &["lint-package-directory-match"]),
        (
            "Shop/V1/a.proto",
            "Shop.V1",
            &["lint-package", "lint-package-version-suffix"],
        ),
    ];
    for (name, package, want) in cases {
        let text = format!("syntax = \"proto3\";\npackage {package};\n");
        let got: Vec<&str> = warnings(name, &text).iter().map(|w| w.0).collect();
        assert_eq!(&got, want, "{name}");
    }
}

#[test]
fn rules_are_allowed_denied_and_capped() {
    let text = "syntax = \"proto3\";\npackage shop;\nmessage bad_one {}\nmessage bad_two {}\n";
    // Default: three warnings.
    let c = compile("shop/a.proto", text, Lints::default()).expect("warnings only");
    assert_eq!(c.warnings.len(), 3);
    // Allowed: gone.
    let mut lints = Lints::default();
    lints.allow("PACKAGE_VERSION_SUFFIX").unwrap();
    let c = compile("shop/a.proto", text, lints).expect("warnings only");
    assert!(c.warnings.iter().all(|w| w.code() == "lint-type-name"));
    // Denied: the schema is refused; the other rules still warn.
    let mut lints = Lints::default();
    lints.deny("type-name").unwrap();
    let e = compile("shop/a.proto", text, lints).expect_err("denied");
    assert_eq!(e.errors().len(), 2);
    assert!(e.errors().iter().all(|d| d.code() == "lint-type-name"));
    assert_eq!(e.warnings().len(), 1);
    // No lints at all.
    let c = compile("shop/a.proto", text, Lints::none()).expect("no lints");
    assert!(c.warnings.is_empty());
    // Unknown rule names are refused with the list of rules.
    let err = Lints::default().deny("no-such-rule").unwrap_err();
    assert!(err.to_string().contains("rpc-request-standard-name"));
    assert_eq!(LINT_RULES.len(), 16);
    assert_eq!(Lints::none().level("type-name"), Some(LintLevel::Allow));
    // The cap: first errors, then warnings.
    let many: String = (0..50).map(|i| format!("message bad_{i} {{}}\n")).collect();
    let c = Compiler::new()
        .source(
            "shop/v1/m.proto",
            format!("syntax = \"proto3\";\npackage shop.v1;\n{many}"),
        )
        .max_diagnostics(10)
        .compile(&["shop/v1/m.proto"])
        .expect("warnings only");
    assert_eq!((c.warnings.len(), c.omitted), (10, 40));
    assert_eq!(c.warnings[0].line(), 3);
    let e = Compiler::new()
        .source(
            "e.proto",
            format!("syntax = \"proto3\";\n{many}message X {{ Missing m = 1; }}"),
        )
        .max_diagnostics(0)
        .compile(&["e.proto"])
        .expect_err("an error survives any cap");
    assert_eq!(e.errors().len(), 1);
    assert!(e.warnings().is_empty());
    assert_eq!(e.omitted(), 51);
}
