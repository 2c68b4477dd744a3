//! Nesting at the depth cap on a thread with Rust's default spawned-thread stack
//! (2 MiB): decoding, encoding, JSON output and dropping a chain of `MAX_DEPTH_LIMIT`
//! messages recurse once per level, and must fit; one level more is refused with the
//! depth error, never a stack overflow.

use bijoubuf::{DecodeOptions, MAX_DEPTH_LIMIT};
use bijoubuf_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, Value};
use bijoubuf_testkit::{Via, nested_chain};

/// A type with several fields besides the recursive one, so a level's frames are those
/// of a message with scalars, a repeated message and a map to walk past.
const SCHEMA: &str = r#"
syntax = "proto3";
message Node {
  int32 value = 1;
  Node child = 2;
  repeated Node more = 3;
  map<string, Node> named = 4;
  string note = 5;
}
"#;

/// The stack of a thread spawned without a size: Rust's default.
const STACK: usize = 2 << 20;

fn node() -> MessageDescriptor {
    let compiled = bijoubuf_schema::compile_sources(&[("node.proto", SCHEMA)]).expect("compiles");
    DescriptorPool::new(&compiled.schema)
        .message("Node")
        .expect("Node")
}

fn on_small_stack(run: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(run)
        .expect("spawn")
        .join()
        .expect("no panic or stack overflow");
}

#[test]
fn the_depth_cap_fits_a_2_mib_stack() {
    on_small_stack(|| {
        let node = node();
        let cap = MAX_DEPTH_LIMIT as usize;
        let most = DecodeOptions::new().max_depth(MAX_DEPTH_LIMIT);
        for via in [Via::Child, Via::Repeated, Via::MapValue] {
            let (bytes, _) = nested_chain(cap, via);
            let m = DynamicMessage::decode_with(&node, &bytes, &most)
                .unwrap_or_else(|e| panic!("{via:?}: the cap decodes: {e}"));
            assert_eq!(
                m.encode_with_max_depth(MAX_DEPTH_LIMIT)
                    .expect("the cap encodes"),
                bytes,
                "{via:?}"
            );
            drop(m);
            // One level more: refused at the innermost key, whatever limit was asked for.
            let (bytes, key) = nested_chain(cap + 1, via);
            let any = DecodeOptions::new().max_depth(u32::MAX);
            let e = DynamicMessage::decode_with(&node, &bytes, &any).unwrap_err();
            assert_eq!(
                (e.code(), e.offset()),
                ("depth-limit-exceeded", key),
                "{via:?}"
            );
            // Far past it: refused the same way, the decoder never going deeper.
            let (bytes, key) = nested_chain(cap * 4, via);
            let e = DynamicMessage::decode_with(&node, &bytes, &most).unwrap_err();
            assert_eq!(e.code(), "depth-limit-exceeded", "{via:?}");
            assert!(e.offset() < key, "{via:?}");
        }
        // The path names every level: the type, then `child` once per level.
        let (bytes, _) = nested_chain(cap + 1, Via::Child);
        let e = DynamicMessage::decode_with(&node, &bytes, &most).unwrap_err();
        assert_eq!(e.path().count(), cap + 1);
    });
}

#[test]
fn the_encoder_refuses_past_the_cap_on_a_2_mib_stack() {
    on_small_stack(|| {
        let node = node();
        let cap = MAX_DEPTH_LIMIT as usize;
        let mut m = DynamicMessage::new(node.clone());
        for _ in 0..cap {
            let mut outer = DynamicMessage::new(node.clone());
            outer.set(2, Value::from(m)).expect("fits");
            m = outer;
        }
        // cap + 1 levels: refused whatever limit is asked for.
        assert!(m.encode_with_max_depth(u32::MAX).is_err());
        let child = match m.get(2) {
            Some(Value::Message(c)) => c.as_ref().clone(),
            _ => panic!("child"),
        };
        assert_eq!(
            child
                .encode_with_max_depth(u32::MAX)
                .expect("the cap encodes"),
            nested_chain(cap, Via::Child).0
        );
    });
}

#[test]
fn json_output_at_its_depth_limit_fits_a_2_mib_stack() {
    on_small_stack(|| {
        let node = node();
        let limit = bijoubuf::DEFAULT_MAX_DEPTH as usize;
        let (bytes, _) = nested_chain(limit, Via::Child);
        let m = DynamicMessage::decode(&node, &bytes).expect("decodes");
        let text = bijoubuf_reflect::json::to_string(&m).expect("prints");
        assert_eq!(text.matches("\"child\"").count(), limit - 1);
        let mut deeper = DynamicMessage::new(node.clone());
        deeper.set(2, Value::from(m)).expect("fits");
        assert!(bijoubuf_reflect::json::to_string(&deeper).is_err());
    });
}

#[test]
fn the_encoders_depth_refusal_names_the_path_the_decoder_names() {
    // One level past the default limit, through a singular field, a list element and a
    // map value: the encoder's path is the decoder's for the same bytes (SPEC §11.3),
    // but for a list or a map, whose records the decoder refuses at the field's key,
    // before any element, where the encoder names the element or the entry's key.
    let node = node();
    let most = DecodeOptions::new().max_depth(MAX_DEPTH_LIMIT);
    let limit = bijoubuf::DEFAULT_MAX_DEPTH as usize;
    for via in [Via::Child, Via::Repeated, Via::MapValue] {
        let (bytes, _) = nested_chain(limit + 1, via);
        let m = DynamicMessage::decode_with(&node, &bytes, &most).expect("decodes");
        let decoded = DynamicMessage::decode(&node, &bytes).unwrap_err();
        assert_eq!(decoded.code(), "depth-limit-exceeded");
        match m.encode() {
            Err(bijoubuf_reflect::EncodeError::DepthLimitExceeded(path)) => {
                let mut expected = decoded.path_string();
                match via {
                    Via::Repeated => expected.push_str("[0]"),
                    Via::MapValue => expected.push_str("[\"\"]"),
                    _ => {}
                }
                assert_eq!(path, expected, "{via:?}");
            }
            other => panic!("{via:?}: {other:?}"),
        }
        // Within the limit of the encode, the same value is written back as it came.
        assert_eq!(
            m.encode_with_max_depth(limit as u32 + 1).expect("encodes"),
            bytes
        );
    }
}

#[test]
fn the_encoders_depth_refusal_names_the_element_it_is_in() {
    // The too-deep message is the third element of a list, or the second entry of a
    // map: the path names that element or key, not the first.
    let node = node();
    let limit = bijoubuf::DEFAULT_MAX_DEPTH as usize;
    let chain = || {
        let mut m = DynamicMessage::new(node.clone());
        for _ in 1..limit {
            let mut outer = DynamicMessage::new(node.clone());
            outer.set(2, Value::from(m)).expect("fits");
            m = outer;
        }
        m
    };
    let empty = || Value::from(DynamicMessage::new(node.clone()));
    let below = ".child".repeat(limit - 1);
    let mut list = DynamicMessage::new(node.clone());
    list.set(3, Value::List(vec![empty(), empty(), Value::from(chain())]))
        .expect("fits");
    let mut map = DynamicMessage::new(node.clone());
    let entries = vec![
        (bijoubuf_reflect::MapKey::String("a".into()), empty()),
        (
            bijoubuf_reflect::MapKey::String("b".into()),
            Value::from(chain()),
        ),
    ];
    map.set(4, Value::Map(entries)).expect("fits");
    for (m, path) in [
        (list, format!("Node.more[2]{below}")),
        (map, format!("Node.named[\"b\"]{below}")),
    ] {
        assert_eq!(
            m.encode(),
            Err(bijoubuf_reflect::EncodeError::DepthLimitExceeded(path))
        );
        // One level less is within the limit.
        assert!(m.encode_with_max_depth(limit as u32 + 1).is_ok());
    }
}

/// The stack to run the JSON tests on: the default spawned thread's unless
/// `DEPTH_TEST_STACK` (bytes) says otherwise, to measure what a level costs.
fn json_stack() -> usize {
    std::env::var("DEPTH_TEST_STACK")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(STACK)
}

fn on_json_stack(run: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(json_stack())
        .spawn(run)
        .expect("spawn")
        .join()
        .expect("no panic or stack overflow");
}

#[test]
fn json_output_at_the_depth_cap_fits_a_2_mib_stack() {
    // JSON output recurses once per message level; at the cap (500) it must fit a
    // default spawned thread's stack, through each kind of field.
    on_json_stack(|| {
        let node = node();
        let most = DecodeOptions::new().max_depth(MAX_DEPTH_LIMIT);
        let opts = bijoubuf_reflect::json::JsonOptions::new().max_depth(MAX_DEPTH_LIMIT);
        for via in [Via::Child, Via::Repeated, Via::MapValue] {
            let (bytes, _) = nested_chain(MAX_DEPTH_LIMIT as usize, via);
            let m = DynamicMessage::decode_with(&node, &bytes, &most).expect("decodes");
            let text = bijoubuf_reflect::json::to_string_with(&m, &opts)
                .unwrap_or_else(|e| panic!("{via:?}: the cap prints: {e}"));
            assert_eq!(text, chain_json(MAX_DEPTH_LIMIT as usize, via), "{via:?}");
        }
    });
}

#[test]
fn json_input_at_the_depth_cap_fits_a_2_mib_stack() {
    // JSON input recurses once per message level too: through a singular field it fits
    // the same stack.
    on_json_stack(|| json_input_at_the_cap(Via::Child));
}

#[test]
fn json_input_at_the_depth_cap_through_lists_and_maps_fits_3_mib() {
    // Through a repeated or map field a message costs two levels of JSON nesting (the
    // array or object, then the message's object), and the JSON parser's frames in an
    // unoptimized build make the cap need about 2.4 MiB (README, "Stack"): not a 2 MiB
    // thread's stack, but bounded, and guarded here.
    std::thread::Builder::new()
        .stack_size(3 << 20)
        .spawn(|| {
            json_input_at_the_cap(Via::Repeated);
            json_input_at_the_cap(Via::MapValue);
        })
        .expect("spawn")
        .join()
        .expect("no panic or stack overflow");
}

fn json_input_at_the_cap(via: Via) {
    let node = node();
    let opts = bijoubuf_reflect::json::JsonOptions::new().max_depth(MAX_DEPTH_LIMIT);
    let text = chain_json(MAX_DEPTH_LIMIT as usize, via);
    let m = bijoubuf_reflect::json::from_str_with(&node, &text, &opts)
        .unwrap_or_else(|e| panic!("{via:?}: the cap reads: {e}"));
    assert_eq!(
        m.encode_with_max_depth(MAX_DEPTH_LIMIT).expect("encodes"),
        nested_chain(MAX_DEPTH_LIMIT as usize, via).0,
        "{via:?}"
    );
    // One level more is refused by name (the message depth, or for a list or a map the
    // JSON nesting, twice the limit, which it then passes).
    let deeper = chain_json(MAX_DEPTH_LIMIT as usize + 1, via);
    let e = bijoubuf_reflect::json::from_str_with(&node, &deeper, &opts).unwrap_err();
    assert!(e.message().contains("nest deeper than"), "{via:?}: {e}");
}

/// The compact JSON of `nested_chain(levels, via)`'s value, built without recursion.
fn chain_json(levels: usize, via: Via) -> String {
    let (open, close) = match via {
        Via::Child => ("{\"child\":", "}"),
        Via::Repeated => ("{\"more\":[", "]}"),
        Via::MapValue => ("{\"named\":{\"\":", "}}"),
    };
    format!(
        "{}{{}}{}",
        open.repeat(levels - 1),
        close.repeat(levels - 1)
    )
}
