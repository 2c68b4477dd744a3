//! Ed25519 signatures over canonical bytes, and the tampering protobuf lets through.
//!
//! Run: `cargo run -p bijoubuf-examples --example signed_envelope`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", bijoubuf_examples::tamper::run()?);
    Ok(())
}
