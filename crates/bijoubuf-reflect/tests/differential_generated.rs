//! Differential test against generated code: the sample schemas in `schemas/`, compiled
//! by `bijoubuf-build` (crate `bijoubuf-codegen-tests`) and loaded at run time by
//! `DynamicMessage`, must agree on every input: both accept (and re-encode to the
//! input) or both refuse with the same code, offset and path.

mod support;

use bijoubuf::{DecodeOptions, Message, UnknownFieldPolicy};
use bijoubuf_codegen_tests::{kitchen, legacy};
use bijoubuf_reflect::{DescriptorPool, DynamicMessage};
use proptest::prelude::*;
use support::inputs;

fn pool() -> DescriptorPool {
    static POOL: std::sync::OnceLock<DescriptorPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
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
        DescriptorPool::new(&compiled.schema)
    })
    .clone()
}

fn verdict<T>(
    r: Result<T, (&'static str, usize, String)>,
    reencoded: impl FnOnce(T) -> Vec<u8>,
    input: &[u8],
) -> String {
    match r {
        Ok(v) => {
            let again = reencoded(v);
            if again == input {
                "ok".into()
            } else {
                format!("re-encodes as {again:02x?}")
            }
        }
        Err((code, offset, path)) => format!("{code} at {offset}, path {path}"),
    }
}

fn generated<M: Message>(bytes: &[u8], opts: &DecodeOptions) -> String {
    verdict(
        M::decode_with(bytes, opts).map_err(|e| (e.code(), e.offset(), e.path_string())),
        |d| d.message().encode_to_vec().unwrap_or_default(),
        bytes,
    )
}

/// The types `schemas/` are generated with unknown-field storage for (the
/// `preserve_unknown_fields` selectors of `bijoubuf-codegen-tests/build.rs`).
fn generated_keeps(m: &bijoubuf_reflect::MessageDescriptor) -> bool {
    let n = m.full_name();
    [
        "kitchen.Tree",
        "kitchen.Choice",
        "legacy",
        "example.v1.Envelope",
    ]
    .iter()
    .any(|p| n == *p || n.strip_prefix(p).is_some_and(|rest| rest.starts_with('.')))
}

fn dynamic(name: &str, bytes: &[u8], opts: &DecodeOptions) -> String {
    let desc = pool().message(name).expect("declared");
    verdict(
        DynamicMessage::decode_preserving_in(&desc, bytes, opts, &generated_keeps)
            .map_err(|e| (e.code(), e.offset(), e.path_string())),
        |m| m.encode().unwrap_or_default(),
        bytes,
    )
}

fn compare(bytes: &[u8]) -> Result<(), String> {
    let strict = DecodeOptions::new();
    let shallow = DecodeOptions::new().max_depth(3);
    let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let mut pairs = Vec::new();
    for opts in [&strict, &shallow, &keep] {
        pairs.extend([
            (
                "kitchen.Scalars",
                opts,
                generated::<kitchen::Scalars>(bytes, opts),
            ),
            (
                "kitchen.Optionals",
                opts,
                generated::<kitchen::Optionals>(bytes, opts),
            ),
            (
                "kitchen.Repeats",
                opts,
                generated::<kitchen::Repeats>(bytes, opts),
            ),
            (
                "kitchen.Maps",
                opts,
                generated::<kitchen::Maps>(bytes, opts),
            ),
            (
                "kitchen.Choice",
                opts,
                generated::<kitchen::Choice>(bytes, opts),
            ),
            (
                "kitchen.Tree",
                opts,
                generated::<kitchen::Tree>(bytes, opts),
            ),
            (
                "kitchen.Empty",
                opts,
                generated::<kitchen::Empty>(bytes, opts),
            ),
            (
                "kitchen.extra.Wrapper",
                opts,
                generated::<kitchen::extra::Wrapper>(bytes, opts),
            ),
            (
                "legacy.Record",
                opts,
                generated::<legacy::Record>(bytes, opts),
            ),
            (
                "example.v1.Envelope",
                opts,
                generated::<bijoubuf_codegen_tests::example::v1::Envelope>(bytes, opts),
            ),
            (
                "example.v1.Person",
                opts,
                generated::<bijoubuf_codegen_tests::example::v1::Person>(bytes, opts),
            ),
        ]);
    }
    for (name, opts, want) in pairs {
        let got = dynamic(name, bytes, opts);
        if got != want {
            return Err(format!(
                "{name} {opts:?} on {bytes:02x?}: generated says `{want}`, reflect says `{got}`"
            ));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn reflect_agrees_with_generated_code(bytes in inputs()) {
        let r = compare(&bytes);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn reflect_agrees_with_generated_code_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..48)) {
        let r = compare(&bytes);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Every accepted input → proto3 JSON → message gives the input's bytes back.
    #[test]
    fn json_round_trips_every_accepted_input(bytes in inputs()) {
        for name in JSON_TYPES {
            let desc = pool().message(name).expect("declared");
            let Ok(m) = DynamicMessage::decode(&desc, &bytes) else { continue };
            // A Timestamp outside years 1..9999 has no JSON form; that is reported.
            let Ok(json) = bijoubuf_reflect::json::to_string(&m) else { continue };
            let back = bijoubuf_reflect::json::from_str(&desc, &json);
            prop_assert!(back.is_ok(), "{name}: {json}: {:?}", back.err());
            let again = back.map(|b| b.encode()).ok();
            prop_assert_eq!(again, Some(Ok(bytes.clone())), "{} via {}", name, json);
        }
    }
}

const JSON_TYPES: [&str; 9] = [
    "kitchen.Scalars",
    "kitchen.Optionals",
    "kitchen.Repeats",
    "kitchen.Maps",
    "kitchen.Choice",
    "kitchen.Tree",
    "kitchen.extra.Wrapper",
    "legacy.Record",
    "example.v1.Envelope",
];

#[test]
fn the_json_round_trip_is_not_vacuous() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut nonempty = 0;
    for _ in 0..2000 {
        let bytes = inputs().new_tree(&mut runner).expect("tree").current();
        for name in JSON_TYPES {
            let desc = pool().message(name).expect("declared");
            if let Ok(m) = DynamicMessage::decode(&desc, &bytes)
                && !bytes.is_empty()
                && bijoubuf_reflect::json::to_string(&m).is_ok()
            {
                nonempty += 1;
            }
        }
    }
    assert!(nonempty >= 50, "only {nonempty} non-empty accepted inputs");
}

#[test]
fn generated_values_reencode_through_reflect() {
    // A value built with the generated types: reflect decodes its bytes and re-encodes
    // the same bytes, and its JSON maps back to the same bytes.
    let tree = kitchen::Tree {
        value: -3,
        children: vec![
            kitchen::Tree::default(),
            kitchen::Tree {
                value: 1,
                ..Default::default()
            },
        ],
        named: [
            ("b".to_string(), kitchen::Tree::default()),
            (
                "a".to_string(),
                kitchen::Tree {
                    value: 9,
                    ..Default::default()
                },
            ),
        ]
        .into(),
        ..Default::default()
    };
    let bytes = tree.encode_to_vec().expect("encodes");
    let desc = pool().message("kitchen.Tree").expect("declared");
    let m = DynamicMessage::decode(&desc, &bytes).expect("reflect decodes generated bytes");
    assert_eq!(m.encode().expect("encodes"), bytes);
    let json = bijoubuf_reflect::json::to_string(&m).expect("json");
    assert_eq!(
        json,
        r#"{"value":-3,"children":[{},{"value":1}],"named":{"a":{"value":9},"b":{}}}"#
    );
    let back = bijoubuf_reflect::json::from_str(&desc, &json).expect("parses");
    assert_eq!(back.encode().expect("encodes"), bytes);
    assert_eq!(
        kitchen::Tree::decode(&back.encode().expect("encodes")).expect("decodes"),
        tree
    );
}
