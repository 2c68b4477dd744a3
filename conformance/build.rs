//! Generates the conformance schemas into `OUT_DIR` with the build crate users use.

fn main() -> Result<(), bijoubuf_build::Error> {
    let schemas = "schemas";
    println!("cargo:rerun-if-changed={schemas}");
    let protos = [
        "conformance/scalars.proto",
        "conformance/structure.proto",
        "conformance/required.proto",
        "conformance/appendix.proto",
        "conformance/reading.proto",
        "conformance/wkt.proto",
        "conformance/editions.proto",
        "evolution/v1.proto",
        "evolution/v2.proto",
    ];
    // The same schemas with every message decoded by dispatch rather than the walk
    // (`crate::schema_dispatch`): the vectors and the differential tests hold both
    // decoders to one outcome.
    let dispatch =
        std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
            .join("dispatch");
    std::fs::create_dir_all(&dispatch).map_err(|e| bijoubuf_build::Error::Io {
        path: dispatch.clone(),
        source: e,
    })?;
    bijoubuf_build::Config::new()
        .no_lints()
        .out_dir(&dispatch)
        .preserve_unknown_fields([".conformance", ".evolution"])
        .borrowed([".conformance", ".evolution"])
        .decode_dispatch(["."])
        .include_file("protos.rs")
        .compile_protos(&protos, &[schemas])?;
    // A third time with every message decoded by a table (`crate::schema_table`).
    let table = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("table");
    std::fs::create_dir_all(&table).map_err(|e| bijoubuf_build::Error::Io {
        path: table.clone(),
        source: e,
    })?;
    bijoubuf_build::Config::new()
        .no_lints()
        .out_dir(&table)
        .preserve_unknown_fields([".conformance", ".evolution"])
        .borrowed([".conformance", ".evolution"])
        .decode_table(["."])
        .include_file("protos.rs")
        .compile_protos(&protos, &[schemas])?;
    bijoubuf_build::Config::new()
        // Test schemas, shaped by the vectors rather than by style: no lint warnings.
        .no_lints()
        // Every type can keep unknown fields, so preserving vectors run on generated code
        // too; a strict decode (the default) still refuses them (SPEC §8).
        .preserve_unknown_fields([".conformance", ".evolution"])
        // Every type also gets its borrowed twin (`FooRef<'a>`): the vectors run against
        // both (`generated::decode_borrowed`).
        .borrowed([".conformance", ".evolution"])
        // Every message walks, whatever the default rule picks: the reference for the
        // dispatch copy above.
        .decode_walk(["."])
        .include_file("protos.rs")
        .compile_protos(&protos, &[schemas])?;
    Ok(())
}
