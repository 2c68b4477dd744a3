//! Generates the message benchmarks' types from `schemas/` twice: bijoubuf's with
//! `bijoubuf-build`, and prost's with `prost-build` from the descriptor set that
//! `bijoubuf-schema` produces (no protoc), so both peers read the same parsed schema.

use std::path::PathBuf;

const PROTOS: [&str; 5] = [
    "telemetry.proto",
    "cas.proto",
    "wide.proto",
    "numeric.proto",
    "nest.proto",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=schemas");
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let bijou = out.join("bijou");
    let prost = out.join("prost");
    std::fs::create_dir_all(&bijou)?;
    std::fs::create_dir_all(&prost)?;

    // Every message keeps unknown fields when asked to, so one type serves both the
    // strict and the preserving decode.
    bijoubuf_build::Config::new()
        .out_dir(&bijou)
        .preserve_unknown_fields(["."])
        .compile_protos(&PROTOS, &["schemas"])?;

    let mut compiler = bijoubuf_schema::Compiler::new();
    compiler.include("schemas");
    let compiled = compiler
        .compile(&PROTOS)
        .map_err(|d| format!("schema errors: {d}"))?;
    // Ordered maps: prost's default HashMap re-encodes entries in a random order, which
    // would make "decode, re-encode, compare bytes" fail on every map.
    prost_build::Config::new()
        .out_dir(&prost)
        .btree_map(["."])
        .compile_fds(compiled.schema.file_descriptor_set())?;
    Ok(())
}
