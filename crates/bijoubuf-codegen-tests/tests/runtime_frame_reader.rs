//! The runtime's `tests/frame_reader.rs`, unchanged, run against generated types.
include!(concat!(
    env!("OUT_DIR"),
    "/runtime_tests/frame_reader.mod.rs"
));
