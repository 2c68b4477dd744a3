//! Field-by-field comparison of two encoded `FileDescriptorSet`s, options included.
//!
//! Both sets are decoded as dynamic messages against the descriptor pool of the reference
//! set (which must hold every file declaring a custom option, as
//! `protoc --include_imports` writes), so options come back with their
//! extension fields, and `google.protobuf.Any` values are expanded into the message their
//! type URL names. Files are matched by name; source-code info is not compared (its
//! location order is not fixed).
//!
//! Shared by the test suite (`tests/protoc_options.rs`) and the `fds_diff` example, which
//! the corpus script runs on whole trees.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, ReflectMessage, Value};

const DESCRIPTOR: &str = "google/protobuf/descriptor.proto";

/// What differs between `ours` and the reference set `theirs`.
#[derive(Debug, Default)]
pub(crate) struct Report {
    /// Files in both sets.
    pub(crate) files_compared: usize,
    /// Files in both sets whose descriptors are identical.
    pub(crate) files_identical: usize,
    /// Files only the reference holds (e.g. imports the compared set left out).
    pub(crate) only_in_reference: Vec<String>,
    /// One line per difference: file, path of the field, both values.
    pub(crate) differences: Vec<String>,
}

/// Compares two encoded sets.
///
/// # Errors
/// A set that does not decode.
pub(crate) fn diff(ours: &[u8], theirs: &[u8]) -> Result<Report, String> {
    let mut pool = option_pool(theirs)?;
    if pool.get_file_by_name(DESCRIPTOR).is_none() {
        // A set without descriptor.proto has no custom options; the well-known copy
        // describes its descriptors.
        let wkt = DescriptorPool::global()
            .get_file_by_name(DESCRIPTOR)
            .ok_or("no built-in descriptor.proto")?;
        pool.add_file_descriptor_proto(wkt.file_descriptor_proto().clone())
            .map_err(|e| format!("descriptor.proto: {e}"))?;
    }
    let set = pool
        .get_message_by_name("google.protobuf.FileDescriptorSet")
        .ok_or("the reference set lacks google/protobuf/descriptor.proto")?;
    let files = |bytes: &[u8], who: &str| -> Result<BTreeMap<String, DynamicMessage>, String> {
        let m = DynamicMessage::decode(set.clone(), bytes).map_err(|e| format!("{who}: {e}"))?;
        let Some(Value::List(list)) = m.get_field_by_name("file").map(|v| v.into_owned()) else {
            return Ok(BTreeMap::new());
        };
        let mut out = BTreeMap::new();
        for v in list {
            if let Value::Message(mut f) = v {
                f.clear_field_by_name("source_code_info");
                let name = f
                    .get_field_by_name("name")
                    .and_then(|n| n.as_str().map(str::to_string))
                    .unwrap_or_default();
                out.insert(name, f);
            }
        }
        Ok(out)
    };
    let ours = files(ours, "our set")?;
    let theirs = files(theirs, "reference set")?;
    let mut report = Report {
        only_in_reference: theirs
            .keys()
            .filter(|n| !ours.contains_key(*n))
            .cloned()
            .collect(),
        ..Report::default()
    };
    for name in ours.keys().filter(|n| !theirs.contains_key(*n)) {
        report.differences.push(format!("{name}: only in our set"));
    }
    for (name, a) in &ours {
        let Some(b) = theirs.get(name) else { continue };
        report.files_compared += 1;
        let before = report.differences.len();
        message(&pool, a, b, &format!("{name}:"), &mut report.differences);
        if report.differences.len() == before {
            report.files_identical += 1;
        }
    }
    Ok(report)
}

/// The reference's files that declare extensions of the `*Options` messages, with what
/// they import: what decoding options needs. (Smaller than the whole set, and spared the
/// checks a pool makes on every file.)
fn option_pool(theirs: &[u8]) -> Result<DescriptorPool, String> {
    use prost::Message as _;
    let set = prost_types::FileDescriptorSet::decode(theirs)
        .map_err(|e| format!("reference set: {e}"))?;
    fn declares_options(
        exts: &[prost_types::FieldDescriptorProto],
        msgs: &[prost_types::DescriptorProto],
    ) -> bool {
        exts.iter().any(|x| {
            let e = x.extendee();
            e.starts_with(".google.protobuf.") && e.ends_with("Options")
        }) || msgs
            .iter()
            .any(|m| declares_options(&m.extension, &m.nested_type))
    }
    let by_name: BTreeMap<&str, &prost_types::FileDescriptorProto> =
        set.file.iter().map(|f| (f.name(), f)).collect();
    let mut wanted: Vec<&str> = set
        .file
        .iter()
        .filter(|f| {
            f.name() == DESCRIPTOR
                || f.name() == "google/protobuf/any.proto"
                || declares_options(&f.extension, &f.message_type)
        })
        .map(|f| f.name())
        .collect();
    let mut keep = std::collections::BTreeSet::new();
    while let Some(name) = wanted.pop() {
        if let Some(f) = by_name.get(name)
            && keep.insert(name)
        {
            wanted.extend(f.dependency.iter().map(String::as_str));
        }
    }
    // prost-reflect knows no editions: leave out edition files and what imports them
    // (their options are then compared as unknown fields).
    let mut edition: std::collections::BTreeSet<&str> = set
        .file
        .iter()
        .filter(|f| f.syntax() == "editions")
        .map(|f| f.name())
        .collect();
    for f in &set.file {
        if f.dependency.iter().any(|d| edition.contains(d.as_str())) {
            edition.insert(f.name());
        }
    }
    keep.retain(|name| !edition.contains(name));
    // Dependencies first, as in the reference.
    let files = set
        .file
        .iter()
        .filter(|f| keep.contains(f.name()))
        .cloned()
        .collect();
    DescriptorPool::from_file_descriptor_set(prost_types::FileDescriptorSet { file: files })
        .map_err(|e| format!("reference set: {e}"))
}

/// Every field set on either side, by (extension?, number): its label and both values.
fn fields(m: &DynamicMessage) -> BTreeMap<(bool, u32), (String, Value)> {
    let mut out = BTreeMap::new();
    for (f, v) in m.fields() {
        out.insert((false, f.number()), (f.name().to_string(), v.clone()));
    }
    for (x, v) in m.extensions() {
        out.insert(
            (true, x.number()),
            (format!("({})", x.full_name()), v.clone()),
        );
    }
    for u in m.unknown_fields() {
        // Kept as text: a field neither side's pool knows.
        let entry = out.entry((true, u.number())).or_insert_with(|| {
            (
                format!("unknown {}", u.number()),
                Value::String(String::new()),
            )
        });
        if let Value::String(s) = &mut entry.1 {
            let _ = write!(s, "{u} ");
        }
    }
    out
}

fn message(
    pool: &DescriptorPool,
    a: &DynamicMessage,
    b: &DynamicMessage,
    path: &str,
    out: &mut Vec<String>,
) {
    if let (Some(a), Some(b)) = (expand_any(pool, a), expand_any(pool, b)) {
        return message(pool, &a, &b, &format!("{path}.<any>"), out);
    }
    let fa = fields(a);
    let fb = fields(b);
    let keys: std::collections::BTreeSet<_> = fa.keys().chain(fb.keys()).collect();
    for key in keys {
        match (fa.get(key), fb.get(key)) {
            (Some((name, va)), Some((_, vb))) => {
                value(pool, va, vb, &format!("{path}.{name}"), out)
            }
            (Some((name, va)), None) => {
                out.push(format!("{path}.{name}: ours {}, reference unset", show(va)))
            }
            (None, Some((name, vb))) => {
                out.push(format!("{path}.{name}: ours unset, reference {}", show(vb)))
            }
            (None, None) => {}
        }
    }
}

fn value(pool: &DescriptorPool, a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Message(x), Value::Message(y)) => message(pool, x, y, path, out),
        (Value::List(x), Value::List(y)) => {
            if x.len() != y.len() {
                out.push(format!(
                    "{path}: ours {} items, reference {}",
                    x.len(),
                    y.len()
                ));
            }
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                value(pool, p, q, &format!("{path}[{i}]"), out);
            }
        }
        _ => {
            // Debug text compares NaN equal to NaN and -0.0 unequal to 0.0, as bytes do.
            let (sa, sb) = (show(a), show(b));
            if sa != sb {
                out.push(format!("{path}: ours {sa}, reference {sb}"));
            }
        }
    }
}

/// A value as text (messages in text format: their `Debug` output walks descriptors
/// without end).
fn show(v: &Value) -> String {
    match v {
        Value::Message(m) => format!("{{{m}}}"),
        Value::List(items) => {
            let items: Vec<String> = items.iter().map(show).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Map(_) => "<map>".into(),
        other => format!("{other:?}"),
    }
}

/// A `google.protobuf.Any` whose type is in the pool, decoded.
fn expand_any(pool: &DescriptorPool, m: &DynamicMessage) -> Option<DynamicMessage> {
    if m.descriptor().full_name() != "google.protobuf.Any" {
        return None;
    }
    let url = m.get_field_by_name("type_url")?;
    let ty = url.as_str()?.rsplit('/').next()?;
    let desc: MessageDescriptor = pool.get_message_by_name(ty)?;
    let value = m.get_field_by_name("value")?;
    DynamicMessage::decode(desc, value.as_bytes()?.clone()).ok()
}
