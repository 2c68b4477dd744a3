//! Generated code at the depth cap on a thread with Rust's default spawned-thread stack
//! (2 MiB): decoding, encoding and dropping a chain of `MAX_DEPTH_LIMIT` messages
//! recurse once per level and must fit, through each way a message can hold another (a
//! singular field, a repeated field, a map value); one level more is refused with the
//! depth error.

use bijoubuf::{DecodeOptions, EncodeOptions, MAX_DEPTH_LIMIT, Message};
use bijoubuf_codegen_tests::runtime_shapes::Tree;

/// The stack of a thread spawned without a size: Rust's default.
const STACK: usize = 2 << 20;

/// How each level holds the next.
#[derive(Clone, Copy, Debug)]
enum Via {
    /// `child` (field 2).
    Child,
    /// `children` (field 3), one element.
    Children,
    /// `named` (field 4), the value of the entry with key "".
    Named,
}

/// `depth` messages, each held by the one before as `via` says, the innermost empty;
/// and the offset of the innermost key.
fn chain_bytes(depth: usize, via: Via) -> (Vec<u8>, usize) {
    let len = |n: usize| bijou64::encode(n as u64).as_slice().to_vec();
    let mut inner: Vec<u8> = Vec::new();
    let mut prefixes = Vec::new();
    for _ in 1..depth {
        // Keys after none: field n is Δ = n − 1, wire LEN: ((n − 1) << 2) | 2.
        let mut outer = match via {
            Via::Child => [vec![0x06], len(inner.len())].concat(),
            Via::Children => {
                let element = len(inner.len());
                [vec![0x0A], len(element.len() + inner.len()), element].concat()
            }
            Via::Named => {
                let entry = [vec![0x00], len(inner.len())].concat();
                [vec![0x0E], len(entry.len() + inner.len()), entry].concat()
            }
        };
        prefixes.push(outer.len());
        outer.extend_from_slice(&inner);
        inner = outer;
    }
    let at = prefixes.iter().skip(1).sum();
    (inner, at)
}

#[test]
fn the_depth_cap_fits_a_2_mib_stack() {
    let run = || {
        let cap = MAX_DEPTH_LIMIT as usize;
        let most = DecodeOptions::new().max_depth(u32::MAX);
        let most_enc = EncodeOptions::new().max_depth(u32::MAX);
        for via in [Via::Child, Via::Children, Via::Named] {
            let (bytes, _) = chain_bytes(cap, via);
            let t = Tree::decode_with(&bytes, &most)
                .unwrap_or_else(|e| panic!("{via:?}: the cap decodes: {e}"))
                .into_message();
            assert_eq!(t.encode_to_vec_with(&most_enc).unwrap(), bytes, "{via:?}");
            assert_eq!(t.encoded_len(), bytes.len(), "{via:?}");
            drop(t);
            let (bytes, key) = chain_bytes(cap + 1, via);
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
