//! Enums: values, numbers, aliases, reserved names and numbers, and the PascalCase
//! name conflicts protoc refuses.

use std::collections::{HashMap, HashSet};

use super::features::Target;
use super::naming::Style;
use super::{Checker, bool_option, fields, join, range_stmt, simple_option};
use crate::ast::{self, ValueKind};
use crate::diagnostics::Diagnostic;
use crate::model::{EnumDef, EnumValueDef, Syntax};

/// `value` without the enum's name as a prefix, compared without underscores and case
/// (`COLOR_RED` in `Color` is `RED`); unchanged when nothing would remain.
fn strip_enum_prefix<'a>(enum_name: &str, value: &'a str) -> &'a str {
    let mut prefix = enum_name
        .bytes()
        .filter(|b| *b != b'_')
        .map(|b| b.to_ascii_lowercase());
    let bytes = value.as_bytes();
    let mut i = 0;
    let mut pending = prefix.next();
    while let Some(want) = pending {
        match bytes.get(i) {
            Some(b'_') => i += 1,
            Some(b) if b.to_ascii_lowercase() == want => {
                i += 1;
                pending = prefix.next();
            }
            _ => return value,
        }
    }
    while bytes.get(i) == Some(&b'_') {
        i += 1;
    }
    if i == bytes.len() { value } else { &value[i..] }
}

/// `FOO_BAR` → `FooBar`: underscores dropped, the letter after each upper-cased, the
/// rest lower-cased.
fn enum_value_pascal(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = true;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else {
            out.push(if upper {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            });
            upper = false;
        }
    }
    out
}

impl Checker<'_> {
    pub(super) fn enumeration(&mut self, scope: &str, e: &ast::Enum) -> EnumDef {
        let full = join(scope, &e.name.name);
        let allow_alias = bool_option(&e.options, "allow_alias");
        let enum_features = self.features(self.features, &e.options, Target::Enum);
        let closed = if self.syntax().is_edition() {
            enum_features.closed_enums
        } else {
            self.syntax() == Syntax::Proto2
        };
        let legacy = enum_features.style_legacy;
        self.naming_style("enum", &e.name.name, e.name.span, Style::Title, legacy);
        if e.values.is_empty() {
            self.err(
                "empty-enum",
                e.name.span,
                format!("enum {:?} must contain at least one value", e.name.name),
            );
        }
        if (self.syntax() == Syntax::Proto3 || (self.syntax().is_edition() && !closed))
            && let Some(first) = e.values.first()
            && first.number != 0
        {
            self.err(
                "proto3-first-enum-value",
                first.number_span,
                if self.syntax().is_edition() {
                    "the first value of an open enum must be zero"
                } else {
                    "the first enum value must be zero in proto3"
                },
            )
            .with_help(format!(
                "add a value like `{}_UNSPECIFIED = 0;` first",
                crate::lints::screaming(&e.name.name)
            ));
        }
        let reserved: Vec<&ast::Range> = e.reserved.iter().flat_map(|r| &r.ranges).collect();
        let reserved_ranges = self.ranges(
            "reserved",
            &reserved,
            (i64::from(i32::MIN), i64::from(i32::MAX)),
            i64::from(i32::MAX),
        );
        let reserved_names: Vec<String> = e
            .reserved
            .iter()
            .flat_map(|r| &r.names)
            .map(|n| n.name.clone())
            .collect();
        let reserved_name_set: HashSet<&str> = reserved_names.iter().map(String::as_str).collect();
        let sorted_reserved = fields::sorted_ranges(&reserved_ranges);
        let mut values = Vec::with_capacity(e.values.len());
        let mut by_number: HashMap<i64, &ast::EnumValue> = HashMap::new();
        let mut has_alias = false;
        for v in &e.values {
            let legacy = self
                .features(enum_features, &v.options, Target::EnumValue)
                .style_legacy;
            self.naming_style(
                "enum value",
                &v.name.name,
                v.name.span,
                Style::UpperSnake,
                legacy,
            );
            if v.number < i64::from(i32::MIN) || v.number > i64::from(i32::MAX) {
                self.err(
                    "number-out-of-range",
                    v.number_span,
                    format!("enum value {} does not fit in int32", v.number),
                );
            }
            if let Some(prev) = by_number.get(&v.number) {
                has_alias = true;
                if !allow_alias {
                    let d = self.err(
                        "duplicate-enum-number",
                        v.number_span,
                        format!(
                            "{:?} uses the same number {} as {:?}",
                            v.name.name, v.number, prev.name.name
                        ),
                    );
                    d.with_label(prev.number_span, "first used here").with_help(
                        "if the alias is intended, add `option allow_alias = true;` to the enum",
                    );
                }
            } else {
                by_number.insert(v.number, v);
            }
            if fields::covering(&sorted_reserved, v.number).is_some() {
                self.err(
                    "reserved-number",
                    v.number_span,
                    format!(
                        "enum value {:?} uses reserved number {}",
                        v.name.name, v.number
                    ),
                );
            }
            if reserved_name_set.contains(v.name.name.as_str()) {
                self.err(
                    "reserved-name",
                    v.name.span,
                    format!("enum value name {:?} is reserved", v.name.name),
                );
            }
            values.push(EnumValueDef {
                name: v.name.name.clone(),
                number: v.number.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
                deprecated: bool_option(&v.options, "deprecated"),
                options: Vec::new(),
                comments: v.comments.clone(),
                span: v.span,
                name_span: v.name.span,
                number_span: v.number_span,
                options_span: v.options_span,
                encoded_options: Vec::new(),
            });
        }
        if allow_alias && !has_alias {
            let span = simple_option(&e.options, "allow_alias")
                .map(|o| o.span)
                .unwrap_or(e.span);
            self.err(
                "useless-allow-alias",
                span,
                format!("enum {:?} sets allow_alias but has no aliases", e.name.name),
            )
            .with_help("remove the option, or give two values the same number");
        }
        // protoc refuses an explicit `false` too: it is the default, so it says nothing.
        if let Some(o) = simple_option(&e.options, "allow_alias")
            && o.value.kind == ValueKind::Ident("false".into())
        {
            self.err(
                "useless-allow-alias",
                o.span,
                format!(
                    "enum {:?} sets allow_alias = false, which has no effect",
                    e.name.name
                ),
            )
            .with_help("remove the option: aliases are refused unless it is true");
        }
        self.check_enum_pascal_conflicts(e);
        EnumDef {
            name: e.name.name.clone(),
            full_name: full,
            values,
            allow_alias,
            closed,
            visibility: e.visibility.map(|(export, _)| export),
            deprecated: bool_option(&e.options, "deprecated"),
            reserved_ranges,
            reserved_names,
            options: Vec::new(),
            comments: e.comments.clone(),
            span: e.span,
            name_span: e.name.span,
            reserved_decls: e
                .reserved
                .iter()
                .map(|r| range_stmt(r.span, &r.comments, &r.ranges, &r.names))
                .collect(),
            encoded_options: Vec::new(),
        }
    }

    /// Enum values whose names collide once the enum's name prefix is stripped and the
    /// rest is written in PascalCase (`FOO_BAR` and `foo_bar` are both `FooBar`;
    /// `CHECKBOX` and `CHECK_BOX` are `Checkbox` and `CheckBox`) are refused, as protoc
    /// does: generators derive those names. With `deprecated_legacy_json_field_conflicts`
    /// a proto2 enum gets a warning instead.
    fn check_enum_pascal_conflicts(&mut self, e: &ast::Enum) {
        let legacy = self.syntax() == Syntax::Proto2
            && bool_option(&e.options, "deprecated_legacy_json_field_conflicts");
        let mut seen: HashMap<String, &ast::EnumValue> = HashMap::with_capacity(e.values.len());
        for v in &e.values {
            let key = enum_value_pascal(strip_enum_prefix(&e.name.name, &v.name.name));
            let Some(prev) = seen.get(&key).copied() else {
                seen.insert(key, v);
                continue;
            };
            if prev.name.name == v.name.name || prev.number == v.number {
                continue;
            }
            let message = format!(
                "enum value {:?} has the same name as {:?} once the enum-name prefix is stripped and both are written in PascalCase ({key:?})",
                v.name.name, prev.name.name
            );
            let mut d = if legacy {
                Diagnostic::warning(
                    "enum-value-name-conflict",
                    &self.file.name,
                    v.name.span,
                    message,
                )
            } else {
                Diagnostic::error(
                    "enum-value-name-conflict",
                    &self.file.name,
                    v.name.span,
                    message,
                )
            };
            d.with_label(prev.name.span, "the other value").with_help(
                "rename one value, or give both the same number with `option allow_alias = true;`",
            );
            self.errors.push(d);
        }
    }
}
