//! Writing and reading proto3 JSON spells out a value's path only for an error: a run of
//! n elements costs the vectors that hold them, not a path string per element. Allocations
//! are counted on the measuring thread only (`counting`).

mod counting;

use bijoubuf_reflect::{DescriptorPool, DynamicMessage, Value, json};
use counting::allocations;

#[test]
fn json_of_a_long_run_allocates_no_path_per_element() {
    let compiled = bijoubuf_schema::compile_sources(&[(
        "r.proto",
        "syntax = \"proto3\"; message R { repeated int32 xs = 1; repeated bool flags = 2; \
         map<int32, sint64> ids = 3; }",
    )])
    .expect("the schema compiles");
    let pool = DescriptorPool::new(&compiled.schema);
    let desc = pool.message("R").expect("R is defined");
    const N: usize = 10_000;
    let mut m = DynamicMessage::new(desc.clone());
    m.set(1, Value::List((0..N as i32).map(Value::I32).collect()))
        .expect("fits");
    m.set(
        2,
        Value::List((0..N).map(|i| Value::Bool(i % 3 == 0)).collect()),
    )
    .expect("fits");

    // Writing: the text, a few dozen allocations; a path string per element made it more
    // than 2 × 10,000.
    let (n, text) = allocations(|| json::to_string(&m));
    let text = text.expect("the message has a JSON form");
    assert!(n < 200, "{n} allocations to write {N} × 2 elements");

    // Reading: the parsed tree's vectors and the message's values, likewise.
    let (n, back) = allocations(|| json::from_str(&desc, &text));
    let back = back.expect("the text reads back");
    assert!(n < 200, "{n} allocations to read {N} × 2 elements");
    assert_eq!(back.encode().unwrap(), m.encode().unwrap());

    // A map's integer keys are spelled into one buffer, not a string each.
    let mut m = DynamicMessage::new(desc.clone());
    let entries = (0..N as i32)
        .map(|i| (bijoubuf_reflect::MapKey::I32(i), Value::I64(-i64::from(i))))
        .collect();
    m.set(3, Value::Map(entries)).expect("fits");
    let (n, map_text) = allocations(|| json::to_string(&m));
    map_text.expect("the map has a JSON form");
    assert!(n < 200, "{n} allocations to write a map of {N} entries");

    // An error still names the element.
    let bad = text.replacen("true", "\"yes\"", 1);
    let err = json::from_str(&desc, &bad).unwrap_err();
    assert_eq!(err.path(), "$.flags[0]");
}
