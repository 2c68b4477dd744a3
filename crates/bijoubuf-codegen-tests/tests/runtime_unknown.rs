//! The runtime's `tests/unknown.rs`, unchanged, run against generated types.
include!(concat!(env!("OUT_DIR"), "/runtime_tests/unknown.mod.rs"));
