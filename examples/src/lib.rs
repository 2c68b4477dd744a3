//! Runnable bijoubuf examples, as library functions so that tests run exactly what the
//! examples print.
//!
//! Each example in `examples/` is a thin `main` that calls one function here and prints
//! the report it returns:
//!
//! | example            | function                      | shows                                   |
//! |--------------------|-------------------------------|-----------------------------------------|
//! | `signed_envelope`  | [`tamper::run`]               | Ed25519 over canonical bytes; tampering that protobuf accepts and bijoubuf refuses |
//! | `content_store`    | [`store::run`]                | a content-addressed store on redb keyed by BLAKE3 of the canonical bytes |
//! | `schema_evolution` | [`evolution::run`]            | an old reader passing a newer message on byte for byte |
//! | `signed_deposit`   | [`deposits::run`]             | a tonic service verifying Ed25519 over canonical bytes; tampered requests refused by rule |
//!
//! Run one with `cargo run -p bijoubuf-examples --example signed_envelope`.
//!
//! The schemas are in `schemas/examples/`; `build.rs` compiles them with
//! `bijoubuf-build` (and the ledger once more with `prost-build`, for comparison).
//!
//! # Example
//!
//! Sign a transfer and verify it the way a receiver does: strict decode first, then the
//! signature over the very bytes that were decoded.
//!
//! ```
//! use bijoubuf_examples::{ledger::Transfer, signing};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let key = signing::demo_key();
//! let transfer = Transfer { payer: "alice".into(), payee: "bob".into(), amount: 2500, ..Transfer::default() };
//! let envelope = signing::sign(&key, &transfer)?;
//! let checked: Transfer = signing::verify(&key.verifying_key(), &envelope)?;
//! assert_eq!(checked, transfer);
//! # Ok(()) }
//! ```

pub mod deposits;
pub mod evolution;
pub mod rpc;
pub mod rpc_prost;
pub mod signing;
pub mod store;

pub mod tamper;
pub mod wire;

mod text;

/// `examples.ledger.v1`: the transfer the signing example signs (`schemas/examples/ledger.proto`).
pub mod ledger {
    bijoubuf::include_proto!("examples.ledger.v1");
}

/// The same ledger schema compiled by `prost-build`, for the protobuf side of the
/// comparison. Its maps are `BTreeMap`s so that prost's encoding is deterministic too.
pub mod ledger_prost {
    include!(concat!(env!("OUT_DIR"), "/prost/examples.ledger.v1.rs"));
}

pub mod orders {
    //! The order service of the RPC tests and benchmark (`schemas/examples/orders.proto`):
    //! messages, the `orders_server` and `orders_client` modules.
    bijoubuf::include_proto!("examples.orders.v1");
}

/// The order service for tonic + prost, the RPC benchmark's peer: prost's types and
/// the service generated over them with tonic-prost's codec (see `build.rs`).
pub mod orders_prost {
    #![allow(missing_docs)]
    include!(concat!(env!("OUT_DIR"), "/prost/examples.orders.v1.rs"));
    include!(concat!(
        env!("OUT_DIR"),
        "/orders_prost/examples.orders.v1.rs"
    ));
}

/// The signed-deposit service (`schemas/examples/deposit.proto`).
pub mod deposit {
    bijoubuf::include_proto!("examples.deposit.v1");
}

/// `examples.signed.v1`: the envelope that carries canonical bytes and a signature.
pub mod signed {
    bijoubuf::include_proto!("examples.signed.v1");
}

/// `examples.catalog.v1`: the release the content store keeps.
pub mod catalog {
    bijoubuf::include_proto!("examples.catalog.v1");
}

/// `examples.profile`, in two versions of one schema (`schemas/examples/evolution/`).
pub mod profile {
    /// Version 1: fields 1 to 3. Generated with unknown-field preservation, so a
    /// preserving decode keeps what version 2 added.
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/v1/examples.profile.rs"));
    }

    /// Version 2: adds fields 4 to 6 and the `Avatar` message.
    pub mod v2 {
        include!(concat!(env!("OUT_DIR"), "/v2/examples.profile.rs"));
    }
}
