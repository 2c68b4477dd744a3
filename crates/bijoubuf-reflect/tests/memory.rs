//! Memory per input byte: the dynamic decoder's peak allocation on the input shapes
//! that cost the most per byte (long packed runs, maps, runs nested in repeated
//! messages) stays within 16 times the input, measured by a counting global allocator
//! (the input itself not counted), and so do writing and reading proto3 JSON of Any
//! nested in Any; printing those shapes as JSON costs the text and little beside it.
//! One test function, so no other test allocates
//! meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use bijoubuf_reflect::{DescriptorPool, DynamicMessage, Value};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` unchanged; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let now = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const SCHEMA: &str = r#"
syntax = "proto3";
import "google/protobuf/any.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/struct.proto";
message Runs {
  repeated int32 i32 = 1;
  repeated int64 i64 = 2;
  repeated uint64 u64 = 3;
  repeated bool flags = 4;
  repeated double f64 = 5;
  repeated E e = 6;
  repeated sfixed32 sf32 = 7;
}
enum E { E_ZERO = 0; E_ONE = 1; }
message Maps {
  map<int32, int32> ii = 1;
  map<string, bool> sb = 2;
}
message Nest { repeated Runs runs = 1; }
"#;

/// Peak bytes allocated by decoding `bytes` as `ty`, above what was live before, and
/// the decoded message (dropped after the measurement).
fn peak_of(pool: &DescriptorPool, ty: &str, bytes: &[u8]) -> usize {
    let desc = pool.message(ty).expect("declared");
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let m = DynamicMessage::decode(&desc, bytes).expect("a valid input");
    let peak = PEAK.load(Ordering::Relaxed) - base;
    drop(m);
    peak
}

/// A record of field `number` (the first field of its message) holding `payload`.
fn run(number: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = bijou64::encode(u64::from((number - 1) << 2 | 2))
        .as_slice()
        .to_vec();
    out.extend_from_slice(bijou64::encode(payload.len() as u64).as_slice());
    out.extend_from_slice(payload);
    out
}

/// Entries `key → true` for every ASCII string up to 3 bytes long that extends
/// `prefix`, in ascending order, until `out` holds `max` bytes.
fn string_keys(prefix: &mut Vec<u8>, out: &mut Vec<u8>, max: usize) {
    if out.len() >= max {
        return;
    }
    out.push(prefix.len() as u8);
    out.extend_from_slice(prefix);
    out.push(0x01);
    if prefix.len() < 3 {
        for c in 0..0x80 {
            prefix.push(c);
            string_keys(prefix, out, max);
            prefix.pop();
        }
    }
}

#[test]
fn decode_peak_memory_is_at_most_16_times_the_input() {
    let compiled = bijoubuf_schema::compile_sources(&[("m.proto", SCHEMA)]).expect("compiles");
    let pool = DescriptorPool::new(&compiled.schema);
    const MIB: usize = 1 << 20;
    let mut shapes: Vec<(&str, &str, Vec<u8>)> = Vec::new();
    // 1-byte elements: the most elements per input byte.
    for (number, what) in [
        (1, "int32"),
        (2, "int64"),
        (3, "uint64"),
        (4, "bool"),
        (6, "enum"),
    ] {
        shapes.push((what, "Runs", run(number, &vec![0x01; MIB])));
    }
    shapes.push(("double", "Runs", run(5, &vec![0x00; MIB])));
    shapes.push(("sfixed32", "Runs", run(7, &vec![0x00; MIB])));
    // map<int32, int32>: ascending keys, values 1 byte.
    let mut entries = Vec::new();
    let mut k: i32 = 0;
    while entries.len() < MIB {
        entries.extend_from_slice(bijou64::encode(bijou64::zigzag::encode_i32(k)).as_slice());
        entries.push(0x01);
        k += 1;
    }
    shapes.push(("map<int32, int32>", "Maps", run(1, &entries)));
    // map<string, bool>: the shortest keys there are, in ascending byte order.
    let mut entries = Vec::new();
    string_keys(&mut Vec::new(), &mut entries, MIB);
    shapes.push(("map<string, bool>", "Maps", run(2, &entries)));
    // Runs nested in repeated messages, down to 8 elements a message.
    for k in [8, 64] {
        shapes.push(("nested runs", "Nest", nested(k)));
    }
    for (what, ty, bytes) in &shapes {
        let peak = peak_of(&pool, ty, bytes);
        assert!(
            peak <= 16 * bytes.len(),
            "{what}: decoding {} bytes allocated {peak} at peak ({:.1}x)",
            bytes.len(),
            peak as f64 / bytes.len() as f64
        );
    }
    // Printing the same messages as JSON: the text (whose length the values decide: a
    // one-byte enum element may have a long name) and, besides it, at most one byte per
    // input byte. A tree of the output built first cost about 32 bytes per element.
    for (what, ty, bytes) in &shapes {
        let desc = pool.message(ty).expect("declared");
        let m = DynamicMessage::decode(&desc, bytes).expect("a valid input");
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let text = bijoubuf_reflect::json::to_string(&m).expect("prints");
        let peak = PEAK.load(Ordering::Relaxed) - base;
        let beside = peak.saturating_sub(text.capacity());
        assert!(
            beside <= bytes.len(),
            "{what}: printing {} bytes as {} bytes of JSON allocated {beside} besides the text",
            bytes.len(),
            text.len()
        );
    }
    // The Struct family's JSON (ListValue, Struct, Value) is written as it is walked
    // too: the text and at most one byte per input byte besides. Built as a tree first,
    // a ListValue of nulls cost 18.9 times its input for a text 1.7 times as long.
    for (what, ty, bytes) in struct_family(&pool) {
        let desc = pool.message(ty).expect("imported");
        let m = DynamicMessage::decode(&desc, &bytes).expect("a valid input");
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let text = bijoubuf_reflect::json::to_string(&m).expect("prints");
        let peak = PEAK.load(Ordering::Relaxed) - base;
        let beside = peak.saturating_sub(text.capacity());
        assert!(
            beside <= bytes.len(),
            "{what}: printing {} bytes as {} bytes of JSON allocated {beside} besides the text",
            bytes.len(),
            text.len()
        );
    }
    // proto3 JSON of 99 Any, each holding the next, around 512 KiB of bytes: every
    // payload is a copy of most of the one around it, so the copies must not all be
    // alive at once.
    let any = pool.message("google.protobuf.Any").expect("imported");
    let wrapper = pool
        .message("google.protobuf.BytesValue")
        .expect("imported");
    let mut w = DynamicMessage::new(wrapper);
    w.set(1, Value::Bytes(vec![7; 1 << 19])).expect("fits");
    let mut bytes = w.encode().expect("encodes");
    let mut url = "type.googleapis.com/google.protobuf.BytesValue";
    for _ in 0..99 {
        let mut a = DynamicMessage::new(any.clone());
        a.set(1, Value::String(url.into())).expect("fits");
        a.set(2, Value::Bytes(bytes)).expect("fits");
        bytes = a.encode().expect("encodes");
        url = "type.googleapis.com/google.protobuf.Any";
    }
    let chain = DynamicMessage::decode(&any, &bytes).expect("decodes");
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let text = bijoubuf_reflect::json::to_string(&chain).expect("99 levels print");
    let peak = PEAK.load(Ordering::Relaxed) - base;
    assert!(text.len() < 2 * bytes.len(), "{} bytes of JSON", text.len());
    assert!(
        peak <= 16 * bytes.len(),
        "Any chain: {peak} bytes for {} ({:.1}x)",
        bytes.len(),
        peak as f64 / bytes.len() as f64
    );
    // Reading that JSON back: each Any level's members were once copied for the level
    // below, so the text's size was alive once per level.
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let back = bijoubuf_reflect::json::from_str(&any, &text).expect("reads back");
    let peak = PEAK.load(Ordering::Relaxed) - base;
    assert!(
        peak <= 16 * text.len(),
        "Any chain from JSON: {peak} bytes for {} ({:.1}x)",
        text.len(),
        peak as f64 / text.len() as f64
    );
    assert_eq!(back.encode().expect("encodes"), bytes);
    // The cheapest elements there are, SPEC §9.4's table: 1 MiB of empty messages in a
    // repeated field, one input byte each. Each costs its list slot (a 32-byte `Value`)
    // and the boxed `DynamicMessage` (64), and the list's last growth holds its old
    // block beside the new one.
    let empties = run(1, &vec![0x00; MIB]);
    let p = peak_of(&pool, "Nest", &empties);
    eprintln!(
        "| reflect | empty message | {:.1} | {:.1}x |",
        p as f64 / MIB as f64,
        p as f64 / empties.len() as f64
    );
    assert!(
        p <= (64 + 2 * 32 + 16) * MIB,
        "empty messages: {p} bytes for {MIB}"
    );
    // Not within 16x: a message of four bytes holding a one-element run. Each costs a
    // list slot (a 32-byte `Value`), the boxed `DynamicMessage` (64), one field slot
    // (40) and the element (4): 140 bytes, 35x. This pins that bound.
    let tiny = nested(1);
    let peak = peak_of(&pool, "Nest", &tiny);
    assert!(
        peak <= 36 * tiny.len(),
        "one-element runs: {peak} bytes for {} ({:.1}x)",
        tiny.len(),
        peak as f64 / tiny.len() as f64
    );
}

/// About 1 MiB of `Nest` messages, each holding a run of `k` one-byte elements.
fn nested(k: usize) -> Vec<u8> {
    let inner = run(1, &vec![0x01; k]);
    let mut outer = Vec::new();
    while outer.len() < 1 << 20 {
        outer.extend_from_slice(bijou64::encode(inner.len() as u64).as_slice());
        outer.extend_from_slice(&inner);
    }
    run(1, &outer)
}

/// About 1 MiB each of a ListValue of nulls, a ListValue of every kind of Value (lists
/// of one null among them), a Struct of short keys, and a Value holding that Struct.
fn struct_family(pool: &DescriptorPool) -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let value = pool.message("google.protobuf.Value").expect("imported");
    let list = pool.message("google.protobuf.ListValue").expect("imported");
    let obj = pool.message("google.protobuf.Struct").expect("imported");
    let one = |field: u32, v: Value| {
        let mut m = DynamicMessage::new(value.clone());
        m.set(field, v).expect("fits");
        m
    };
    let null = || one(1, Value::EnumNumber(0));
    let list_of = |items: Vec<DynamicMessage>| {
        let mut l = DynamicMessage::new(list.clone());
        l.set(1, Value::List(items.into_iter().map(Value::from).collect()))
            .expect("fits");
        l
    };
    let kinds = |i: usize| match i % 5 {
        0 => null(),
        1 => one(2, Value::F64(i as f64 / 4.0)),
        2 => one(3, Value::String("s".into())),
        3 => one(4, Value::Bool(true)),
        _ => one(6, Value::from(list_of(vec![null()]))),
    };
    const MIB: usize = 1 << 20;
    let mut out = Vec::new();
    let nulls = list_of((0..MIB / 3).map(|_| null()).collect());
    out.push(("ListValue of nulls", "google.protobuf.ListValue", nulls));
    let mixed = list_of((0..MIB / 6).map(kinds).collect());
    out.push((
        "ListValue of every kind",
        "google.protobuf.ListValue",
        mixed,
    ));
    let mut s = DynamicMessage::new(obj.clone());
    let entries = (0..MIB / 12)
        .map(|i| {
            let key = bijoubuf_reflect::MapKey::String(format!("{i:05x}"));
            (key, Value::from(kinds(i)))
        })
        .collect();
    s.set(1, Value::Map(entries)).expect("fits");
    let in_value = one(5, Value::from(s.clone()));
    out.push(("Struct", "google.protobuf.Struct", s));
    out.push(("Value holding a Struct", "google.protobuf.Value", in_value));
    out.into_iter()
        .map(|(what, ty, m)| (what, ty, m.encode().expect("encodes")))
        .collect()
}
