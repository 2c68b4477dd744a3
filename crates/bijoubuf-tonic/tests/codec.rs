//! The codec's payload rules without a network: the marker, refusals as statuses, and
//! protobuf bytes that would be misread without the marker.

use bijoubuf::__private::{Pass, Reader, UInt64};
use bijoubuf::{DecodeError, Message, UnknownFields};
use bijoubuf_tonic::{
    CODE_KEY, MARKER, MISSING_MARKER, OFFSET_KEY, PATH_KEY, Preserving, Refusal, Strict,
    decode_payload, refusal,
};
use tonic::Code;

/// `message Pair { uint64 a = 1; uint64 c = 3; }`, written by hand as generated code is.
#[derive(Debug, Default, PartialEq)]
struct Pair {
    a: u64,
    c: u64,
    unknown_fields: UnknownFields,
}

impl Message for Pair {
    const NAME: &'static str = "Pair";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 3];
}

impl bijoubuf::__private::Encode for Pair {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }
    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<UInt64>(1, &self.a) + p.implicit::<UInt64>(3, &self.c)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Pair {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let a = r.implicit::<UInt64>(1, "a")?;
        let c = r.implicit::<UInt64>(3, "c")?;
        let unknown_fields = r.finish()?;
        Ok(Pair {
            a,
            c,
            unknown_fields,
        })
    }
}

/// The same message as protobuf sees it.
#[derive(Clone, PartialEq, prost::Message)]
struct PairProto {
    #[prost(uint64, tag = "1")]
    a: u64,
    #[prost(uint64, tag = "3")]
    c: u64,
}

fn payload(m: &Pair) -> Vec<u8> {
    let mut v = vec![MARKER];
    m.encode(&mut v).unwrap();
    v
}

#[test]
fn a_marked_canonical_payload_decodes() {
    let m = Pair {
        a: 7,
        c: 300,
        ..Pair::default()
    };
    let p = payload(&m);
    assert_eq!(p[0], 0x01);
    assert_eq!(decode_payload::<Pair, Strict>(&p).unwrap(), m);
}

#[test]
fn protobuf_bytes_that_are_valid_bijoubuf_are_refused_by_the_marker() {
    // Protobuf writes `a = 1` as `08 01`. Read as bijoubuf, key 0x08 is field 3 (delta 2,
    // VARINT): a different, valid value. This is the misread the marker exists for.
    let proto = prost::Message::encode_to_vec(&PairProto { a: 1, c: 0 });
    assert_eq!(proto, [0x08, 0x01]);
    let misread = Pair::decode(&proto).unwrap();
    assert_eq!((misread.a, misread.c), (0, 1));

    let status = decode_payload::<Pair, Strict>(&proto).unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(status.metadata().get(CODE_KEY).unwrap(), MISSING_MARKER);
    assert!(
        status
            .message()
            .starts_with("missing-marker: a Pair message must start"),
        "{}",
        status.message()
    );
    assert!(
        status.message().contains("not 0x08 at byte 0"),
        "{}",
        status.message()
    );
    assert!(status.message().contains("protobuf bytes are refused"));
}

#[test]
fn no_protobuf_message_starts_with_a_marker_byte() {
    // Every value of this shape that protobuf writes starts with a key byte of 0x08 or
    // more, and every empty one is refused as empty; the marker range 0x00..=0x07 is
    // field number 0, which protobuf never writes.
    for (a, c) in [(0, 0), (1, 0), (0, 1), (u64::MAX, 5), (127, 128)] {
        let proto = prost::Message::encode_to_vec(&PairProto { a, c });
        if let Some(first) = proto.first() {
            assert!(*first >= 0x08, "{proto:02x?}");
        }
        let status = decode_payload::<Pair, Strict>(&proto).unwrap_err();
        assert_eq!(refusal(&status).unwrap().code, MISSING_MARKER);
    }
    // And protobuf refuses what this codec writes: its first byte is field number 0.
    let ours = payload(&Pair {
        a: 1,
        ..Pair::default()
    });
    assert!(<PairProto as prost::Message>::decode(ours.as_slice()).is_err());
}

#[test]
fn an_empty_payload_and_other_marker_bytes_are_refused() {
    let status = decode_payload::<Pair, Strict>(&[]).unwrap_err();
    assert!(
        status.message().ends_with("the message is empty"),
        "{}",
        status.message()
    );
    for first in [0x00, 0x02, 0x07] {
        let status = decode_payload::<Pair, Strict>(&[first]).unwrap_err();
        assert_eq!(refusal(&status).unwrap().code, MISSING_MARKER);
        assert!(
            !status.message().contains("protobuf"),
            "{}",
            status.message()
        );
    }
}

#[test]
fn a_refused_message_carries_code_offset_and_path() {
    // Field 3 written holding its default: key delta 2 (0x08), value 0.
    let status = decode_payload::<Pair, Strict>(&[MARKER, 0x08, 0x00]).unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(
        status.message(),
        "default-value-present: Pair.c holds its default at byte 0"
    );
    let md = status.metadata();
    assert_eq!(md.get(CODE_KEY).unwrap(), "default-value-present");
    assert_eq!(md.get(OFFSET_KEY).unwrap(), "0");
    assert_eq!(md.get(PATH_KEY).unwrap(), "Pair.c");
    assert_eq!(
        refusal(&status),
        Some(Refusal {
            code: "default-value-present".into(),
            offset: Some(0),
            path: "Pair.c".into(),
        })
    );
    assert_eq!(refusal(&tonic::Status::internal("x")), None);
}

#[test]
fn unknown_fields_follow_the_options_type() {
    // Field 2 is not Pair's: key 0x04 (delta 1, VARINT), value 5.
    let bytes = [MARKER, 0x04, 0x05];
    let status = decode_payload::<Pair, Strict>(&bytes).unwrap_err();
    assert_eq!(refusal(&status).unwrap().code, "unknown-field");
    let kept = decode_payload::<Pair, Preserving>(&bytes).unwrap();
    assert_eq!(kept.unknown_fields.len(), 1);
    let mut again = vec![MARKER];
    kept.encode(&mut again).unwrap();
    assert_eq!(again, bytes);
}

/// Options with a size limit of two bytes.
struct TwoBytes;

impl bijoubuf_tonic::CodecOptions for TwoBytes {
    fn decode_options() -> bijoubuf::DecodeOptions {
        bijoubuf::DecodeOptions::new().max_size(Some(2))
    }
}

#[test]
fn a_message_longer_than_the_options_size_limit_is_refused_at_its_first_byte() {
    // `a = 5`: key 0x00, value 0x05, two bytes after the marker; with `c` too, four.
    let short = payload(&Pair {
        a: 5,
        ..Pair::default()
    });
    assert_eq!(short.len(), 3);
    assert_eq!(decode_payload::<Pair, TwoBytes>(&short).unwrap().a, 5);
    let long = payload(&Pair {
        a: 5,
        c: 6,
        ..Pair::default()
    });
    let status = decode_payload::<Pair, TwoBytes>(&long).unwrap_err();
    assert_eq!(
        refusal(&status),
        Some(Refusal {
            code: "size-limit-exceeded".into(),
            offset: Some(0),
            path: "Pair".into(),
        })
    );
}
