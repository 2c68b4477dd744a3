//! Editions: the `features` of a file, message, field or enum, inherited down the tree,
//! mapped onto bijoubuf's model.
//!
//! `field_presence` (EXPLICIT, IMPLICIT, LEGACY_REQUIRED) decides a field's presence and
//! `enum_type` (OPEN, CLOSED) whether an enum is closed. `repeated_field_encoding`,
//! `utf8_validation` and `json_format` are accepted as they are: bijoubuf's format fixes
//! how repeated fields are written and always validates UTF-8. `message_encoding =
//! DELIMITED` (groups) is refused.

use super::Checker;
use crate::ast::{OptionStmt, ValueKind};
use crate::model::Presence;

/// The features in force at one element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Features {
    /// Presence of singular fields without a label.
    pub(crate) presence: Presence,
    /// Whether enums are closed.
    pub(crate) closed_enums: bool,
    /// `repeated_field_encoding = EXPANDED`: repeated scalars written one record each
    /// (the editions default, PACKED, writes them in one record). Only protobuf's binary
    /// form of option values depends on it.
    pub(crate) expanded_repeated: bool,
}

impl Features {
    /// The defaults of editions 2023 and 2024.
    pub(crate) const EDITION_DEFAULTS: Features = Features {
        presence: Presence::Explicit,
        closed_enums: false,
        expanded_repeated: false,
    };
}

/// The value of `features.<name>` set among `options`, if an identifier.
fn feature<'a>(options: &'a [OptionStmt], name: &str) -> Option<(&'a str, &'a OptionStmt)> {
    options.iter().find_map(|o| {
        let [first, second] = o.name.as_slice() else {
            return None;
        };
        if first.is_extension || second.is_extension || first.name != "features" {
            return None;
        }
        match &o.value.kind {
            ValueKind::Ident(v) if second.name == name => Some((v.as_str(), o)),
            _ => None,
        }
    })
}

impl Checker<'_> {
    /// `inherited` with the features `options` set; reports what bijoubuf cannot honour.
    pub(crate) fn features(&mut self, inherited: Features, options: &[OptionStmt]) -> Features {
        let mut out = inherited;
        if !self.syntax().is_edition() {
            return out;
        }
        if let Some((value, _)) = feature(options, "field_presence") {
            match value {
                "EXPLICIT" => out.presence = Presence::Explicit,
                "IMPLICIT" => out.presence = Presence::Implicit,
                "LEGACY_REQUIRED" => out.presence = Presence::Required,
                _ => {}
            }
        }
        if let Some((value, _)) = feature(options, "enum_type") {
            match value {
                "OPEN" => out.closed_enums = false,
                "CLOSED" => out.closed_enums = true,
                _ => {}
            }
        }
        if let Some((value, _)) = feature(options, "repeated_field_encoding") {
            match value {
                "PACKED" => out.expanded_repeated = false,
                "EXPANDED" => out.expanded_repeated = true,
                _ => {}
            }
        }
        if let Some(("DELIMITED", o)) = feature(options, "message_encoding") {
            self.err(
                "unsupported",
                o.span,
                "`features.message_encoding = DELIMITED` (group encoding) is not supported by bijoubuf v1",
            )
            .with_help("remove the feature: message fields are length-prefixed in bijoubuf");
        }
        out
    }
}
