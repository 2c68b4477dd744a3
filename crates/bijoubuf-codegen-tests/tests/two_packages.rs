//! Two packages, `shop.v1` importing `common.v1`, included with `include_proto!` in
//! nested modules (`shop::v1`, `common::v1`): the layout the README gives, under which
//! the generated cross-package path compiles.

use bijoubuf::Message;
use bijoubuf_codegen_tests::common::v1::Money;
use bijoubuf_codegen_tests::shop::v1::Order;

#[test]
fn a_message_of_an_imported_package_round_trips() {
    let order = Order {
        id: "o-1".into(),
        total: Some(Money {
            currency: "EUR".into(),
            units: 12,
        }),
    };
    let bytes = order.encode_to_vec().unwrap();
    assert_eq!(Order::decode(&bytes).unwrap(), order);
}

#[test]
fn the_generated_code_names_the_other_package_from_the_common_root() {
    let text = include_str!(concat!(env!("OUT_DIR"), "/shop.v1.rs"));
    assert!(text.contains("super::super::common::v1::Money"), "{text}");
}
