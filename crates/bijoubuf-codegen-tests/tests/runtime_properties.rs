//! The runtime's `tests/properties.rs`, unchanged, run against generated types.
include!(concat!(env!("OUT_DIR"), "/runtime_tests/properties.mod.rs"));
