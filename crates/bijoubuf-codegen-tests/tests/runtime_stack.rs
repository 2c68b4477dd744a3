//! Generated code at the depth cap on a thread with Rust's default spawned-thread stack
//! (2 MiB): decoding, encoding and dropping a chain of `MAX_DEPTH_LIMIT` messages
//! recurse once per level and must fit, through each way a message can hold another (a
//! singular field, a repeated field, a map value); one level more is refused with the
//! depth error.

use bijoubuf::{DecodeOptions, EncodeOptions, MAX_DEPTH_LIMIT, Message};
use bijoubuf_codegen_tests::runtime_shapes::Tree;
use bijoubuf_testkit::{Via, nested_chain};

/// The stack of a thread spawned without a size: Rust's default.
const STACK: usize = 2 << 20;

#[test]
fn the_depth_cap_fits_a_2_mib_stack() {
    let run = || {
        let cap = MAX_DEPTH_LIMIT as usize;
        let most = DecodeOptions::new().max_depth(u32::MAX);
        let most_enc = EncodeOptions::new().max_depth(u32::MAX);
        for via in [Via::Child, Via::Repeated, Via::MapValue] {
            let (bytes, _) = nested_chain(cap, via);
            let t = Tree::decode_with(&bytes, &most)
                .unwrap_or_else(|e| panic!("{via:?}: the cap decodes: {e}"))
                .into_message();
            assert_eq!(t.encode_to_vec_with(&most_enc).unwrap(), bytes, "{via:?}");
            assert_eq!(t.encoded_len(), bytes.len(), "{via:?}");
            drop(t);
            let (bytes, key) = nested_chain(cap + 1, via);
            let e = Tree::decode_with(&bytes, &most).unwrap_err();
            assert_eq!(
                (e.code(), e.offset()),
                ("depth-limit-exceeded", key),
                "{via:?}"
            );
        }
    };
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(run)
        .expect("spawn")
        .join()
        .expect("no panic or stack overflow");
}
