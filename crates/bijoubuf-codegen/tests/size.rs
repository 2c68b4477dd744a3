//! The generated Rust for OpenTelemetry's protos (owned types, default options) stays
//! within its bound: at most 60 % of the 299,463 bytes the generator wrote for them when
//! the bound was set (benches/RESULTS.md, "Generated source"). A change that grows every
//! message's code shows here first; `benches/scripts/otlp.sh source` measures the same.

use std::path::{Path, PathBuf};

use bijoubuf_codegen::{Options, generate};
use bijoubuf_schema::Compiler;

const REFERENCE_BYTES: usize = 299_463;

fn benches_schemas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/schemas")
}

#[test]
fn opentelemetry_owned_source_within_sixty_percent() {
    let files: Vec<String> = ["common", "resource", "trace", "metrics", "logs"]
        .iter()
        .map(|p| format!("opentelemetry/proto/{p}/v1/{p}.proto"))
        .collect();
    let compiled = Compiler::new()
        .include(benches_schemas())
        .compile(&files)
        .unwrap_or_else(|e| panic!("the OpenTelemetry protos do not compile: {e}"));
    let generated = generate(&compiled.schema, &Options::new()).expect("generates");
    let bytes: usize = generated.iter().map(|f| f.content.len()).sum();
    let bound = REFERENCE_BYTES * 60 / 100;
    assert!(
        bytes <= bound,
        "generated OpenTelemetry source is {bytes} bytes, {:.1} % of {REFERENCE_BYTES}: over the bound of {bound}",
        bytes as f64 * 100.0 / REFERENCE_BYTES as f64
    );
    eprintln!("generated OpenTelemetry source: {bytes} bytes");
}
