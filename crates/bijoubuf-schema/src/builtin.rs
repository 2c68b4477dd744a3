//! The well-known types and descriptor.proto, built in so imports of
//! `google/protobuf/*.proto` work without an include path.

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
];

/// The text of a built-in file.
pub(crate) fn get(name: &str) -> Option<&'static str> {
    FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Where descriptor.proto is imported from; options are checked against it.
pub(crate) const DESCRIPTOR: &str = "google/protobuf/descriptor.proto";
