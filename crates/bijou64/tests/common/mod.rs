//! A slow reference that follows the specification's wording step by step (SPEC §2), with
//! its own offsets computed in `u128` from the recurrence. It shares no code with the
//! crate, so the crate's fast paths can be tested against it.
#![allow(dead_code)] // each test file uses part of it

use bijou64::Error;

/// `OFFSET[0..=9]` in `u128`, from `OFFSET[0] = 0`, `OFFSET[1] = 248`,
/// `OFFSET[n] = OFFSET[n-1] + 256^(n-1)`; `OFFSET[9]` is where tier 8 would end.
pub(crate) fn ref_offsets() -> [u128; 10] {
    let mut o = [0u128; 10];
    o[1] = 248;
    for n in 2..=9 {
        o[n] = o[n - 1] + 256u128.pow(n as u32 - 1);
    }
    o
}

/// Encode by the specification's four steps.
pub(crate) fn ref_encode(v: u64) -> Vec<u8> {
    let o = ref_offsets();
    let v = v as u128;
    if v < 248 {
        return vec![v as u8];
    }
    let t = (1..=8)
        .find(|&t| o[t] <= v && v < o[t + 1])
        .expect("some tier holds every u64");
    let mut out = vec![(247 + t) as u8];
    let mut payload = v - o[t];
    let mut be = Vec::new();
    for _ in 0..t {
        be.push((payload % 256) as u8);
        payload /= 256;
    }
    assert_eq!(payload, 0, "payload fits its tier");
    be.reverse();
    out.extend(be);
    out
}

/// Decode by the specification's six steps.
pub(crate) fn ref_decode(input: &[u8]) -> Result<(u64, usize), Error> {
    let o = ref_offsets();
    let Some(&tag) = input.first() else {
        return Err(Error::Truncated);
    };
    if tag < 248 {
        return Ok((tag as u64, 1));
    }
    let t = (tag - 247) as usize;
    if input.len() - 1 < t {
        return Err(Error::Truncated);
    }
    let mut payload: u128 = 0;
    for &b in &input[1..=t] {
        payload = payload * 256 + b as u128;
    }
    let value = o[t] + payload;
    if value > u64::MAX as u128 {
        return Err(Error::Overflow);
    }
    Ok((value as u64, 1 + t))
}

/// Decode a whole packed run with the reference: the values, or the error and the offset
/// of the failing value's tag.
pub(crate) fn ref_decode_run(mut input: &[u8]) -> Result<Vec<u64>, (Error, usize)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while !input.is_empty() {
        let (v, n) = ref_decode(input).map_err(|e| (e, pos))?;
        out.push(v);
        pos += n;
        input = &input[n..];
    }
    Ok(out)
}

/// Parse hand-written hex such as `"F9 01 F0"`.
pub(crate) fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).expect("two hex digits"))
        .collect()
}

pub(crate) mod before;
