//! The runtime's `tests/allocation.rs`, unchanged, run against generated types.
include!(concat!(env!("OUT_DIR"), "/runtime_tests/allocation.mod.rs"));
