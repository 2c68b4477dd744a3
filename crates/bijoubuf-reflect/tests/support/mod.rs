//! Input generators shared by the differential tests: record sequences built from
//! plausible keys and well-formed payloads (nested runs, strings, edge values), then
//! mutated, so that inputs reach every check instead of failing at the first byte.

use proptest::prelude::*;

/// Values that sit on the edges the checks care about.
fn varint_value() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(2),
        Just(247),
        Just(248),
        Just(u32::MAX as u64),
        Just(u32::MAX as u64 + 1),
        Just(u64::MAX),
        0u64..600,
        any::<u64>(),
    ]
}

fn word4() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(vec![0, 0, 0, 0]),
        Just(vec![0x80, 0, 0, 0]),
        Just(vec![0x7F, 0xC0, 0, 0]),
        Just(vec![0x7F, 0xC0, 0, 1]),
        Just(vec![0xFF, 0xC0, 0, 0]),
        prop::collection::vec(any::<u8>(), 4),
    ]
}

fn word8() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(vec![0; 8]),
        Just(vec![0x7F, 0xF8, 0, 0, 0, 0, 0, 0]),
        Just(vec![0x7F, 0xF8, 0, 0, 0, 0, 0, 1]),
        prop::collection::vec(any::<u8>(), 8),
    ]
}

fn with_len(mut content: Vec<u8>) -> Vec<u8> {
    let mut out = bijou64::encode(content.len() as u64).as_slice().to_vec();
    out.append(&mut content);
    out
}

/// A run of records: small deltas, any wire type, payloads that are well formed for the
/// wire type (nested runs, strings, words, packed elements), recursively.
pub(crate) fn records() -> impl Strategy<Value = Vec<u8>> {
    let leaf = prop::collection::vec(record_leaf(), 0..5).prop_map(|rs| rs.concat());
    leaf.prop_recursive(3, 64, 6, |inner| {
        prop::collection::vec(
            prop_oneof![
                3 => record_leaf(),
                2 => (0u64..4, inner.clone()).prop_map(|(delta, content)| {
                    let mut r = bijou64::encode((delta << 2) | 2).as_slice().to_vec();
                    r.extend(with_len(content));
                    r
                }),
                1 => (0u64..4, prop::collection::vec(inner, 1..3)).prop_map(|(delta, elems)| {
                    // a run of length-prefixed elements (repeated messages, map values)
                    let mut r = bijou64::encode((delta << 2) | 2).as_slice().to_vec();
                    r.extend(with_len(elems.into_iter().map(with_len).collect::<Vec<_>>().concat()));
                    r
                }),
            ],
            0..5,
        )
        .prop_map(|rs| rs.concat())
    })
}

fn record_leaf() -> impl Strategy<Value = Vec<u8>> {
    let payload = prop_oneof![
        varint_value().prop_map(|v| (0u64, bijou64::encode(v).as_slice().to_vec())),
        word8().prop_map(|w| (1u64, w)),
        word4().prop_map(|w| (3u64, w)),
        prop::collection::vec(any::<u8>(), 0..6).prop_map(|b| (2u64, with_len(b))),
        prop::collection::vec(varint_value(), 1..4).prop_map(|vs| {
            let c: Vec<u8> = vs
                .iter()
                .flat_map(|v| bijou64::encode(*v).as_slice().to_vec())
                .collect();
            (2u64, with_len(c))
        }),
        "[a-z\\x00\\n\"é😀]{0,4}".prop_map(|s| (2u64, with_len(s.into_bytes()))),
    ];
    (0u64..5, payload).prop_map(|(delta, (wire, p))| {
        let mut r = bijou64::encode((delta << 2) | wire).as_slice().to_vec();
        r.extend(p);
        r
    })
}

/// A generated run, possibly mutated: a byte changed, the end cut, or bytes appended.
pub(crate) fn inputs() -> impl Strategy<Value = Vec<u8>> {
    (records(), 0u8..4, any::<prop::sample::Index>(), any::<u8>()).prop_map(
        |(mut b, how, at, byte)| {
            if !b.is_empty() {
                let i = at.index(b.len());
                match how {
                    1 => b[i] = byte,
                    2 => b.truncate(i),
                    3 => b.push(byte),
                    _ => {}
                }
            }
            b
        },
    )
}
