//! The message benchmarks: schemas in `benches/schemas/`, generated into bijoubuf types
//! ([`bijou`]) and prost types ([`pb`]), hand-derived bilrost equivalents ([`bil`]), seeded
//! data generators ([`data`]) and the conversions that give every peer the same logical
//! data ([`convert`]).

pub mod bil;
pub mod convert;
pub mod data;
pub mod ops;
pub mod sizes;

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
}
