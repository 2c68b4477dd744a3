//! Exhaustive checks over small domains: every value of tiers 0–2, every input of one to
//! three bytes, and every tier edge.

mod common;

use bijou64::{
    Error, OFFSETS, decode, decode_branchless, decode_window, decode_window_branchless, encode,
    encoded_len,
};
use common::{ref_decode, ref_encode, ref_offsets};

#[test]
fn every_value_of_tiers_0_to_2_round_trips() {
    let end_of_tier_2 = ref_offsets()[3] as u64; // 66 040
    let mut buf = [0u8; 16];
    for v in 0..end_of_tier_2 {
        let e = encode(v);
        let want_len = if v < 248 {
            1
        } else if v < 504 {
            2
        } else {
            3
        };
        assert_eq!(e.len(), want_len, "length of {v}");
        assert_eq!(encoded_len(v), want_len, "encoded_len({v})");
        assert_eq!(decode(&e), Ok((v, want_len)), "short-path decode of {v}");
        buf[..want_len].copy_from_slice(&e);
        assert_eq!(decode(&buf), Ok((v, want_len)), "fast-path decode of {v}");
    }
    // Spot-compare the byte strings with the reference on a stride (all of them would
    // repeat the checks above at ten times the cost).
    for v in (0..end_of_tier_2).step_by(97) {
        assert_eq!(encode(v).as_slice(), &ref_encode(v)[..], "bytes of {v}");
    }
}

/// For every input of `len` bytes whose first byte is in `first`: accepted exactly when
/// the tag's length fits, and an accepted input re-encodes to the bytes it used.
fn check_all_inputs_of_len(len: usize, first: core::ops::RangeInclusive<u8>) {
    let per_tag = 1u32 << (8 * (len - 1));
    let mut padded = [0u8; 12];
    for tag in first {
        for rest in 0..per_tag {
            let i = (tag as u32) << (8 * (len - 1)) | rest;
            check_input(&i.to_be_bytes()[4 - len..], &mut padded);
        }
    }
}

fn check_input(bytes: &[u8], padded: &mut [u8; 12]) {
    let len = bytes.len();
    let needed = if bytes[0] < 0xF8 {
        1
    } else {
        (bytes[0] - 0xF6) as usize
    };
    let exact = decode(bytes);
    match exact {
        Ok((v, used)) => {
            assert_eq!(used, needed, "{bytes:02x?}");
            assert_eq!(
                encode(v).as_slice(),
                &bytes[..used],
                "{bytes:02x?} re-encodes"
            );
        }
        Err(e) => {
            assert_eq!(e, Error::Truncated, "{bytes:02x?}");
            assert!(needed > len, "{bytes:02x?} was refused but is complete");
        }
    }
    assert_eq!(decode_branchless(bytes), exact, "{bytes:02x?} branchless");
    // The same bytes with room behind them: the fast path, which must agree wherever the
    // value was complete, and with the reference where it reads into the padding.
    padded[..len].copy_from_slice(bytes);
    padded[len..].fill(0xA5);
    let fast = decode(&padded[..]);
    if needed <= len {
        assert_eq!(fast, exact, "{bytes:02x?} padded vs exact");
    } else {
        assert_eq!(fast, ref_decode(&padded[..]), "{bytes:02x?} padded");
    }
    assert_eq!(
        decode_branchless(&padded[..]),
        fast,
        "{bytes:02x?} padded, branchless"
    );
}

#[test]
fn every_input_of_one_byte() {
    check_all_inputs_of_len(1, 0..=255);
}

#[test]
fn every_input_of_two_bytes() {
    check_all_inputs_of_len(2, 0..=255);
}

// Three-byte inputs in four parts so the test harness can run them in parallel.
#[test]
fn every_input_of_three_bytes_00_to_3f() {
    check_all_inputs_of_len(3, 0x00..=0x3F);
}

#[test]
fn every_input_of_three_bytes_40_to_7f() {
    check_all_inputs_of_len(3, 0x40..=0x7F);
}

#[test]
fn every_input_of_three_bytes_80_to_bf() {
    check_all_inputs_of_len(3, 0x80..=0xBF);
}

#[test]
fn every_input_of_three_bytes_c0_to_ff() {
    check_all_inputs_of_len(3, 0xC0..=0xFF);
}

#[test]
fn tier_edges_plus_minus_one() {
    let o = ref_offsets();
    let mut edges = vec![0u64, 1, u64::MAX - 1, u64::MAX];
    for t in 1..=8 {
        let start = o[t] as u64;
        edges.extend([start - 1, start, start + 1]);
        // The tier's last value and its neighbours (tier 8's end is u64::MAX, above).
        if t < 8 {
            let end = (o[t + 1] - 1) as u64;
            edges.extend([end - 1, end, end + 1]);
        }
    }
    for v in edges {
        let want = ref_encode(v);
        let e = encode(v);
        assert_eq!(e.as_slice(), &want[..], "encode({v})");
        assert_eq!(encoded_len(v), want.len(), "encoded_len({v})");
        let mut window = [0x5Au8; 9];
        window[..want.len()].copy_from_slice(&want);
        assert_eq!(decode(&want), Ok((v, want.len())), "decode({v})");
        assert_eq!(decode_window(&window), Ok((v, want.len())), "window({v})");
        assert_eq!(
            decode_window_branchless(&window),
            Ok((v, want.len())),
            "branchless({v})"
        );
    }
    // The offsets constant is the reference's.
    for t in 0..=8 {
        assert_eq!(OFFSETS[t] as u128, o[t]);
    }
}

#[test]
fn tier_8_overflow_edge() {
    // u64::MAX is OFFSETS[8] + 0xFEFEFEFEFEFEFE07; one more payload unit overflows.
    let max_payload = u64::MAX - OFFSETS[8];
    for (payload, want) in [
        (max_payload - 1, Ok((u64::MAX - 1, 9))),
        (max_payload, Ok((u64::MAX, 9))),
        (max_payload + 1, Err(Error::Overflow)),
        (u64::MAX, Err(Error::Overflow)),
    ] {
        let mut input = vec![0xFF];
        input.extend(payload.to_be_bytes());
        assert_eq!(decode(&input), want, "payload {payload:x}");
        assert_eq!(ref_decode(&input), want, "reference payload {payload:x}");
        let window: [u8; 9] = input.clone().try_into().unwrap();
        assert_eq!(
            decode_window_branchless(&window),
            want,
            "branchless payload {payload:x}"
        );
    }
}
