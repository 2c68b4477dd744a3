//! The message benchmarks: schemas in `benches/schemas/`, generated into bijoubuf types
//! ([`bijou`]) and prost types ([`pb`]), hand-derived bilrost equivalents ([`bil`]), seeded
//! data generators ([`data`]) and the conversions that give every peer the same logical
//! data ([`convert`]); protobuf's own benchmark message GoogleMessage1 ([`gm1`]) also has
//! buffa's types ([`buffa_types`]), as do OpenTelemetry's traces, metrics and logs
//! ([`otlp`]). [`table`] is a table-driven decoder of GoogleMessage1, measured against the
//! generated one; [`kindsel`] a safe decoder of it that chooses the field by data.

pub mod bil;
pub mod convert;
pub mod data;
#[cfg(test)]
mod differential;
pub mod gm1;
pub mod kindsel;
pub mod ops;
pub mod otlp;
pub mod sizes;
pub mod table;

/// The line in `RESULTS.md` after which the message sections start; the varint results
/// generator keeps everything from it on.
pub const RESULTS_MARKER: &str = "<!-- message benchmarks -->";

/// The modules of one generator's output in `OUT_DIR/$dir`: the schemas of the older
/// datasets and protobuf's benchmark messages (`datasets`), or OpenTelemetry's protocol
/// nested by package so that the generated cross-package paths resolve (`otlp`).
macro_rules! generated {
    (datasets $dir:literal) => {
        /// `telemetry.proto`.
        pub mod telemetry {
            include!(concat!(env!("OUT_DIR"), "/", $dir, "/telemetry.rs"));
        }
        /// `cas.proto`.
        pub mod cas {
            include!(concat!(env!("OUT_DIR"), "/", $dir, "/cas.rs"));
        }
        /// `wide.proto`.
        pub mod wide {
            include!(concat!(env!("OUT_DIR"), "/", $dir, "/wide.rs"));
        }
        /// `numeric.proto`.
        pub mod numeric {
            include!(concat!(env!("OUT_DIR"), "/", $dir, "/numeric.rs"));
        }
        /// `nest.proto`.
        pub mod nest {
            include!(concat!(env!("OUT_DIR"), "/", $dir, "/nest.rs"));
        }
        /// protobuf's benchmark messages.
        pub mod benchmarks {
            /// `google_message1_proto3.proto`.
            pub mod proto3 {
                include!(concat!(env!("OUT_DIR"), "/", $dir, "/benchmarks.proto3.rs"));
            }
            /// `google_message1_proto2.proto`.
            pub mod proto2 {
                include!(concat!(env!("OUT_DIR"), "/", $dir, "/benchmarks.proto2.rs"));
            }
        }
    };
    (otlp $dir:literal) => {
        /// OpenTelemetry's protocol (`schemas/opentelemetry/`), nested by package.
        pub mod opentelemetry {
            /// `opentelemetry.proto.*.v1`.
            pub mod proto {
                generated!(otlp_package $dir common "/opentelemetry.proto.common.v1.rs");
                generated!(otlp_package $dir resource "/opentelemetry.proto.resource.v1.rs");
                generated!(otlp_package $dir trace "/opentelemetry.proto.trace.v1.rs");
                generated!(otlp_package $dir metrics "/opentelemetry.proto.metrics.v1.rs");
                generated!(otlp_package $dir logs "/opentelemetry.proto.logs.v1.rs");
            }
        }
    };
    (otlp_package $dir:literal $name:ident $file:literal) => {
        #[doc = concat!("`opentelemetry.proto.", stringify!($name), ".v1`.")]
        pub mod $name {
            /// Version 1.
            pub mod v1 {
                include!(concat!(env!("OUT_DIR"), "/", $dir, $file));
            }
        }
    };
}

/// bijoubuf's generated types, one module per schema package.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub mod bijou {
    generated!(datasets "bijou");
    generated!(otlp "bijou");
    /// GoogleMessage1 (proto3) again, decoded by the walk rather than dispatch (see
    /// `bijoubuf_codegen::Options::decode_dispatch`), timed against it by the table bench.
    pub mod walk {
        include!(concat!(env!("OUT_DIR"), "/bijou-walk/benchmarks.proto3.rs"));
    }
    /// GoogleMessage1 (proto3) and OpenTelemetry's protocol again, every message (owned
    /// types and twins) decoded by a table (`bijoubuf_codegen::Options::decode_table`),
    /// timed against the default's choice by the `dispatch` bench.
    pub mod table {
        /// `benchmarks.proto3`.
        pub mod benchmarks {
            /// GoogleMessage1.
            pub mod proto3 {
                include!(concat!(
                    env!("OUT_DIR"),
                    "/bijou-table/benchmarks.proto3.rs"
                ));
            }
        }
        generated!(otlp "bijou-table");
    }
    /// OpenTelemetry's protocol again, every message decoded by the walk (owned types
    /// only), timed against the default's choice by the `dispatch` bench.
    pub mod walk_otlp {
        generated!(otlp "bijou-walk-otlp");
    }
}

/// prost's generated types from the same descriptor set.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub mod pb {
    generated!(datasets "prost");
    generated!(otlp "prost");
}

/// buffa's generated types (owned, and `…View<'a>` borrowing from the input) for
/// protobuf's benchmark messages and OpenTelemetry's, from the same descriptor set.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub mod buffa_types {
    include!(concat!(env!("OUT_DIR"), "/buffa/mod.rs"));
}
