//! A signed-deposit service over gRPC: the server verifies Ed25519 over the canonical
//! bytes and refuses tampered requests naming the rule. Run with
//! `cargo run -p bijoubuf-examples --example signed_deposit`.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", bijoubuf_examples::deposits::run().await?);
    Ok(())
}
