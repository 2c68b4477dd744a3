//! A content-addressed store on redb: BLAKE3 of the canonical bytes is the key.
//!
//! Run: `cargo run -p bijoubuf-examples --example content_store`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", bijoubuf_examples::store::run()?);
    Ok(())
}
