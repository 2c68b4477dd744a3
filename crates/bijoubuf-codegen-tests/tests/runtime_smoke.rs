//! The runtime's `tests/smoke.rs`, unchanged, run against generated types.
include!(concat!(env!("OUT_DIR"), "/runtime_tests/smoke.mod.rs"));
