//! The generated types under the names the runtime's tests give their hand-written
//! ones (`crates/bijoubuf/tests/common`). Copied by `build.rs` next to the copies of the
//! runtime's test files, where their `mod common;` finds it.
#![allow(unused_imports, unreachable_pub)]

pub use bijoubuf_codegen_tests::runtime_shapes::choice::Kind;
pub use bijoubuf_codegen_tests::runtime_shapes::{
    Choice, Known, Maps, Optionals, Repeats, Req, Scalars, Tree, Wider,
};
