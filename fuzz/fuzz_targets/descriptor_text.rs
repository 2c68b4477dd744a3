//! Encoded FileDescriptorSets written back as schema text, file by file (what the protoc
//! plugin and bijoubuf-build's `compile_fds`/`compile_encoded_fds` do): never a panic;
//! `Compiler::encoded_descriptor` accepts what `encoded_descriptor_text` does; the
//! accepted files compile or are refused with diagnostics; and a file that compiles says
//! what its descriptor says: the package and imports, and the names of every message,
//! field, oneof, enum, value, service and method with their numbers, labels, types,
//! ranges and reserved names. The text must not be able to declare anything else.
#![no_main]

use bijoubuf_schema::{Compiler, encoded_descriptor_text, encoded_set_files, is_builtin};
use libfuzzer_sys::fuzz_target;
use prost::Message as _;
use prost_types::field_descriptor_proto::Label;
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
    ServiceDescriptorProto,
};

fuzz_target!(|data: &[u8]| {
    let Ok(files) = encoded_set_files(data) else {
        return;
    };
    let mut compiler = Compiler::new();
    let mut accepted: Vec<FileDescriptorProto> = Vec::new();
    for bytes in files {
        let text = encoded_descriptor_text(bytes);
        let mut alone = Compiler::new();
        assert_eq!(
            alone.encoded_descriptor(bytes).is_ok(),
            text.is_ok(),
            "encoded_descriptor and encoded_descriptor_text disagree"
        );
        let Ok(text) = text else {
            continue;
        };
        let file = FileDescriptorProto::decode(bytes).expect("accepted bytes decode");
        // The compiler reads built-in files from its own copies, as a plugin does.
        if is_builtin(file.name()) || accepted.iter().any(|f| f.name() == file.name()) {
            continue;
        }
        compiler.source(file.name(), text);
        accepted.push(file);
    }
    let names: Vec<&str> = accepted.iter().map(|f| f.name()).collect();
    if names.is_empty() {
        return;
    }
    let Ok(compiled) = compiler.compile(&names) else {
        return;
    };
    let got = compiled.schema.file_descriptor_set();
    for want in &accepted {
        let g = got
            .file
            .iter()
            .find(|g| g.name() == want.name())
            .unwrap_or_else(|| panic!("{} compiled but is not in the set", want.name()));
        let editions = want.syntax() == "editions";
        let at = want.name().to_string();
        assert_eq!(g.package(), want.package(), "{at}: package");
        assert_eq!(g.dependency, want.dependency, "{at}: imports");
        assert_eq!(
            g.public_dependency, want.public_dependency,
            "{at}: public imports"
        );
        assert_eq!(
            g.weak_dependency, want.weak_dependency,
            "{at}: weak imports"
        );
        messages(&at, editions, &g.message_type, &want.message_type);
        enums(&at, &g.enum_type, &want.enum_type);
        fields(&at, editions, &g.extension, &want.extension, &[], &[]);
        services(&at, &g.service, &want.service);
    }
});

fn messages(at: &str, editions: bool, got: &[DescriptorProto], want: &[DescriptorProto]) {
    let names =
        |ms: &[DescriptorProto]| ms.iter().map(|m| m.name().to_string()).collect::<Vec<_>>();
    assert_eq!(names(got), names(want), "{at}: message names");
    for (g, w) in got.iter().zip(want) {
        let at = format!("{at}: {}", w.name());
        let flag = |m: &DescriptorProto| {
            m.options
                .as_ref()
                .map(|o| (o.map_entry(), o.message_set_wire_format()))
        };
        assert_eq!(
            flag(g).unwrap_or_default(),
            flag(w).unwrap_or_default(),
            "{at}: map_entry, message_set_wire_format"
        );
        let oneofs = |m: &DescriptorProto| -> Vec<String> {
            // Synthetic oneofs (proto3 `optional`) are named by the compiler.
            (0..m.oneof_decl.len())
                .filter(|&i| !synthetic(m, i))
                .map(|i| m.oneof_decl[i].name().to_string())
                .collect()
        };
        assert_eq!(oneofs(g), oneofs(w), "{at}: oneofs");
        fields(
            &at,
            editions,
            &g.field,
            &w.field,
            &g.oneof_decl,
            &w.oneof_decl,
        );
        fields(&at, editions, &g.extension, &w.extension, &[], &[]);
        messages(&at, editions, &g.nested_type, &w.nested_type);
        enums(&at, &g.enum_type, &w.enum_type);
        let ranges = |m: &DescriptorProto| {
            (
                m.extension_range
                    .iter()
                    .map(|r| (r.start(), r.end()))
                    .collect::<Vec<_>>(),
                m.reserved_range
                    .iter()
                    .map(|r| (r.start(), r.end()))
                    .collect::<Vec<_>>(),
                m.reserved_name.clone(),
            )
        };
        assert_eq!(ranges(g), ranges(w), "{at}: ranges and reserved names");
    }
}

fn synthetic(m: &DescriptorProto, i: usize) -> bool {
    let mut members = m.field.iter().filter(|f| f.oneof_index == Some(i as i32));
    matches!((members.next(), members.next()), (Some(f), None) if f.proto3_optional())
}

/// A type name as the descriptor says it, against the compiled (absolute) one: equal
/// when absolute, else its last parts.
fn same_type_name(got: &str, want: &str) -> bool {
    if want.starts_with('.') {
        got == want
    } else {
        got.ends_with(&format!(".{want}"))
    }
}

fn fields(
    at: &str,
    editions: bool,
    got: &[FieldDescriptorProto],
    want: &[FieldDescriptorProto],
    got_oneofs: &[prost_types::OneofDescriptorProto],
    want_oneofs: &[prost_types::OneofDescriptorProto],
) {
    let names = |fs: &[FieldDescriptorProto]| {
        fs.iter()
            .map(|f| (f.name().to_string(), f.number()))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(got), names(want), "{at}: field names and numbers");
    for (g, w) in got.iter().zip(want) {
        let at = format!("{at}.{}", w.name());
        // Editions say `required` as a feature.
        let label = |f: &FieldDescriptorProto| match f.label() {
            Label::Required if editions => Label::Optional,
            l => l,
        };
        assert_eq!(label(g), label(w), "{at}: label");
        if w.r#type.is_some() {
            assert_eq!(g.r#type(), w.r#type(), "{at}: type");
        }
        if w.type_name.is_some() {
            assert!(
                same_type_name(g.type_name(), w.type_name()),
                "{at}: type name {:?}, not {:?}",
                g.type_name(),
                w.type_name()
            );
        }
        if w.extendee.is_some() {
            assert!(
                same_type_name(g.extendee(), w.extendee()),
                "{at}: extendee {:?}, not {:?}",
                g.extendee(),
                w.extendee()
            );
        }
        assert_eq!(
            g.proto3_optional(),
            w.proto3_optional(),
            "{at}: proto3 optional"
        );
        if !w.proto3_optional() {
            let oneof = |f: &FieldDescriptorProto, decl: &[prost_types::OneofDescriptorProto]| {
                f.oneof_index
                    .and_then(|i| decl.get(usize::try_from(i).ok()?))
                    .map(|o| o.name().to_string())
            };
            assert_eq!(oneof(g, got_oneofs), oneof(w, want_oneofs), "{at}: oneof");
        }
        if let Some(j) = &w.json_name {
            assert_eq!(g.json_name(), j, "{at}: json_name");
        }
        if w.r#type() == prost_types::field_descriptor_proto::Type::String && w.r#type.is_some() {
            assert_eq!(g.default_value, w.default_value, "{at}: string default");
        }
    }
}

fn enums(at: &str, got: &[EnumDescriptorProto], want: &[EnumDescriptorProto]) {
    let shape = |es: &[EnumDescriptorProto]| {
        es.iter()
            .map(|e| {
                (
                    e.name().to_string(),
                    e.value
                        .iter()
                        .map(|v| (v.name().to_string(), v.number()))
                        .collect::<Vec<_>>(),
                    e.reserved_range
                        .iter()
                        .map(|r| (r.start(), r.end()))
                        .collect::<Vec<_>>(),
                    e.reserved_name.clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(shape(got), shape(want), "{at}: enums");
}

fn services(at: &str, got: &[ServiceDescriptorProto], want: &[ServiceDescriptorProto]) {
    let names =
        |ss: &[ServiceDescriptorProto]| ss.iter().map(|s| s.name().to_string()).collect::<Vec<_>>();
    assert_eq!(names(got), names(want), "{at}: services");
    for (g, w) in got.iter().zip(want) {
        let methods = |s: &ServiceDescriptorProto| {
            s.method
                .iter()
                .map(|m| {
                    (
                        m.name().to_string(),
                        m.client_streaming(),
                        m.server_streaming(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(methods(g), methods(w), "{at}: {}: methods", w.name());
        for (gm, wm) in g.method.iter().zip(&w.method) {
            for (got, want) in [
                (gm.input_type(), wm.input_type()),
                (gm.output_type(), wm.output_type()),
            ] {
                assert!(
                    same_type_name(got, want),
                    "{at}: {}.{}: type {got:?}, not {want:?}",
                    w.name(),
                    wm.name()
                );
            }
        }
    }
}
