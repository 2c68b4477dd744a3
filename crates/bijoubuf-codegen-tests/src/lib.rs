//! Code generated from `schemas/` by `bijoubuf-build`, compiled under the workspace's
//! lints (`missing_docs`, `unreachable_pub`, clippy `-D warnings`) and exercised by the
//! tests in `tests/`.

include!(concat!(env!("OUT_DIR"), "/protos.rs"));
