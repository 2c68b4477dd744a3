//! The runtime's `tests/vectors_structure.rs`, unchanged, run against generated types.
include!(concat!(
    env!("OUT_DIR"),
    "/runtime_tests/vectors_structure.mod.rs"
));
