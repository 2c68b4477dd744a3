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
use crate::model::{Presence, Syntax};
use crate::span::Span;

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
    /// `enforce_naming_style = STYLE_LEGACY`: edition 2024's naming style not checked.
    pub(crate) style_legacy: bool,
}

impl Features {
    /// The defaults of editions 2023 and 2024.
    pub(crate) const EDITION_DEFAULTS: Features = Features {
        presence: Presence::Explicit,
        closed_enums: false,
        expanded_repeated: false,
        style_legacy: false,
    };
}

/// One feature set on an element, in either spelling: `features.<name> = VALUE` or a
/// field of `features = { <name>: VALUE, … }`.
struct Setting<'a> {
    name: &'a str,
    value: &'a str,
    span: Span,
}

/// Every feature `options` set, in source order, whichever spelling each uses: the two
/// spellings are one resolution step, as in protoc (a feature both spellings set is a
/// duplicate option, reported by the option interpreter).
fn settings(options: &[OptionStmt]) -> Vec<Setting<'_>> {
    let mut out = Vec::new();
    for o in options {
        match o.name.as_slice() {
            [first] if !first.is_extension && first.name == "features" => {
                if let ValueKind::Aggregate(fields) = &o.value.kind {
                    for af in fields.iter().filter(|af| !af.is_extension) {
                        if let ValueKind::Ident(v) = &af.value.kind {
                            out.push(Setting {
                                name: &af.name,
                                value: v,
                                span: af.name_span.to(af.value.span),
                            });
                        }
                    }
                }
            }
            [first, second]
                if !first.is_extension && !second.is_extension && first.name == "features" =>
            {
                if let ValueKind::Ident(v) = &o.value.kind {
                    out.push(Setting {
                        name: &second.name,
                        value: v,
                        span: o.span,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The kind of element a feature is set on: each feature of `FeatureSet` names the
/// kinds it may be set on (its `targets` in descriptor.proto).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    File,
    Message,
    Field,
    Oneof,
    Enum,
    EnumValue,
    Service,
    Method,
    ExtensionRange,
}

impl Target {
    /// The entity's name in protoc's words.
    fn describe(self) -> &'static str {
        match self {
            Target::File => "file",
            Target::Message => "message",
            Target::Field => "field",
            Target::Oneof => "oneof",
            Target::Enum => "enum",
            Target::EnumValue => "enum entry",
            Target::Service => "service",
            Target::Method => "method",
            Target::ExtensionRange => "extension range",
        }
    }
}

/// Whether `feature` may be set on `target` (descriptor.proto's `targets`; a feature
/// this table does not know is left to the option interpreter).
fn allowed(feature: &str, target: Target) -> bool {
    use Target::*;
    match feature {
        "field_presence" | "repeated_field_encoding" | "utf8_validation" | "message_encoding" => {
            matches!(target, File | Field)
        }
        "enum_type" => matches!(target, File | Enum),
        "json_format" => matches!(target, File | Message | Enum),
        "default_symbol_visibility" => target == File,
        "enforce_proto_limits" => matches!(target, Message | Field | Oneof | Enum),
        "enforce_naming_style" => true,
        // A feature this table does not know is left to the option interpreter; on an
        // extension range protoc allows only the naming style.
        _ => target != ExtensionRange,
    }
}

/// The edition that introduced `feature` (descriptor.proto's `edition_introduced`),
/// where it is later than 2023; before it the feature cannot be set.
fn introduced(feature: &str) -> Option<(Syntax, &'static str)> {
    match feature {
        "enforce_naming_style" | "default_symbol_visibility" => Some((Syntax::Edition2024, "2024")),
        "enforce_proto_limits" => Some((Syntax::Edition2026, "2026")),
        _ => None,
    }
}

/// An edition's rank, to compare them.
fn rank(s: Syntax) -> u8 {
    match s {
        Syntax::Proto2 | Syntax::Proto3 | Syntax::Edition2023 => 0,
        Syntax::Edition2024 => 1,
        Syntax::Edition2026 => 2,
    }
}

/// `inherited` with the features `options` set, without checking them (their element
/// checks them once): for a oneof's features, which its fields inherit.
pub(crate) fn inherit(inherited: Features, options: &[OptionStmt]) -> Features {
    let mut out = inherited;
    for s in settings(options) {
        out.apply(s.name, s.value);
    }
    out
}

impl Features {
    /// Feature `name` set to `value` (what bijoubuf's model depends on).
    fn apply(&mut self, name: &str, value: &str) {
        match (name, value) {
            ("field_presence", "EXPLICIT") => self.presence = Presence::Explicit,
            ("field_presence", "IMPLICIT") => self.presence = Presence::Implicit,
            ("field_presence", "LEGACY_REQUIRED") => self.presence = Presence::Required,
            ("enum_type", "OPEN") => self.closed_enums = false,
            ("enum_type", "CLOSED") => self.closed_enums = true,
            ("repeated_field_encoding", "PACKED") => self.expanded_repeated = false,
            ("repeated_field_encoding", "EXPANDED") => self.expanded_repeated = true,
            ("enforce_naming_style", "STYLE_LEGACY") => self.style_legacy = true,
            ("enforce_naming_style", _) => self.style_legacy = false,
            _ => {}
        }
    }
}

/// The feature `name` set among `options` in either spelling: its value and place.
pub(crate) fn own_feature<'a>(options: &'a [OptionStmt], name: &str) -> Option<(&'a str, Span)> {
    settings(options)
        .into_iter()
        .find(|s| s.name == name)
        .map(|s| (s.value, s.span))
}

impl Checker<'_> {
    /// `inherited` with the features `options` set; reports what bijoubuf cannot honour.
    /// `target` is the kind of element the options belong to.
    pub(crate) fn features(
        &mut self,
        inherited: Features,
        options: &[OptionStmt],
        target: Target,
    ) -> Features {
        let mut out = inherited;
        if !self.syntax().is_edition() {
            return out;
        }
        for s in settings(options) {
            if let Some((since, name)) = introduced(s.name)
                && rank(self.syntax()) < rank(since)
            {
                self.err(
                    "invalid-feature",
                    s.span,
                    format!(
                        "feature `{}` was introduced in edition {name} and cannot be set in an earlier edition",
                        s.name
                    ),
                )
                .with_help(format!("write `edition = \"{name}\";` to use it"));
                continue;
            }
            if target == Target::File && s.name == "field_presence" && s.value == "LEGACY_REQUIRED"
            {
                self.err(
                    "invalid-feature",
                    s.span,
                    "`field_presence = LEGACY_REQUIRED` cannot be a file's default",
                )
                .with_help("set it on the fields that are required");
                continue;
            }
            if !allowed(s.name, target) {
                self.err(
                    "invalid-feature",
                    s.span,
                    format!(
                        "feature `{}` cannot be set on a {}",
                        s.name,
                        target.describe()
                    ),
                )
                .with_help("set it on the file, or on an element it applies to");
                continue;
            }
            out.apply(s.name, s.value);
            if (s.name, s.value) == ("message_encoding", "DELIMITED") {
                self.err(
                    "unsupported",
                    s.span,
                    "`features.message_encoding = DELIMITED` (group encoding) is not supported by bijoubuf v1",
                )
                .with_help("remove the feature: message fields are length-prefixed in bijoubuf");
            }
        }
        out
    }
}
