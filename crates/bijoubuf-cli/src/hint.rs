//! A hint for a refused input that is protobuf's own encoding: the CLI's guess only,
//! never the decoder's (the decoder refuses and says why; this says what the bytes
//! probably are). Protobuf bytes usually fail bijoubuf's decoder with `unknown-field` or
//! `wire-type-mismatch`, since a protobuf key (`field << 3 | type`, absolute) read as a
//! bijoubuf delta key (`gap << 2 | type`, SPEC §4.1) names other fields and types.

/// Whether `bytes` parse, to the last byte, as protobuf records: LEB128 varint keys with
/// a field number of at least 1 and a wire type protobuf still uses (VARINT, I64, LEN,
/// I32), each followed by a payload that fits. Returns the field numbers seen.
fn protobuf_fields(bytes: &[u8]) -> Option<Vec<u64>> {
    let mut pos = 0;
    let mut fields = Vec::new();
    while pos < bytes.len() {
        let key = leb128(bytes, &mut pos)?;
        let field = key >> 3;
        if field == 0 || field > (1 << 29) - 1 {
            return None;
        }
        let len = match key & 7 {
            0 => {
                leb128(bytes, &mut pos)?;
                0
            }
            1 => 8,
            2 => usize::try_from(leb128(bytes, &mut pos)?).ok()?,
            5 => 4,
            _ => return None,
        };
        pos = pos.checked_add(len).filter(|&end| end <= bytes.len())?;
        if !fields.contains(&field) {
            fields.push(field);
        }
    }
    (!fields.is_empty()).then_some(fields)
}

/// A LEB128 varint of at most 10 bytes at `*pos`.
fn leb128(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for i in 0..10 {
        let b = *bytes.get(*pos)?;
        *pos += 1;
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// The hint for refused input `bytes`, if they look like protobuf's encoding.
pub(crate) fn protobuf(bytes: &[u8]) -> Option<String> {
    let fields = protobuf_fields(bytes)?;
    let list: Vec<String> = fields.iter().map(u64::to_string).collect();
    Some(format!(
        "hint: the input parses as protobuf's own encoding (LEB128 varints, absolute field \
         keys; fields {}), which is not bijoubuf's (conformance/SPEC.md); decode it with \
         protobuf and re-encode the JSON with `bijoubuf encode`\n",
        list.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protobuf_records_are_recognised_and_others_are_not() {
        // Person { name: "Ada", age: 36 } as protobuf writes it.
        let pb = [0x0a, 0x03, b'A', b'd', b'a', 0x10, 0x24];
        assert_eq!(protobuf_fields(&pb), Some(vec![1, 2]));
        // I64 and I32 payloads, a repeated field counted once.
        let pb = [
            0x09, 1, 2, 3, 4, 5, 6, 7, 8, 0x15, 1, 2, 3, 4, 0x15, 5, 6, 7, 8,
        ];
        assert_eq!(protobuf_fields(&pb), Some(vec![1, 2]));
        // SPEC Appendix A.1 (bijoubuf's bytes): field 0 in the first protobuf key.
        assert_eq!(protobuf_fields(&[0x02, 0x03, 0x41, 0x64, 0x61]), None);
        // A payload past the end, a group wire type, a truncated varint, nothing.
        assert_eq!(protobuf_fields(&[0x0a, 0x05, 1]), None);
        assert_eq!(protobuf_fields(&[0x0b]), None);
        assert_eq!(protobuf_fields(&[0x08, 0x80]), None);
        assert_eq!(protobuf_fields(&[]), None);
    }
}
