//! `__private::utf8` takes an ASCII fast path before `core::str::from_utf8`: it must
//! agree with the standard check on every input, in the result and in the error offset
//! (SPEC §7, §11).

use bijoubuf::__private::utf8;
use bijoubuf::ErrorKind;
use proptest::prelude::*;

fn agrees(bytes: &[u8], start: usize) {
    match (utf8(bytes, start), core::str::from_utf8(bytes)) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(e), Err(s)) => {
            assert_eq!(e.kind(), ErrorKind::InvalidUtf8);
            assert_eq!(e.offset(), start + s.valid_up_to());
        }
        (a, b) => panic!("fast path {a:?} vs from_utf8 {b:?} on {bytes:?}"),
    }
}

#[test]
fn ascii_edges_and_high_bytes_in_every_position() {
    // Lengths around the word sizes (4 and 8) and past the 64-byte blocks of the
    // standard check, with one byte at or above 0x80 at each position: the fast path
    // reads whole words and an overlapping last word, so every tail length counts.
    for len in 0..150 {
        let ascii: Vec<u8> = (0..len).map(|i| b' ' + (i % 90) as u8).collect();
        agrees(&ascii, 3);
        for at in 0..len {
            for high in [0x7F, 0x80, 0xC3, 0xFF] {
                let mut b = ascii.clone();
                b[at] = high;
                agrees(&b, 11);
                // A valid two-byte sequence starting there.
                if at + 1 < len {
                    b[at] = 0xC3;
                    b[at + 1] = 0xA9;
                    agrees(&b, 0);
                }
            }
        }
    }
}

#[test]
fn high_bytes_that_cancel_or_fill_a_lane_are_not_taken_for_ascii() {
    // Two or more bytes at or above 0x80: an even number of high bits in one bit lane
    // (cancelled by an XOR where the check ORs), and strings whose bytes are all 0x80
    // (every lane's high bit set and nothing else: what a mask test with the wrong
    // operator takes for zero). None of them is valid UTF-8 but C3 A9 pairs.
    for len in 1..40 {
        agrees(&vec![0x80; len], 5);
        agrees(&vec![0xFF; len], 5);
        let ascii: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        for i in 0..len {
            for j in i + 1..len {
                for (x, y) in [(0x80, 0x80), (0xC3, 0xA9), (0xFF, 0x80)] {
                    let mut b = ascii.clone();
                    b[i] = x;
                    b[j] = y;
                    agrees(&b, 7);
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn agrees_with_from_utf8_on_arbitrary_bytes(
        b in prop::collection::vec(prop_oneof![0u8..0x80, any::<u8>()], 0..64),
        start in 0usize..1000,
    ) {
        agrees(&b, start);
    }

    #[test]
    fn agrees_with_from_utf8_on_strings(s in ".{0,40}", start in 0usize..1000) {
        agrees(s.as_bytes(), start);
    }
}
