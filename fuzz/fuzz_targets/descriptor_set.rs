//! Encoded FileDescriptorSets (what `bijoubuf breaking --against x.binpb` reads): refused
//! with an error or loaded; a loaded set compares with itself without findings, and
//! values of each of its message types, built from the rest of the input, encode, decode
//! back to themselves, and print as JSON that reads back (or is refused by the writer).
//! Never a panic.
#![no_main]

use bijoubuf_conformance::arbitrary::{Entropy, message};
use bijoubuf_reflect::{DescriptorPool, DynamicMessage};
use libfuzzer_sys::fuzz_target;
use prost::Message as _;

fuzz_target!(|data: &[u8]| {
    let [a, b, rest @ ..] = data else {
        return;
    };
    let split = usize::from(u16::from_le_bytes([*a, *b])).min(rest.len());
    let (set_bytes, entropy) = rest.split_at(split);
    let Ok(set) = prost_types::FileDescriptorSet::decode(set_bytes) else {
        return;
    };
    // The breaking checker reads the same sets; a set is no breaking change to itself.
    if let Ok(findings) = bijoubuf_breaking::check_descriptor_sets(&set, &set) {
        assert!(findings.is_empty(), "a set against itself: {findings:?}");
    }
    let Ok(pool) = DescriptorPool::from_file_descriptor_set(&set) else {
        return;
    };
    for desc in pool.messages().take(8) {
        let v = message(&desc, &mut Entropy::new(entropy), 3);
        // Encoding may refuse (a required field unset, a depth past the limit).
        let Ok(bytes) = v.encode() else {
            continue;
        };
        let back = DynamicMessage::decode(&desc, &bytes)
            .unwrap_or_else(|e| panic!("{}: own encoding refused: {e}", desc.full_name()));
        assert_eq!(
            back.encode().expect("re-encodes"),
            bytes,
            "{}: re-encoding differs",
            desc.full_name()
        );
        if let Ok(text) = bijoubuf_reflect::json::to_string(&back) {
            let again = bijoubuf_reflect::json::from_str(&desc, &text)
                .unwrap_or_else(|e| panic!("{}: {text} does not read back: {e}", desc.full_name()));
            assert_eq!(again.encode().expect("encodes"), bytes, "{}: {text}", desc.full_name());
        }
    }
});
