//! A tour of bijou64: values, their one byte string, and the inputs that are refused.
//!
//! Run with `cargo run -p bijoubuf-bijou64 --example tour`.

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() -> Result<(), bijou64::Error> {
    println!("{:>22}  {:<28}  zigzag(i64) bytes", "value", "bytes");
    let values = [
        0u64,
        1,
        247,
        248,
        503,
        504,
        66_039,
        66_040,
        16_843_256,
        1 << 32,
        u64::MAX,
    ];
    for v in values {
        let enc = bijou64::encode(v);
        let (back, used) = bijou64::decode(&enc)?;
        assert_eq!((back, used), (v, enc.len()));
        let signed = -(v.min(i64::MAX as u64) as i64);
        let zz = bijou64::encode(bijou64::zigzag::encode_i64(signed));
        println!("{v:>22}  {:<28}  {signed}: {}", hex(&enc), hex(&zz));
    }

    println!("\nrefused inputs:");
    for bad in [&[0xF9u8, 0x01][..], &[0xFF; 9][..], &[][..]] {
        match bijou64::decode(bad) {
            Ok(v) => println!("  {:<28} -> accepted?! {v:?}", hex(bad)),
            Err(e) => println!("  {:<28} -> {e}", hex(bad)),
        }
    }
    Ok(())
}
