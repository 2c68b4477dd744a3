//! The well-known types, descriptor.proto and the other files protoc 36.2 bundles
//! (the language feature files, `compiler/plugin.proto`, the JSON and C++ options),
//! built in so their imports work without an include path as they do with protoc.

/// `(import path, text)` of every built-in file.
pub(crate) const FILES: &[(&str, &str)] = &[
    (
        "google/protobuf/any.proto",
        include_str!("../protos/google/protobuf/any.proto"),
    ),
    (
        "google/protobuf/api.proto",
        include_str!("../protos/google/protobuf/api.proto"),
    ),
    (
        "google/protobuf/descriptor.proto",
        include_str!("../protos/google/protobuf/descriptor.proto"),
    ),
    (
        "google/protobuf/duration.proto",
        include_str!("../protos/google/protobuf/duration.proto"),
    ),
    (
        "google/protobuf/empty.proto",
        include_str!("../protos/google/protobuf/empty.proto"),
    ),
    (
        "google/protobuf/field_mask.proto",
        include_str!("../protos/google/protobuf/field_mask.proto"),
    ),
    (
        "google/protobuf/source_context.proto",
        include_str!("../protos/google/protobuf/source_context.proto"),
    ),
    (
        "google/protobuf/struct.proto",
        include_str!("../protos/google/protobuf/struct.proto"),
    ),
    (
        "google/protobuf/timestamp.proto",
        include_str!("../protos/google/protobuf/timestamp.proto"),
    ),
    (
        "google/protobuf/type.proto",
        include_str!("../protos/google/protobuf/type.proto"),
    ),
    (
        "google/protobuf/wrappers.proto",
        include_str!("../protos/google/protobuf/wrappers.proto"),
    ),
    (
        "google/protobuf/c_sharp_features.proto",
        include_str!("../protos/google/protobuf/c_sharp_features.proto"),
    ),
    (
        "google/protobuf/compiler/plugin.proto",
        include_str!("../protos/google/protobuf/compiler/plugin.proto"),
    ),
    (
        "google/protobuf/cpp_features.proto",
        include_str!("../protos/google/protobuf/cpp_features.proto"),
    ),
    (
        "google/protobuf/cpp_file_options.proto",
        include_str!("../protos/google/protobuf/cpp_file_options.proto"),
    ),
    (
        "google/protobuf/cpp_options.proto",
        include_str!("../protos/google/protobuf/cpp_options.proto"),
    ),
    (
        "google/protobuf/go_features.proto",
        include_str!("../protos/google/protobuf/go_features.proto"),
    ),
    (
        "google/protobuf/java_features.proto",
        include_str!("../protos/google/protobuf/java_features.proto"),
    ),
    (
        "google/protobuf/json_enumvalue_options.proto",
        include_str!("../protos/google/protobuf/json_enumvalue_options.proto"),
    ),
    (
        "google/protobuf/json_options.proto",
        include_str!("../protos/google/protobuf/json_options.proto"),
    ),
];

/// The text of a built-in file.
pub(crate) fn get(name: &str) -> Option<&'static str> {
    FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Where descriptor.proto is imported from; options are checked against it.
pub(crate) const DESCRIPTOR: &str = "google/protobuf/descriptor.proto";
