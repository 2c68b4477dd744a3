//! The `schema_evolution` example: a version 1 reader and a version 2 writer of one
//! message.
//!
//! Version 2 of `examples.profile.Profile` adds fields 4 to 6. A version 1 service that
//! decodes with [`UnknownFieldPolicy::Preserve`] keeps those records and writes them
//! back where they were, so its re-encoding is the writer's bytes exactly and the
//! writer's signature still verifies after the message passed through it. A strict
//! version 1 reader refuses the same bytes with `unknown-field`.
//!
//! Before any bytes move, [`schema_change`] asks the checker (bijoubuf-breaking) what
//! v1 → v2 does: no canonical finding (every stored v1 message still decodes under v2 to
//! the same value and bytes), and one forward finding per new field, each with the bytes
//! a strict v1 reader refuses. The rest of the example shows those findings happen.
//!
//! [`run`] returns a [`Report`]; its `Display` is the example's output.

use std::collections::BTreeMap;
use std::error::Error;
use std::fmt;

use bijoubuf::{DecodeError, DecodeOptions, Message as _, UnknownFieldPolicy, UnknownValue};

use bijoubuf_breaking::counterexample::counterexample;
use bijoubuf_reflect::DescriptorPool;

use crate::profile::{v1, v2};
use crate::signed::SignedMessage;
use crate::signing::{self, VerifyError};

/// The profile a version 2 client writes.
pub fn v2_profile() -> v2::Profile {
    v2::Profile {
        handle: "ada".into(),
        display_name: "Ada Lovelace".into(),
        bio: "First programmer".into(),
        pronouns: "she/her".into(),
        links: BTreeMap::from([("site".into(), "https://example.org/ada".into())]),
        avatar: Some(v2::Avatar {
            url: "https://example.org/ada.png".into(),
            width: 256,
            height: 256,
        }),
    }
}

/// The two schema versions, as the build compiles them.
const V1: &str = include_str!("../../schemas/examples/evolution/v1/profile.proto");
const V2: &str = include_str!("../../schemas/examples/evolution/v2/profile.proto");

/// One finding of `bijoubuf breaking` for v1 → v2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// `canonical`, `forward`, `json` or `source`.
    pub category: &'static str,
    /// The rule id, e.g. `field-added`.
    pub rule: &'static str,
    /// The checker's words.
    pub message: String,
    /// For canonical and forward findings: the bytes that fail, as the decoder reported.
    pub counterexample: Option<String>,
}

/// What the checker says about v1 → v2 of `Profile`.
///
/// # Errors
/// A schema that does not compile; neither happens with the example's schemas.
pub fn schema_change() -> Result<Vec<Change>, Box<dyn Error>> {
    let old = bijoubuf_schema::compile_sources(&[("profile.proto", V1)])?.schema;
    let new = bijoubuf_schema::compile_sources(&[("profile.proto", V2)])?.schema;
    let findings = bijoubuf_breaking::check(bijoubuf_breaking::Old::Schema(&old), &new)?;
    let (old_pool, new_pool) = (DescriptorPool::new(&old), DescriptorPool::new(&new));
    Ok(findings
        .iter()
        .map(|f| Change {
            category: f.category.name(),
            rule: f.rule_id(),
            message: f.message.clone(),
            counterexample: counterexample(f, &old_pool, &new_pool).map(|c| c.to_string()),
        })
        .collect())
}

/// Everything the example shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The checker's account of the schema change.
    pub schema_change: Vec<Change>,
    /// What the version 2 client wrote.
    pub written: v2::Profile,
    /// Its canonical bytes.
    pub body: Vec<u8>,
    /// The signed envelope it sent.
    pub envelope: Vec<u8>,
    /// The preserving version 1 service: verify (decoding with unknown fields kept).
    pub preserving: Result<v1::Profile, VerifyError>,
    /// The preserving service's re-encoding of what it read.
    pub reencoded: Vec<u8>,
    /// The writer's signature checked over that re-encoding.
    pub reencoded_signature: Result<(), VerifyError>,
    /// A version 2 client verifying the envelope the version 1 service passed on
    /// (its re-encoding and the original signature).
    pub forwarded: Result<v2::Profile, VerifyError>,
    /// A strict version 1 reader's decode of the body.
    pub strict: Result<v1::Profile, DecodeError>,
    /// The preserving service after changing `bio`: its re-encoding read by version 2.
    pub edited: Result<v2::Profile, DecodeError>,
    /// The writer's signature over the edited bytes.
    pub edited_signature: Result<(), VerifyError>,
}

/// Run the example with the demo key.
///
/// # Errors
/// An encode error; none happens with the demo profile.
pub fn run() -> Result<Report, Box<dyn Error>> {
    let key = signing::demo_key();
    let public = key.verifying_key();
    let written = v2_profile();
    let envelope = signing::sign(&key, &written)?;
    let SignedMessage { body, signature } = SignedMessage::decode(&envelope)?;

    let keep = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    let preserving = signing::verify_with::<v1::Profile>(&public, &envelope, &keep);
    let (reencoded, edited_bytes) = match &preserving {
        Ok(p) => {
            let mut edited = p.clone();
            edited.bio = "Wrote the first program".into();
            (p.encode_to_vec()?, edited.encode_to_vec()?)
        }
        Err(_) => (Vec::new(), Vec::new()),
    };
    let reencoded_signature =
        signing::verify_bytes(&public, v1::Profile::FULL_NAME, &reencoded, &signature);
    let forwarded_envelope = SignedMessage {
        body: reencoded.clone(),
        signature: signature.clone(),
    }
    .encode_to_vec()?;
    let forwarded = signing::verify::<v2::Profile>(&public, &forwarded_envelope);
    let strict = v1::Profile::decode(&body);
    let edited = v2::Profile::decode(&edited_bytes);
    let edited_signature =
        signing::verify_bytes(&public, v1::Profile::FULL_NAME, &edited_bytes, &signature);
    Ok(Report {
        schema_change: schema_change()?,
        written,
        body,
        envelope,
        preserving,
        reencoded,
        reencoded_signature,
        forwarded,
        strict,
        edited,
        edited_signature,
    })
}

fn wire_name(v: &UnknownValue) -> &'static str {
    match v {
        UnknownValue::Varint(_) => "VARINT",
        UnknownValue::I64(_) => "I64",
        UnknownValue::Len(_) => "LEN",
        UnknownValue::I32(_) => "I32",
    }
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "NO" }
}

fn outcome<T>(r: &Result<T, VerifyError>) -> String {
    match r {
        Ok(_) => "valid".to_owned(),
        Err(e) => e.code().to_owned(),
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = &self.written;
        writeln!(
            f,
            "Schema evolution: a v1 reader, a v2 writer, one signature"
        )?;
        writeln!(
            f,
            "========================================================="
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "examples.profile.Profile, v1: handle = 1, display_name = 2, bio = 3"
        )?;
        writeln!(
            f,
            "                          v2: the same, plus pronouns = 4, links = 5, avatar = 6"
        )?;
        writeln!(f)?;
        writeln!(f, "What `bijoubuf breaking --against v1 v2` says:")?;
        let canonical = self
            .schema_change
            .iter()
            .filter(|c| c.category == "canonical")
            .count();
        writeln!(
            f,
            "  {canonical} canonical findings: every message stored under v1 decodes under v2"
        )?;
        writeln!(f, "  to the same value and re-encodes to the same bytes.")?;
        for c in self
            .schema_change
            .iter()
            .filter(|c| c.category != "canonical")
        {
            writeln!(f, "  {}/{}: {}", c.category, c.rule, c.message)?;
            if let Some(ce) = &c.counterexample {
                writeln!(f, "    {ce}")?;
            }
        }
        writeln!(f)?;
        writeln!(f, "A v2 client writes and signs:")?;
        writeln!(
            f,
            "  handle {:?}, display_name {:?}, bio {:?},",
            w.handle, w.display_name, w.bio
        )?;
        writeln!(f, "  pronouns {:?}, links {:?},", w.pronouns, w.links)?;
        if let Some(a) = &w.avatar {
            writeln!(f, "  avatar {:?} {}x{}", a.url, a.width, a.height)?;
        }
        writeln!(
            f,
            "  {} canonical bytes, signed as \"{}\"; envelope {} bytes",
            self.body.len(),
            v2::Profile::FULL_NAME,
            self.envelope.len()
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "A v1 service that preserves unknown fields (DecodeOptions::unknown_fields(Preserve)):"
        )?;
        match &self.preserving {
            Ok(p) => {
                writeln!(
                    f,
                    "  verifies and reads handle {:?}, display_name {:?}, bio {:?}",
                    p.handle, p.display_name, p.bio
                )?;
                let kept: Vec<String> = p
                    .unknown_fields
                    .as_slice()
                    .iter()
                    .map(|u| format!("{} ({})", u.number, wire_name(&u.value)))
                    .collect();
                writeln!(
                    f,
                    "  keeps the records it does not know: fields {}",
                    kept.join(", ")
                )?;
            }
            Err(e) => writeln!(f, "  {e}")?,
        }
        writeln!(
            f,
            "  re-encodes to the writer's bytes exactly: {}",
            yes(self.reencoded == self.body)
        )?;
        writeln!(
            f,
            "  the writer's signature over the re-encoding: {}",
            outcome(&self.reencoded_signature)
        )?;
        writeln!(
            f,
            "  so it can store or pass on the message without breaking the signature."
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "A v2 client receiving it from the v1 service (re-encoded body, original signature):"
        )?;
        match &self.forwarded {
            Ok(p) => writeln!(
                f,
                "  valid; pronouns {:?}, avatar {}, nothing lost: {}",
                p.pronouns,
                p.avatar
                    .as_ref()
                    .map_or("none".to_owned(), |a| format!("{}x{}", a.width, a.height)),
                yes(*p == self.written)
            )?,
            Err(e) => writeln!(f, "  {e}")?,
        }
        writeln!(f)?;
        writeln!(f, "A strict v1 reader (the default, Profile::decode):")?;
        match &self.strict {
            Ok(_) => writeln!(f, "  accepted the v2 bytes (!)")?,
            Err(e) => {
                writeln!(f, "  {e}")?;
                writeln!(
                    f,
                    "  (code {}, path {}, offset {}): it refuses what it cannot check",
                    e.code(),
                    e.path_string(),
                    e.offset()
                )?;
            }
        }
        writeln!(f)?;
        writeln!(f, "The preserving v1 service changing bio and re-encoding:")?;
        match &self.edited {
            Ok(p) => writeln!(
                f,
                "  a v2 reader sees bio {:?},\n  and still pronouns {:?}, links {:?}, avatar {}",
                p.bio,
                p.pronouns,
                p.links.keys().collect::<Vec<_>>(),
                p.avatar
                    .as_ref()
                    .map_or("none".to_owned(), |a| format!("{}x{}", a.width, a.height))
            )?,
            Err(e) => writeln!(f, "  {e}")?,
        }
        writeln!(
            f,
            "  the writer's signature over the new bytes: {}, as it should be: the value changed",
            outcome(&self.edited_signature)
        )
    }
}
