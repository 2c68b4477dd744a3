//! A pool built from a `FileDescriptorSet` describes the same types as one built from
//! the schema model, and decodes every input the same way.

mod support;

use bijoubuf::{DecodeOptions, UnknownFieldPolicy};
use bijoubuf_reflect::{DescriptorPool, DynamicMessage, FieldShape, Kind};
use proptest::prelude::*;
use support::inputs;

/// (from the schema model, from its encoded descriptor set)
fn pools() -> (DescriptorPool, DescriptorPool) {
    static POOLS: std::sync::OnceLock<(DescriptorPool, DescriptorPool)> =
        std::sync::OnceLock::new();
    POOLS
        .get_or_init(|| {
            let schemas = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas");
            let compiled = bijoubuf_schema::Compiler::new()
                .include(schemas)
                .compile(&[
                    "kitchen/sink.proto",
                    "kitchen/extra.proto",
                    "legacy/legacy.proto",
                    "example/envelope.proto",
                ])
                .expect("the sample schemas compile");
            let fds = compiled.schema.file_descriptor_set_with_imports();
            let bytes = prost::Message::encode_to_vec(&fds);
            let from_fds = DescriptorPool::decode_file_descriptor_set(&bytes)
                .expect("a usable descriptor set");
            (DescriptorPool::new(&compiled.schema), from_fds)
        })
        .clone()
}

fn describe(pool: &DescriptorPool, name: &str) -> Vec<String> {
    let m = pool.message(name).expect("declared in both");
    m.fields()
        .map(|f| {
            let kind = match f.kind() {
                Kind::Scalar(s) => s.keyword().to_string(),
                Kind::Message(m) => m.full_name().to_string(),
                Kind::Enum(e) => format!("enum {}", e.full_name()),
            };
            let shape = match f.shape() {
                FieldShape::Single(p) => format!("{p:?}"),
                FieldShape::Repeated => "repeated".into(),
                FieldShape::Map(k) => format!("map<{}>", k.keyword()),
            };
            format!(
                "{} {} {} {shape} {kind} oneof={:?}",
                f.number(),
                f.name(),
                f.json_name(),
                f.oneof_name()
            )
        })
        .collect()
}

#[test]
fn both_pools_describe_the_same_types() {
    let (schema, fds) = pools();
    let names: Vec<String> = schema
        .messages()
        .map(|m| m.full_name().to_string())
        .collect();
    assert!(names.len() > 20, "{names:?}");
    for name in &names {
        // Map entries are never decoded as messages (SPEC §6.3: entries have no keys);
        // the presence of their fields means nothing.
        if schema.message(name).is_some_and(|m| m.is_map_entry()) {
            continue;
        }
        assert_eq!(describe(&schema, name), describe(&fds, name), "{name}");
    }
    assert_eq!(fds.messages().count(), names.len());
    let shade = fds.enumeration("kitchen.Tree.Shade").expect("nested enum");
    assert_eq!(shade.name_of(1), Some("SHADE_DARK"));
}

#[test]
fn bad_descriptor_sets_are_refused() {
    assert!(DescriptorPool::decode_file_descriptor_set(&[0xFF]).is_err());
    let set = prost_types::FileDescriptorSet {
        file: vec![prost_types::FileDescriptorProto {
            name: Some("g.proto".into()),
            message_type: vec![prost_types::DescriptorProto {
                name: Some("G".into()),
                field: vec![prost_types::FieldDescriptorProto {
                    name: Some("x".into()),
                    number: Some(1),
                    r#type: Some(prost_types::field_descriptor_proto::Type::Message as i32),
                    type_name: Some(".Nowhere".into()),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        }],
    };
    let e = DescriptorPool::from_file_descriptor_set(&set).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid descriptor set: G.x: type \".Nowhere\" is not defined"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn both_pools_decode_alike(bytes in inputs()) {
        let (schema, fds) = pools();
        let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
        for name in ["kitchen.Maps", "kitchen.Choice", "kitchen.Tree", "legacy.Record", "example.v1.Envelope", "kitchen.extra.Wrapper"] {
            for opts in [DecodeOptions::new(), keep] {
                let a = DynamicMessage::decode_with(&schema.message(name).expect("declared"), &bytes, &opts);
                let b = DynamicMessage::decode_with(&fds.message(name).expect("declared"), &bytes, &opts);
                match (a, b) {
                    (Ok(a), Ok(b)) => prop_assert_eq!(a.encode(), b.encode()),
                    (Err(a), Err(b)) => prop_assert_eq!(a, b),
                    (a, b) => prop_assert!(false, "{name}: {a:?} vs {b:?}"),
                }
            }
        }
    }
}
