//! The rules: a stable id per kind of change, and for each category it can break, what
//! that means for bytes already signed or stored and for old readers.

use std::fmt;

use serde::Serialize;

use crate::finding::Category;

/// A kind of schema change. The id ([`Rule::id`]) is stable; a rule can break several
/// categories and is reported once for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// A field's number is gone from the message.
    FieldRemoved,
    /// A field number the old message did not have.
    FieldAdded,
    /// A field kept its name but not its number.
    FieldRenumbered,
    /// A field's element type changed.
    FieldTypeChanged,
    /// A singular field's presence changed between implicit and explicit.
    FieldPresenceChanged,
    /// Fields that could be set together became members of one oneof, or the reverse.
    FieldOneofChanged,
    /// repeated ↔ singular.
    FieldCardinalityChanged,
    /// map ↔ repeated entry message.
    FieldMapChanged,
    /// A field became `required` (or a required field was added).
    RequiredAdded,
    /// A `required` field became optional or was removed.
    RequiredRemoved,
    /// A field kept its number but not its name.
    FieldRenamed,
    /// A field's JSON name changed.
    FieldJsonNameChanged,
    /// An enum value name now stands for another number.
    EnumValueRenumbered,
    /// An enum value name is gone.
    EnumValueRemoved,
    /// An enum value the old enum did not have.
    EnumValueAdded,
    /// An enum number kept, its name changed.
    EnumValueRenamed,
    /// No new message has an old message's full name (nor the name a rename gives it).
    MessageRemoved,
    /// A message type has a new full name (renamed, moved to another package or scope),
    /// as a rename declares ([`Config::rename`](crate::Config::rename)).
    MessageRenamed,
    /// No new enum has an old enum's full name (nor the name a rename gives it).
    EnumRemoved,
    /// An enum type has a new full name, as a rename declares.
    EnumRenamed,
    /// A file's package changed.
    PackageChanged,
    /// A number the old message reserved is a field of the new one.
    ReservedNumberReused,
    /// A name the old message reserved is a field of the new one.
    ReservedNameReused,
    /// A reserved number or name of the old message is no longer reserved.
    ReservedRemoved,
}

impl Rule {
    /// The stable kebab-case id.
    pub fn id(self) -> &'static str {
        use Rule::*;
        match self {
            FieldRemoved => "field-removed",
            FieldAdded => "field-added",
            FieldRenumbered => "field-renumbered",
            FieldTypeChanged => "field-type-changed",
            FieldPresenceChanged => "field-presence-changed",
            FieldOneofChanged => "field-oneof-changed",
            FieldCardinalityChanged => "field-cardinality-changed",
            FieldMapChanged => "field-map-changed",
            RequiredAdded => "required-added",
            RequiredRemoved => "required-removed",
            FieldRenamed => "field-renamed",
            FieldJsonNameChanged => "field-json-name-changed",
            EnumValueRenumbered => "enum-value-renumbered",
            EnumValueRemoved => "enum-value-removed",
            EnumValueAdded => "enum-value-added",
            EnumValueRenamed => "enum-value-renamed",
            MessageRemoved => "message-removed",
            MessageRenamed => "message-renamed",
            EnumRemoved => "enum-removed",
            EnumRenamed => "enum-renamed",
            PackageChanged => "package-changed",
            ReservedNumberReused => "reserved-number-reused",
            ReservedNameReused => "reserved-name-reused",
            ReservedRemoved => "reserved-removed",
        }
    }

    /// What breaking `category` means for this rule (the rule table's third column).
    pub fn meaning(self, category: Category) -> &'static str {
        RULES
            .iter()
            .find(|r| r.rule == self && r.category == category)
            .map_or("", |r| r.meaning)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// One row of the rule table.
#[derive(Clone, Copy, Debug)]
pub struct RuleRow {
    /// The rule.
    pub rule: Rule,
    /// The category it breaks.
    pub category: Category,
    /// What that means for signed and stored bytes (or old readers, JSON, Rust code).
    pub meaning: &'static str,
}

const fn row(rule: Rule, category: Category, meaning: &'static str) -> RuleRow {
    RuleRow {
        rule,
        category,
        meaning,
    }
}

use Category::{Canonical, Forward, Json, Source};
use Rule::*;

/// Every (rule, category) the checker reports, with its meaning. The crate docs show
/// the same table; a test keeps the two equal.
pub const RULES: &[RuleRow] = &[
    row(
        FieldRemoved,
        Canonical,
        "old bytes holding the field are refused by a strict new reader with unknown-field (SPEC §8.1), reserved or not",
    ),
    row(
        FieldRemoved,
        Json,
        "old JSON naming the field is refused by the new JSON reader",
    ),
    row(FieldRemoved, Source, "the generated struct loses the field"),
    row(
        FieldAdded,
        Forward,
        "new bytes holding the field are refused by a strict old reader with unknown-field; a preserving one keeps and re-emits the record (SPEC §8.2)",
    ),
    row(
        FieldRenumbered,
        Canonical,
        "old bytes holding the field carry the old number: unknown-field, or read as whatever the new schema has there",
    ),
    row(
        FieldRenumbered,
        Forward,
        "new bytes carry the new number, unknown to a strict old reader or read as another field",
    ),
    row(
        FieldTypeChanged,
        Canonical,
        "old bytes of the field are refused (wire-type-mismatch, integer-out-of-range, invalid-bool, invalid-utf8, non-canonical-nan) or read as another value (SPEC §3)",
    ),
    row(
        FieldTypeChanged,
        Forward,
        "new bytes of the field are refused or misread by a strict old reader (SPEC §3)",
    ),
    row(
        FieldTypeChanged,
        Json,
        "the proto3 JSON form or range of the value changes",
    ),
    row(
        FieldTypeChanged,
        Source,
        "the generated field has another Rust type",
    ),
    row(
        FieldPresenceChanged,
        Canonical,
        "explicit → implicit: old bytes holding the default (a set 0, \"\", false) are refused with default-value-present (SPEC §5.1)",
    ),
    row(
        FieldPresenceChanged,
        Forward,
        "implicit → explicit: new bytes holding a set default are refused by a strict old reader with default-value-present (SPEC §5.1)",
    ),
    row(
        FieldPresenceChanged,
        Source,
        "the generated field changes between `T` and `Option<T>` (implicit and required are `T`, explicit is `Option<T>`)",
    ),
    row(
        FieldOneofChanged,
        Canonical,
        "fields old bytes may hold together are members of one new oneof: oneof-conflict (SPEC §5.4)",
    ),
    row(
        FieldOneofChanged,
        Forward,
        "members of one old oneof may be written together by the new schema: oneof-conflict for an old reader (SPEC §5.4)",
    ),
    row(
        FieldOneofChanged,
        Source,
        "the field moves into or out of a generated oneof enum",
    ),
    row(
        FieldCardinalityChanged,
        Canonical,
        "a singular record and a repeated record are different forms (SPEC §6.1): old bytes are refused or read as another value",
    ),
    row(
        FieldCardinalityChanged,
        Forward,
        "new bytes of the field are refused or misread by an old reader (SPEC §6.1)",
    ),
    row(
        FieldCardinalityChanged,
        Json,
        "the JSON value changes between a value and an array",
    ),
    row(
        FieldCardinalityChanged,
        Source,
        "the generated field changes between `T` and `Vec<T>`",
    ),
    row(
        FieldMapChanged,
        Canonical,
        "map entries are key and value elements with no keys or lengths (SPEC §6.3), not entry messages: old bytes are refused or misread",
    ),
    row(
        FieldMapChanged,
        Forward,
        "new bytes of the field are refused or misread by an old reader (SPEC §6.3)",
    ),
    row(
        FieldMapChanged,
        Json,
        "the JSON value changes between an object and an array",
    ),
    row(
        FieldMapChanged,
        Source,
        "the generated field changes between BTreeMap and Vec",
    ),
    row(
        RequiredAdded,
        Canonical,
        "old bytes without the field are refused with missing-required-field (SPEC §5.3)",
    ),
    row(
        RequiredRemoved,
        Forward,
        "new bytes without the field are refused by an old reader with missing-required-field (SPEC §5.3)",
    ),
    row(
        FieldRenamed,
        Json,
        "JSON names the field by its name: old JSON is refused or misread",
    ),
    row(FieldRenamed, Source, "the generated field has another name"),
    row(
        FieldJsonNameChanged,
        Json,
        "old JSON naming the field by its old JSON name is refused or misread",
    ),
    row(
        EnumValueRenumbered,
        Canonical,
        "old bytes holding the value keep its number, which the new schema names otherwise: another value",
    ),
    row(
        EnumValueRenumbered,
        Forward,
        "new bytes holding the value carry a number the old schema names otherwise",
    ),
    row(
        EnumValueRenumbered,
        Json,
        "the JSON name now stands for another number",
    ),
    row(
        EnumValueRemoved,
        Json,
        "old JSON holding the name is refused; the number is written as a number",
    ),
    row(
        EnumValueRemoved,
        Source,
        "the generated enum loses the variant (bytes are unaffected: enums are open, SPEC §3.6)",
    ),
    row(EnumValueAdded, Json, "old JSON readers refuse the new name"),
    row(
        EnumValueRenamed,
        Json,
        "JSON holding the old name is refused",
    ),
    row(
        EnumValueRenamed,
        Source,
        "the generated variant has another name",
    ),
    row(
        MessageRemoved,
        Source,
        "the generated type is gone: no new type has its full name (a type moved to another package or name is removed and added, unless renamed)",
    ),
    row(
        MessageRenamed,
        Json,
        "the type URL of Any values changes (google.protobuf.Any holds the full name)",
    ),
    row(
        MessageRenamed,
        Source,
        "the generated type has another path (a rename the caller declared; its fields are compared)",
    ),
    row(
        EnumRemoved,
        Source,
        "the generated enum is gone: no new enum has its full name",
    ),
    row(
        EnumRenamed,
        Source,
        "the generated enum has another path (a rename the caller declared; its values are compared)",
    ),
    row(PackageChanged, Json, "type URLs in Any values change"),
    row(
        PackageChanged,
        Source,
        "generated code moves to another module",
    ),
    row(
        ReservedNumberReused,
        Canonical,
        "bytes from before the reservation, kept by a preserving reader, may hold the number with another type: now refused or misread",
    ),
    row(
        ReservedNameReused,
        Json,
        "JSON from before the reservation may use the name with another meaning",
    ),
    row(
        ReservedRemoved,
        Source,
        "the schema no longer stops the number or name from being reused",
    ),
];
