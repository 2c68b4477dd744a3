//! Arbitrary bytes against every conformance type decoded by the three shapes of
//! generated decoder, the walk (`schema`), dispatch (`schema_dispatch`) and the table
//! (`schema_table`), owned and borrowed, under every decoder configuration: the same
//! outcome from all three (the same value, re-encoded to the same bytes with the same
//! unknown records kept, or the same refusal: code, byte offset and field path).
#![no_main]

use bijoubuf_conformance::Config;
use bijoubuf_conformance::generated::{
    TYPE_NAMES, decode, decode_borrowed, decode_borrowed_dispatch, decode_borrowed_table,
    decode_dispatch, decode_table,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [sel, flags, limit, bytes @ ..] = data else {
        return;
    };
    let ty = TYPE_NAMES[*sel as usize % TYPE_NAMES.len()];
    let cfg = Config::from_fuzz(*flags, *limit);
    let walk = decode(ty, bytes, &cfg);
    let dispatch = decode_dispatch(ty, bytes, &cfg);
    assert_eq!(walk, dispatch, "owned {ty} {cfg:?}");
    let table = decode_table(ty, bytes, &cfg);
    assert_eq!(walk, table, "owned table {ty} {cfg:?}");
    let walk_ref = decode_borrowed(ty, bytes, &cfg);
    let dispatch_ref = decode_borrowed_dispatch(ty, bytes, &cfg);
    assert_eq!(walk_ref, dispatch_ref, "borrowed {ty} {cfg:?}");
    let table_ref = decode_borrowed_table(ty, bytes, &cfg);
    assert_eq!(walk_ref, table_ref, "borrowed table {ty} {cfg:?}");
});
