//! Write the message datasets for the Node benchmarks (`benches/node/`): for each dataset,
//! the one value `messages-sizes` measures, as bijoubuf bytes and as protobuf bytes of the
//! same logical data, to `<dir>/<dataset>.bijoubuf` and `<dir>/<dataset>.protobuf`.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: messages-node-data <output dir>")?,
    );
    std::fs::create_dir_all(&dir)?;
    for d in bijoubuf_benches::msg::data::Dataset::ALL {
        for (peer, bytes) in bijoubuf_benches::msg::sizes::encodings(d) {
            if peer == "bijoubuf" || peer == "protobuf" {
                let path = dir.join(format!("{}.{peer}", d.name()));
                std::fs::write(&path, bytes)?;
                println!("wrote {}", path.display());
            }
        }
    }
    Ok(())
}
