//! Quick differential check against the reference crate on tier edges.
#[test]
fn edges_match_reference() {
    for t in 1..=8usize {
        let o = bijou64::OFFSETS[t];
        for v in [o - 1, o, o + 1, u64::MAX, u64::MAX - 1, 0, 247] {
            let ours = bijou64::encode(v);
            let mut theirs = Vec::new();
            bijoux::u64::encode(v, &mut theirs);
            assert_eq!(ours.as_slice(), &theirs[..], "value {v}");
            assert_eq!(bijou64::decode(&theirs), Ok((v, theirs.len())));
            let mut padded = theirs.clone();
            padded.extend_from_slice(&[0xAB; 9]);
            assert_eq!(bijou64::decode(&padded), Ok((v, theirs.len())));
            assert_eq!(bijou64::encoded_len(v), theirs.len());
        }
    }
    assert_eq!(bijou64::decode(&[0xFF; 9]), Err(bijou64::Error::Overflow));
    assert_eq!(bijou64::decode(&[0xFF; 12]), Err(bijou64::Error::Overflow));
}
