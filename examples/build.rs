//! Generates the example schemas (`schemas/examples/`) into `OUT_DIR`: bijoubuf code
//! for every example, and prost code for the ledger so the signing example can show
//! what protobuf accepts. prost reads the descriptor set bijoubuf's schema compiler
//! writes, so no `protoc` is needed.

use std::error::Error;
use std::path::PathBuf;

use prost::Message as _;

fn main() -> Result<(), Box<dyn Error>> {
    let schemas = "../schemas/examples";
    println!("cargo:rerun-if-changed={schemas}");
    let out = PathBuf::from(std::env::var("OUT_DIR")?);

    // The ledger, with a descriptor set for prost.
    let ledger_fds = out.join("ledger.fds");
    bijoubuf_build::Config::new()
        .file_descriptor_set_path(&ledger_fds)
        .compile_protos(&["ledger.proto"], &[schemas])?;
    // The envelope also as a borrowed type (`SignedMessageRef<'a>`): the verifier reads
    // the body and signature in place instead of copying them out of the input.
    bijoubuf_build::Config::new()
        .borrowed([".examples.signed.v1.SignedMessage"])
        .compile_protos(&["signed.proto", "catalog.proto"], &[schemas])?;

    // The RPC examples: tonic servers and clients (`services(true)`), with the codec
    // of `bijoubuf-tonic`. `connect` on clients needs tonic's transport, which the
    // examples have.
    bijoubuf_build::Config::new()
        .services(true)
        .service_transport(true)
        .extern_path(".examples.signed.v1", "crate::signed")
        .compile_protos(&["orders.proto", "deposit.proto"], &[schemas])?;

    // Two versions of one package: each into its own directory, since both are
    // `examples.profile.rs`. Version 1 keeps what it does not know, so it can pass a
    // version 2 message on unchanged.
    for (version, preserve) in [("v1", true), ("v2", false)] {
        let dir = out.join(version);
        std::fs::create_dir_all(&dir)?;
        let mut config = bijoubuf_build::Config::new();
        config.out_dir(&dir);
        if preserve {
            config.preserve_unknown_fields(["."]);
        }
        config.compile_protos(
            &["profile.proto"],
            &[format!("{schemas}/evolution/{version}")],
        )?;
    }

    // prost, for comparison: BTreeMap maps so its encoding is deterministic too.
    let fds = prost_types::FileDescriptorSet::decode(std::fs::read(&ledger_fds)?.as_slice())?;
    let prost_dir = out.join("prost");
    std::fs::create_dir_all(&prost_dir)?;
    prost_build::Config::new()
        .out_dir(&prost_dir)
        .btree_map(["."])
        .compile_fds(fds)?;
    Ok(())
}
