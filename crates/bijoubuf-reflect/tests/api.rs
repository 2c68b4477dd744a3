//! `DynamicMessage` as an API: setting values, encoding refusals, preserved unknown
//! fields, limits, and no-panic / round-trip properties.

use bijoubuf::{DecodeOptions, UnknownField, UnknownFieldPolicy, UnknownValue};
use bijoubuf_reflect::{
    DescriptorPool, DynamicMessage, EncodeError, FieldShape, Kind, MapKey, MessageDescriptor, Value,
};
use proptest::prelude::*;

const ORDER: &str = r#"
syntax = "proto3";
package shop.v1;
message Order {
  uint64 id = 1;
  Customer customer = 2;
  repeated Line lines = 4;
  map<string, sint64> tags = 7;
}
message Customer { string name = 1; }
message Line { string sku = 1; uint32 qty = 2; }
message Node { Node child = 1; oneof o { uint32 a = 2; string b = 3; } map<sint32, Node> kids = 4; }
"#;

const REQ: &str = r#"
syntax = "proto2";
message Req { required uint32 id = 1; optional Req next = 2; }
"#;

/// One pool for the whole test binary: descriptors of different pools are never equal.
fn pool() -> DescriptorPool {
    static POOL: std::sync::OnceLock<DescriptorPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let compiled = bijoubuf_schema::compile_sources(&[("o.proto", ORDER), ("r.proto", REQ)])
            .expect("schemas compile");
        DescriptorPool::new(&compiled.schema)
    })
    .clone()
}

fn msg(name: &str) -> MessageDescriptor {
    pool().message(name).expect("declared")
}

/// SPEC Appendix A.2: the 40 bytes with the unknown field 6.
const A2: [u8; 40] = [
    0x00, 0xF9, 0x01, 0xF1, 0x02, 0x04, 0x02, 0x02, 0x42, 0x6F, 0x06, 0x0C, 0x06, 0x02, 0x02, 0x41,
    0x31, 0x00, 0x02, 0x04, 0x02, 0x02, 0x42, 0x37, 0x04, 0x03, 0x02, 0x0C, 0x04, 0x67, 0x69, 0x66,
    0x74, 0x01, 0x04, 0x72, 0x75, 0x73, 0x68, 0x0A,
];

#[test]
fn appendix_a2_preserved_and_cleared() {
    let d = msg("shop.v1.Order");
    let e = DynamicMessage::decode(&d, &A2).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown-field: Order.6 is not in the schema at byte 24"
    );
    let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let mut m = DynamicMessage::decode_with(&d, &A2, &keep).expect("preserving decode");
    assert_eq!(m.unknown_field_count(), 1);
    assert_eq!(
        m.unknown_fields(),
        [UnknownField {
            number: 6,
            value: UnknownValue::Varint(3)
        }]
    );
    assert_eq!(m.get(1), Some(&Value::U64(1001)));
    let Some(Value::Map(tags)) = m.get(7) else {
        panic!("tags")
    };
    assert_eq!(
        tags.iter().map(|(k, v)| (k, v)).collect::<Vec<_>>(),
        [
            (&MapKey::String("gift".into()), &Value::I64(-1)),
            (&MapKey::String("rush".into()), &Value::I64(5))
        ]
    );
    assert_eq!(m.encode().expect("encodes"), A2);
    // Clearing `lines` recomputes the key of the preserved field 6: Δ = 6 − 2 − 1 = 3.
    m.clear(4);
    let expected: Vec<u8> = [&A2[..10], &[0x0C, 0x03], &A2[26..]].concat();
    assert_eq!(m.encode().expect("encodes"), expected);
}

#[test]
fn set_checks_types_and_keeps_one_encoding() {
    let d = msg("shop.v1.Order");
    let mut m = DynamicMessage::new(d.clone());
    assert!(m.set(1, Value::I64(1)).is_err(), "uint64 takes U64");
    assert_eq!(m.set(1, Value::I64(1)).unwrap_err().code(), "type-mismatch");
    assert!(m.set(9, Value::U64(1)).is_err(), "no field 9");
    assert_eq!(m.set(9, Value::U64(1)).unwrap_err().code(), "no-such-field");
    assert!(
        m.set(4, Value::List(vec![Value::U64(1)])).is_err(),
        "lines hold Line messages"
    );
    let customer = DynamicMessage::new(msg("shop.v1.Customer"));
    assert!(
        m.set(4, Value::List(vec![Value::from(customer.clone())]))
            .is_err()
    );
    assert!(m.set(2, Value::from(customer)).is_ok());
    assert!(
        m.set(7, Value::Map(vec![(MapKey::U32(1), Value::I64(1))]))
            .is_err()
    );
    let twice = vec![
        (MapKey::String("k".into()), Value::I64(1)),
        (MapKey::String("k".into()), Value::I64(2)),
    ];
    assert_eq!(
        m.set(7, Value::Map(twice)).unwrap_err().code(),
        "duplicate-map-key"
    );
    // Defaults of implicit fields and empty lists clear the field.
    m.set(1, Value::U64(5)).expect("fits");
    m.set(1, Value::U64(0)).expect("fits");
    assert_eq!(m.get(1), None);
    m.set(4, Value::List(vec![])).expect("fits");
    assert_eq!(m.get(4), None);
    // customer is field 2: key Δ=1 LEN = 0x06, empty content.
    assert_eq!(m.encode().expect("encodes"), [0x06, 0x00]);
    // A oneof member replaces its sibling; a set member is written even when 0.
    let mut n = DynamicMessage::new(msg("shop.v1.Node"));
    n.set(3, Value::String("x".into())).expect("fits");
    n.set(2, Value::U32(0)).expect("fits");
    assert_eq!(n.get(3), None);
    assert_eq!(n.encode().expect("encodes"), [0x04, 0x00]);
    assert_eq!(
        m.fields()
            .map(|(f, _)| f.name().to_string())
            .collect::<Vec<_>>(),
        ["customer"]
    );
}

#[test]
fn descriptors_describe_the_schema() {
    let d = msg("shop.v1.Order");
    assert_eq!((d.name(), d.full_name()), ("Order", "shop.v1.Order"));
    let tags = d.field_by_name("tags").expect("tags");
    assert_eq!(
        tags.shape(),
        FieldShape::Map(bijoubuf_schema::ScalarType::String)
    );
    assert_eq!(
        tags.kind(),
        Kind::Scalar(bijoubuf_schema::ScalarType::Sint64)
    );
    let lines = d.field_by_json_name("lines").expect("lines");
    assert_eq!(lines.kind(), Kind::Message(msg("shop.v1.Line")));
    assert!(pool().messages().any(|m| m.is_map_entry()));
    let n = msg("shop.v1.Node");
    assert_eq!(
        n.field(2)
            .and_then(|f| f.oneof_name().map(str::to_string))
            .as_deref(),
        Some("o")
    );
}

#[test]
fn encoder_refuses_what_a_decoder_would_refuse() {
    // An unset required field, nested.
    let r = msg("Req");
    let mut inner = DynamicMessage::new(r.clone());
    inner
        .set(2, Value::from(DynamicMessage::new(r.clone())))
        .expect("fits");
    let mut top = DynamicMessage::new(r.clone());
    top.set(1, Value::U32(1)).expect("fits");
    inner.set(1, Value::U32(2)).expect("fits");
    top.set(2, Value::from(inner)).expect("fits");
    assert_eq!(
        top.encode(),
        Err(EncodeError::MissingRequiredField("Req.next.next.id".into()))
    );
    // 100 levels encode; 101 do not (SPEC §9.3).
    let node = msg("shop.v1.Node");
    let chain = |depth: usize| {
        let mut m = DynamicMessage::new(node.clone());
        for _ in 1..depth {
            let mut outer = DynamicMessage::new(node.clone());
            outer.set(1, Value::from(m)).expect("fits");
            m = outer;
        }
        m
    };
    let bytes = chain(100).encode().expect("depth 100 encodes");
    assert!(DynamicMessage::decode(&node, &bytes).is_ok());
    assert!(matches!(
        chain(101).encode(),
        Err(EncodeError::DepthLimitExceeded(_))
    ));
    // The code and path come from the error itself, and the text starts with the code.
    let missing = top.encode().unwrap_err();
    assert_eq!(
        (missing.code(), missing.path()),
        ("missing-required-field", "Req.next.next.id")
    );
    let deep = chain(101).encode().unwrap_err();
    assert_eq!(deep.code(), "depth-limit-exceeded");
    assert!(deep.path().starts_with("Node.child"), "{}", deep.path());
    for e in [&missing, &deep] {
        assert!(e.to_string().starts_with(&format!("{}: ", e.code())), "{e}");
        // The text after the code, for reports that print the code on their own.
        assert_eq!(e.to_string(), format!("{}: {}", e.code(), e.detail()));
        assert!(e.detail().contains(e.path()), "{}", e.detail());
    }
    let e = DynamicMessage::decode(&node, &[0x02, 0x02, 0x02, 0x00]).map(|_| ());
    assert!(e.is_ok());
    let shallow = DecodeOptions::new().max_depth(2);
    let e = DynamicMessage::decode_with(&node, &[0x02, 0x02, 0x02, 0x00], &shallow).unwrap_err();
    assert_eq!(
        (e.code(), e.offset(), e.path_string().as_str()),
        ("depth-limit-exceeded", 2, "Node.child.child")
    );
}

#[test]
fn preserved_unknown_fields_that_collide_are_refused() {
    let d = msg("shop.v1.Customer");
    let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    // field 2 (unknown), then field 3 (unknown)
    let m = DynamicMessage::decode_with(&d, &[0x04, 0x05, 0x00, 0x07], &keep).expect("decodes");
    assert_eq!(m.encode().expect("encodes"), [0x04, 0x05, 0x00, 0x07]);
    // A decoded message cannot hold a colliding set, but a caller building one from
    // parts is told.
    let err = EncodeError::UnknownFieldConflict("Customer".into());
    assert!(err.to_string().starts_with("unknown-field-order"));
    assert_eq!(
        (err.code(), err.path()),
        ("unknown-field-order", "Customer")
    );
}

#[test]
fn preservation_can_be_chosen_per_type() {
    let d = msg("shop.v1.Order");
    let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let only_order = |m: &MessageDescriptor| m.full_name() == "shop.v1.Order";
    // Order keeps its unknown field 6 (SPEC A.2).
    let m = DynamicMessage::decode_preserving_in(&d, &A2, &keep, &only_order).expect("decodes");
    assert_eq!(m.unknown_field_count(), 1);
    // An unknown field inside the Customer is refused: Customer does not preserve.
    // customer { name: "Bo", 3: 1 }: key 04 (Δ1 VARINT) is field 3 of Customer.
    let bytes = [0x06, 0x06, 0x02, 0x02, 0x42, 0x6F, 0x04, 0x01];
    let e = DynamicMessage::decode_preserving_in(&d, &bytes, &keep, &only_order).unwrap_err();
    assert_eq!(
        (e.code(), e.offset(), e.path_string().as_str()),
        ("unknown-field", 6, "Order.customer.3")
    );
    assert!(DynamicMessage::decode_with(&d, &bytes, &keep).is_ok());
    // A strict policy refuses everywhere, whatever the filter says.
    let e = DynamicMessage::decode_preserving_in(&d, &A2, &DecodeOptions::new(), &only_order);
    assert_eq!(e.map(|_| ()).unwrap_err().code(), "unknown-field");
}

#[test]
fn size_limit_is_checked_first() {
    let d = msg("shop.v1.Order");
    let opts = DecodeOptions::new().max_size(Some(39));
    let e = DynamicMessage::decode_with(&d, &A2, &opts).unwrap_err();
    assert_eq!(
        (e.code(), e.offset(), e.path_string().as_str()),
        ("size-limit-exceeded", 0, "Order")
    );
}

#[test]
fn map_key_paths_follow_spec_11_3() {
    let d = msg("shop.v1.Order");
    // tags {"a\n": 0, "a\n" again}: second entry out of order.
    let bytes = [0x1A, 0x08, 0x02, b'a', b'\n', 0x00, 0x02, b'a', b'\n', 0x00];
    let e = DynamicMessage::decode(&d, &bytes).unwrap_err();
    assert_eq!(e.path_string(), "Order.tags[\"a\\u{a}\"]");
    assert_eq!(e.offset(), 6);
    let n = msg("shop.v1.Node");
    // kids {-1: Node{a: 5}} then key -1 again: map-key-order with an integer key.
    let bytes = [0x0E, 0x08, 0x01, 0x02, 0x04, 0x05, 0x01, 0x02, 0x04, 0x05];
    let e = DynamicMessage::decode(&n, &bytes).unwrap_err();
    assert_eq!(
        (e.code(), e.offset(), e.path_string().as_str()),
        ("map-key-order", 6, "Node.kids[-1]")
    );
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic_and_accepted_bytes_reencode(
        bytes in prop::collection::vec(any::<u8>(), 0..64),
        preserve in any::<bool>(),
    ) {
        let policy = if preserve { UnknownFieldPolicy::Preserve } else { UnknownFieldPolicy::Reject };
        let opts = DecodeOptions::new().unknown_fields(policy).max_depth(8);
        for name in ["shop.v1.Order", "shop.v1.Node", "Req"] {
            let d = msg(name);
            if let Ok(m) = DynamicMessage::decode_with(&d, &bytes, &opts) {
                prop_assert_eq!(m.encode().expect("a decoded message encodes"), bytes.clone());
            }
        }
    }
}

#[test]
fn repeated_numbers_are_kept_as_scalar_lists() {
    use bijoubuf_reflect::ScalarList;
    let compiled = bijoubuf_schema::compile_sources(&[(
        "r.proto",
        "syntax = \"proto3\"; message R { repeated sint32 xs = 1; repeated string ss = 2; }",
    )])
    .expect("compiles");
    let pool = DescriptorPool::new(&compiled.schema);
    let d = pool.message("R").expect("declared");
    // xs = [1, -1, 2]: key 02, length 3, zigzag 02 01 04.
    let bytes = [0x02, 0x03, 0x02, 0x01, 0x04];
    let m = DynamicMessage::decode(&d, &bytes).expect("decodes");
    let expected = Value::Scalars(ScalarList::I32(vec![1, -1, 2]));
    assert_eq!(m.get(1), Some(&expected));
    // A `List` of the same numbers is stored the same way, so the messages are equal.
    let mut built = DynamicMessage::new(d.clone());
    built
        .set(
            1,
            Value::List(vec![Value::I32(1), Value::I32(-1), Value::I32(2)]),
        )
        .expect("fits");
    assert_eq!(built, m);
    assert_eq!(built.encode().expect("encodes"), bytes);
    let Some(Value::Scalars(list)) = m.get(1) else {
        panic!("scalars")
    };
    assert_eq!(
        list.iter().collect::<Vec<_>>(),
        [Value::I32(1), Value::I32(-1), Value::I32(2)]
    );
    // Wrong element types are refused either way; strings stay a `List`.
    let mut bad = DynamicMessage::new(d.clone());
    assert!(bad.set(1, Value::List(vec![Value::I64(1)])).is_err());
    assert!(
        bad.set(1, Value::Scalars(ScalarList::I64(vec![1])))
            .is_err()
    );
    assert!(
        bad.set(2, Value::Scalars(ScalarList::I32(vec![1])))
            .is_err()
    );
    bad.set(2, Value::List(vec![Value::String("a".into())]))
        .expect("fits");
    assert_eq!(
        bad.get(2),
        Some(&Value::List(vec![Value::String("a".into())]))
    );
}

#[test]
fn limits_and_frames_at_their_edges() {
    let d = msg("shop.v1.Order");
    // SPEC §9.4: only input longer than the limit is refused (A2 holds unknown fields).
    let exact = DecodeOptions::new()
        .unknown_fields(UnknownFieldPolicy::Preserve)
        .max_size(Some(A2.len()));
    assert!(DynamicMessage::decode_with(&d, &A2, &exact).is_ok());
    // A frame whose length prefix overflows u64 (a tier-8 bijou64 of all ones).
    let e = DynamicMessage::decode_length_delimited(&d, &[0xFF; 9], &DecodeOptions::new())
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        (e.code(), e.offset(), e.path_string().as_str()),
        ("varint-overflow", 0, "Order")
    );
}

#[test]
fn well_known_types_refuse_unknown_fields_when_preserving() {
    let compiled = bijoubuf_schema::compile_sources(&[(
        "w.proto",
        "syntax = \"proto3\"; import \"google/protobuf/duration.proto\";\n\
         message W { google.protobuf.Duration d = 1; }",
    )])
    .expect("compiles");
    let pool = DescriptorPool::new(&compiled.schema);
    let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    // Field 3 (Δ 2, varint) = 1: Duration declares only 1 and 2.
    let duration = pool.message("google.protobuf.Duration").expect("Duration");
    let e = DynamicMessage::decode_with(&duration, &[0x08, 0x01], &keep)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        (e.code(), e.offset(), e.path_string().as_str()),
        ("unknown-field", 0, "Duration.3")
    );
    // Nested in a type outside google.protobuf, which keeps its own.
    let w = pool.message("W").expect("W");
    let e = DynamicMessage::decode_with(&w, &[0x02, 0x02, 0x08, 0x01], &keep)
        .map(|_| ())
        .unwrap_err();
    assert_eq!((e.code(), e.offset()), ("unknown-field", 2));
    let kept = DynamicMessage::decode_with(&w, &[0x04, 0x01], &keep).expect("kept");
    assert_eq!(kept.unknown_field_count(), 1);
}
