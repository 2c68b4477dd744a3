//! Message types written the way the code generator emits them, shared by the tests.
#![allow(dead_code, unused_imports, unreachable_pub, missing_docs)]

pub mod collections;
pub mod scalars;
pub mod shapes;

pub use collections::{Maps, Repeats};
pub use scalars::{Optionals, Scalars};
pub use shapes::{Choice, Kind, Known, Req, Tree, Wider};
