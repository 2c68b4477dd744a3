//! The runtime's `tests/limits.rs`, unchanged, run against generated types.
include!(concat!(env!("OUT_DIR"), "/runtime_tests/limits.mod.rs"));
