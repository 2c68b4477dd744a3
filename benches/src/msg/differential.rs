//! The changed inputs through which the hand-written decoders (`table`, `kindsel`) are
//! held to the generated one: `same(input, what)` compares the two decoders on one input
//! (asserting the same value or the same error, `what` naming the input) and says whether
//! both accepted it.

/// Every byte of each of `inputs` set in turn to ten values (tier bytes of bijou64, wire
/// types, the byte with one bit flipped); how many of the changed inputs were refused.
pub(crate) fn every_byte_changed(
    inputs: &[Vec<u8>],
    mut same: impl FnMut(&[u8], &str) -> bool,
) -> usize {
    let mut refused = 0;
    for (i, x) in inputs.iter().enumerate() {
        for at in 0..x.len() {
            for b in [
                0x00,
                0x01,
                0x02,
                0x03,
                0x7F,
                0xF7,
                0xF8,
                0xFB,
                0xFF,
                x[at] ^ 0x04,
            ] {
                let mut y = x.clone();
                y[at] = b;
                refused += usize::from(!same(&y, &format!("input {i}, byte {at} = {b:#x}")));
            }
        }
    }
    refused
}

/// Each of `inputs` cut at every length, and with a byte appended (an unknown or
/// malformed record after the last), which must be refused.
pub(crate) fn every_cut(inputs: &[Vec<u8>], mut same: impl FnMut(&[u8], &str) -> bool) {
    for (i, x) in inputs.iter().enumerate() {
        for n in 0..x.len() {
            same(&x[..n], &format!("input {i} cut at {n}"));
        }
        for b in [0x00, 0x02, 0xF8, 0xFF] {
            let mut y = x.clone();
            y.push(b);
            assert!(!same(&y, &format!("input {i} + {b:#x}")));
        }
    }
}
