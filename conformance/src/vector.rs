//! Vector files: what a case says and what a decoder answered.

use std::fmt;
use std::path::Path;

use serde::Deserialize;

use crate::hex;

/// How the decoder is configured for a case; the defaults are SPEC's (strict, depth 100,
/// no size limit).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Depth limit (SPEC §9.3); `None` is the default 100.
    #[serde(
        default,
        rename = "depth-limit",
        skip_serializing_if = "Option::is_none"
    )]
    pub depth_limit: Option<u32>,
    /// Size limit (SPEC §9.4); `None` is no limit.
    #[serde(
        default,
        rename = "size-limit",
        skip_serializing_if = "Option::is_none"
    )]
    pub size_limit: Option<usize>,
    /// Preserving mode (SPEC §8.2) instead of strict.
    #[serde(default)]
    pub preserving: bool,
    /// The input is a length-delimited stream of messages (SPEC §9.2).
    #[serde(default)]
    pub stream: bool,
}

impl Config {
    /// A configuration picked by two bytes of a fuzz input, as every fuzz target over
    /// configurations reads them: `flags` bit 0 sets a depth limit of `limit % 8 + 1`,
    /// bit 1 a size limit of `limit` bytes, bit 2 preserving mode, bit 3 a stream.
    pub fn from_fuzz(flags: u8, limit: u8) -> Config {
        Config {
            depth_limit: (flags & 1 == 1).then_some(u32::from(limit % 8) + 1),
            size_limit: (flags & 2 == 2).then_some(usize::from(limit)),
            preserving: flags & 4 == 4,
            stream: flags & 8 == 8,
        }
    }

    /// The runtime's options for this configuration.
    pub fn options(&self) -> bijoubuf::DecodeOptions {
        let mut o = bijoubuf::DecodeOptions::new().max_size(self.size_limit);
        if let Some(d) = self.depth_limit {
            o = o.max_depth(d);
        }
        if self.preserving {
            o = o.unknown_fields(bijoubuf::UnknownFieldPolicy::Preserve);
        }
        o
    }

    /// The encoder's options for this configuration: its depth limit and size limit, as
    /// an encode request asks (SPEC §9: an encoder's limits are the decoder's).
    pub fn encode_options(&self) -> bijoubuf::EncodeOptions {
        let mut o = bijoubuf::EncodeOptions::new().max_size(self.size_limit);
        if let Some(d) = self.depth_limit {
            o = o.max_depth(d);
        }
        o
    }
}

/// A refusal: the three normative parts of an error (SPEC §11).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    /// The stable error code.
    pub code: String,
    /// The absolute byte offset.
    pub offset: usize,
    /// The field path.
    pub path: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}, path {}", self.code, self.offset, self.path)
    }
}

/// What a decoder answered for one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted: the re-encoding of the decoded value (for a stream, of every frame,
    /// framed again) and the number of unknown fields kept.
    Accepted {
        /// Re-encoded bytes.
        reencoded: Vec<u8>,
        /// Unknown fields kept (preserving mode), 0 otherwise.
        unknown: usize,
    },
    /// Refused with this error.
    Refused(Refusal),
    /// Accepted, but re-encoding the value failed.
    EncodeFailed(String),
}

/// The raw form of a case in a vector file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    id: String,
    spec: String,
    #[serde(rename = "type")]
    type_name: String,
    hex: String,
    #[serde(default)]
    decoder: Config,
    accept: Option<String>,
    reject: Option<Refusal>,
    encode: Option<String>,
    refuse: Option<String>,
    #[serde(default)]
    unknown: usize,
    closes: Option<String>,
    #[serde(default)]
    classes: Vec<String>,
    note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    case: Vec<RawCase>,
}

/// What a case expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// The input decodes; its value is this proto3 JSON (`None`: not stated, e.g. when
    /// unknown fields are kept), and re-encoding gives the input back.
    Accept(Option<String>),
    /// The input is refused with this error.
    Reject(Refusal),
    /// Encoding the value given as proto3 JSON gives exactly the input bytes.
    Encode(String),
    /// The encoder refuses the value given as proto3 JSON with this code (SPEC §9: an
    /// encoder refuses what a decoder would refuse); the case's bytes are empty.
    EncodeRefused {
        /// The value.
        json: String,
        /// The error code.
        code: String,
    },
}

/// One conformance vector.
#[derive(Debug, Clone)]
pub struct Case {
    /// Unique id, the name of its test.
    pub id: String,
    /// SPEC section(s) and obligation the case checks, e.g. `10.2 O1`.
    pub spec: String,
    /// Full name of the message type, e.g. `conformance.Scalars`.
    pub type_name: String,
    /// The input (decode) or expected output (encode).
    pub bytes: Vec<u8>,
    /// Decoder configuration.
    pub config: Config,
    /// The verdict.
    pub expect: Expect,
    /// Unknown fields an accepting preserving decoder reports.
    pub unknown: usize,
    /// The protobuf malleability a reject case closes (SPEC §12).
    pub closes: Option<String>,
    /// REJECT_CLASSES numbers the case covers.
    pub classes: Vec<String>,
    /// The file the case is in.
    pub file: String,
}

/// A malformed vector file.
#[derive(Debug)]
pub struct LoadError(String);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

fn convert(file: &str, raw: RawCase) -> Result<Case, LoadError> {
    let err = |m: String| LoadError(format!("{file}: case {}: {m}", raw.id));
    let bytes = hex::parse(&raw.hex).map_err(|e| err(e.to_string()))?;
    let expect = match (raw.accept, raw.reject, raw.encode, raw.refuse) {
        (Some(j), None, None, None) => Expect::Accept(if j.is_empty() { None } else { Some(j) }),
        (None, Some(r), None, None) => Expect::Reject(r),
        (None, None, Some(j), None) => Expect::Encode(j),
        (None, None, Some(json), Some(code)) if bytes.is_empty() => {
            Expect::EncodeRefused { json, code }
        }
        _ => {
            return Err(err(
                "needs one of accept, reject, encode, or encode + refuse with empty hex".into(),
            ));
        }
    };
    for j in [&expect].iter().filter_map(|e| match e {
        Expect::Accept(Some(j)) | Expect::Encode(j) | Expect::EncodeRefused { json: j, .. } => {
            Some(j)
        }
        _ => None,
    }) {
        // Syntax only; vectors nest deeper than serde_json's default limit of 128 (proto3
        // JSON spends two levels per message in repeated and map fields).
        let mut de = serde_json::Deserializer::from_str(j);
        de.disable_recursion_limit();
        serde::de::IgnoredAny::deserialize(&mut de)
            .and_then(|_| de.end())
            .map_err(|e| err(format!("json: {e}")))?;
    }
    if raw.closes.is_some() && !matches!(expect, Expect::Reject(_)) {
        return Err(err("`closes` belongs to reject cases".into()));
    }
    let _ = raw.note;
    Ok(Case {
        id: raw.id,
        spec: raw.spec,
        type_name: raw.type_name,
        bytes,
        config: raw.decoder,
        expect,
        unknown: raw.unknown,
        closes: raw.closes,
        classes: raw.classes,
        file: file.to_string(),
    })
}

/// Load every `*.toml` vector file in `dir` (not `known_divergences.toml`), sorted by file
/// name, checking that ids are unique.
///
/// # Errors
/// Unreadable or malformed files, a case with a bad shape, a duplicate id.
pub fn load_dir(dir: &Path) -> Result<Vec<Case>, LoadError> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| LoadError(format!("{}: {e}", dir.display())))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| p.file_name().is_some_and(|n| n != "known_divergences.toml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path).map_err(|e| LoadError(format!("{name}: {e}")))?;
        let raw: RawFile = toml::from_str(&text).map_err(|e| LoadError(format!("{name}: {e}")))?;
        for c in raw.case {
            let c = convert(&name, c)?;
            if !seen.insert(c.id.clone()) {
                return Err(LoadError(format!("{name}: duplicate id {}", c.id)));
            }
            out.push(c);
        }
    }
    Ok(out)
}

/// A vector on which one engine is known to disagree with SPEC: the runner checks that it
/// still fails there, so a fix forces the entry's removal.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Known {
    /// The vector's id.
    pub id: String,
    /// `generated`, `reflect` or `testee`.
    pub engine: String,
    /// What goes wrong.
    pub actual: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KnownFile {
    #[serde(default)]
    divergence: Vec<Known>,
}

/// Load `known_divergences.toml`.
///
/// # Errors
/// An unreadable or malformed file.
pub fn load_known(path: &Path) -> Result<Vec<Known>, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|e| LoadError(format!("{e}")))?;
    let k: KnownFile = toml::from_str(&text).map_err(|e| LoadError(format!("{e}")))?;
    Ok(k.divergence)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Vec<Case>, LoadError> {
        let raw: RawFile = toml::from_str(text).map_err(|e| LoadError(e.to_string()))?;
        raw.case.into_iter().map(|c| convert("t.toml", c)).collect()
    }

    #[test]
    fn a_fuzz_input_picks_each_setting_by_its_own_bit() {
        assert_eq!(Config::from_fuzz(0, 200), Config::default());
        assert_eq!(
            Config::from_fuzz(0b1111, 9),
            Config {
                depth_limit: Some(2),
                size_limit: Some(9),
                preserving: true,
                stream: true,
            }
        );
        for bit in 0..4 {
            let c = Config::from_fuzz(1 << bit, 15);
            let set = [
                c.depth_limit == Some(8),
                c.size_limit == Some(15),
                c.preserving,
                c.stream,
            ];
            assert_eq!(set.iter().filter(|s| **s).count(), 1, "bit {bit}: {c:?}");
            assert!(set[bit], "bit {bit}: {c:?}");
        }
    }

    #[test]
    fn a_case_has_exactly_one_verdict() {
        let ok = load(
            r#"[[case]]
            id = "a"
            spec = "3.3"
            type = "conformance.Scalars"
            hex = "18 01"
            accept = '{"flag": true}'"#,
        )
        .unwrap();
        assert_eq!(ok[0].bytes, [0x18, 0x01]);
        assert_eq!(
            ok[0].expect,
            Expect::Accept(Some(r#"{"flag": true}"#.into()))
        );
        let both = r#"[[case]]
            id = "a"
            spec = "3.3"
            type = "conformance.Scalars"
            hex = "18 01"
            accept = ""
            reject = { code = "invalid-bool", offset = 1, path = "Scalars.flag" }"#;
        assert!(load(both).is_err());
        let closes_on_accept = r#"[[case]]
            id = "a"
            spec = "3.3"
            type = "conformance.Scalars"
            hex = "18 01"
            accept = ""
            closes = "bool laxity""#;
        assert!(load(closes_on_accept).is_err());
        let refuse_with_bytes = r#"[[case]]
            id = "a"
            spec = "9"
            type = "conformance.Required"
            hex = "00"
            encode = '{}'
            refuse = "missing-required-field""#;
        assert!(load(refuse_with_bytes).is_err());
        let bad_json = r#"[[case]]
            id = "a"
            spec = "3.3"
            type = "conformance.Scalars"
            hex = "18 01"
            accept = '{"flag": tru}'"#;
        assert!(load(bad_json).is_err());
        let unknown_key = r#"[[case]]
            id = "a"
            spec = "3.3"
            type = "conformance.Scalars"
            hex = "18 01"
            acept = ''"#;
        assert!(load(unknown_key).is_err());
    }

    #[test]
    fn config_maps_to_decode_options() {
        let c = Config {
            depth_limit: Some(3),
            size_limit: Some(10),
            preserving: true,
            stream: false,
        };
        let o = c.options();
        assert_eq!(o.get_max_depth(), 3);
        assert_eq!(o.get_max_size(), Some(10));
        assert_eq!(
            o.get_unknown_fields(),
            bijoubuf::UnknownFieldPolicy::Preserve
        );
        let d = Config::default().options();
        assert_eq!(d.get_max_depth(), bijoubuf::DEFAULT_MAX_DEPTH);
        assert_eq!(d.get_max_size(), None);
    }
}
