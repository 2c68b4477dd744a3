//! The message benchmarks: schemas in `benches/schemas/`, generated into bijoubuf types
//! ([`bijou`]) and prost types ([`pb`]), hand-derived bilrost equivalents ([`bil`]), seeded
//! data generators ([`data`]) and the conversions that give every peer the same logical
//! data ([`convert`]); protobuf's own benchmark message GoogleMessage1 ([`gm1`]) also has
//! buffa's types ([`buffa_types`]), as do OpenTelemetry's traces, metrics and logs
//! ([`otlp`]). [`table`] is a table-driven decoder of GoogleMessage1, measured against the
//! generated one.

pub mod bil;
pub mod convert;
pub mod data;
pub mod gm1;
pub mod ops;
pub mod otlp;
pub mod sizes;
pub mod table;

/// The line in `RESULTS.md` after which the message sections start; the varint results
/// generator keeps everything from it on.
pub const RESULTS_MARKER: &str = "<!-- message benchmarks -->";

/// bijoubuf's generated types, one module per schema package.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub mod bijou {
    /// `telemetry.proto`.
    pub mod telemetry {
        include!(concat!(env!("OUT_DIR"), "/bijou/telemetry.rs"));
    }
    /// `cas.proto`.
    pub mod cas {
        include!(concat!(env!("OUT_DIR"), "/bijou/cas.rs"));
    }
    /// `wide.proto`.
    pub mod wide {
        include!(concat!(env!("OUT_DIR"), "/bijou/wide.rs"));
    }
    /// `numeric.proto`.
    pub mod numeric {
        include!(concat!(env!("OUT_DIR"), "/bijou/numeric.rs"));
    }
    /// `nest.proto`.
    pub mod nest {
        include!(concat!(env!("OUT_DIR"), "/bijou/nest.rs"));
    }
    /// protobuf's benchmark messages.
    pub mod benchmarks {
        /// `google_message1_proto3.proto`.
        pub mod proto3 {
            include!(concat!(env!("OUT_DIR"), "/bijou/benchmarks.proto3.rs"));
        }
        /// `google_message1_proto2.proto`.
        pub mod proto2 {
            include!(concat!(env!("OUT_DIR"), "/bijou/benchmarks.proto2.rs"));
        }
    }
    /// GoogleMessage1 (proto3) again, decoded by the walk rather than dispatch (see
    /// `bijoubuf_codegen::Options::decode_dispatch`), timed against it by the table bench.
    pub mod walk {
        include!(concat!(env!("OUT_DIR"), "/bijou-walk/benchmarks.proto3.rs"));
    }
    /// OpenTelemetry's protocol (`schemas/opentelemetry/`), nested by package so that the
    /// generated cross-package paths resolve.
    pub mod opentelemetry {
        /// `opentelemetry.proto.*.v1`.
        pub mod proto {
            /// `opentelemetry.proto.common.v1`.
            pub mod common {
                /// Version 1.
                pub mod v1 {
                    include!(concat!(
                        env!("OUT_DIR"),
                        "/bijou/opentelemetry.proto.common.v1.rs"
                    ));
                }
            }
            /// `opentelemetry.proto.resource.v1`.
            pub mod resource {
                /// Version 1.
                pub mod v1 {
                    include!(concat!(
                        env!("OUT_DIR"),
                        "/bijou/opentelemetry.proto.resource.v1.rs"
                    ));
                }
            }
            /// `opentelemetry.proto.trace.v1`.
            pub mod trace {
                /// Version 1.
                pub mod v1 {
                    include!(concat!(
                        env!("OUT_DIR"),
                        "/bijou/opentelemetry.proto.trace.v1.rs"
                    ));
                }
            }
            /// `opentelemetry.proto.metrics.v1`.
            pub mod metrics {
                /// Version 1.
                pub mod v1 {
                    include!(concat!(
                        env!("OUT_DIR"),
                        "/bijou/opentelemetry.proto.metrics.v1.rs"
                    ));
                }
            }
            /// `opentelemetry.proto.logs.v1`.
            pub mod logs {
                /// Version 1.
                pub mod v1 {
                    include!(concat!(
                        env!("OUT_DIR"),
                        "/bijou/opentelemetry.proto.logs.v1.rs"
                    ));
                }
            }
        }
    }
    /// OpenTelemetry's protocol again, every message decoded by the walk (owned types
    /// only), timed against the default's choice by the `dispatch` bench.
    pub mod walk_otlp {
        /// As `bijou::opentelemetry`, nested by package.
        pub mod opentelemetry {
            /// `opentelemetry.proto.*.v1`.
            pub mod proto {
                /// `opentelemetry.proto.common.v1`.
                pub mod common {
                    /// Version 1.
                    pub mod v1 {
                        include!(concat!(
                            env!("OUT_DIR"),
                            "/bijou-walk-otlp/opentelemetry.proto.common.v1.rs"
                        ));
                    }
                }
                /// `opentelemetry.proto.resource.v1`.
                pub mod resource {
                    /// Version 1.
                    pub mod v1 {
                        include!(concat!(
                            env!("OUT_DIR"),
                            "/bijou-walk-otlp/opentelemetry.proto.resource.v1.rs"
                        ));
                    }
                }
                /// `opentelemetry.proto.trace.v1`.
                pub mod trace {
                    /// Version 1.
                    pub mod v1 {
                        include!(concat!(
                            env!("OUT_DIR"),
                            "/bijou-walk-otlp/opentelemetry.proto.trace.v1.rs"
                        ));
                    }
                }
                /// `opentelemetry.proto.metrics.v1`.
                pub mod metrics {
                    /// Version 1.
                    pub mod v1 {
                        include!(concat!(
                            env!("OUT_DIR"),
                            "/bijou-walk-otlp/opentelemetry.proto.metrics.v1.rs"
                        ));
                    }
                }
                /// `opentelemetry.proto.logs.v1`.
                pub mod logs {
                    /// Version 1.
                    pub mod v1 {
                        include!(concat!(
                            env!("OUT_DIR"),
                            "/bijou-walk-otlp/opentelemetry.proto.logs.v1.rs"
                        ));
                    }
                }
            }
        }
    }
}

/// prost's generated types from the same descriptor set.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub mod pb {
    /// `telemetry.proto`.
    pub mod telemetry {
        include!(concat!(env!("OUT_DIR"), "/prost/telemetry.rs"));
    }
    /// `cas.proto`.
    pub mod cas {
        include!(concat!(env!("OUT_DIR"), "/prost/cas.rs"));
    }
    /// `wide.proto`.
    pub mod wide {
        include!(concat!(env!("OUT_DIR"), "/prost/wide.rs"));
    }
    /// `numeric.proto`.
    pub mod numeric {
        include!(concat!(env!("OUT_DIR"), "/prost/numeric.rs"));
    }
    /// `nest.proto`.
    pub mod nest {
        include!(concat!(env!("OUT_DIR"), "/prost/nest.rs"));
    }
    /// protobuf's benchmark messages.
    pub mod benchmarks {
        /// `google_message1_proto3.proto`.
        pub mod proto3 {
            include!(concat!(env!("OUT_DIR"), "/prost/benchmarks.proto3.rs"));
        }
        /// `google_message1_proto2.proto`.
        pub mod proto2 {
            include!(concat!(env!("OUT_DIR"), "/prost/benchmarks.proto2.rs"));
        }
    }
    /// OpenTelemetry's protocol (`schemas/opentelemetry/`), nested by package so that the
    /// generated cross-package paths resolve.
    pub mod opentelemetry {
        /// `opentelemetry.proto.*.v1`.
        pub mod proto {
            /// `opentelemetry.proto.common.v1`.
            pub mod common {
                /// Version 1.
                pub mod v1 {
                    include!(concat!(
                        env!("OUT_DIR"),
                        "/prost/opentelemetry.proto.common.v1.rs"
                    ));
                }
            }
            /// `opentelemetry.proto.resource.v1`.
            pub mod resource {
                /// Version 1.
                pub mod v1 {
                    include!(concat!(
                        env!("OUT_DIR"),
                        "/prost/opentelemetry.proto.resource.v1.rs"
                    ));
                }
            }
            /// `opentelemetry.proto.trace.v1`.
            pub mod trace {
                /// Version 1.
                pub mod v1 {
                    include!(concat!(
                        env!("OUT_DIR"),
                        "/prost/opentelemetry.proto.trace.v1.rs"
                    ));
                }
            }
            /// `opentelemetry.proto.metrics.v1`.
            pub mod metrics {
                /// Version 1.
                pub mod v1 {
                    include!(concat!(
                        env!("OUT_DIR"),
                        "/prost/opentelemetry.proto.metrics.v1.rs"
                    ));
                }
            }
            /// `opentelemetry.proto.logs.v1`.
            pub mod logs {
                /// Version 1.
                pub mod v1 {
                    include!(concat!(
                        env!("OUT_DIR"),
                        "/prost/opentelemetry.proto.logs.v1.rs"
                    ));
                }
            }
        }
    }
}

/// buffa's generated types (owned, and `…View<'a>` borrowing from the input) for
/// protobuf's benchmark messages and OpenTelemetry's, from the same descriptor set.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub mod buffa_types {
    include!(concat!(env!("OUT_DIR"), "/buffa/mod.rs"));
}
