//! Fields and extensions: labels, types, numbers, defaults, JSON names.

use std::collections::{HashMap, HashSet};

use super::defaults::scalar_default;
use super::features::{Target, own_feature};
use super::naming::Style;
use super::{Checker, bool_option, join, simple_option};
use crate::ast::{self, Label, ValueKind};
use crate::diagnostics::Diagnostic;
use crate::model::{
    Cardinality, FieldDef, FieldSpans, FieldType, NumberRange, Presence, ScalarType, Syntax,
};
use crate::parser::{FIELD_MAX, RANGE_MAX};
use crate::resolve::SymKind;
use crate::span::Span;

/// protoc's default JSON name of a field: underscores dropped, the letter after one
/// upper-cased (`foo_bar` → `fooBar`).
pub fn json_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Where the options of these messages live (extensions of them are allowed in proto3).
const OPTION_MESSAGES: &[&str] = &[
    "google.protobuf.FileOptions",
    "google.protobuf.MessageOptions",
    "google.protobuf.FieldOptions",
    "google.protobuf.OneofOptions",
    "google.protobuf.EnumOptions",
    "google.protobuf.EnumValueOptions",
    "google.protobuf.ServiceOptions",
    "google.protobuf.MethodOptions",
    "google.protobuf.ExtensionRangeOptions",
];

impl Checker<'_> {
    /// A field of `scope` (a message, or the scope of an `extend` when `extendee` is set).
    pub(crate) fn field(
        &mut self,
        scope: &str,
        f: &ast::Field,
        index: usize,
        extendee: Option<(&str, Span)>,
        in_map_entry: bool,
    ) -> Option<FieldDef> {
        let extendee_span = extendee.map(|(_, s)| s);
        let extendee = extendee.map(|(e, _)| e);
        let proto3 = self.syntax() == Syntax::Proto3;
        let in_oneof = f.oneof.is_some();
        let label = f.label.map(|(l, _)| l);
        match (f.label, in_oneof, &f.map) {
            (_, true, Some(_)) => {
                self.err(
                    "map-in-oneof",
                    f.ty.span,
                    "map fields are not allowed in a oneof",
                )
                .with_help(
                    "wrap the map in a message and put a field of that message in the oneof",
                );
            }
            (Some((_, span)), true, _) => {
                self.err(
                    "label-in-oneof",
                    span,
                    "fields in a oneof must not have a label",
                )
                .with_help(
                    "remove `optional`/`repeated`/`required`; oneof members always track presence",
                );
            }
            (Some((_, span)), false, Some(_)) => {
                self.err("label-on-map", span, "map fields must not have a label");
            }
            // A map entry's `optional` key and value are synthesized, as protoc builds them.
            (Some((Label::Optional | Label::Required, span)), false, _)
                if self.syntax().is_edition() && !in_map_entry =>
            {
                self.err(
                    "label-in-edition",
                    span,
                    "`optional` and `required` are not allowed in an edition",
                )
                .with_help("drop the label; set `[features.field_presence = …]` instead");
            }
            (None, false, None) if self.syntax() == Syntax::Proto2 => {
                self.err("missing-label", f.ty.span, "proto2 fields need a label")
                    .with_help("start the field with `optional`, `required` or `repeated`");
            }
            _ => {}
        }
        if proto3 && label == Some(Label::Required) {
            let span = f.label.map(|(_, s)| s).unwrap_or(f.span);
            self.err(
                "proto3-required",
                span,
                "required fields are not allowed in proto3",
            )
            .with_help("drop `required`; use `optional` to track presence");
        }
        if extendee.is_some() && label == Some(Label::Required) {
            let span = f.label.map(|(_, s)| s).unwrap_or(f.span);
            self.err(
                "required-extension",
                span,
                format!("extension {:?} cannot be required", f.name.name),
            );
        }

        // An extension of a MessageSet may take any number its ranges hold (up to
        // 2^31 − 2), as protoc allows.
        let message_set = extendee.is_some_and(|e| self.syms.message_sets.contains(e));
        let hi = if message_set { RANGE_MAX } else { FIELD_MAX };
        let number_ok = self.check_number(f.number, f.number_span, hi);
        let (ty, cardinality) = match &f.map {
            Some((key, value)) => {
                let key_ty = match ScalarType::from_keyword(&key.name) {
                    Some(k) if k.is_valid_map_key() => Some(k),
                    _ => {
                        self.err("invalid-map-key", key.span, format!("{:?} cannot be a map key", key.name))
                            .with_help("map keys are integers, bool or string (not float, double, bytes, enums or messages)");
                        None
                    }
                };
                let value_ty = self.field_type(scope, value);
                let entry = join(scope, &f.ty.name);
                match (key_ty, value_ty) {
                    (Some(key), Some(value)) => {
                        (FieldType::Message(entry), Cardinality::Map { key, value })
                    }
                    _ => return None,
                }
            }
            None => {
                let ty = self.field_type(scope, &f.ty)?;
                let card = if label == Some(Label::Repeated) {
                    Cardinality::Repeated
                } else {
                    Cardinality::Single
                };
                (ty, card)
            }
        };
        // A map's value type counts as the field's type here.
        let value_ty = match &cardinality {
            Cardinality::Map { value, .. } => value,
            _ => &ty,
        };
        if proto3
            && extendee.is_none()
            && let FieldType::Enum(e) = value_ty
            && let Some(sym) = self.syms.get(e)
            && self.syms.syntax[sym.file] == Syntax::Proto2
        {
            self.err(
                "closed-enum-in-proto3",
                f.ty.span,
                format!(
                    "enum {e:?} is a proto2 (closed) enum and cannot be used in a proto3 message"
                ),
            )
            .with_help("declare the enum in a proto3 file");
        }

        if let Cardinality::Map {
            value: FieldType::Enum(e),
            ..
        } = &cardinality
            && self.enum_is_closed(e) == Some(true)
            && let Some(first) = self.syms.get(e).and_then(|sym| {
                let first = self.find_enum(sym.file, e)?.values.first()?;
                Some(first.number)
            })
            && first != 0
            && let Some((_, value)) = &f.map
        {
            // A map entry's value is always written, so its enum needs a zero value.
            self.err(
                "closed-enum-map-value",
                value.span,
                format!("closed enum {e:?} is a map value, so its first value must be 0"),
            );
        }
        let field_features = self.features(self.features, &f.options, Target::Field);
        if !in_map_entry {
            let legacy = field_features.style_legacy;
            self.naming_style(
                "field",
                &f.name.name,
                f.name.span,
                Style::LowerSnake,
                legacy,
            );
        }
        if self.syntax().is_2024_or_later()
            && let Some(o) = simple_option(&f.options, "ctype")
        {
            self.err(
                "removed-option",
                o.span,
                "option `ctype` is not allowed from edition 2024 on",
            )
            .with_help("use the feature `features.(pb.cpp).string_type` instead");
        }
        let edition_presence = field_features.presence;
        let presence = match (&cardinality, label) {
            (Cardinality::Repeated | Cardinality::Map { .. }, _) => Presence::Implicit,
            (_, Some(Label::Required)) => Presence::Required,
            _ if self.syntax().is_edition() && extendee.is_none() && !in_oneof => {
                match (&ty, edition_presence) {
                    // Message fields always track presence; only LEGACY_REQUIRED changes them.
                    (FieldType::Message(_), Presence::Implicit) => Presence::Explicit,
                    (_, p) => p,
                }
            }
            _ if in_oneof || extendee.is_some() => Presence::Explicit,
            _ if matches!(ty, FieldType::Message(_)) => Presence::Explicit,
            _ if proto3 && label != Some(Label::Optional) => Presence::Implicit,
            _ => Presence::Explicit,
        };
        let proto3_optional =
            proto3 && label == Some(Label::Optional) && extendee.is_none() && !in_map_entry;
        // A map entry's key and value carry the map field's features, checked there.
        if self.syntax().is_edition() && !in_map_entry {
            self.check_field_features(f, &ty, &cardinality, extendee.is_some(), presence);
        }

        self.check_pseudo_options(f, &ty, &cardinality);
        let default = self.default_value(f, &ty, &cardinality);
        let (json, custom_json) = match simple_option(&f.options, "json_name") {
            Some(o) => match &o.value.kind {
                ValueKind::Str(b) if extendee.is_none() => {
                    (String::from_utf8_lossy(b).into_owned(), true)
                }
                ValueKind::Str(_) => {
                    self.err(
                        "json-name-on-extension",
                        o.span,
                        "json_name is not allowed on extensions",
                    );
                    (json_name(&f.name.name), false)
                }
                _ => {
                    self.err(
                        "invalid-option-value",
                        o.value.span,
                        "json_name must be a string",
                    );
                    (json_name(&f.name.name), false)
                }
            },
            None => (json_name(&f.name.name), false),
        };
        let packed = simple_option(&f.options, "packed").and_then(|o| match &o.value.kind {
            ValueKind::Ident(w) if w == "true" || w == "false" => Some((w == "true", o.span)),
            _ => None,
        });
        let packable = cardinality == Cardinality::Repeated
            && match &ty {
                FieldType::Scalar(s) => s.is_packable(),
                FieldType::Enum(_) => true,
                FieldType::Message(_) => false,
            };
        // protoc refuses only `packed = true` where packing is impossible.
        if let Some((true, span)) = packed
            && !packable
        {
            self.err(
                "invalid-packed",
                span,
                "[packed = true] applies only to repeated fields of numbers, bools or enums",
            );
        }
        // How protobuf's binary form writes the field (in option values): one record
        // for all items when packed, by `[packed]`, else proto3's and editions' default.
        let packed_on_wire = packable
            && match packed {
                Some((p, _)) => p,
                None if self.syntax().is_edition() => !field_features.expanded_repeated,
                None => proto3,
            };
        let number = if number_ok { f.number as u32 } else { 0 };
        if let (Some(extendee), true) = (extendee, number_ok) {
            self.check_extension(scope, f, extendee, number);
        }
        if message_set
            && (cardinality != Cardinality::Single || !matches!(ty, FieldType::Message(_)))
        {
            // As protoc: a MessageSet's extensions are singular messages only.
            self.err(
                "invalid-message-set-extension",
                f.span,
                format!(
                    "extension {:?} of MessageSet {:?} must be an optional message",
                    f.name.name,
                    extendee.unwrap_or_default()
                ),
            );
        }
        Some(FieldDef {
            name: f.name.name.clone(),
            full_name: join(scope, &f.name.name),
            number,
            index,
            json_name: json,
            custom_json_name: custom_json,
            ty,
            cardinality,
            presence,
            oneof: f.oneof,
            proto3_optional,
            default,
            packed: packed.map(|(p, _)| p),
            packed_on_wire,
            deprecated: bool_option(&f.options, "deprecated"),
            extendee: extendee.map(str::to_string),
            options: Vec::new(),
            comments: f.comments.clone(),
            span: f.span,
            parts: FieldSpans {
                label: f.label.map(|(_, s)| s),
                ty: f.ty.span,
                name: f.name.span,
                number: f.number_span,
                extendee: extendee_span,
                options: f.options_span,
                default: simple_option(&f.options, "default").map(|o| o.value.span),
                json_name: simple_option(&f.options, "json_name").map(|o| (o.span, o.value.span)),
            },
            encoded_options: Vec::new(),
        })
    }

    /// What protoc refuses of a field's features in an edition: features that do not
    /// apply to the field, implicit presence where it cannot hold, `[packed]`.
    fn check_field_features(
        &mut self,
        f: &ast::Field,
        ty: &FieldType,
        card: &Cardinality,
        extension: bool,
        presence: Presence,
    ) {
        let name = &f.name.name;
        let repeated = *card != Cardinality::Single;
        if let Some((value, span)) = own_feature(&f.options, "field_presence") {
            let why = if repeated {
                Some("a repeated or map field")
            } else if f.oneof.is_some() {
                Some("a oneof member")
            } else if extension {
                Some("an extension")
            } else if value == "IMPLICIT" && matches!(ty, FieldType::Message(_)) {
                Some("a message field (it always tracks presence)")
            } else {
                None
            };
            if let Some(why) = why {
                self.err(
                    "invalid-feature",
                    span,
                    format!("field {name:?} is {why} and cannot set `field_presence = {value}`"),
                );
            }
        }
        if let Some((_, span)) = own_feature(&f.options, "message_encoding")
            && !matches!(ty, FieldType::Message(_))
        {
            self.err(
                "invalid-feature",
                span,
                format!("field {name:?} is not a message and cannot set `message_encoding`"),
            );
        }
        if let Some((value, span)) = own_feature(&f.options, "repeated_field_encoding") {
            let packable = *card == Cardinality::Repeated
                && match ty {
                    FieldType::Scalar(s) => s.is_packable(),
                    FieldType::Enum(_) => true,
                    FieldType::Message(_) => false,
                };
            if *card != Cardinality::Repeated {
                self.err(
                    "invalid-feature",
                    span,
                    format!(
                        "field {name:?} is not repeated and cannot set `repeated_field_encoding`"
                    ),
                );
            }
            if value == "PACKED" && !packable {
                self.err(
                    "invalid-feature",
                    span,
                    format!("field {name:?} cannot be packed (`repeated_field_encoding = PACKED` applies to repeated numbers, bools and enums)"),
                );
            }
        }
        if let Some((_, span)) = own_feature(&f.options, "utf8_validation")
            && *ty != FieldType::Scalar(ScalarType::String)
            && !matches!(card, Cardinality::Map { .. })
        {
            self.err(
                "invalid-feature",
                span,
                format!("field {name:?} is not a string and cannot set `utf8_validation`"),
            );
        }
        if let Some(o) = simple_option(&f.options, "packed") {
            self.err(
                "packed-in-edition",
                o.span,
                "`[packed]` is not allowed in an edition",
            )
            .with_help("set `[features.repeated_field_encoding = …]` instead");
        }
        if presence == Presence::Implicit && *card == Cardinality::Single {
            if let FieldType::Enum(e) = ty
                && self.enum_is_closed(e) == Some(true)
            {
                self.err(
                    "implicit-closed-enum",
                    f.ty.span,
                    format!("field {name:?} has implicit presence, so its enum {e:?} must be open"),
                )
                .with_help("give the field `features.field_presence = EXPLICIT`, or open the enum");
            }
            if let Some(o) = simple_option(&f.options, "default") {
                self.err(
                    "invalid-default",
                    o.span,
                    format!("field {name:?} has implicit presence and cannot have a default value"),
                );
            }
        }
    }

    /// Whether enum `full` (in any loaded file) is closed: proto2's are, proto3's are
    /// not, an edition's by `enum_type` set on the enum or its file (the only places
    /// the feature may be set).
    pub(crate) fn enum_is_closed(&self, full: &str) -> Option<bool> {
        let sym = self.syms.get(full)?;
        let file = self.file_ast(sym.file);
        match file.syntax {
            Syntax::Proto2 => return Some(true),
            Syntax::Proto3 => return Some(false),
            Syntax::Edition2023 | Syntax::Edition2024 | Syntax::Edition2026 => {}
        }
        let e = self.find_enum(sym.file, full)?;
        let set = own_feature(&e.options, "enum_type")
            .or_else(|| own_feature(&file.options, "enum_type"));
        Some(set.is_some_and(|(v, _)| v == "CLOSED"))
    }

    /// `default` and `json_name` at most once (they are not options but fields of the
    /// descriptor); `lazy` and `unverified_lazy` set to true only on message fields.
    fn check_pseudo_options(&mut self, f: &ast::Field, ty: &FieldType, card: &Cardinality) {
        for name in ["default", "json_name"] {
            let mut set = f
                .options
                .iter()
                .filter(|o| o.name.len() == 1 && !o.name[0].is_extension && o.name[0].name == name);
            if let (Some(first), Some(second)) = (set.next(), set.next()) {
                self.err(
                    "duplicate-option",
                    second.span,
                    format!("option {name:?} is set twice"),
                )
                .with_label(first.span, "first set here");
            }
        }
        let message =
            matches!(ty, FieldType::Message(_)) || matches!(card, Cardinality::Map { .. });
        if !message {
            for name in ["lazy", "unverified_lazy"] {
                if let Some(o) = simple_option(&f.options, name)
                    && o.value.kind == ValueKind::Ident("true".into())
                {
                    self.err(
                        "invalid-lazy",
                        o.span,
                        format!("[{name} = true] applies only to message fields"),
                    )
                    .with_help(format!(
                        "{:?} is not a message field; remove the option",
                        f.name.name
                    ));
                }
            }
        }
    }

    fn field_type(&mut self, scope: &str, ty: &ast::Ident) -> Option<FieldType> {
        if let Some(s) = ScalarType::from_keyword(&ty.name) {
            return Some(FieldType::Scalar(s));
        }
        match self.resolve_type(scope, &ty.name, ty.span)? {
            (full, SymKind::Enum) => Some(FieldType::Enum(full)),
            // A map field's own entry is named by the map, never through here; any
            // other field of that type is refused, as protoc does (an entry is only
            // ever written as part of its map). Methods and `extend` may still name it.
            (full, _) if self.syms.map_entries.contains(&full) => {
                self.err(
                    "map-entry-type",
                    ty.span,
                    format!(
                        "{full:?} is the synthetic entry message of a map field and cannot be a field's type"
                    ),
                )
                .with_help("declare the field as `map<KeyType, ValueType>`, or define a message of its own");
                None
            }
            (full, _) => Some(FieldType::Message(full)),
        }
    }

    /// SPEC §4.3: field numbers are 1..=2^29−1 (`hi`; an extension of a MessageSet, which
    /// the format does not encode, may go further); protobuf also keeps 19000..=19999.
    fn check_number(&mut self, n: i64, span: Span, hi: i64) -> bool {
        if !(1..=hi).contains(&n) {
            self.err(
                "field-number-out-of-range",
                span,
                format!("field number {n} is outside 1 to {hi}"),
            );
            return false;
        }
        if (19_000..=19_999).contains(&n) {
            self.err("field-number-reserved-range", span, format!("field number {n} is in 19000 to 19999, reserved for the protobuf implementation"));
            return false;
        }
        true
    }

    fn default_value(
        &mut self,
        f: &ast::Field,
        ty: &FieldType,
        card: &Cardinality,
    ) -> Option<String> {
        let o = simple_option(&f.options, "default")?;
        if self.syntax() == Syntax::Proto3 {
            self.err(
                "proto3-default",
                o.span,
                "explicit default values are not allowed in proto3",
            );
            return None;
        }
        if *card != Cardinality::Single {
            self.err(
                "invalid-default",
                o.span,
                "repeated fields cannot have a default value",
            );
            return None;
        }
        let result = match ty {
            FieldType::Scalar(s) => scalar_default(*s, &o.value),
            FieldType::Message(_) => {
                self.err(
                    "invalid-default",
                    o.span,
                    "message fields cannot have a default value",
                );
                return None;
            }
            FieldType::Enum(e) => match &o.value.kind {
                ValueKind::Ident(name) => match self.file_enum_has_value(e, name) {
                    Some(true) => Ok(name.clone()),
                    _ => Err(format!("a value name of enum {e:?}")),
                },
                _ => Err(format!("a value name of enum {e:?}")),
            },
        };
        match result {
            Ok(text) => Some(text),
            Err(expected) => {
                self.err(
                    "invalid-default",
                    o.value.span,
                    format!("default value of {:?} must be {expected}", f.name.name),
                );
                None
            }
        }
    }

    /// Whether enum `full` (in any loaded file) declares value `name`.
    fn file_enum_has_value(&self, full: &str, name: &str) -> Option<bool> {
        let sym = self.syms.get(full)?;
        let e = self.find_enum(sym.file, full)?;
        Some(e.values.iter().any(|v| v.name.name == name))
    }

    /// The declaration of enum `full` in file `file`.
    fn find_enum(&self, file: usize, full: &str) -> Option<&ast::Enum> {
        let ast = self.file_ast(file);
        let scope_len = ast.package.as_ref().map_or(0, |p| p.name.name.len() + 1);
        let path = full.get(scope_len..)?;
        fn find<'a>(
            msgs: &'a [ast::Message],
            enums: &'a [ast::Enum],
            path: &str,
        ) -> Option<&'a ast::Enum> {
            match path.split_once('.') {
                None => enums.iter().find(|e| e.name.name == path),
                Some((head, rest)) => {
                    let m = msgs.iter().find(|m| m.name.name == head)?;
                    find(&m.messages, &m.enums, rest)
                }
            }
        }
        find(&ast.messages, &ast.enums, path)
    }

    fn file_ast(&self, file: usize) -> &ast::File {
        &self.files[file].ast
    }

    fn check_extension(&mut self, scope: &str, f: &ast::Field, extendee: &str, number: u32) {
        let n = i64::from(number);
        let declared = self
            .syms
            .extension_ranges
            .get(extendee)
            .is_some_and(|rs| rs.iter().any(|(a, b)| *a <= n && n <= *b));
        if !declared {
            self.err(
                "extension-number-not-declared",
                f.number_span,
                format!("message {extendee:?} does not declare {n} as an extension number"),
            )
            .with_help(format!(
                "add `extensions {n};` (or a range covering it) to {extendee:?}"
            ));
        }
        let full = join(scope, &f.name.name);
        let key = (extendee.to_string(), number);
        if let Some((other, ofile, ospan)) = self.ext_numbers.get(&key).cloned() {
            let message =
                format!("extension number {n} of {extendee:?} is already used by {other:?}");
            if ofile == self.fi {
                self.err("duplicate-extension-number", f.number_span, message)
                    .with_label(ospan, "used here");
            } else {
                // A number another file's extension already uses is only a warning for
                // protoc, and schemas rely on it: protobuf-go's test files reuse custom
                // option numbers from file to file.
                let name = self.syms.names[ofile].clone();
                let mut d = Diagnostic::warning(
                    "duplicate-extension-number",
                    &self.file.name,
                    f.number_span,
                    message,
                );
                d.with_help(format!("{other:?} is declared in {name:?}"));
                self.errors.push(d);
            }
        } else {
            self.ext_numbers.insert(key, (full, self.fi, f.number_span));
        }
    }

    /// `extend Foo { … }`: resolves the extended message and checks each field.
    pub(crate) fn extend(&mut self, scope: &str, x: &ast::Extend, start: usize) -> Vec<FieldDef> {
        let extendee = match self.resolve_any(scope, &x.extendee.name, x.extendee.span) {
            Some((name, SymKind::Message)) => name,
            Some((name, kind)) => {
                let what = kind.describe();
                let d = self.err(
                    "not-a-message",
                    x.extendee.span,
                    format!("{name:?} is {what}, not a message, so it cannot be extended"),
                );
                if let Some(help) = super::shadow_help(kind) {
                    d.with_help(help);
                }
                return Vec::new();
            }
            None => return Vec::new(),
        };
        if self.syntax() == Syntax::Proto3 && !OPTION_MESSAGES.contains(&extendee.as_str()) {
            self.err(
                "proto3-extension",
                x.extendee.span,
                "extensions in proto3 are only allowed for defining custom options",
            )
            .with_help("extend one of google.protobuf.*Options, or use proto2");
        }
        x.fields
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                self.field(
                    scope,
                    f,
                    start + i,
                    Some((&extendee, x.extendee.span)),
                    false,
                )
            })
            .collect()
    }

    /// Duplicate numbers, reserved numbers and names, and extension-range clashes.
    pub(crate) fn check_numbers(
        &mut self,
        m: &ast::Message,
        fields: &[FieldDef],
        reserved: &[NumberRange],
        reserved_names: &[String],
        ext_ranges: &[NumberRange],
    ) {
        let reserved = sorted_ranges(reserved);
        let ext_ranges = sorted_ranges(ext_ranges);
        let reserved_names: HashSet<&str> = reserved_names.iter().map(String::as_str).collect();
        let mut seen: HashMap<u32, &FieldDef> = HashMap::with_capacity(fields.len());
        for f in fields.iter().filter(|f| f.number != 0) {
            let n = i64::from(f.number);
            if let Some(prev) = seen.get(&f.number) {
                self.err(
                    "duplicate-field-number",
                    f.parts.number,
                    format!(
                        "field number {} is used by both {:?} and {:?}",
                        f.number, prev.name, f.name
                    ),
                )
                .with_label(prev.parts.number, "first used here");
            } else {
                seen.insert(f.number, f);
            }
            if let Some(r) = covering(&reserved, n) {
                self.err(
                    "reserved-number",
                    f.parts.number,
                    format!("field {:?} uses number {n}, which is reserved", f.name),
                )
                .with_help(format!(
                    "{} to {} is reserved in message {:?}; pick another number",
                    r.start, r.end, m.name.name
                ));
            }
            if let Some(r) = covering(&ext_ranges, n) {
                self.err(
                    "number-in-extension-range",
                    f.parts.number,
                    format!(
                        "field {:?} uses number {n}, which is in extension range {} to {}",
                        f.name, r.start, r.end
                    ),
                );
            }
        }
        for f in fields {
            if reserved_names.contains(f.name.as_str()) {
                self.err(
                    "reserved-name",
                    f.parts.name,
                    format!("field name {:?} is reserved", f.name),
                );
            }
        }
    }

    /// Two fields may not share a JSON name, compared twice as protoc does: by the names
    /// JSON uses (custom `json_name` included) and by the default names alone (field masks
    /// use those). In proto2 a clash that involves a default name is only a warning.
    pub(crate) fn check_json_names(&mut self, fields: &[FieldDef], m: &ast::Message) {
        // `deprecated_legacy_json_field_conflicts` turns the check off, as in protoc.
        if m.map_entry || bool_option(&m.options, "deprecated_legacy_json_field_conflicts") {
            return;
        }
        let proto3 = self.syntax() == Syntax::Proto3;
        let mut by_index: Vec<&FieldDef> = fields.iter().collect();
        by_index.sort_by_key(|f| f.index);
        let mut reported: Vec<(usize, usize)> = Vec::new();
        for use_custom in [true, false] {
            let mut seen: HashMap<String, &FieldDef> = HashMap::new();
            for f in &by_index {
                let key = if use_custom {
                    f.json_name.clone()
                } else {
                    json_name(&f.name)
                };
                let Some(prev) = seen.get(&key).copied() else {
                    seen.insert(key, f);
                    continue;
                };
                // Same name twice is already a duplicate-name error.
                if prev.name == f.name || reported.contains(&(prev.index, f.index)) {
                    continue;
                }
                reported.push((prev.index, f.index));
                let custom = use_custom && f.custom_json_name && prev.custom_json_name;
                let which = if use_custom {
                    "JSON name"
                } else {
                    "default JSON name"
                };
                let message = format!(
                    "the {which} {key:?} of field {:?} conflicts with field {:?}",
                    f.name, prev.name
                );
                let mut d = if proto3 || custom {
                    Diagnostic::error("json-name-conflict", &self.file.name, f.parts.name, message)
                } else {
                    Diagnostic::warning(
                        "json-name-conflict",
                        &self.file.name,
                        f.parts.name,
                        message,
                    )
                };
                d.with_label(prev.parts.name, "the other field")
                    .with_help("rename one field or give it a distinct `json_name`");
                self.errors.push(d);
            }
        }
    }
}

/// The ranges sorted by start, for [`covering`].
pub(crate) fn sorted_ranges(ranges: &[NumberRange]) -> Vec<NumberRange> {
    let mut v = ranges.to_vec();
    v.sort_unstable_by_key(|r| (r.start, r.end));
    v
}

/// The range of `sorted` (by start, not overlapping) that holds `n`, by binary search.
pub(crate) fn covering(sorted: &[NumberRange], n: i64) -> Option<NumberRange> {
    let i = sorted.partition_point(|r| r.start <= n);
    let r = *sorted.get(i.checked_sub(1)?)?;
    (n <= r.end).then_some(r)
}
