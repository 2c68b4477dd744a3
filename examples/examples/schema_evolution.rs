//! A v1 reader passes a v2 writer's signed message on byte for byte; a strict v1 reader
//! refuses it.
//!
//! Run: `cargo run -p bijoubuf-examples --example schema_evolution`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", bijoubuf_examples::evolution::run()?);
    Ok(())
}
