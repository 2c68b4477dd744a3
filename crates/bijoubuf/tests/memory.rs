//! Peak memory per input byte (SPEC §9.4): decoding the worst shapes holds at most 16
//! bytes of heap per input byte. The one exception is the decoded value itself where
//! its elements are wider in memory than 16 bytes per input byte they cost (an empty
//! string is one input byte and 24 bytes of `String`): then the peak may add the
//! vector of those elements twice (its old and new blocks while it grows).
//!
//! A counting allocator keeps this thread's live heap bytes and their peak while a
//! decode runs. A `realloc` counts the old and the new block together at its peak (an
//! allocator that moves the block holds both while it copies).
//!
//! Each shape is decoded twice: whole and valid, and with its first element spoiled so
//! the decode fails at once while the element count taken before decoding still sees the
//! whole run. The second is the attack on the first reservation: nothing of the value is
//! kept, so the peak must stay within the per-byte budget alone.
mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;

use bijoubuf::Message;
use common::*;

struct Counting;

thread_local! {
    // Per thread: the harness runs other tests on other threads at the same time.
    static ON: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Add `grow` live bytes, with `transient` more at the peak only; `shrink` afterwards.
fn count(grow: usize, transient: usize, shrink: usize) {
    // `try_with`: no panic inside the allocator while a thread's locals are torn down.
    if !ON.try_with(Cell::get).unwrap_or(false) {
        return;
    }
    let _ = LIVE.try_with(|live| {
        let now = live.get() + grow as isize;
        let _ = PEAK.try_with(|p| p.set(p.get().max(now + transient as isize)));
        live.set(now - shrink as isize);
    });
}

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), 0, 0);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, 0, layout.size());
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size, 0, layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The peak of live heap bytes, above the level at the start, while `f` runs.
fn peak(f: impl FnOnce()) -> usize {
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    ON.with(|c| c.set(true));
    f();
    ON.with(|c| c.set(false));
    PEAK.with(Cell::get).max(0) as usize
}

/// The budget: 16 heap bytes per input byte, and a little for the error's path.
fn budget(input: &[u8]) -> usize {
    16 * input.len() + 1024
}

/// `key`, then a LEN payload holding `content`.
fn record(key: u8, content: &[u8]) -> Vec<u8> {
    let mut v = vec![key];
    v.extend_from_slice(bijou64::encode(content.len() as u64).as_slice());
    v.extend_from_slice(content);
    v
}

/// The key of LEN field `n` as the first record of a message.
fn len_key(n: u8) -> u8 {
    ((n - 1) << 2) | 2
}

/// Decode `input` as `M` and check the peak against the budget plus `held`, the bytes
/// of the decoded value's elements that an input byte cannot pay for at 16 per byte.
fn check<M: Message>(what: &str, input: &[u8], ok: bool, held: usize) {
    let p = peak(|| {
        let r = M::decode(input);
        assert_eq!(r.is_ok(), ok, "{what}: {:?}", r.err());
    });
    let allowed = budget(input) + held;
    eprintln!(
        "{what}: peak {p} bytes for {} input bytes, allowed {allowed}",
        input.len()
    );
    assert!(
        p <= allowed,
        "{what}: peak {p} bytes for {} input bytes ({:.1} per byte), allowed {allowed}",
        input.len(),
        p as f64 / input.len() as f64
    );
}

/// Elements in each run: enough that a per-element cost dominates every constant.
const N: usize = 20_000;

#[test]
fn packed_runs_of_every_width() {
    // Repeats fields 1..=8 are varint kinds: one-byte elements are the most per byte.
    for field in 1..=8u8 {
        let good = record(len_key(field), &vec![0x01; N]);
        check::<Repeats>(&format!("varint field {field}"), &good, true, 0);
        // A first element past the type's range (or 2 for bool): refused at once.
        let mut bad_run = vec![0xFE; 9];
        bad_run.extend(std::iter::repeat_n(0x01, N));
        let bad = record(len_key(field), &bad_run);
        let ok = matches!(field, 2 | 4 | 6); // 64-bit kinds take the value
        check::<Repeats>(&format!("varint field {field}, bad first"), &bad, ok, 0);
    }
    // Fields 9..=14 are fixed-width; a float's or double's bad first word is a NaN.
    for (field, width) in [(9u8, 4), (10, 8), (11, 4), (12, 8), (13, 4), (14, 8)] {
        let good = record(len_key(field), &vec![0x00; N * width]);
        check::<Repeats>(&format!("fixed field {field}"), &good, true, 0);
        if field >= 13 {
            let mut run = vec![0xFF; width];
            run.extend(std::iter::repeat_n(0x00, N * width));
            let bad = record(len_key(field), &run);
            check::<Repeats>(&format!("fixed field {field}, NaN first"), &bad, false, 0);
        }
    }
}

#[test]
fn runs_of_empty_strings_bytes_and_messages() {
    // Repeats.text (15), data (16), msgs (17): every element `00`, one input byte each.
    let cases: [(u8, usize); 3] = [
        (15, size_of::<String>()),
        (16, size_of::<Vec<u8>>()),
        (17, size_of::<Scalars>()),
    ];
    for (field, width) in cases {
        let good = record(len_key(field), &vec![0x00; N]);
        // The decoded vector holds `width` bytes per input byte.
        let held = if width > 16 { 2 * N * width } else { 0 };
        check::<Repeats>(&format!("field {field}"), &good, true, held);
        // The first element spoiled, the count still sees N + 1 elements: a string that
        // is not UTF-8, a message whose content is a cut key. Bytes cannot be spoiled
        // without ending the count.
        let spoiled: &[u8] = match field {
            15 => &[0x01, 0xFF],
            17 => &[0x01, 0xF8],
            _ => continue,
        };
        let mut run = spoiled.to_vec();
        run.extend(std::iter::repeat_n(0x00, N));
        let bad = record(len_key(field), &run);
        check::<Repeats>(&format!("field {field}, bad first"), &bad, false, 0);
    }
}

#[test]
fn runs_of_short_strings() {
    // Repeats.text with one-byte strings: two input bytes per element.
    let good = record(len_key(15), &[0x01, b'a'].repeat(N));
    check::<Repeats>("one-byte strings", &good, true, 0);
}

#[test]
fn maps() {
    // Scalar keys and values: Maps.i64 (2) and Maps.f64 (8, fixed64 -> uint32).
    let m = Maps {
        i64: (0..N as i64).map(|k| (k, 0)).collect(),
        ..Default::default()
    };
    let good = m.encode_to_vec().unwrap();
    check::<Maps>("map<int64, int64>", &good, true, 0);
    let m = Maps {
        f64: (0..N as u64).map(|k| (k, 0)).collect(),
        ..Default::default()
    };
    let good = m.encode_to_vec().unwrap();
    check::<Maps>("map<fixed64, uint32>", &good, true, 0);
    // String keys, message values: Maps.msgs (12), each value an empty Scalars.
    let keys: Vec<String> = (0..N).map(|i| format!("{i:05}")).collect();
    let m = Maps {
        msgs: keys
            .iter()
            .map(|k| (k.clone(), Scalars::default()))
            .collect(),
        ..Default::default()
    };
    let good = m.encode_to_vec().unwrap();
    let entry = size_of::<(String, Scalars)>();
    check::<Maps>("map<string, Scalars>", &good, true, 2 * N * entry);
    // The same entries with the first key not UTF-8 (the count does not read keys).
    let mut content = vec![0x05, 0xFF, b'0', b'0', b'0', b'0', 0x00];
    for k in &keys {
        content.push(0x05);
        content.extend_from_slice(k.as_bytes());
        content.push(0x00);
    }
    let bad = record(len_key(12), &content);
    check::<Maps>("map<string, Scalars>, bad first key", &bad, false, 0);
}

#[test]
fn nested_runs() {
    // Tree.children (3), each child holding one empty child in its own run: a run of
    // runs, four input bytes per element.
    let t = Tree {
        children: (0..N)
            .map(|_| Tree {
                children: vec![Tree::default()],
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    let good = t.encode_to_vec().unwrap();
    let tree = size_of::<Tree>();
    // Each element holds its own one-element vector of a Tree as well.
    check::<Tree>("runs of runs", &good, true, 2 * N * tree + N * tree);
    // A run of runs whose first inner run is empty (`empty-repeated`).
    let mut content = vec![0x02, 0x0A, 0x00];
    for _ in 0..N {
        content.extend_from_slice(&[0x03, 0x0A, 0x01, 0x00]);
    }
    let bad = record(0x0A, &content);
    check::<Tree>("runs of runs, bad first", &bad, false, 0);
    // Tree.named (4): string keys, each value an empty Tree.
    let named: BTreeMap<String, Tree> = (0..N)
        .map(|i| (format!("{i:05}"), Tree::default()))
        .collect();
    let t = Tree {
        named,
        ..Default::default()
    };
    let good = t.encode_to_vec().unwrap();
    let entry = size_of::<(String, Tree)>();
    check::<Tree>("map of trees", &good, true, 2 * N * entry);
}
