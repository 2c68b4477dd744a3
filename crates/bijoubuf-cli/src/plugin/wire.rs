//! The few protobuf records the plugin reads and writes itself, where `prost_types`'
//! copy of plugin.proto and descriptor.proto is older than protoc's.

use prost::encoding::{WireType, encode_key, encode_varint};

/// The encoded `proto_file` entries (field 15) of an encoded `CodeGeneratorRequest`, in
/// order, or `None` if its records do not parse.
pub(crate) fn proto_files(bytes: &[u8]) -> Option<Vec<&[u8]>> {
    bijoubuf_schema::length_delimited_records(bytes, 15)
}

/// Appends a varint record of field `number`.
pub(crate) fn varint_field(out: &mut Vec<u8>, number: u32, value: u64) {
    encode_key(number, WireType::Varint, out);
    encode_varint(value, out);
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
