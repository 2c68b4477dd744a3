//! Allocation stays proportional to the input (SPEC §9.4): a declared length is checked
//! against the remaining bytes before anything is reserved, and every element costs at
//! least one input byte. A counting allocator measures the largest single request and the
//! total requested while decoding.
mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use bijoubuf::Message;
use common::*;

struct Counting;

thread_local! {
    // Per thread: the test harness runs other tests on other threads at the same time,
    // and their allocations must not be counted in this thread's measurement.
    static ON: Cell<bool> = const { Cell::new(false) };
}

fn counting() -> bool {
    // `try_with`: no panic inside the allocator while a thread's locals are torn down.
    ON.try_with(Cell::get).unwrap_or(false)
}
static LARGEST: AtomicUsize = AtomicUsize::new(0);
static TOTAL: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if counting() {
            LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
            TOTAL.fetch_add(layout.size(), Ordering::Relaxed);
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
            LARGEST.fetch_max(new_size, Ordering::Relaxed);
            TOTAL.fetch_add(new_size, Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Run `f` and return (largest single allocation, total allocated) during it. Tests in
/// this file run one at a time (`measure` holds a lock), and only this thread's allocations
/// are counted, so counts do not mix.
fn measure(f: impl FnOnce()) -> (usize, usize) {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    LARGEST.store(0, Ordering::Relaxed);
    TOTAL.store(0, Ordering::Relaxed);
    ON.with(|c| c.set(true));
    f();
    ON.with(|c| c.set(false));
    (
        LARGEST.load(Ordering::Relaxed),
        TOTAL.load(Ordering::Relaxed),
    )
}

#[test]
fn huge_declared_lengths_allocate_nothing_big() {
    // string, bytes, repeated message run, map run and nested message, each declaring a
    // tier-8 length with a few bytes of input.
    let huge = [0xFE, 0, 0, 0, 0, 0, 0, 0];
    let inputs: Vec<Vec<u8>> = vec![
        [&[0x3A][..], &huge, b"abc"].concat(), // Scalars.text
        [&[0x3E][..], &huge, b"abc"].concat(), // Scalars.data
        [&[0x42][..], &huge, b"abc"].concat(), // Optionals.child
        [&[0x42][..], &[0x05, 0xFE], &huge, b"ab"].concat(), // Repeats.msgs element
        [&[0x3A][..], &[0x05, 0xFE], &huge, b"ab"].concat(), // Repeats.text element
        [&[0x32][..], &[0x05, 0xFE], &huge, b"ab"].concat(), // Maps.text key
    ];
    for (i, bytes) in inputs.iter().enumerate() {
        let (largest, _) = measure(|| {
            let _ = Scalars::decode(bytes);
            let _ = Optionals::decode(bytes);
            let _ = Repeats::decode(bytes);
            let _ = Maps::decode(bytes);
        });
        // The error itself (a boxed kind, offset and short path) is all that is allocated.
        assert!(
            largest <= 128,
            "input {i}: largest allocation {largest} bytes"
        );
    }
}

#[test]
fn many_empty_elements_cost_memory_proportional_to_input() {
    // Repeats.text (15, key 3A) with 2000 empty strings: 2000 input bytes of elements.
    let n = 2000usize;
    let mut bytes = vec![0x3A];
    bytes.extend_from_slice(bijou64::encode(n as u64).as_slice());
    bytes.extend(std::iter::repeat_n(0u8, n));
    let (largest, total) = measure(|| {
        let r = Repeats::decode(&bytes).unwrap();
        assert_eq!(r.text.len(), n);
    });
    // One String header (24 bytes) per input byte, allocated once.
    let per_byte = std::mem::size_of::<String>();
    assert!(largest <= per_byte * n, "largest {largest}");
    assert!(total <= 2 * per_byte * bytes.len(), "total {total}");
}

/// A value with `n` length-prefixed composites: a chain of `n` nested messages.
fn tree_chain(n: usize) -> Tree {
    let mut t = Tree {
        value: 7,
        ..Tree::default()
    };
    for _ in 0..n {
        t = Tree {
            value: 1,
            child: Some(Box::new(t)),
            ..Tree::default()
        };
    }
    t
}

#[test]
fn a_thread_encoding_again_allocates_no_size_table() {
    // Encoding into a buffer with room is one pass, with no size table: nothing is
    // allocated at all.
    let t = tree_chain(40);
    let mut buf = Vec::with_capacity(t.encoded_len());
    t.encode(&mut buf).unwrap();
    let first = buf.clone();
    buf.clear();
    let (largest, total) = measure(|| t.encode(&mut buf).unwrap());
    assert_eq!((largest, total), (0, 0));
    assert_eq!(buf, first);
    assert_eq!(Tree::decode(&buf).unwrap(), t);
    // The two passes' size table is kept by the thread for its next encode: after a
    // first, the second allocates only its output.
    let opts = bijoubuf::EncodeOptions::new();
    let two_passes = || bijoubuf::__private::encode_two_passes(&t, false, &opts).unwrap();
    assert_eq!(two_passes(), first);
    let (largest, total) = measure(|| assert_eq!(two_passes(), first));
    assert_eq!(
        (largest, total),
        (first.len(), first.len()),
        "the table was kept"
    );

    // A table larger than the thread keeps is released (the thread keeps no more than
    // KEEP_SIZES entries of capacity); the next encode allocates a table again, and the
    // encodings are unchanged.
    let wide = Tree {
        children: vec![tree_chain(0); bijoubuf::__private::KEEP_SIZES + 1],
        ..Tree::default()
    };
    let wide_bytes = bijoubuf::__private::encode_two_passes(&wide, false, &opts).unwrap();
    assert_eq!(Tree::decode(&wide_bytes).unwrap(), wide);
    let table = bijoubuf::__private::FIRST_SIZES * size_of::<usize>();
    assert!(first.len() < table);
    let (largest, total) = measure(|| assert_eq!(two_passes(), first));
    assert_eq!(
        (largest, total),
        (table, table + first.len()),
        "a new table, not the large one"
    );
}

#[test]
fn a_table_of_exactly_the_kept_size_is_kept() {
    use bijoubuf::__private::{FIRST_SIZES, KEEP_SIZES};
    // A thread keeps a table of up to KEEP_SIZES entries of capacity, that size
    // included. A value with KEEP_SIZES composites (the run of children and one per
    // child) grows the table from FIRST_SIZES by doubling to exactly KEEP_SIZES.
    assert!(KEEP_SIZES.is_multiple_of(FIRST_SIZES) && (KEEP_SIZES / FIRST_SIZES).is_power_of_two());
    // Through the two passes: the one pass has no table.
    let opts = bijoubuf::EncodeOptions::new();
    let two_passes = |m: &Tree| bijoubuf::__private::encode_two_passes(m, false, &opts).unwrap();
    let t = tree_chain(40);
    let first = two_passes(&t);
    let wide = Tree {
        children: vec![tree_chain(0); KEEP_SIZES - 1],
        ..Tree::default()
    };
    let wide_bytes = two_passes(&wide);
    assert_eq!(Tree::decode(&wide_bytes).unwrap(), wide);
    // Only the output is allocated: the table was kept.
    let (largest, total) = measure(|| assert_eq!(two_passes(&t), first));
    assert_eq!(
        (largest, total),
        (first.len(), first.len()),
        "the table was released"
    );
}

#[test]
fn a_warm_frame_reader_allocates_nothing_per_frame() {
    use bijoubuf::{DecodeOptions, FrameReader};
    // 20,000 frames (well past the reader's first buffer) of a message without heap
    // fields (this hand-written type's `decode_into` is a fresh decode).
    let m = Scalars {
        i32: 9,
        u64: 1 << 40,
        db: 0.5,
        ..Default::default()
    };
    let mut stream = Vec::new();
    for _ in 0..20_000 {
        m.encode_length_delimited(&mut stream).unwrap();
    }
    let mut frames = FrameReader::new(&stream[..], DecodeOptions::new());
    let mut value = Scalars::default();
    // Warm: the buffer and the value's string are allocated by the first frame.
    frames.next_into(&mut value).unwrap().unwrap();
    let mut n = 1;
    let (_, total) = measure(|| {
        while let Some(r) = frames.next_into(&mut value) {
            r.unwrap();
            n += 1;
        }
    });
    assert_eq!((n, &value), (20_000, &m));
    assert_eq!(total, 0, "bytes allocated after the first frame");
}
