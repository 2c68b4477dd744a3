//! Engine (a): the code `bijoubuf-build` generated for the conformance schemas, reached
//! through a dispatch from the message's full name to its Rust type; [`decode_borrowed`]
//! runs the same inputs through each type's borrowed twin (`FooRef<'a>`).

use std::marker::PhantomData;

// `AnyMessage` is named by path in bounds, never imported: next to `Message` it would
// give the owned types each method twice.
use bijoubuf::{DecodeError, EncodeError, EncodeOptions, Frames, Message, MessageRef};

use crate::dynamic::EncodeFailure;
use crate::vector::{Config, Outcome, Refusal};

/// Every message type of the conformance schemas, by full name.
pub const TYPE_NAMES: &[&str] = &[
    "conformance.Scalars",
    "conformance.Optionals",
    "conformance.Repeats",
    "conformance.Maps",
    "conformance.Leaf",
    "conformance.Choice",
    "conformance.Node",
    "conformance.Keys",
    "conformance.Outer",
    "conformance.Middle",
    "conformance.Bindings",
    "conformance.Required",
    "conformance.Inner",
    "conformance.Person",
    "conformance.Order",
    "conformance.Customer",
    "conformance.Line",
    "conformance.Reading",
    "conformance.Wkt",
    "conformance.Editions",
    "evolution.v1.Record",
    "evolution.v2.Record",
];

/// One generated type, behind a trait object so that a type name can select it.
trait Codec: Sync {
    fn run(&self, bytes: &[u8], cfg: &Config) -> Outcome;
    fn encode(&self, bytes: &[u8], cfg: &Config) -> Result<Vec<u8>, EncodeFailure>;
}

struct Ty<M>(PhantomData<fn() -> M>);

impl<M: Message> Codec for Ty<M> {
    fn run(&self, bytes: &[u8], cfg: &Config) -> Outcome {
        run::<M>(bytes, cfg, None)
    }

    fn encode(&self, bytes: &[u8], cfg: &Config) -> Result<Vec<u8>, EncodeFailure> {
        encode_as::<M>(bytes, cfg)
    }
}

/// The three registries of one list of types: `$name` over the walk decoders of
/// [`crate::schema`], `$dispatch` over the dispatch decoders of
/// [`crate::schema_dispatch`] and `$table` over the table decoders of
/// [`crate::schema_table`] (the same types, generated again).
macro_rules! table {
    ($name:ident, $dispatch:ident, $table:ident: $($full:literal => $($seg:ident)::+),* $(,)?) => {
        fn $name(type_name: &str) -> Option<&'static dyn Codec> {
            match type_name {
                $($full => Some(&Ty::<crate::schema::$($seg)::+>(PhantomData)),)*
                _ => None,
            }
        }
        fn $dispatch(type_name: &str) -> Option<&'static dyn Codec> {
            match type_name {
                $($full => Some(&Ty::<crate::schema_dispatch::$($seg)::+>(PhantomData)),)*
                _ => None,
            }
        }
        fn $table(type_name: &str) -> Option<&'static dyn Codec> {
            match type_name {
                $($full => Some(&Ty::<crate::schema_table::$($seg)::+>(PhantomData)),)*
                _ => None,
            }
        }
    };
}

table! {
    codec, dispatch_codec, table_codec:
    "conformance.Scalars" => conformance::Scalars,
    "conformance.Optionals" => conformance::Optionals,
    "conformance.Repeats" => conformance::Repeats,
    "conformance.Maps" => conformance::Maps,
    "conformance.Leaf" => conformance::Leaf,
    "conformance.Choice" => conformance::Choice,
    "conformance.Node" => conformance::Node,
    "conformance.Keys" => conformance::Keys,
    "conformance.Outer" => conformance::Outer,
    "conformance.Middle" => conformance::Middle,
    "conformance.Bindings" => conformance::Bindings,
    "conformance.Required" => conformance::Required,
    "conformance.Inner" => conformance::Inner,
    "conformance.Person" => conformance::Person,
    "conformance.Order" => conformance::Order,
    "conformance.Customer" => conformance::Customer,
    "conformance.Line" => conformance::Line,
    "conformance.Reading" => conformance::Reading,
    "conformance.Wkt" => conformance::Wkt,
    "conformance.Editions" => conformance::Editions,
    "evolution.v1.Record" => evolution::v1::Record,
    "evolution.v2.Record" => evolution::v2::Record,
}

/// Decode `bytes` as the message `type_name` with generated code and re-encode the value;
/// `None` when the type is not one of [`TYPE_NAMES`].
pub fn decode(type_name: &str, bytes: &[u8], cfg: &Config) -> Option<Outcome> {
    codec(type_name).map(|c| c.run(bytes, cfg))
}

/// [`decode`] with the dispatch decoders ([`crate::schema_dispatch`]): the outcome must
/// be the walk's, error code, offset and path included.
pub fn decode_dispatch(type_name: &str, bytes: &[u8], cfg: &Config) -> Option<Outcome> {
    dispatch_codec(type_name).map(|c| c.run(bytes, cfg))
}

/// [`decode`] with the table decoders ([`crate::schema_table`]): the outcome must be
/// the walk's, error code, offset and path included.
pub fn decode_table(type_name: &str, bytes: &[u8], cfg: &Config) -> Option<Outcome> {
    table_codec(type_name).map(|c| c.run(bytes, cfg))
}

/// Encode the value `bytes` hold (its canonical encoding, read at the depth cap) as the
/// generated type `type_name` under `cfg`'s depth and size limits (SPEC §9), as an
/// encode request asks; `None` when the type is not one of [`TYPE_NAMES`]. Generated
/// types have no proto3 JSON mapping: the request's JSON reaches them as the bytes
/// reflect encodes it to ([`crate::dynamic::value_bytes`]).
pub fn encode(
    type_name: &str,
    bytes: &[u8],
    cfg: &Config,
) -> Option<Result<Vec<u8>, EncodeFailure>> {
    codec(type_name).map(|c| c.encode(bytes, cfg))
}

fn encode_as<M: Message>(bytes: &[u8], cfg: &Config) -> Result<Vec<u8>, EncodeFailure> {
    let read = bijoubuf::DecodeOptions::new().max_depth(bijoubuf::MAX_DEPTH_LIMIT);
    let m = M::decode_with(bytes, &read)
        .map_err(|e| EncodeFailure::Input(format!("the value's bytes: {e}")))?;
    let mut out = Vec::new();
    m.message()
        .encode_with(&mut out, &cfg.encode_options())
        .map_err(|e| EncodeFailure::Refused {
            code: e.code().to_string(),
            message: e.to_string(),
        })?;
    Ok(out)
}

/// A borrowed twin's runner: decode, re-encode, and check the twin against its owned
/// conversion (same bytes).
type BorrowedRun = fn(&[u8], &Config) -> Outcome;

/// The borrowed registries, walk (`$name`), dispatch (`$dispatch`) and table
/// (`$table`), as [`table!`].
macro_rules! borrowed_table {
    ($name:ident, $dispatch:ident, $table:ident: $($full:literal => $($seg:ident)::+),* $(,)?) => {
        fn $name(type_name: &str) -> Option<BorrowedRun> {
            match type_name {
                $($full => Some(|b: &[u8], cfg: &Config| {
                    run::<crate::schema::$($seg)::+<'_>>(
                        b,
                        cfg,
                        Some(owned_encoding::<crate::schema::$($seg)::+<'_>>),
                    )
                }),)*
                _ => None,
            }
        }
        fn $dispatch(type_name: &str) -> Option<BorrowedRun> {
            match type_name {
                $($full => Some(|b: &[u8], cfg: &Config| {
                    run::<crate::schema_dispatch::$($seg)::+<'_>>(
                        b,
                        cfg,
                        Some(owned_encoding::<crate::schema_dispatch::$($seg)::+<'_>>),
                    )
                }),)*
                _ => None,
            }
        }
        fn $table(type_name: &str) -> Option<BorrowedRun> {
            match type_name {
                $($full => Some(|b: &[u8], cfg: &Config| {
                    run::<crate::schema_table::$($seg)::+<'_>>(
                        b,
                        cfg,
                        Some(owned_encoding::<crate::schema_table::$($seg)::+<'_>>),
                    )
                }),)*
                _ => None,
            }
        }
    };
}

borrowed_table! {
    borrowed_codec, borrowed_dispatch_codec, borrowed_table_codec:
    "conformance.Scalars" => conformance::ScalarsRef,
    "conformance.Optionals" => conformance::OptionalsRef,
    "conformance.Repeats" => conformance::RepeatsRef,
    "conformance.Maps" => conformance::MapsRef,
    "conformance.Leaf" => conformance::LeafRef,
    "conformance.Choice" => conformance::ChoiceRef,
    "conformance.Node" => conformance::NodeRef,
    "conformance.Keys" => conformance::KeysRef,
    "conformance.Outer" => conformance::OuterRef,
    "conformance.Middle" => conformance::MiddleRef,
    "conformance.Bindings" => conformance::BindingsRef,
    "conformance.Required" => conformance::RequiredRef,
    "conformance.Inner" => conformance::InnerRef,
    "conformance.Person" => conformance::PersonRef,
    "conformance.Order" => conformance::OrderRef,
    "conformance.Customer" => conformance::CustomerRef,
    "conformance.Line" => conformance::LineRef,
    "conformance.Reading" => conformance::ReadingRef,
    "conformance.Wkt" => conformance::WktRef,
    "conformance.Editions" => conformance::EditionsRef,
    "evolution.v1.Record" => evolution::v1::RecordRef,
    "evolution.v2.Record" => evolution::v2::RecordRef,
}

/// Decode `bytes` as the borrowed twin of `type_name` and re-encode the value, as
/// [`decode`] does with the owned type: the outcome must be the same. An accepted value
/// is also converted to its owned twin, which must encode to the same bytes (else the
/// outcome is `EncodeFailed`). `None` when the type is not one of [`TYPE_NAMES`].
pub fn decode_borrowed(type_name: &str, bytes: &[u8], cfg: &Config) -> Option<Outcome> {
    borrowed_codec(type_name).map(|run| run(bytes, cfg))
}

/// [`decode_borrowed`] with the dispatch decoders' twins ([`crate::schema_dispatch`]).
pub fn decode_borrowed_dispatch(type_name: &str, bytes: &[u8], cfg: &Config) -> Option<Outcome> {
    borrowed_dispatch_codec(type_name).map(|run| run(bytes, cfg))
}

/// [`decode_borrowed`] with the table decoders' twins ([`crate::schema_table`]).
pub fn decode_borrowed_table(type_name: &str, bytes: &[u8], cfg: &Config) -> Option<Outcome> {
    borrowed_table_codec(type_name).map(|run| run(bytes, cfg))
}

/// How a borrowed value's owned twin encodes (framed for a stream): what the twin's
/// own encoding must equal.
type OwnedEncoding<M> = fn(&M, bool, &EncodeOptions) -> Result<Vec<u8>, EncodeError>;

fn owned_encoding<'a, M>(m: &M, framed: bool, opts: &EncodeOptions) -> Result<Vec<u8>, EncodeError>
where
    M: MessageRef<'a>,
    M::Owned: for<'b> From<&'b M>,
{
    let owned = M::Owned::from(m);
    let mut w = Vec::new();
    if framed {
        owned.encode_length_delimited_with(&mut w, opts)?;
    } else {
        owned.encode_with(&mut w, opts)?;
    }
    Ok(w)
}

/// The normative parts of a runtime error.
pub fn refusal(e: &DecodeError) -> Refusal {
    Refusal {
        code: e.code().to_string(),
        offset: e.offset(),
        path: e.path_string(),
    }
}

/// Decode `bytes` as `M` (an owned type or a borrowed twin) and re-encode the value;
/// a twin's encoding must also be its owned conversion's (`owned`).
fn run<'a, M: bijoubuf::AnyMessage<'a>>(
    bytes: &'a [u8],
    cfg: &Config,
    owned: Option<OwnedEncoding<M>>,
) -> Outcome {
    let opts = cfg.options();
    // Re-encoded with the decoder's depth limit (SPEC §9: the encoder's limits are the
    // decoder's), so a value accepted under a limit above the default encodes again.
    let enc = EncodeOptions::new().max_depth(opts.get_max_depth());
    if cfg.stream {
        let mut out = Vec::new();
        let mut unknown = 0;
        for frame in Frames::<M>::new(bytes, opts) {
            match frame {
                Ok(d) => {
                    unknown += d.unknown_field_count();
                    if let Err(e) = reencode(d.message(), &mut out, true, &enc, owned) {
                        return Outcome::EncodeFailed(e);
                    }
                }
                Err(e) => return Outcome::Refused(refusal(&e)),
            }
        }
        return Outcome::Accepted {
            reencoded: out,
            unknown,
        };
    }
    match M::decode_with(bytes, &opts) {
        Ok(d) => {
            let mut out = Vec::new();
            match reencode(d.message(), &mut out, false, &enc, owned) {
                Ok(()) => Outcome::Accepted {
                    reencoded: out,
                    unknown: d.unknown_field_count(),
                },
                Err(e) => Outcome::EncodeFailed(e),
            }
        }
        Err(e) => Outcome::Refused(refusal(&e)),
    }
}

/// Encode `m` (framed for a stream) after checking that `encoded_len` predicts the
/// number of bytes written, that a sink receives the same bytes, and (for a borrowed
/// twin) that the owned conversion encodes to them too.
fn reencode<'a, M: bijoubuf::AnyMessage<'a>>(
    m: &M,
    out: &mut Vec<u8>,
    framed: bool,
    opts: &EncodeOptions,
    owned: Option<OwnedEncoding<M>>,
) -> Result<(), String> {
    let mut v = Vec::new();
    let r = if framed {
        m.encode_length_delimited_with(&mut v, opts)
    } else {
        m.encode_with(&mut v, opts)
    };
    r.map_err(|e| format!("encode: {e}"))?;
    let body = if framed {
        let (_, n) = bijou64::decode(&v).map_err(|e| format!("frame prefix: {e:?}"))?;
        v.len() - n
    } else {
        v.len()
    };
    if m.encoded_len() != body {
        return Err(format!(
            "encoded_len {} but encode wrote {body} bytes",
            m.encoded_len()
        ));
    }
    // Through a sink the same walk writes into a chunk on the stack, handed over as it
    // fills: the same bytes.
    let mut sunk = Vec::new();
    m.encode_to_sink_with(&mut sunk, opts)
        .map_err(|e| format!("encode to sink: {e}"))?;
    if v.get(v.len() - body..) != Some(&sunk[..]) {
        return Err("encode_to_sink writes other bytes than encode".to_string());
    }
    if let Some(owned) = owned {
        let w = owned(m, framed, opts).map_err(|e| format!("owned twin encode: {e}"))?;
        if w != v {
            return Err("the owned twin encodes to other bytes".to_string());
        }
    }
    out.extend_from_slice(&v);
    Ok(())
}
