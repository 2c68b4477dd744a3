//! Workloads and peer adapters for bijoubuf's benchmarks.
//!
//! The varint shootout (`benches/varint.rs`) times bijou64 against the reference
//! implementation (`bijoux`), four LEB128 varints (prost, integer-encoding, leb128,
//! unsigned-varint) and vu128. Each peer is called through its ordinary public API; the
//! adapters here only loop over a batch. They live in a library so that their tests
//! (every adapter decodes what the encoders wrote, every canonical adapter refuses an
//! overlong spelling) run under `cargo test` before anything is timed.
//!
//! ```
//! use bijoubuf_benches::data::{Dist, values};
//! let batch = values(Dist::Mixed);
//! assert_eq!(batch.len(), bijoubuf_benches::data::BATCH);
//! ```

pub mod cpu;
pub mod data;
pub mod msg;
pub mod peers;
pub mod results;
pub mod rpc;
pub mod rpc_codec;
