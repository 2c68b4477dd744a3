//! Descriptor sets byte for byte as protoc writes them, for the fixtures under
//! `tests/protoc/sets`: `NAME.binpb` is protoc 36.2's set with its defaults,
//! `NAME.si.binpb` with `--include_source_info` (protoc 30.2 writes the same bytes for
//! every fixture it compiles). How to regenerate them is in `tests/protoc/README.md`.
//! Each fixture closes a difference a corpus run found; none imports a file from
//! protoc's include directory, so descriptor.proto is bijoubuf's built-in copy, and
//! protoc's own in protoc's sets: `NAME.imports.binpb` (`--include_imports`) and
//! `NAME.imports.retain.binpb` (with `--retain_options` too) hold both descriptor.proto's.

use std::path::{Path, PathBuf};

use bijoubuf_schema::{Compiler, DescriptorSetOptions};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/protoc/sets")
}

/// The fixture compiled, its sets written with each of `variants` (the reference file's
/// suffix, the flags) and compared byte for byte with protoc's.
fn compare(name: &str, variants: [(&str, DescriptorSetOptions); 2]) {
    let c = Compiler::new()
        .include(dir())
        .compile(&[format!("{name}.proto").as_str()])
        .unwrap_or_else(|e| panic!("{name}: refused: {:?}", e.errors()));
    for (suffix, options) in variants {
        let reference = std::fs::read(dir().join(format!("{name}.{suffix}"))).expect("reference");
        let ours = c.schema.encode_descriptor_set(options);
        assert!(
            ours == reference,
            "{name}.{suffix}: bijoubuf's set differs from protoc's ({} bytes against {})",
            ours.len(),
            reference.len()
        );
    }
}

/// The fixture's set with and without source info against protoc's.
fn check(name: &str) {
    let source_info = DescriptorSetOptions {
        include_source_info: true,
        ..DescriptorSetOptions::default()
    };
    compare(
        name,
        [
            ("binpb", DescriptorSetOptions::default()),
            ("si.binpb", source_info),
        ],
    );
}

/// The fixture's set with its imports against protoc's, with protoc's defaults and
/// with `--retain_options`; no source info, which for the built-in files is
/// bijoubuf's own text.
fn check_with_imports(name: &str) {
    let imports = DescriptorSetOptions {
        include_imports: true,
        ..DescriptorSetOptions::default()
    };
    let retain = DescriptorSetOptions {
        retain_options: true,
        ..imports
    };
    compare(
        name,
        [("imports.binpb", imports), ("imports.retain.binpb", retain)],
    );
}

#[test]
fn builtin_descriptor_proto_is_protocs_byte_for_byte() {
    // With `--include_imports` a file with custom options carries descriptor.proto:
    // the built-in copy declares what protoc 36.2's does (option_dependency, the
    // 990 to 998 ranges, extension declarations, feature_support, the reserved
    // php_generic_services ...), so the sets are the same bytes.
    check("descriptor_imports");
    check_with_imports("descriptor_imports");
}

#[test]
fn builtin_well_known_types_are_protocs_byte_for_byte() {
    // Each well-known type file imported and its messages used: with `--include_imports`
    // the built-in copies of any.proto, api.proto (its `edition` fields included), type.proto
    // and the rest are the bytes protoc 30.2 and 36.2 write alike.
    check("wkt_imports");
    check_with_imports("wkt_imports");
}

#[test]
fn builtin_bundled_files_are_protocs_byte_for_byte() {
    // The language feature files, compiler/plugin.proto and the JSON and C++ options
    // protoc 36.2 bundles are built in too: a file importing them (features of each
    // language set, plugin.proto's messages as field types) compiles without an include
    // directory, and with `--include_imports` the built-in copies are protoc's bytes.
    check("bundled_imports");
    check_with_imports("bundled_imports");
    // Edition 2026 introduces C#'s feature and the JSON and C++ options.
    check("bundled_2026");
    check_with_imports("bundled_2026");
}

#[test]
fn extension_range_verification_is_dropped_with_its_locations() {
    // `verification` has source retention: protoc drops it (and an options message it
    // leaves empty, with their locations) whether or not the file imports
    // descriptor.proto, beside `declaration`.
    check("plain");
}

#[test]
fn source_retention_custom_options_of_extension_ranges_are_dropped() {
    check("custom");
}

#[test]
fn source_retention_features_are_dropped_without_descriptor_proto() {
    check("features");
}

#[test]
fn enum_reserved_spans_are_protocs() {
    // The end of a one-number range spans the number's first token: the `-` alone of
    // `reserved -1;`; a range written with `to` ends at its last token.
    check("reserved_spans");
}

#[test]
fn message_set_extensions_and_reserved_numbers_reach_int32_max() {
    // A MessageSet's extension numbers and `max` go to 2^31 - 2; reserved numbers may
    // in any message.
    check("message_set");
}

#[test]
fn implicit_presence_defaults_are_left_out_of_option_values() {
    // protoc parses a message-typed option's value and writes the message back, so a
    // proto3 field without `optional` that holds its default is not written (an
    // expanded Any's empty `value` neither); fields with presence and map entries are.
    check("implicit_defaults");
    check("implicit_defaults_editions");
}

#[test]
fn extension_range_options_are_located_range_by_range() {
    // `extensions A, B [opt]`: protoc records the bracket and its options for range A,
    // then again for range B.
    check("range_options");
}

#[test]
fn extension_numbers_another_file_uses_are_warned_about_not_refused() {
    // protoc writes the set and warns when an extension takes a number an imported
    // file's extension of the same message already has (in one file it refuses, as the
    // rejecting corpus checks).
    check("extension_numbers");
    let c = Compiler::new()
        .include(dir())
        .compile(&["extension_numbers.proto"])
        .expect("accepted");
    let codes: Vec<&str> = c
        .warnings
        .iter()
        .map(|w| w.code())
        .filter(|code| !code.starts_with("lint-"))
        .collect();
    assert_eq!(
        codes,
        ["duplicate-extension-number", "duplicate-extension-number"]
    );
}

#[test]
fn builtin_descriptor_proto_has_protocs_source_retention_fields() {
    // Options are dropped by the `retention` of descriptor.proto's fields; without an
    // include directory holding protoc's copy, bijoubuf's built-in copy decides, so its
    // source-retention fields are protoc 36.2's, every options message and FeatureSet
    // included (`grep -n RETENTION_SOURCE` in protoc 36.2's descriptor.proto).
    let c = Compiler::new()
        .compile(&["google/protobuf/descriptor.proto"])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    let mut found = Vec::new();
    for f in c.schema.files() {
        let mut stack: Vec<_> = f.messages.iter().collect();
        while let Some(m) = stack.pop() {
            stack.extend(&m.messages);
            for field in &m.fields {
                let source = field.options.iter().any(|o| {
                    o.extension.is_none()
                        && o.name == "retention"
                        && matches!(&o.value, bijoubuf_schema::OptionValue::Enum { name, .. } if name == "RETENTION_SOURCE")
                });
                if source {
                    found.push(field.full_name.clone());
                }
            }
        }
    }
    found.sort();
    assert_eq!(
        found,
        [
            "google.protobuf.ExtensionRangeOptions.declaration",
            "google.protobuf.ExtensionRangeOptions.verification",
            "google.protobuf.FeatureSet.default_symbol_visibility",
            "google.protobuf.FeatureSet.enforce_naming_style",
            "google.protobuf.FeatureSet.enforce_proto_limits",
        ]
    );
}
