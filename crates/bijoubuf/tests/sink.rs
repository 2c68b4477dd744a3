//! Every sink `encode_to_sink` can hand an encoding to (a `Vec`, a sink behind a `&mut`,
//! an `io::Write`, a BLAKE3 hasher with feature `blake3`, a `digest` hasher with feature
//! `digest`) and `content_id` see exactly the bytes of `encode_to_vec`: through the one
//! pass (generated-style walks) and the two passes (checked walks), for an empty
//! encoding, a short one, one between the two chunk sizes and one longer than a chunk.
mod common;

use bijoubuf::Message;
use bijoubuf::sink::{ByteSink, CHUNK, SMALL_CHUNK};
use bijoubuf::wkt::{ListValue, Struct, Value, value};
use common::Repeats;

/// A `google.protobuf.Value` (generated code: the one pass) holding `n` bytes of text
/// in a list and in a struct, so that its length prefixes are wide.
fn generated(n: usize) -> Value {
    let text = |n: usize| Value {
        kind: Some(value::Kind::StringValue("v".repeat(n))),
    };
    let list = Value {
        kind: Some(value::Kind::ListValue(ListValue {
            values: vec![text(n / 2), text(3)],
        })),
    };
    Value {
        kind: Some(value::Kind::StructValue(Struct {
            fields: [("a".to_string(), list), ("b".to_string(), text(n - n / 2))]
                .into_iter()
                .collect(),
        })),
    }
}

/// A hand-written message (a checked walk: the two passes) of about `n` bytes.
fn checked(n: usize) -> Repeats {
    Repeats {
        u64: vec![1, 300, u64::MAX],
        text: vec!["t".repeat(n / 2), "u".repeat(n - n / 2)],
        ..Repeats::default()
    }
}

/// Lengths on both sides of the small chunk, the chunk, and past it.
fn lengths() -> Vec<usize> {
    vec![
        10,
        1_000,
        SMALL_CHUNK - 40,
        SMALL_CHUNK + 40,
        CHUNK - 40,
        CHUNK + 40,
        3 * CHUNK,
    ]
}

/// The samples, each with its name and its bytes by `encode_to_vec`.
fn samples() -> Vec<(String, Box<dyn Sinks>, Vec<u8>)> {
    fn sample<M: Message + 'static>(name: String, m: M) -> (String, Box<dyn Sinks>, Vec<u8>) {
        let want = m.encode_to_vec().unwrap();
        (name, Box::new(m), want)
    }
    let mut out = vec![
        sample("empty generated".into(), Value::default()),
        sample("empty checked".into(), Repeats::default()),
    ];
    for n in lengths() {
        out.push(sample(format!("generated {n}"), generated(n)));
        out.push(sample(format!("checked {n}"), checked(n)));
    }
    out
}

/// The encode calls under test, for one message of any type.
trait Sinks {
    fn to_vec_sink(&self) -> Vec<u8>;
    fn through_a_reference(&self) -> Vec<u8>;
    fn to_writer(&self) -> Vec<u8>;
    fn pieces(&self) -> Vec<Vec<u8>>;
    #[cfg(feature = "blake3")]
    fn blake3_sink(&self) -> blake3::Hash;
    #[cfg(feature = "blake3")]
    fn id(&self) -> blake3::Hash;
    #[cfg(feature = "digest")]
    fn digest_sink(&self) -> Vec<u8>;
    #[cfg(feature = "digest")]
    fn to_digest(&self) -> Vec<u8>;
}

impl<M: Message> Sinks for M {
    fn to_vec_sink(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.encode_to_sink(&mut v).unwrap();
        v
    }

    fn through_a_reference(&self) -> Vec<u8> {
        // `&mut Vec<u8>` as the sink type: the forwarding `impl ByteSink for &mut S`.
        let mut v = Vec::new();
        let mut r = &mut v;
        self.encode_to_sink(&mut r).unwrap();
        v
    }

    fn to_writer(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.encode_to_writer(&mut v).unwrap();
        v
    }

    fn pieces(&self) -> Vec<Vec<u8>> {
        let mut p = Pieces::default();
        self.encode_to_sink(&mut p).unwrap();
        p.0
    }

    #[cfg(feature = "blake3")]
    fn blake3_sink(&self) -> blake3::Hash {
        let mut h = blake3::Hasher::new();
        self.encode_to_sink(&mut h).unwrap();
        h.finalize()
    }

    #[cfg(feature = "blake3")]
    fn id(&self) -> blake3::Hash {
        self.content_id().unwrap()
    }

    #[cfg(feature = "digest")]
    fn digest_sink(&self) -> Vec<u8> {
        let mut c = Collect::default();
        self.encode_to_sink(&mut bijoubuf::sink::DigestSink(&mut c))
            .unwrap();
        c.0
    }

    #[cfg(feature = "digest")]
    fn to_digest(&self) -> Vec<u8> {
        let mut c = Collect::default();
        self.encode_to_digest(&mut c).unwrap();
        c.0
    }
}

/// A sink that keeps each piece apart.
#[derive(Default)]
struct Pieces(Vec<Vec<u8>>);

impl ByteSink for Pieces {
    fn accept(&mut self, bytes: &[u8]) {
        self.0.push(bytes.to_vec());
    }
}

/// A `digest` hasher that only collects what it is given.
#[cfg(feature = "digest")]
#[derive(Default)]
struct Collect(Vec<u8>);

#[cfg(feature = "digest")]
impl digest::Update for Collect {
    fn update(&mut self, data: &[u8]) {
        self.0.extend_from_slice(data);
    }
}

#[test]
fn every_sink_takes_the_bytes_of_encode_to_vec() {
    for (name, m, want) in samples() {
        assert_eq!(m.to_vec_sink(), want, "{name}: Vec");
        assert_eq!(m.through_a_reference(), want, "{name}: &mut Vec");
        assert_eq!(m.to_writer(), want, "{name}: io::Write");
        #[cfg(feature = "digest")]
        {
            assert_eq!(m.digest_sink(), want, "{name}: DigestSink");
            assert_eq!(m.to_digest(), want, "{name}: encode_to_digest");
        }
    }
}

#[cfg(feature = "blake3")]
#[test]
fn the_content_id_and_a_blake3_sink_hash_the_bytes_of_encode_to_vec() {
    for (name, m, want) in samples() {
        let hash = blake3::hash(&want);
        assert_eq!(m.blake3_sink(), hash, "{name}: Hasher");
        assert_eq!(m.id(), hash, "{name}: content_id");
    }
}

#[test]
fn an_encoding_up_to_the_chunk_is_one_piece_through_either_pass() {
    for (name, m, want) in samples() {
        let pieces = m.pieces();
        assert_eq!(pieces.concat(), want, "{name}");
        match want.len() {
            0 => assert!(pieces.is_empty(), "{name}: {} pieces", pieces.len()),
            n if n <= CHUNK => assert_eq!(pieces.len(), 1, "{name}"),
            n => assert_eq!(pieces.len(), n.div_ceil(CHUNK), "{name}"),
        }
    }
}
