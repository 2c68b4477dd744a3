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
                    "example/v1/envelope.proto",
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
    assert_eq!(e.code(), "invalid-descriptor-set");
    assert_eq!(
        e.to_string(),
        "invalid descriptor set: G.x: type \".Nowhere\" is not defined"
    );
}

#[test]
fn map_keys_must_be_integers_bools_or_strings() {
    use prost_types::field_descriptor_proto::{Label, Type};
    let field = |name: &str, number: i32, ty: Type, label: Label, type_name: Option<&str>| {
        prost_types::FieldDescriptorProto {
            name: Some(name.into()),
            number: Some(number),
            r#type: Some(ty as i32),
            label: Some(label as i32),
            type_name: type_name.map(Into::into),
            ..Default::default()
        }
    };
    let set = |key: Type| prost_types::FileDescriptorSet {
        file: vec![prost_types::FileDescriptorProto {
            name: Some("m.proto".into()),
            syntax: Some("proto3".into()),
            message_type: vec![prost_types::DescriptorProto {
                name: Some("M".into()),
                field: vec![field(
                    "m",
                    1,
                    Type::Message,
                    Label::Repeated,
                    Some(".M.MEntry"),
                )],
                nested_type: vec![prost_types::DescriptorProto {
                    name: Some("MEntry".into()),
                    field: vec![
                        field("key", 1, key, Label::Optional, None),
                        field("value", 2, Type::Int32, Label::Optional, None),
                    ],
                    options: Some(prost_types::MessageOptions {
                        map_entry: Some(true),
                        ..Default::default()
                    }),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        }],
    };
    let pool = DescriptorPool::from_file_descriptor_set(&set(Type::Sint32)).expect("a valid map");
    let m = pool.message("M").expect("declared");
    assert_eq!(
        m.field(1).map(|f| f.shape()),
        Some(FieldShape::Map(bijoubuf_schema::ScalarType::Sint32))
    );
    // {-2: 1, 1: 2} in signed order (SPEC §6.4).
    assert!(DynamicMessage::decode(&m, &[0x02, 0x04, 0x03, 0x02, 0x02, 0x04]).is_ok());
    for bad in [Type::Bytes, Type::Double, Type::Float] {
        let e = DescriptorPool::from_file_descriptor_set(&set(bad)).unwrap_err();
        assert!(e.to_string().contains("map key type"), "{e}");
    }
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

/// One proto3 file holding message `M` with `fields` and `oneofs` oneof declarations.
fn one_message(
    fields: Vec<prost_types::FieldDescriptorProto>,
    oneofs: usize,
) -> prost_types::FileDescriptorSet {
    prost_types::FileDescriptorSet {
        file: vec![prost_types::FileDescriptorProto {
            name: Some("m.proto".into()),
            syntax: Some("proto3".into()),
            message_type: vec![prost_types::DescriptorProto {
                name: Some("M".into()),
                field: fields,
                oneof_decl: (0..oneofs)
                    .map(|i| prost_types::OneofDescriptorProto {
                        name: Some(format!("o{i}")),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }],
            ..Default::default()
        }],
    }
}

fn int32_field(name: &str, number: i32, oneof: Option<i32>) -> prost_types::FieldDescriptorProto {
    use prost_types::field_descriptor_proto::{Label, Type};
    prost_types::FieldDescriptorProto {
        name: Some(name.into()),
        number: Some(number),
        r#type: Some(Type::Int32 as i32),
        label: Some(Label::Optional as i32),
        oneof_index: oneof,
        ..Default::default()
    }
}

fn refusal(set: &prost_types::FileDescriptorSet) -> String {
    DescriptorPool::from_file_descriptor_set(set)
        .expect_err("refused")
        .to_string()
}

#[test]
fn oneof_indexes_and_other_references_are_checked_on_load() {
    // Two members of oneof 0: a valid set, and the decoder refuses both set at once.
    let good = one_message(
        vec![int32_field("a", 1, Some(0)), int32_field("b", 2, Some(0))],
        1,
    );
    let pool = DescriptorPool::from_file_descriptor_set(&good).expect("valid");
    let m = pool.message("M").expect("declared");
    let e = DynamicMessage::decode(&m, &[0x00, 0x02, 0x00, 0x02]).expect_err("conflict");
    assert_eq!(e.code(), "oneof-conflict");
    // Regression: an oneof_index past the declarations silently skipped that check.
    let bad = one_message(
        vec![int32_field("a", 1, Some(1)), int32_field("b", 2, Some(1))],
        1,
    );
    assert_eq!(
        refusal(&bad),
        "invalid descriptor set: M.a: oneof_index 1 names no oneof (M has 1)"
    );
    let negative = one_message(vec![int32_field("a", 1, Some(-1))], 1);
    assert!(refusal(&negative).contains("oneof_index -1 names no oneof"));
    // A repeated oneof member.
    let mut rep = int32_field("a", 1, Some(0));
    rep.label = Some(prost_types::field_descriptor_proto::Label::Repeated as i32);
    assert!(refusal(&one_message(vec![rep], 1)).contains("must be a singular field"));
    // A proto3 optional field without, or sharing, its synthetic oneof.
    let mut opt = int32_field("a", 1, None);
    opt.proto3_optional = Some(true);
    assert!(refusal(&one_message(vec![opt.clone()], 0)).contains("synthetic oneof"));
    opt.oneof_index = Some(0);
    assert!(
        refusal(&one_message(vec![opt, int32_field("b", 2, Some(0))], 1))
            .contains("shares its oneof")
    );
    // A field type or label that is no value of its enum (read as `double` before).
    let mut t = int32_field("a", 1, None);
    t.r#type = Some(99);
    assert!(refusal(&one_message(vec![t], 0)).contains("field type 99"));
    let mut l = int32_field("a", 1, None);
    l.label = Some(7);
    assert!(refusal(&one_message(vec![l], 0)).contains("label 7"));
    // Two fields with one name, or one JSON name.
    let dup = one_message(
        vec![int32_field("a", 1, None), int32_field("a", 2, None)],
        0,
    );
    assert!(refusal(&dup).contains("field name \"a\" is used twice"));
    let mut j = int32_field("b", 2, None);
    j.json_name = Some("a".into());
    let dup_json = one_message(vec![int32_field("a", 1, None), j], 0);
    assert!(refusal(&dup_json).contains("JSON name \"a\" is used twice"));
    // A type defined twice.
    let mut twice = one_message(vec![], 0);
    twice.file.push(twice.file[0].clone());
    twice.file[1].name = Some("n.proto".into());
    assert!(refusal(&twice).contains("type \"M\" is defined twice"));
}

#[test]
fn editions_are_read_from_the_sets_bytes() {
    // Issue 23, item 8: an edition file was refused. Presence comes from the
    // field_presence feature, on the field or its file, in either spelling.
    let text = r#"edition = "2023";
package ed.v1;
option features = { field_presence: IMPLICIT };
message M {
  int32 a = 1;
  int32 b = 2 [features.field_presence = EXPLICIT];
  int32 c = 3 [features = { field_presence: LEGACY_REQUIRED }];
  M m = 4;
  oneof o { int32 x = 5; }
  repeated int32 r = 6;
  map<string, int32> kv = 7;
  message Inner { string s = 1; string t = 2 [features.field_presence = EXPLICIT]; }
}
"#;
    let compiled = bijoubuf_schema::compile_sources(&[("ed/v1/e.proto", text)])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let bytes = compiled.schema.encode_file_descriptor_set();
    let from_bytes = DescriptorPool::decode_file_descriptor_set(&bytes)
        .unwrap_or_else(|e| panic!("refused: {e}"));
    let from_schema = DescriptorPool::new(&compiled.schema);
    for name in ["ed.v1.M", "ed.v1.M.Inner"] {
        assert_eq!(
            describe(&from_bytes, name),
            describe(&from_schema, name),
            "{name}"
        );
    }
    let presence = |name: &str| match from_bytes
        .message("ed.v1.M")
        .expect("M")
        .field_by_name(name)
        .expect(name)
        .shape()
    {
        FieldShape::Single(p) => p,
        other => panic!("{name}: {other:?}"),
    };
    use bijoubuf_schema::Presence;
    assert_eq!(presence("a"), Presence::Implicit);
    assert_eq!(presence("b"), Presence::Explicit);
    assert_eq!(presence("c"), Presence::Required);
    assert_eq!(presence("m"), Presence::Explicit);
    assert_eq!(presence("x"), Presence::Explicit);
    // The same bytes both ways: `a = 0` is not written, `b = 0` is.
    let json = r#"{"a": 0, "b": 0, "c": 0}"#;
    let m = |pool: &DescriptorPool| {
        bijoubuf_reflect::json::from_str(&pool.message("ed.v1.M").expect("M"), json)
            .expect("valid JSON")
            .encode()
            .expect("encodes")
    };
    assert_eq!(m(&from_bytes), m(&from_schema));
    // b (delta 2 from field 0: key 0x04) and c (delta 1: key 0x00), each the value 0;
    // a, of implicit presence, is left out (SPEC §3, §5).
    assert_eq!(m(&from_bytes), [0x04, 0x00, 0x00, 0x00]);
    // prost_types descriptors have lost the features: refused, naming the way that works.
    let set = <prost_types::FileDescriptorSet as prost::Message>::decode(bytes.as_slice())
        .expect("a set");
    let e = DescriptorPool::from_file_descriptor_set(&set).unwrap_err();
    assert!(e.to_string().contains("decode_file_descriptor_set"), "{e}");
}
