//! The runtime's `tests/memory.rs`, unchanged, run against generated types.
include!(concat!(env!("OUT_DIR"), "/runtime_tests/memory.mod.rs"));
