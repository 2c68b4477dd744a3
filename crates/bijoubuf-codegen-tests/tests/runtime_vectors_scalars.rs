//! The runtime's `tests/vectors_scalars.rs`, unchanged, run against generated types.
include!(concat!(
    env!("OUT_DIR"),
    "/runtime_tests/vectors_scalars.mod.rs"
));
