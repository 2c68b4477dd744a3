//! What the dynamic encoder allocates: the output, and nothing per message or field. The
//! size table is the runtime's, kept by the thread for its next encode, so a thread
//! that encodes again allocates only the output vector. Allocations are counted on the
//! measuring thread only (`counting`), so other tests and the harness do not mix in.

mod counting;

use counting::allocations;

use bijoubuf_reflect::{DescriptorPool, DynamicMessage, MapKey, Value};

const SCHEMA: &str = r#"
syntax = "proto3";
message Tree {
  int32 id = 1;
  string name = 2;
  repeated Tree children = 3;
  map<string, Tree> named = 4;
  repeated sint64 deltas = 5;
  repeated string tags = 6;
  optional double weight = 7;
}
"#;

/// A tree `depth` levels deep, each level with every kind of field set.
fn tree(desc: &bijoubuf_reflect::MessageDescriptor, depth: usize) -> DynamicMessage {
    let mut m = DynamicMessage::new(desc.clone());
    m.set(1, Value::I32(depth as i32 + 1)).expect("fits");
    m.set(2, Value::String(format!("level {depth}")))
        .expect("fits");
    m.set(5, Value::List(vec![Value::I64(-3), Value::I64(1 << 40)]))
        .expect("fits");
    m.set(
        6,
        Value::List(vec![Value::String("a".into()), Value::String("b".into())]),
    )
    .expect("fits");
    m.set(7, Value::F64(0.5)).expect("fits");
    if depth > 0 {
        let kids = (0..3).map(|_| Value::from(tree(desc, depth - 1))).collect();
        m.set(3, Value::List(kids)).expect("fits");
        let named = vec![
            (
                MapKey::String("x".into()),
                Value::from(tree(desc, depth - 1)),
            ),
            (
                MapKey::String("y".into()),
                Value::from(tree(desc, depth - 1)),
            ),
        ];
        m.set(4, Value::Map(named)).expect("fits");
    }
    m
}

#[test]
fn a_second_encode_allocates_only_its_output() {
    let compiled = bijoubuf_schema::compile_sources(&[("tree.proto", SCHEMA)]).expect("compiles");
    let pool = DescriptorPool::new(&compiled.schema);
    let desc = pool.message("Tree").expect("Tree");
    // 1 + 5 + 25 + 125 = 156 messages, each with seven fields set.
    // A second encode of the same shape: the thread's size table is reused.
    for depth in 0..4 {
        let m = tree(&desc, depth);
        m.encode().expect("encodes");
        let (allocs, bytes) = allocations(|| m.encode().expect("encodes"));
        assert_eq!(
            allocs, 1,
            "depth {depth}: the output vector and nothing else"
        );
        drop(bytes);
    }
    let m = tree(&desc, 3);
    let first = m.encode().expect("encodes");
    let (allocs, again) = allocations(|| m.encode().expect("encodes"));
    assert_eq!(again, first);
    assert_eq!(allocs, 1, "the output vector and nothing else");
    drop(again);
    // The bytes are the canonical ones: they decode to the same message.
    assert_eq!(DynamicMessage::decode(&desc, &first).expect("decodes"), m);
}

/// The counter counts the measuring thread alone: another thread allocating all the
/// while (as the test harness's thread may) does not show up in a measurement.
#[test]
fn allocations_on_other_threads_are_not_counted() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Barrier};
    let stop = Arc::new(AtomicBool::new(false));
    let started = Arc::new(Barrier::new(2));
    let other = {
        let (stop, started) = (stop.clone(), started.clone());
        std::thread::spawn(move || {
            started.wait();
            let mut kept = 0usize;
            while !stop.load(Ordering::Relaxed) {
                kept = kept.wrapping_add(std::hint::black_box(vec![1u8; 32]).len());
            }
            kept
        })
    };
    started.wait();
    let (allocs, v) = allocations(|| {
        let v = std::hint::black_box(Vec::<u8>::with_capacity(64));
        // Long enough for the other thread to allocate many times meanwhile.
        let t = std::time::Instant::now();
        while t.elapsed() < std::time::Duration::from_millis(20) {
            std::hint::spin_loop();
        }
        v
    });
    stop.store(true, Ordering::Relaxed);
    assert!(other.join().expect("joins") > 0);
    drop(v);
    assert_eq!(allocs, 1, "this thread's one vector");
}
