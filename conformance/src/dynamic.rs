//! Engine (b): `bijoubuf-reflect`'s `DynamicMessage`, driven by the schema model compiled
//! at run time from [`SCHEMA_SOURCES`](crate::SCHEMA_SOURCES).

use std::sync::OnceLock;

use bijoubuf_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor};

use crate::vector::{Config, Outcome, Refusal};

/// The descriptor pool of the conformance schemas, compiled once.
///
/// # Panics
/// If the embedded schemas do not compile (a defect of this crate, caught by every test).
pub fn pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let compiled = bijoubuf_schema::compile_sources(crate::SCHEMA_SOURCES)
            .unwrap_or_else(|d| panic!("conformance schemas do not compile: {d:?}"));
        DescriptorPool::new(&compiled.schema)
    })
}

/// The descriptor of `type_name` (a full name).
pub fn message(type_name: &str) -> Option<MessageDescriptor> {
    pool().message(type_name)
}

/// The normative parts of a reflect error.
pub fn refusal(e: &bijoubuf_reflect::DecodeError) -> Refusal {
    Refusal {
        code: e.code().to_string(),
        offset: e.offset(),
        path: e.path_string(),
    }
}

fn encode_at_depth(
    m: &DynamicMessage,
    cfg: &Config,
) -> Result<Vec<u8>, bijoubuf_reflect::EncodeError> {
    match cfg.depth_limit {
        Some(d) => m.encode_with_max_depth(d),
        None => m.encode(),
    }
}

fn reencode(m: &DynamicMessage, cfg: &Config) -> Result<Vec<u8>, String> {
    encode_at_depth(m, cfg).map_err(|e| format!("encode: {e}"))
}

/// One message of type `desc` (not a stream) decoded with the dynamic decoder under
/// `cfg` and re-encoded: [`decode`] for a descriptor of any schema.
pub fn decode_message(desc: &MessageDescriptor, bytes: &[u8], cfg: &Config) -> Outcome {
    match DynamicMessage::decode_with(desc, bytes, &cfg.options()) {
        Ok(m) => match reencode(&m, cfg) {
            Ok(reencoded) => Outcome::Accepted {
                reencoded,
                unknown: m.unknown_field_count(),
            },
            Err(e) => Outcome::EncodeFailed(e),
        },
        Err(e) => Outcome::Refused(refusal(&e)),
    }
}

/// Decode `bytes` as `type_name` with the dynamic decoder and re-encode the value; `None`
/// when the schemas have no such type.
///
/// A stream (SPEC §9.2) is read frame by frame with `decode_length_delimited`, which
/// applies the size limit to each frame (§9.4); offsets are shifted to count from the
/// stream's start.
pub fn decode(type_name: &str, bytes: &[u8], cfg: &Config) -> Option<Outcome> {
    let desc = message(type_name)?;
    let opts = cfg.options();
    if !cfg.stream {
        return Some(decode_message(&desc, bytes, cfg));
    }
    let mut pos = 0;
    let mut out = Vec::new();
    let mut unknown = 0;
    while pos < bytes.len() {
        match DynamicMessage::decode_length_delimited(&desc, &bytes[pos..], &opts) {
            Ok((m, used)) => {
                unknown += m.unknown_field_count();
                match reencode(&m, cfg) {
                    Ok(b) => {
                        bijou64::append(b.len() as u64, &mut out);
                        out.extend_from_slice(&b);
                    }
                    Err(e) => return Some(Outcome::EncodeFailed(e)),
                }
                pos += used;
            }
            Err(e) => {
                // Offsets count from the frame's prefix; the vectors count from the stream.
                let mut r = refusal(&e);
                r.offset += pos;
                return Some(Outcome::Refused(r));
            }
        }
    }
    Some(Outcome::Accepted {
        reencoded: out,
        unknown,
    })
}

/// Encode the value given as proto3 JSON (`bijoubuf_reflect::json`) canonically.
///
/// # Errors
/// An unknown type, JSON the mapping refuses, or a value the encoder refuses.
pub fn encode_json(type_name: &str, json: &str) -> Result<Vec<u8>, String> {
    encode_json_with(type_name, json, &Config::default()).map_err(|e| e.to_string())
}

/// Why [`encode_json_with`] produced no bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodeFailure {
    /// The type or the JSON is not usable.
    Input(String),
    /// The encoder refused the value: the error code (SPEC §11) and the message.
    Refused {
        /// Error code, e.g. `missing-required-field`.
        code: String,
        /// The whole message.
        message: String,
    },
}

impl std::fmt::Display for EncodeFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EncodeFailure::Input(m) | EncodeFailure::Refused { message: m, .. } => f.write_str(m),
        }
    }
}

/// [`encode_json`] for an encoder with `cfg`'s depth and size limits.
///
/// `bijoubuf-reflect` encodes with a depth limit only; the size limit is applied here to
/// what it wrote, as SPEC §9 states it: an encoding longer than `S` bytes is refused with
/// `size-limit-exceeded`.
///
/// # Errors
/// As [`EncodeFailure`].
pub fn encode_json_with(
    type_name: &str,
    json: &str,
    cfg: &Config,
) -> Result<Vec<u8>, EncodeFailure> {
    let m = from_json(type_name, json)?;
    let b = encode_at_depth(&m, cfg).map_err(|e| {
        let message = e.to_string();
        // The display starts with the stable code (SPEC §11.4).
        let code = message.split(':').next().unwrap_or_default().to_string();
        EncodeFailure::Refused { code, message }
    })?;
    match cfg.size_limit {
        Some(s) if b.len() > s => Err(EncodeFailure::Refused {
            code: "size-limit-exceeded".into(),
            message: format!(
                "size-limit-exceeded: the encoding needs {} bytes, more than the limit of {s}",
                b.len()
            ),
        }),
        _ => Ok(b),
    }
}

/// The canonical encoding of the value given as proto3 JSON, with no limit but the depth
/// cap: how an encode request's value reaches an engine without a JSON mapping (generated
/// code), which then encodes it under the request's limits.
///
/// # Errors
/// An unknown type or JSON the mapping refuses ([`EncodeFailure::Input`]); a value with no
/// encoding at all, such as one with an unset required field ([`EncodeFailure::Refused`]).
pub fn value_bytes(type_name: &str, json: &str) -> Result<Vec<u8>, EncodeFailure> {
    let m = from_json(type_name, json)?;
    m.encode_with_max_depth(bijoubuf::MAX_DEPTH_LIMIT)
        .map_err(|e| {
            let message = e.to_string();
            let code = message.split(':').next().unwrap_or_default().to_string();
            EncodeFailure::Refused { code, message }
        })
}

fn from_json(type_name: &str, json: &str) -> Result<DynamicMessage, EncodeFailure> {
    let desc = message(type_name)
        .ok_or_else(|| EncodeFailure::Input(format!("no message type {type_name}")))?;
    // The JSON only describes the value: it is read at the cap, so that the encoder's
    // own depth check is what refuses a value too deep for `cfg`.
    let opts = bijoubuf_reflect::json::JsonOptions::new().max_depth(bijoubuf::MAX_DEPTH_LIMIT);
    bijoubuf_reflect::json::from_str_with(&desc, json, &opts)
        .map_err(|e| EncodeFailure::Input(format!("json: {e}")))
}

/// The proto3 JSON of the message `bytes` decode to (default decoder).
///
/// # Errors
/// A refused input or a value without a JSON form.
pub fn to_json(type_name: &str, bytes: &[u8]) -> Result<serde_json::Value, String> {
    let desc = message(type_name).ok_or_else(|| format!("no message type {type_name}"))?;
    let m = DynamicMessage::decode(&desc, bytes).map_err(|e| e.to_string())?;
    bijoubuf_reflect::json::to_value(&m).map_err(|e| format!("json: {e}"))
}

/// The proto3 JSON text of the message `bytes` decode to under `cfg`, written with
/// `cfg`'s depth limit (so that a value deeper than the default has a JSON form).
///
/// # Errors
/// A refused input or a value without a JSON form.
pub fn to_json_text_with(type_name: &str, bytes: &[u8], cfg: &Config) -> Result<String, String> {
    let desc = message(type_name).ok_or_else(|| format!("no message type {type_name}"))?;
    let m = DynamicMessage::decode_with(&desc, bytes, &cfg.options()).map_err(|e| e.to_string())?;
    let opts = bijoubuf_reflect::json::JsonOptions::new().max_depth(cfg.options().get_max_depth());
    bijoubuf_reflect::json::to_string_with(&m, &opts).map_err(|e| format!("json: {e}"))
}
