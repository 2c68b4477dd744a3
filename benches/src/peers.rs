//! Each peer's batch loop for each operation, through the peer's ordinary public API.

use integer_encoding::VarInt;

/// bijou64's single-value decoders as they were before the tier-8 branch (the crate's test
/// reference), timed beside the current ones so "before" and "after" share a process.
#[path = "../../crates/bijou64/tests/common/before.rs"]
mod before;

/// Which family a peer belongs to; the bars compare bijou64 with the fastest LEB128 peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// This crate.
    Ours,
    /// The reference bijou64 implementation (`bijoux`).
    Reference,
    /// A LEB128 (protobuf-style) varint.
    Leb128,
    /// Another format (vu128: a length-prefix varint that admits overlong spellings).
    Other,
}

/// The byte layout a peer reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// bijou64 values back to back.
    Bijou64,
    /// LEB128 values back to back.
    Leb128,
    /// A protobuf packed field's payload: a LEB128 length, then LEB128 values.
    Leb128LengthPrefixed,
    /// vu128 values back to back, then 8 zero bytes (vu128 reads 9-byte windows).
    Vu128Padded,
}

impl Format {
    /// The bytes of `values` in this format (written with the format's own encoder).
    pub fn bytes(self, values: &[u64]) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            Format::Bijou64 => values.iter().for_each(|&v| bijou64::append(v, &mut out)),
            Format::Leb128 => values
                .iter()
                .for_each(|&v| prost::encoding::encode_varint(v, &mut out)),
            Format::Leb128LengthPrefixed => {
                let run = Format::Leb128.bytes(values);
                prost::encoding::encode_varint(run.len() as u64, &mut out);
                out.extend(run);
            }
            Format::Vu128Padded => {
                let mut buf = [0u8; 9];
                for &v in values {
                    let n = vu128::encode_u64(&mut buf, v);
                    out.extend_from_slice(&buf[..n]);
                }
                out.extend([0u8; 8]);
            }
        }
        out
    }
}

/// A peer's adapter for one operation.
#[derive(Debug, Clone, Copy)]
pub struct Peer<F> {
    /// The benchmark id (the crate, and the variant in parentheses).
    pub name: &'static str,
    /// Which family the bars put it in.
    pub family: Family,
    /// What it reads (decoders) or writes (encoders).
    pub format: Format,
    /// The batch loop.
    pub run: F,
}

/// Encode a batch into the buffer; returns the bytes written. Slice-based APIs size the
/// buffer once and write into it; `Vec`-based ones clear it and append.
pub type EncodeFn = fn(&[u64], &mut Vec<u8>) -> usize;
/// Decode a batch one value at a time into `out`; returns the count, `None` on an error.
pub type DecodeFn = fn(&[u8], &mut [u64]) -> Option<usize>;
/// Decode a whole packed run into the (cleared) vector; returns the count.
pub type PackedFn = fn(&[u8], &mut Vec<u64>) -> Option<usize>;

/// Room for a batch in the worst case (10 bytes per LEB128 value) plus slack for APIs that
/// store a fixed-width word.
fn sized(out: &mut Vec<u8>, values: usize) -> &mut [u8] {
    let need = values * 10 + 16;
    if out.len() < need {
        out.resize(need, 0);
    }
    out
}

/// The encoders.
pub fn encoders() -> Vec<Peer<EncodeFn>> {
    vec![
        Peer {
            name: "bijou64 (append)",
            family: Family::Ours,
            format: Format::Bijou64,
            run: |values, out| {
                out.clear();
                for &v in values {
                    bijou64::append(v, out);
                }
                out.len()
            },
        },
        Peer {
            name: "bijou64 (slice)",
            family: Family::Ours,
            format: Format::Bijou64,
            run: |values, out| {
                let out = sized(out, values.len());
                let mut pos = 0;
                for &v in values {
                    pos += bijou64::encode_to_slice(v, &mut out[pos..]).expect("room");
                }
                pos
            },
        },
        Peer {
            name: "bijoux",
            family: Family::Reference,
            format: Format::Bijou64,
            run: |values, out| {
                out.clear();
                for &v in values {
                    bijoux::u64::encode(v, out);
                }
                out.len()
            },
        },
        Peer {
            name: "prost",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |values, out| {
                out.clear();
                for &v in values {
                    prost::encoding::encode_varint(v, out);
                }
                out.len()
            },
        },
        Peer {
            name: "integer-encoding",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |values, out| {
                let out = sized(out, values.len());
                let mut pos = 0;
                for &v in values {
                    pos += v.encode_var(&mut out[pos..]);
                }
                pos
            },
        },
        Peer {
            name: "leb128",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |values, out| {
                out.clear();
                for &v in values {
                    leb128::write::unsigned(out, v).expect("a Vec takes every write");
                }
                out.len()
            },
        },
        Peer {
            name: "unsigned-varint",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |values, out| {
                out.clear();
                let mut buf = unsigned_varint::encode::u64_buffer();
                for &v in values {
                    out.extend_from_slice(unsigned_varint::encode::u64(v, &mut buf));
                }
                out.len()
            },
        },
        Peer {
            name: "vu128",
            family: Family::Other,
            format: Format::Vu128Padded,
            run: |values, out| {
                let out = sized(out, values.len());
                let mut pos = 0;
                for &v in values {
                    let window = out[pos..].first_chunk_mut().expect("room");
                    pos += vu128::encode_u64(window, v);
                }
                pos
            },
        },
    ]
}

/// The batch loop of the offset-based decoder adapters: `step` reads the value at the
/// front of the rest of the input and says how many bytes it took (`None`: refused).
/// Values start before `end` (vu128's padding lies past it).
#[inline(always)]
fn by_offset(
    input: &[u8],
    end: usize,
    out: &mut [u64],
    step: impl Fn(&[u8]) -> Option<(u64, usize)>,
) -> Option<usize> {
    let (mut pos, mut i) = (0, 0);
    while pos < end {
        let (v, n) = step(&input[pos..])?;
        out[i] = v;
        i += 1;
        pos += n;
    }
    Some(i)
}

/// The batch loop of the cursor-based decoder adapters: `step` reads one value and
/// advances the cursor past it (`None`: refused).
#[inline(always)]
fn by_cursor(
    mut input: &[u8],
    out: &mut [u64],
    step: impl Fn(&mut &[u8]) -> Option<u64>,
) -> Option<usize> {
    let mut i = 0;
    while !input.is_empty() {
        out[i] = step(&mut input)?;
        i += 1;
    }
    Some(i)
}

/// Decoders that take one value at a time through each peer's ordinary API.
pub fn decoders() -> Vec<Peer<DecodeFn>> {
    vec![
        Peer {
            name: "bijou64",
            family: Family::Ours,
            format: Format::Bijou64,
            run: |input, out| by_offset(input, input.len(), out, |r| bijou64::decode(r).ok()),
        },
        Peer {
            name: "bijou64 (branchless)",
            family: Family::Ours,
            format: Format::Bijou64,
            run: |input, out| {
                by_offset(input, input.len(), out, |r| {
                    bijou64::decode_branchless(r).ok()
                })
            },
        },
        Peer {
            name: "bijou64 (before)",
            family: Family::Ours,
            format: Format::Bijou64,
            run: |input, out| by_offset(input, input.len(), out, |r| before::decode(r).ok()),
        },
        Peer {
            name: "bijou64 (branchless, before)",
            family: Family::Ours,
            format: Format::Bijou64,
            run: |input, out| {
                by_offset(input, input.len(), out, |r| {
                    before::decode_branchless(r).ok()
                })
            },
        },
        Peer {
            name: "bijoux",
            family: Family::Reference,
            format: Format::Bijou64,
            run: |input, out| by_offset(input, input.len(), out, |r| bijoux::u64::decode(r).ok()),
        },
        Peer {
            name: "prost",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |input, out| by_cursor(input, out, |r| prost::encoding::decode_varint(r).ok()),
        },
        Peer {
            name: "integer-encoding",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |input, out| by_offset(input, input.len(), out, u64::decode_var),
        },
        Peer {
            name: "leb128",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |input, out| by_cursor(input, out, |r| leb128::read::unsigned(r).ok()),
        },
        Peer {
            name: "unsigned-varint",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |input, out| {
                by_cursor(input, out, |r| {
                    let (v, rest) = unsigned_varint::decode::u64(r).ok()?;
                    *r = rest;
                    Some(v)
                })
            },
        },
        Peer {
            name: "vu128",
            family: Family::Other,
            format: Format::Vu128Padded,
            run: |input, out| {
                by_offset(input, input.len() - 8, out, |r| {
                    Some(vu128::decode_u64(r.first_chunk()?))
                })
            },
        },
    ]
}

/// A multi-byte LEB128 value whose last byte is zero could have been one byte shorter:
/// the cheapest complete canonicality check (an overlong spelling always ends so).
/// `value` starts with the value's `len` bytes.
#[inline(always)]
fn leb128_overlong(value: &[u8], len: usize) -> bool {
    len > 1 && value[len - 1] == 0
}

/// The value a cursor-based LEB128 `read` took, refused if overlong.
#[inline(always)]
fn leb128_canonical(r: &mut &[u8], read: impl Fn(&mut &[u8]) -> Option<u64>) -> Option<u64> {
    let before = *r;
    let v = read(r)?;
    (!leb128_overlong(before, before.len() - r.len())).then_some(v)
}

/// The shortest vu128 length for `v` (its encoder's choice), to refuse longer spellings.
#[inline(always)]
fn vu128_min_len(v: u64) -> usize {
    match v {
        0..0x80 => 1,
        0x80..0x4000 => 2,
        0x4000..0x20_0000 => 3,
        0x20_0000..0x1000_0000 => 4,
        _ => 1 + (64 - v.leading_zeros() as usize).div_ceil(8),
    }
}

/// Decoders that refuse every non-canonical spelling. bijou64 has none to refuse, so its
/// adapters are the plain decoders; unsigned-varint refuses overlong spellings itself.
pub fn canonical_decoders() -> Vec<Peer<DecodeFn>> {
    let plain = decoders();
    let pick = |name: &str| {
        let p = plain
            .iter()
            .find(|p| p.name == name)
            .expect("a plain decoder");
        Peer {
            name: p.name,
            family: p.family,
            format: p.format,
            run: p.run,
        }
    };
    vec![
        pick("bijou64"),
        pick("bijoux"),
        Peer {
            name: "prost",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |input, out| {
                by_cursor(input, out, |r| {
                    leb128_canonical(r, |r| prost::encoding::decode_varint(r).ok())
                })
            },
        },
        Peer {
            name: "integer-encoding",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |input, out| {
                by_offset(input, input.len(), out, |r| {
                    let (v, n) = u64::decode_var(r)?;
                    (!leb128_overlong(r, n)).then_some((v, n))
                })
            },
        },
        Peer {
            name: "leb128",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |input, out| {
                by_cursor(input, out, |r| {
                    leb128_canonical(r, |r| leb128::read::unsigned(r).ok())
                })
            },
        },
        pick("unsigned-varint"),
        Peer {
            name: "vu128",
            family: Family::Other,
            format: Format::Vu128Padded,
            run: |input, out| {
                by_offset(input, input.len() - 8, out, |r| {
                    let (v, n) = vu128::decode_u64(r.first_chunk()?);
                    (n == vu128_min_len(v)).then_some((v, n))
                })
            },
        },
    ]
}

/// Decoders of a whole packed run into a `Vec<u64>`.
pub fn packed_decoders() -> Vec<Peer<PackedFn>> {
    vec![
        Peer {
            name: "bijou64",
            family: Family::Ours,
            format: Format::Bijou64,
            run: |input, out| {
                out.clear();
                bijou64::decode_packed_into(input, out).ok()
            },
        },
        Peer {
            name: "bijou64 (iterator)",
            family: Family::Ours,
            format: Format::Bijou64,
            run: |input, out| {
                out.clear();
                for v in bijou64::decode_packed(input) {
                    out.push(v.ok()?);
                }
                Some(out.len())
            },
        },
        Peer {
            name: "bijoux",
            family: Family::Reference,
            format: Format::Bijou64,
            run: |input, out| {
                out.clear();
                for v in bijoux::u64::decode_iter(input) {
                    out.push(v.ok()?);
                }
                Some(out.len())
            },
        },
        Peer {
            // prost's own packed-field decoder (what generated code calls).
            name: "prost (merge_repeated)",
            family: Family::Leb128,
            format: Format::Leb128LengthPrefixed,
            run: |mut input, out| {
                out.clear();
                prost::encoding::uint64::merge_repeated(
                    prost::encoding::WireType::LengthDelimited,
                    out,
                    &mut input,
                    prost::encoding::DecodeContext::default(),
                )
                .ok()?;
                Some(out.len())
            },
        },
        Peer {
            name: "integer-encoding",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |input, out| {
                out.clear();
                let mut pos = 0;
                while pos < input.len() {
                    let (v, n) = u64::decode_var(&input[pos..])?;
                    out.push(v);
                    pos += n;
                }
                Some(out.len())
            },
        },
        Peer {
            name: "leb128",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |mut input, out| {
                out.clear();
                while !input.is_empty() {
                    out.push(leb128::read::unsigned(&mut input).ok()?);
                }
                Some(out.len())
            },
        },
        Peer {
            name: "unsigned-varint",
            family: Family::Leb128,
            format: Format::Leb128,
            run: |mut input, out| {
                out.clear();
                while !input.is_empty() {
                    let (v, rest) = unsigned_varint::decode::u64(input).ok()?;
                    out.push(v);
                    input = rest;
                }
                Some(out.len())
            },
        },
        Peer {
            name: "vu128",
            family: Family::Other,
            format: Format::Vu128Padded,
            run: |input, out| {
                out.clear();
                let end = input.len() - 8;
                let mut pos = 0;
                while pos < end {
                    let (v, n) = vu128::decode_u64(input[pos..].first_chunk()?);
                    out.push(v);
                    pos += n;
                }
                Some(out.len())
            },
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{BATCH, Dist, values};

    #[test]
    fn every_encoder_writes_its_format() {
        for dist in Dist::ALL {
            let vals = values(dist);
            for p in encoders() {
                let mut out = Vec::new();
                let n = (p.run)(&vals, &mut out);
                let mut want = p.format.bytes(&vals);
                if p.format == Format::Vu128Padded {
                    want.truncate(want.len() - 8);
                }
                assert_eq!(&out[..n], &want[..], "{} on {}", p.name, dist.name());
            }
        }
    }

    #[test]
    fn every_decoder_reads_back_the_batch() {
        for dist in Dist::ALL {
            let vals = values(dist);
            let mut out = vec![0u64; BATCH];
            for p in decoders().into_iter().chain(canonical_decoders()) {
                out.fill(0);
                let input = p.format.bytes(&vals);
                assert_eq!((p.run)(&input, &mut out), Some(BATCH), "{}", p.name);
                assert_eq!(out, vals, "{} on {}", p.name, dist.name());
            }
            for p in packed_decoders() {
                let mut got = Vec::new();
                let input = p.format.bytes(&vals);
                assert_eq!((p.run)(&input, &mut got), Some(BATCH), "{}", p.name);
                assert_eq!(got, vals, "{} on {}", p.name, dist.name());
            }
        }
    }

    #[test]
    fn canonical_decoders_refuse_overlong_spellings() {
        let mut out = vec![0u64; 8];
        for p in canonical_decoders() {
            let overlong: Vec<Vec<u8>> = match p.format {
                Format::Leb128 => vec![
                    vec![0x80, 0x00],
                    vec![0x05, 0xFF, 0x80, 0x00],
                    vec![0x81, 0x80, 0x80, 0x00],
                ],
                Format::Vu128Padded => {
                    // 5 in the two-byte form, and 2^28 with a zero high byte.
                    let mut a = vec![0x80 | 5, 0x00];
                    a.extend([0; 8]);
                    let mut b = vec![0xF4, 0, 0, 0, 0x10, 0];
                    b.extend([0; 8]);
                    vec![a, b]
                }
                // bijou64 has no overlong spellings: every byte string means one value.
                _ => continue,
            };
            for bad in overlong {
                assert_eq!(
                    (p.run)(&bad, &mut out),
                    None,
                    "{} accepted {bad:02x?}",
                    p.name
                );
            }
        }
    }

    #[test]
    fn plain_leb128_decoders_do_accept_overlong_spellings() {
        // The reason the canonical variants exist: without the check these pass.
        let mut out = vec![0u64; 8];
        for p in decoders() {
            if p.family == Family::Leb128 && p.name != "unsigned-varint" {
                assert_eq!((p.run)(&[0x80, 0x00], &mut out), Some(1), "{}", p.name);
            }
        }
    }
}
