//! bijou64's decoders on arbitrary bytes against the specification-literal reference and
//! the previous implementation (the crate's `tests/common`): every prefix of the input as
//! one value, and the whole input as a packed run. An accepted value re-encodes to the
//! bytes it used (SPEC §2: one byte string per value).
#![no_main]

#[allow(dead_code, unreachable_pub)]
#[path = "../../crates/bijou64/tests/common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for len in 0..=data.len().min(2 * bijou64::MAX_LEN) {
        let bytes = &data[..len];
        let want = common::ref_decode(bytes);
        assert_eq!(bijou64::decode(bytes), want, "decode {bytes:02x?}");
        assert_eq!(bijou64::decode_branchless(bytes), want, "branchless {bytes:02x?}");
        assert_eq!(common::before::decode(bytes), want, "before {bytes:02x?}");
        if let Some(w) = bytes.first_chunk() {
            assert_eq!(bijou64::decode_window(w), want, "window {bytes:02x?}");
            assert_eq!(bijou64::decode_window_branchless(w), want, "window {bytes:02x?}");
        }
        if let Ok((v, used)) = want {
            assert_eq!(bijou64::encode(v).as_slice(), &bytes[..used]);
        }
    }
    let mut got = Vec::new();
    match (bijou64::decode_packed_into(data, &mut got), common::ref_decode_run(data)) {
        (Ok(n), Ok(want)) => assert_eq!((n, &got), (want.len(), &want)),
        (Err(e), Err((kind, at))) => {
            assert_eq!((e.kind, e.offset), (kind.into(), at), "run {data:02x?}")
        }
        (g, w) => panic!("run {data:02x?}: got {g:?}, reference {w:?}"),
    }
});
