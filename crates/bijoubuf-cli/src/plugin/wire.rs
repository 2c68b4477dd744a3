//! The few protobuf records the plugin reads and writes itself, where `prost_types`'
//! copy of plugin.proto and descriptor.proto is older than protoc's.

/// The encoded `proto_file` entries (field 15) of an encoded `CodeGeneratorRequest`, in
/// order, or `None` if its records do not parse.
pub(crate) fn proto_files(mut bytes: &[u8]) -> Option<Vec<&[u8]>> {
    let mut files = Vec::new();
    while !bytes.is_empty() {
        let key = varint(&mut bytes)?;
        match key & 7 {
            0 => {
                varint(&mut bytes)?;
            }
            1 => bytes = bytes.get(8..)?,
            2 => {
                let len = usize::try_from(varint(&mut bytes)?).ok()?;
                let payload = bytes.get(..len)?;
                bytes = &bytes[len..];
                if key >> 3 == 15 {
                    files.push(payload);
                }
            }
            5 => bytes = bytes.get(4..)?,
            _ => return None,
        }
    }
    Some(files)
}

fn varint(bytes: &mut &[u8]) -> Option<u64> {
    let mut value = 0u64;
    for i in 0..10 {
        let (&b, rest) = bytes.split_first()?;
        *bytes = rest;
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// Appends a varint record of field `number`.
pub(crate) fn varint_field(out: &mut Vec<u8>, number: u32, value: u64) {
    for mut v in [u64::from(number) << 3, value] {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proto_files_are_found_among_other_records() {
        // file_to_generate "a", parameter "p", proto_file [1 2], a varint, proto_file [].
        let bytes = [
            0x0a, 1, b'a', 0x12, 1, b'p', 0x7a, 2, 1, 2, 0x18, 0x96, 0x01, 0x7a, 0,
        ];
        assert_eq!(proto_files(&bytes), Some(vec![&[1u8, 2][..], &[][..]]));
        assert_eq!(proto_files(&[0x7a, 5, 1]), None);
        let mut out = Vec::new();
        varint_field(&mut out, 3, 1000);
        assert_eq!(out, [0x18, 0xe8, 0x07]);
    }
}
