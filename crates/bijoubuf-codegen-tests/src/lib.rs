//! Code generated from `schemas/` by `bijoubuf-build`, compiled under the workspace's
//! lints (`missing_docs`, `unreachable_pub`, clippy `-D warnings`) and exercised by the
//! tests in `tests/`.

include!(concat!(env!("OUT_DIR"), "/protos.rs"));

/// `example.v1`: a signed envelope and the usual person, included the way an
/// application includes a package.
pub mod example {
    /// Version 1.
    pub mod v1 {
        bijoubuf::include_proto!("example.v1");
    }
}

/// `shop.v1` from `protos/two_packages`, whose `Order` holds a `common.v1.Money`: each
/// package in a module per segment of its name, both under the crate root, so the
/// generated `super::super::common::v1::Money` resolves.
pub mod shop {
    /// Version 1.
    pub mod v1 {
        bijoubuf::include_proto!("shop.v1");
    }
}

/// `common.v1`, imported by `shop.v1`.
pub mod common {
    /// Version 1.
    pub mod v1 {
        bijoubuf::include_proto!("common.v1");
    }
}

/// The schema compiler's accepting corpus (`crates/bijoubuf-schema/tests/corpus/pass`),
/// generated to show that every accepted feature compiles.
pub mod schema_corpus {
    include!(concat!(env!("OUT_DIR"), "/corpus/mod.rs"));
}

/// The message types of the runtime's own tests, generated from
/// `protos/runtime_shapes.proto` and `protos/runtime_required.proto`: the runtime's test
/// files run against these in `tests/runtime_*.rs`.
pub mod runtime_shapes {
    include!(concat!(
        env!("OUT_DIR"),
        "/runtime_shapes/runtime_shapes.rs"
    ));
}

/// `protos/table_required.proto`: `Wide`, a proto2 message of 64 fields with `required`
/// ones past its 32nd, decoded by a table (`table`) and by the walk (`walk`), and `Open`,
/// the same numbers all optional.
pub mod table_required {
    /// `Wide` decoded by a table.
    pub mod table {
        include!(concat!(
            env!("OUT_DIR"),
            "/table_required_table/table_required.rs"
        ));
    }
    /// Every message decoded by the walk.
    pub mod walk {
        include!(concat!(
            env!("OUT_DIR"),
            "/table_required_walk/table_required.rs"
        ));
    }
    pub use walk::Open;
}

/// `bytes` fields as `bytes::Bytes` (`Shared`) beside the same schema with `Vec<u8>`
/// (`Owned`), from `protos/shared_bytes.proto`.
pub mod shared_bytes {
    include!(concat!(env!("OUT_DIR"), "/shared_bytes/shared_bytes.rs"));
}

/// `protos/digit_names.proto`: schema names of an underscore and a digit.
pub mod digit_names {
    include!(concat!(env!("OUT_DIR"), "/digit_names/digit_names.rs"));
}

/// `protos/binding_names.proto`: schema types named like the bindings generated code
/// declares or imports (its locals, the runtimes' exports, Rust's prelude).
pub mod binding_names {
    include!(concat!(env!("OUT_DIR"), "/binding_names/binding_names.rs"));
}

/// Schema types named `Ok`, `Err`, `Some`, `None`, `Default`, `Result` and `__bb`, from
/// `protos/hidden_alias.proto`: generated code still finds the runtime's names.
pub mod hidden_alias {
    include!(concat!(env!("OUT_DIR"), "/hidden_alias/hidden_alias.rs"));
}

/// `protos/deprecated.proto` and `protos/deprecated_defaults.proto` (package
/// `deprecated_types`): deprecated messages, enums and enum values, with borrowed twins
/// and serde. Generated code that
/// names them compiles without a warning; a user's code that names them draws the
/// `deprecated` lint:
///
/// ```compile_fail
/// #![deny(deprecated)]
/// let _ = bijoubuf_codegen_tests::deprecated::deprecated_types::Old::default();
/// ```
///
/// ```compile_fail
/// #![deny(deprecated)]
/// let _ = bijoubuf_codegen_tests::deprecated::deprecated_types::OldRef::default();
/// ```
///
/// ```compile_fail
/// #![deny(deprecated)]
/// let _ = bijoubuf_codegen_tests::deprecated::deprecated_types::OldKind::default();
/// ```
///
/// ```compile_fail
/// #![deny(deprecated)]
/// let _ = bijoubuf_codegen_tests::deprecated::deprecated_types::Mood::Grumpy;
/// ```
///
/// ```compile_fail
/// #![deny(deprecated)]
/// let _ = bijoubuf_codegen_tests::deprecated::deprecated_types::Mood::Glum;
/// ```
///
/// ```compile_fail
/// #![deny(deprecated)]
/// let _ = bijoubuf_codegen_tests::deprecated::deprecated_types::outer::Deep::default();
/// ```
///
/// ```compile_fail
/// #![deny(deprecated)]
/// let _ = bijoubuf_codegen_tests::deprecated::deprecated_types::outer::DeepKind::default();
/// ```
///
/// ```compile_fail
/// #![deny(deprecated)]
/// let _ = bijoubuf_codegen_tests::deprecated::deprecated_types::old::Gone::default();
/// ```
///
/// ```compile_fail
/// #![deny(deprecated)]
/// let _ = bijoubuf_codegen_tests::deprecated::deprecated_types::defaults::Shade::Dark;
/// ```
///
/// The same code compiles where the lint is allowed, so the lint is what refuses it
/// above; live types and values draw nothing:
///
/// ```
/// #![deny(warnings)]
/// use bijoubuf_codegen_tests::deprecated::deprecated_types::{self as d, defaults, old, outer};
/// #[allow(deprecated)]
/// fn named() {
///     let _ = d::Old::default();
///     let _ = d::OldRef::default();
///     let _ = d::OldKind::default();
///     let _ = (d::Mood::Grumpy, d::Mood::Glum);
///     let _ = outer::Deep::default();
///     let _ = outer::DeepKind::default();
///     let _ = old::Gone::default();
///     let _ = defaults::Shade::Dark;
/// }
/// named();
/// let _ = (d::Holder::default(), d::Outer::default(), old::Part::default());
/// let _ = (d::Mood::Happy, d::Mood::Cross, d::Legacy::Second, defaults::Shade::Light);
/// ```
#[deny(warnings)]
pub mod deprecated {
    include!(concat!(env!("OUT_DIR"), "/deprecated_walk/mod.rs"));
}
