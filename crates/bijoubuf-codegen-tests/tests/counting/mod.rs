//! A counting global allocator for the tests that measure allocations: a test file
//! declares `mod counting;` and installs it with
//! `#[global_allocator] static GLOBAL: counting::Counting = counting::Counting;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting allocation calls made while [`allocations`] runs.
pub(crate) struct Counting;

thread_local! {
    // Per thread: other tests run on other threads at the same time.
    static ON: Cell<bool> = const { Cell::new(false) };
}

fn counting() -> bool {
    ON.try_with(Cell::get).unwrap_or(false)
}

/// Allocation calls (fresh allocations and reallocations) while counting.
static CALLS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if counting() {
            CALLS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if counting() {
            CALLS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// The allocation calls `f` makes on this thread, and its result. One measurement at a
/// time (a lock), so counts of concurrent tests do not mix.
pub(crate) fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    CALLS.store(0, Ordering::Relaxed);
    ON.with(|c| c.set(true));
    let v = f();
    ON.with(|c| c.set(false));
    (CALLS.load(Ordering::Relaxed), v)
}
