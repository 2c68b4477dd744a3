//! `protoc-gen-bijoubuf`: bijoubuf's code generators as a protoc plugin, for
//! `protoc --bijoubuf_out=DIR --bijoubuf_opt=lang=rust` and `buf generate`.
//!
//! It reads a `CodeGeneratorRequest` on stdin and writes a `CodeGeneratorResponse` on
//! stdout. The request's descriptors are written back as schema text and checked as
//! `bijoubuf compile` checks source files, then the files `bijoubuf compile` would write
//! for the requested files are returned, named as below its output directory. A refusal
//! (a bad parameter, a schema bijoubuf refuses) is the response's `error`, with exit
//! status 0 as protoc expects; only a request that cannot be read exits 1.

mod params;
mod wire;

#[path = "../codegen.rs"]
mod codegen;
#[path = "../render.rs"]
mod render;

use std::io::{Read as _, Write as _};
use std::process::ExitCode;

use bijoubuf_schema::{Compiler, Lints};
use prost::Message as _;
use prost_types::compiler::code_generator_response::{Feature, File};
use prost_types::compiler::{CodeGeneratorRequest, CodeGeneratorResponse};

use params::Lang;

fn main() -> ExitCode {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        return fail(&format!("cannot read the request on stdin: {e}"));
    }
    let request = match CodeGeneratorRequest::decode(bytes.as_slice()) {
        Ok(r) => r,
        Err(e) => {
            return fail(&format!(
                "stdin is not a CodeGeneratorRequest: {e} (this program is run by protoc or \
                 buf, as --bijoubuf_out or a buf.gen.yaml plugin)"
            ));
        }
    };
    // prost_types' descriptors lack editions' fields: the files are read again from
    // the bytes.
    let Some(files) = wire::proto_files(&bytes) else {
        return fail("stdin is not a CodeGeneratorRequest: a record does not parse");
    };
    let files: Vec<Vec<u8>> = files.into_iter().map(<[u8]>::to_vec).collect();
    // Deeply nested schemas recurse once per level, as in `bijoubuf`.
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || respond(&request, &files));
    let response = match worker.map(|h| h.join()) {
        Ok(Ok(r)) => r,
        _ => return fail("internal error: the worker thread failed"),
    };
    let mut out = response.encode_to_vec();
    // The editions the plugin reads (`minimum_edition`, `maximum_edition`, which
    // prost_types lacks): 2023 to 2026, as `bijoubuf compile`.
    wire::varint_field(&mut out, 3, EDITION_2023);
    wire::varint_field(&mut out, 4, EDITION_2026);
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&out).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&format!("cannot write the response on stdout: {e}")),
    }
}

fn fail(message: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "protoc-gen-bijoubuf: error: {message}");
    ExitCode::from(1)
}

/// descriptor.proto's `Edition` numbers.
const EDITION_2023: u64 = 1000;
const EDITION_2026: u64 = 1002;

/// `CodeGeneratorResponse.Feature.FEATURE_SUPPORTS_EDITIONS`, which prost_types lacks.
const SUPPORTS_EDITIONS: u64 = 2;

/// The response to `request`, whose `proto_file`s are `files` encoded: the generated
/// files, or the error.
fn respond(request: &CodeGeneratorRequest, files: &[Vec<u8>]) -> CodeGeneratorResponse {
    let mut response = CodeGeneratorResponse {
        supported_features: Some(Feature::Proto3Optional as u64 | SUPPORTS_EDITIONS),
        ..Default::default()
    };
    match generate(request, files) {
        Ok(files) => {
            response.file = files
                .into_iter()
                .map(|(name, content)| File {
                    name: Some(name),
                    content: Some(content),
                    ..Default::default()
                })
                .collect();
        }
        // protoc prints the error after `--bijoubuf_out: ` and ends the line itself.
        Err(text) => response.error = Some(text.trim_end().to_string()),
    }
    response
}

/// `(name, content)` of every file `bijoubuf compile` writes for the requested files
/// with the parameter's options, names relative to its output directory.
fn generate(
    request: &CodeGeneratorRequest,
    files: &[Vec<u8>],
) -> Result<Vec<(String, String)>, String> {
    if request.file_to_generate.is_empty() {
        return Ok(Vec::new());
    }
    let params = params::parse(request.parameter())?;
    let mut compiler = Compiler::new();
    // Lints are buf's and the CLI's business; a plugin run generates.
    compiler.lints(Lints::none());
    for (file, bytes) in request.proto_file.iter().zip(files) {
        // The built-in copies of the files protoc bundles (the well-known types,
        // descriptor.proto) are read as `bijoubuf compile` reads them.
        if bijoubuf_schema::is_builtin(file.name()) {
            continue;
        }
        compiler
            .encoded_descriptor(bytes)
            .map_err(|e| format!("error[{}]: {e}", e.code()))?;
    }
    let compiled = compiler
        .compile(&request.file_to_generate)
        .map_err(|d| render::refusal(&d, false))?;
    let schema = &compiled.schema;
    let files = match params.lang {
        Lang::Rust => codegen::generate(
            schema,
            &params.rust_borrowed,
            &params.rust_dispatch,
            params.services,
        )?,
        Lang::Ts => {
            codegen::refuse_message_sets(schema)?;
            codegen::generate_ts(schema, &params.ts_runtime, params.services)
        }
        Lang::Go => {
            codegen::refuse_message_sets(schema)?;
            codegen::generate_go(
                schema,
                &params.go_module,
                params.go_by_go_package,
                params.services,
            )?
        }
    };
    if !params.services
        && let Some(note) = codegen::services_note(schema, "the plugin parameter services")
    {
        // protoc and buf pass the plugin's stderr through.
        let _ = writeln!(std::io::stderr(), "protoc-gen-bijoubuf: {note}");
    }
    Ok(files)
}
