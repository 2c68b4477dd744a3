//! Memory per element, the numbers of SPEC §9.4's table for generated code: the peak heap
//! of decoding 1 MiB of the cheapest elements there are (empty messages in a repeated
//! field, one input byte each; empty strings likewise), owned and borrowed. A counting
//! allocator keeps this thread's live bytes and their peak; a `realloc` counts the old
//! and the new block together at its peak, as a moving allocator holds both. One test
//! function, so no other test allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use bijoubuf::{Message, MessageRef};
use bijoubuf_codegen_tests::kitchen::{Repeats, RepeatsRef, Tree, TreeRef};

struct Peak;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(grow: usize, shrink: usize) {
    if !ON.try_with(Cell::get).unwrap_or(false) {
        return;
    }
    let _ = LIVE.try_with(|live| {
        let now = live.get() + grow as isize;
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
        live.set(now - shrink as isize);
    });
}

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), 0);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, layout.size());
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size, layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Peak = Peak;

/// The peak of live heap bytes above the start while `f` runs (what `f` returns is
/// dropped after the measurement).
fn peak<T>(f: impl FnOnce() -> T) -> usize {
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    ON.with(|c| c.set(true));
    let v = f();
    ON.with(|c| c.set(false));
    drop(v);
    PEAK.with(Cell::get).max(0) as usize
}

const MIB: usize = 1 << 20;

/// Field `number`'s LEN record (the message's first field) holding `n` bytes `00`: `n`
/// empty messages, strings or byte strings.
fn run_of_empties(number: u8, n: usize) -> Vec<u8> {
    let mut v = vec![((number - 1) << 2) | 2];
    v.extend_from_slice(bijou64::encode(n as u64).as_slice());
    v.resize(v.len() + n, 0x00);
    v
}

/// Print one row of the table and check it against `bound` bytes per element.
fn row(engine: &str, what: &str, input: &[u8], n: usize, peak: usize, bound: usize) {
    let per = peak as f64 / n as f64;
    eprintln!(
        "| {engine} | {what} | {per:.1} | {:.1}x |",
        peak as f64 / input.len() as f64
    );
    assert!(
        peak <= bound * n,
        "{engine}, {what}: {peak} bytes at peak for {n} elements ({per:.1} each), allowed {bound} each"
    );
}

#[test]
fn memory_per_element_of_the_cheapest_elements() {
    // Empty messages: kitchen.Tree.children (3).
    let trees = run_of_empties(3, MIB);
    let p = peak(|| Tree::decode(&trees).expect("valid"));
    // The vector of elements, grown by doubling past the first reservation: at the last
    // growth the old block and the new one are both alive.
    let owned = size_of::<Tree>();
    row("owned", "empty message", &trees, MIB, p, 2 * owned + 16);
    let p = peak(|| TreeRef::decode(&trees).expect("valid"));
    let borrowed = size_of::<TreeRef<'_>>();
    row(
        "borrowed",
        "empty message",
        &trees,
        MIB,
        p,
        2 * borrowed + 16,
    );
    // Empty strings: kitchen.Repeats has `repeated string` as field 15.
    let strings = run_of_empties(15, MIB);
    let p = peak(|| Repeats::decode(&strings).expect("valid"));
    row(
        "owned",
        "empty string",
        &strings,
        MIB,
        p,
        2 * size_of::<String>() + 16,
    );
    let p = peak(|| RepeatsRef::decode(&strings).expect("valid"));
    row(
        "borrowed",
        "empty string",
        &strings,
        MIB,
        p,
        2 * size_of::<&str>() + 16,
    );
    eprintln!(
        "size_of: Tree {owned}, TreeRef {borrowed}, String {}, &str {}",
        size_of::<String>(),
        size_of::<&str>()
    );
}
