//! The fast paths against the spec-literal reference, with proptest and at every slice
//! length around the fast/slow boundary.

mod common;

use bijou64::{
    Error, MAX_LEN, PackedErrorKind, decode, decode_packed, decode_packed_i32_into,
    decode_packed_i64_into, decode_packed_into, decode_packed_u32_into, decode_window,
    decode_window_branchless, encode, encode_to_array, encode_to_slice, encoded_len, zigzag,
};
use common::{ref_decode, ref_decode_run, ref_encode};
use proptest::prelude::*;

/// Values spread over every tier, with extra weight on tier edges.
fn any_value() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (0u32..64, any::<u64>()).prop_map(|(bits, r)| r >> bits),
        (1usize..=8, -2i64..=2).prop_map(|(t, d)| bijou64::OFFSETS[t].wrapping_add_signed(d)),
    ]
}

/// Byte strings that start with a tag of any tier and run for any length.
fn any_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..24),
        (0xF8u8..=0xFF, prop::collection::vec(any::<u8>(), 0..24)).prop_map(|(tag, mut rest)| {
            rest.insert(0, tag);
            rest
        }),
    ]
}

proptest! {
    #[test]
    fn encode_matches_reference_and_round_trips(v in any_value()) {
        let want = ref_encode(v);
        let e = encode(v);
        prop_assert_eq!(e.as_slice(), &want[..]);
        prop_assert_eq!(encoded_len(v), want.len());
        let mut arr = [0u8; MAX_LEN];
        prop_assert_eq!(encode_to_array(v, &mut arr), want.len());
        prop_assert_eq!(&arr[..want.len()], &want[..]);
        #[cfg(feature = "alloc")]
        {
            let mut vec = vec![0xEE];
            bijou64::append(v, &mut vec);
            prop_assert_eq!(&vec[1..], &want[..]);
        }
        prop_assert_eq!(decode(&want), Ok((v, want.len())));
    }

    #[test]
    fn any_accepted_byte_string_re_encodes_to_itself(bytes in any_bytes()) {
        let got = decode(&bytes);
        prop_assert_eq!(got, ref_decode(&bytes));
        prop_assert_eq!(bijou64::decode_branchless(&bytes), got);
        if let Ok((v, used)) = got {
            let e = encode(v);
            prop_assert_eq!(e.as_slice(), &bytes[..used]);
        }
    }

    #[test]
    fn windows_agree_with_reference(window in any::<[u8; 9]>(), tag in 0xF0u8..=0xFF) {
        for w in [window, { let mut w = window; w[0] = tag; w }] {
            let want = ref_decode(&w);
            prop_assert_eq!(decode_window(&w), want);
            prop_assert_eq!(decode_window_branchless(&w), want);
        }
    }

    /// Every prefix length 0..=12 of an encoding followed by other bytes: the decoder goes
    /// from the short path to the fast path at nine readable bytes.
    #[test]
    fn every_slice_length_around_the_boundary(v in any_value(), tail in any::<[u8; 12]>()) {
        let mut bytes = ref_encode(v);
        bytes.extend(tail);
        for len in 0..=12.min(bytes.len()) {
            prop_assert_eq!(decode(&bytes[..len]), ref_decode(&bytes[..len]), "len {}", len);
            prop_assert_eq!(bijou64::decode_branchless(&bytes[..len]), ref_decode(&bytes[..len]), "branchless len {}", len);
        }
    }

    #[test]
    fn encode_to_slice_at_every_room(v in any_value()) {
        let want = ref_encode(v);
        for room in 0..=12 {
            let mut out = vec![0xCCu8; room];
            let got = encode_to_slice(v, &mut out);
            if room < want.len() {
                prop_assert_eq!(got, None);
                prop_assert!(out.iter().all(|&b| b == 0xCC), "nothing written");
            } else {
                prop_assert_eq!(got, Some(want.len()));
                prop_assert_eq!(&out[..want.len()], &want[..]);
            }
        }
    }

    #[test]
    fn packed_runs_agree_with_reference(
        values in prop::collection::vec(any_value(), 0..200),
        cut in any::<prop::sample::Index>(),
        junk in prop::collection::vec(any::<u8>(), 0..12),
    ) {
        let mut run = Vec::new();
        for &v in &values {
            run.extend(ref_encode(v));
        }
        // Whole run.
        let mut got = Vec::new();
        prop_assert_eq!(decode_packed_into(&run, &mut got), Ok(values.len()));
        prop_assert_eq!(&got, &values);
        let iterated: Result<Vec<u64>, Error> = decode_packed(&run).collect();
        prop_assert_eq!(iterated, Ok(values.clone()));
        // Cut anywhere, or followed by junk: same outcome and offset as the reference.
        let mut bad = run[..cut.index(run.len() + 1)].to_vec();
        bad.extend(&junk);
        let want = ref_decode_run(&bad);
        let mut got = Vec::new();
        match (decode_packed_into(&bad, &mut got), want) {
            (Ok(n), Ok(want)) => { prop_assert_eq!(n, want.len()); prop_assert_eq!(got, want); }
            (Err(e), Err((we, at))) => {
                prop_assert_eq!(e.kind, PackedErrorKind::from(we));
                prop_assert_eq!(e.offset, at);
                // What was handed over is a prefix of the values before the error.
                let before = ref_decode_run(&bad[..at]).expect("the bytes before the error decode");
                prop_assert!(got.len() <= before.len() && got[..] == before[..got.len()]);
            }
            (g, w) => prop_assert!(false, "got {:?}, reference {:?}", g, w),
        }
        let mut it = decode_packed(&bad);
        let iterated: Result<Vec<u64>, Error> = it.by_ref().collect();
        match ref_decode_run(&bad) {
            Ok(want) => prop_assert_eq!(iterated, Ok(want)),
            Err((we, at)) => {
                prop_assert_eq!(iterated, Err(we));
                prop_assert_eq!(it.offset(), at);
                prop_assert_eq!(it.next(), None, "fused after an error");
            }
        }
    }

    /// Mostly one-byte values, so the eight-byte scan meets long runs, short runs and tags
    /// at every position of its window.
    #[test]
    fn packed_runs_of_mostly_small_values(
        values in prop::collection::vec(prop_oneof![4 => 0u64..248, 1 => any_value()], 0..300),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut run = Vec::new();
        for &v in &values {
            run.extend(ref_encode(v));
        }
        let mut got = Vec::new();
        prop_assert_eq!(decode_packed_into(&run, &mut got), Ok(values.len()));
        prop_assert_eq!(&got, &values);
        let cut = &run[..cut.index(run.len() + 1)];
        let mut got = Vec::new();
        match (decode_packed_into(cut, &mut got), ref_decode_run(cut)) {
            (Ok(n), Ok(want)) => { prop_assert_eq!(n, want.len()); prop_assert_eq!(got, want); }
            (Err(e), Err((we, at))) => {
                prop_assert_eq!((e.kind, e.offset), (PackedErrorKind::from(we), at));
            }
            (g, w) => prop_assert!(false, "got {:?}, reference {:?}", g, w),
        }
    }

    #[test]
    fn narrow_and_signed_packed_runs(values in prop::collection::vec(any_value(), 0..150)) {
        let mut run = Vec::new();
        let mut offsets = Vec::new();
        for &v in &values {
            offsets.push(run.len());
            run.extend(ref_encode(v));
        }
        let first_wide = values.iter().position(|&v| v > u32::MAX as u64);

        let mut u32s = Vec::new();
        let got = decode_packed_u32_into(&run, &mut u32s);
        let mut i32s = Vec::new();
        let got_i32 = decode_packed_i32_into(&run, &mut i32s);
        match first_wide {
            None => {
                prop_assert_eq!(got, Ok(values.len()));
                let want: Vec<u32> = values.iter().map(|&v| v as u32).collect();
                prop_assert_eq!(u32s, want);
                prop_assert_eq!(got_i32, Ok(values.len()));
                let want: Vec<i32> = values.iter().map(|&v| zigzag::decode_i32(v).unwrap()).collect();
                prop_assert_eq!(i32s, want);
            }
            Some(i) => {
                let e = got.unwrap_err();
                prop_assert_eq!((e.kind, e.offset), (PackedErrorKind::OutOfRange, offsets[i]));
                let e = got_i32.unwrap_err();
                prop_assert_eq!((e.kind, e.offset), (PackedErrorKind::OutOfRange, offsets[i]));
            }
        }
        let mut i64s = Vec::new();
        prop_assert_eq!(decode_packed_i64_into(&run, &mut i64s), Ok(values.len()));
        let want: Vec<i64> = values.iter().map(|&v| zigzag::decode_i64(v)).collect();
        prop_assert_eq!(i64s, want);
    }
}

#[test]
fn every_slice_length_of_every_tier_edge() {
    // Deterministic companion of the proptest above: each tier's first and last value,
    // then garbage, at every length 0..=12.
    for t in 0..=8 {
        let start = bijou64::OFFSETS[t];
        let end = if t == 8 {
            u64::MAX
        } else {
            bijou64::OFFSETS[t + 1] - 1
        };
        for v in [start, end] {
            let mut bytes = ref_encode(v);
            bytes.extend([0xFF; 12]);
            for len in 0..=12 {
                assert_eq!(
                    decode(&bytes[..len]),
                    ref_decode(&bytes[..len]),
                    "{v} len {len}"
                );
            }
        }
    }
}

#[test]
fn out_of_range_is_reported_before_a_later_truncation() {
    // 2^32 + … (too wide for u32) then a truncated value: the first violation wins.
    let mut run = vec![0x01];
    run.extend(ref_encode(1 << 40));
    run.push(0xFA);
    let mut out: Vec<u32> = Vec::new();
    let e = decode_packed_u32_into(&run, &mut out).unwrap_err();
    assert_eq!((e.kind, e.offset), (PackedErrorKind::OutOfRange, 1));
    assert_eq!(e.kind.code(), "integer-out-of-range");
    let mut out: Vec<u64> = Vec::new();
    let e = decode_packed_into(&run, &mut out).unwrap_err();
    assert_eq!(
        (e.kind, e.offset),
        (PackedErrorKind::Truncated, run.len() - 1)
    );
    assert_eq!(
        e.to_string(),
        format!(
            "truncated: the run ends inside a value at byte {} of the run",
            run.len() - 1
        )
    );
}

#[test]
fn long_runs_cross_chunk_boundaries() {
    // Long enough to fill the internal chunk many times, with an error far in.
    let values: Vec<u64> = (0..5_000u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (i % 64))
        .collect();
    let mut run = Vec::new();
    let mut offsets = Vec::new();
    for &v in &values {
        offsets.push(run.len());
        run.extend(ref_encode(v));
    }
    let mut got = Vec::new();
    assert_eq!(decode_packed_into(&run, &mut got), Ok(values.len()));
    assert_eq!(got, values);
    // Replace the tail from the fifth-last value on with an overflowing tier-8 value.
    let at = offsets[values.len() - 5];
    let mut bad = run[..at].to_vec();
    bad.extend([0xFF; 9]);
    let mut got = Vec::new();
    let e = decode_packed_into(&bad, &mut got).unwrap_err();
    assert_eq!((e.kind, e.offset), (PackedErrorKind::Overflow, at));
    assert!(got.len() <= values.len() - 5 && got[..] == values[..got.len()]);
}
