//! Options messages as protoc writes them by default (without `--retain_options`): parsed
//! with every option's definition, options of source retention dropped, and written
//! back, so fields come in number order, custom options included, and the statements
//! that set parts of one message field are one record.

use std::collections::HashMap;

use super::wire::{self, DescriptorProto, RawOptions};
use crate::model::{Cardinality, FieldDef, FieldType, FileDef, MessageDef, OptionValue};
use crate::options::{record, split_records};

/// The fields and extensions of every message of the schema, by full name.
pub(super) struct Layout<'a> {
    fields: HashMap<&'a str, &'a [FieldDef]>,
    extensions: HashMap<(&'a str, u32), &'a FieldDef>,
}

impl<'a> Layout<'a> {
    /// The layout of `files`, and of `more` (files the schema does not hold).
    pub(super) fn new(files: &'a [FileDef], more: &'a [FileDef]) -> Self {
        let mut layout = Layout {
            fields: HashMap::new(),
            extensions: HashMap::new(),
        };
        for f in files.iter().chain(more) {
            layout.add(&f.messages, &f.extensions);
        }
        layout
    }

    fn add(&mut self, messages: &'a [MessageDef], extensions: &'a [FieldDef]) {
        for x in extensions {
            if let Some(extendee) = &x.extendee {
                self.extensions.insert((extendee, x.number), x);
            }
        }
        for m in messages {
            self.fields.insert(&m.full_name, &m.fields);
            self.add(&m.messages, &m.extensions);
        }
    }

    fn field(&self, message: &str, number: u32) -> Option<&'a FieldDef> {
        self.fields
            .get(message)
            .and_then(|fs| fs.iter().find(|f| f.number == number))
            .or_else(|| self.extensions.get(&(message, number)).copied())
    }

    /// `bytes` (a message of type `message`, at `path` in the file's descriptor) written
    /// back; `true` if an option of source retention was dropped (its path is added to
    /// `removed`).
    fn canonical(
        &self,
        message: &str,
        bytes: &[u8],
        path: &mut Vec<i32>,
        removed: &mut Vec<Vec<i32>>,
    ) -> (Vec<u8>, bool) {
        let Some(mut records) = split_records(bytes) else {
            return (bytes.to_vec(), false);
        };
        records.sort_by_key(|r| r.number);
        let mut out = Vec::with_capacity(bytes.len());
        let mut dropped = false;
        let mut i = 0;
        while i < records.len() {
            let number = records[i].number;
            let same = records[i..]
                .iter()
                .take_while(|r| r.number == number)
                .count();
            let group = &records[i..i + same];
            i += same;
            let field = self.field(message, number);
            let number_i32 = i32::try_from(number).unwrap_or(i32::MAX);
            if field.is_some_and(source_retention) {
                dropped = true;
                path.push(number_i32);
                removed.push(path.clone());
                path.pop();
                continue;
            }
            match field {
                Some(FieldDef {
                    ty: FieldType::Message(sub),
                    cardinality: Cardinality::Single,
                    ..
                }) if group.iter().all(|r| r.wire == 2) => {
                    let mut merged = Vec::new();
                    for r in group {
                        merged.extend_from_slice(&bytes[r.payload..r.end]);
                    }
                    path.push(number_i32);
                    let (inner, d) = self.canonical(sub, &merged, path, removed);
                    path.pop();
                    dropped |= d;
                    record(number, 2, &inner, &mut out);
                }
                // Each item of a repeated message field written back on its own (a
                // location into it names the item's index).
                Some(FieldDef {
                    ty: FieldType::Message(sub),
                    cardinality: Cardinality::Repeated,
                    ..
                }) if group.iter().all(|r| r.wire == 2) => {
                    path.push(number_i32);
                    for (k, r) in group.iter().enumerate() {
                        path.push(i32::try_from(k).unwrap_or(i32::MAX));
                        let (inner, d) =
                            self.canonical(sub, &bytes[r.payload..r.end], path, removed);
                        path.pop();
                        dropped |= d;
                        record(number, 2, &inner, &mut out);
                    }
                    path.pop();
                }
                // A repeated number, bool or enum: packed or one record per item, as
                // protobuf's binary form writes the field (proto3's and editions'
                // default is packed), however the statements wrote it.
                Some(
                    f @ FieldDef {
                        cardinality: Cardinality::Repeated,
                        ..
                    },
                ) if width(&f.ty).is_some() => {
                    let mut items = Vec::new();
                    for r in group {
                        items.extend(elements(&bytes[r.payload..r.end], r.wire, width(&f.ty)));
                    }
                    if f.packed_on_wire {
                        let payload: Vec<u8> = items.concat();
                        record(number, 2, &payload, &mut out);
                    } else {
                        let wire = match width(&f.ty) {
                            Some(4) => 5,
                            Some(8) => 1,
                            _ => 0,
                        };
                        for item in items {
                            record(number, wire, item, &mut out);
                        }
                    }
                }
                _ => {
                    for r in group {
                        out.extend_from_slice(&bytes[r.start..r.end]);
                    }
                }
            }
        }
        (out, dropped)
    }

    /// An options message of type `message` written back; gone if only options of
    /// source retention were set. `path` leads to it in the file's descriptor.
    fn options(
        &self,
        options: &mut Option<RawOptions>,
        message: &str,
        path: &mut Vec<i32>,
        removed: &mut Vec<Vec<i32>>,
    ) {
        if let Some(raw) = options {
            let (bytes, dropped) = self.canonical(message, &raw.0, path, removed);
            if dropped && bytes.is_empty() {
                removed.push(path.clone());
                *options = None;
            } else {
                *options = Some(RawOptions(bytes));
            }
        }
    }

    /// Every options message of a file; the locations of what was dropped go too.
    pub(super) fn file(&self, f: &mut wire::FileDescriptorProto) {
        let mut removed = Vec::new();
        let mut w = Walk {
            layout: self,
            path: Vec::new(),
            removed: &mut removed,
        };
        w.at(&[8], |w| w.options(&mut f.options, "FileOptions"));
        for (i, m) in f.message_type.iter_mut().enumerate() {
            w.at(&[4, idx(i)], |w| w.message(m));
        }
        for (i, e) in f.enum_type.iter_mut().enumerate() {
            w.at(&[5, idx(i)], |w| w.enumeration(e));
        }
        for (i, x) in f.extension.iter_mut().enumerate() {
            w.at(&[7, idx(i), 8], |w| {
                w.options(&mut x.options, "FieldOptions")
            });
        }
        for (i, s) in f.service.iter_mut().enumerate() {
            w.at(&[6, idx(i), 3], |w| {
                w.options(&mut s.options, "ServiceOptions")
            });
            for (j, m) in s.method.iter_mut().enumerate() {
                w.at(&[6, idx(i), 2, idx(j), 4], |w| {
                    w.options(&mut m.options, "MethodOptions")
                });
            }
        }
        if let Some(info) = &mut f.source_code_info
            && !removed.is_empty()
        {
            info.location
                .retain(|l| !removed.iter().any(|p| l.path.starts_with(p)));
        }
    }
}

fn idx(i: usize) -> i32 {
    i32::try_from(i).unwrap_or(i32::MAX)
}

/// A walk over a file's descriptor, keeping the path of where it is.
struct Walk<'l, 'a> {
    layout: &'l Layout<'a>,
    path: Vec<i32>,
    removed: &'l mut Vec<Vec<i32>>,
}

impl Walk<'_, '_> {
    fn at(&mut self, parts: &[i32], f: impl FnOnce(&mut Self)) {
        self.path.extend_from_slice(parts);
        f(self);
        self.path.truncate(self.path.len() - parts.len());
    }

    /// `options` of descriptor.proto's `google.protobuf.<message>`.
    fn options(&mut self, options: &mut Option<RawOptions>, message: &str) {
        let message = format!("google.protobuf.{message}");
        self.layout
            .options(options, &message, &mut self.path, self.removed);
    }

    fn message(&mut self, m: &mut DescriptorProto) {
        self.at(&[7], |w| w.options(&mut m.options, "MessageOptions"));
        for (i, f) in m.field.iter_mut().enumerate() {
            self.at(&[2, idx(i), 8], |w| {
                w.options(&mut f.options, "FieldOptions")
            });
        }
        for (i, f) in m.extension.iter_mut().enumerate() {
            self.at(&[6, idx(i), 8], |w| {
                w.options(&mut f.options, "FieldOptions")
            });
        }
        for (i, o) in m.oneof_decl.iter_mut().enumerate() {
            self.at(&[8, idx(i), 2], |w| {
                w.options(&mut o.options, "OneofOptions")
            });
        }
        for (i, r) in m.extension_range.iter_mut().enumerate() {
            self.at(&[5, idx(i), 3], |w| {
                w.options(&mut r.options, "ExtensionRangeOptions")
            });
        }
        for (i, n) in m.nested_type.iter_mut().enumerate() {
            self.at(&[3, idx(i)], |w| w.message(n));
        }
        for (i, e) in m.enum_type.iter_mut().enumerate() {
            self.at(&[4, idx(i)], |w| w.enumeration(e));
        }
    }

    fn enumeration(&mut self, e: &mut wire::EnumDescriptorProto) {
        self.at(&[3], |w| w.options(&mut e.options, "EnumOptions"));
        for (i, v) in e.value.iter_mut().enumerate() {
            self.at(&[2, idx(i), 3], |w| {
                w.options(&mut v.options, "EnumValueOptions")
            });
        }
    }
}

/// For a type that can be packed: the width of an item, 0 for a varint; `None` for
/// strings, bytes and messages.
fn width(ty: &FieldType) -> Option<usize> {
    use crate::model::ScalarType as S;
    match ty {
        FieldType::Enum(_) => Some(0),
        FieldType::Message(_) => None,
        FieldType::Scalar(S::String | S::Bytes) => None,
        FieldType::Scalar(S::Fixed32 | S::Sfixed32 | S::Float) => Some(4),
        FieldType::Scalar(S::Fixed64 | S::Sfixed64 | S::Double) => Some(8),
        FieldType::Scalar(_) => Some(0),
    }
}

/// The items of one record of a packable field (`payload` as `split_records` gives it:
/// a length-delimited record's payload, else the value itself).
fn elements(payload: &[u8], wire: u8, width: Option<usize>) -> Vec<&[u8]> {
    if wire != 2 {
        return vec![payload];
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < payload.len() {
        let end = match width {
            Some(w) if w > 0 => i + w,
            _ => {
                let mut j = i;
                while j < payload.len() && payload[j] & 0x80 != 0 {
                    j += 1;
                }
                j + 1
            }
        };
        let end = end.min(payload.len());
        out.push(&payload[i..end]);
        i = end;
    }
    out
}

/// `[retention = RETENTION_SOURCE]`: the option is for the compiler only.
fn source_retention(f: &FieldDef) -> bool {
    f.options.iter().any(|o| {
        o.extension.is_none()
            && o.name == "retention"
            && matches!(&o.value, OptionValue::Enum { name, .. } if name == "RETENTION_SOURCE")
    })
}
