//! The runtime's `tests/errors.rs`, unchanged, run against generated types.
include!(concat!(env!("OUT_DIR"), "/runtime_tests/errors.mod.rs"));
