//! Compiles .proto files in one call and writes the encoded `FileDescriptorSet` of the
//! named files, what `protoc -o` writes with the same flags:
//!
//! ```text
//! cargo run -p bijoubuf-schema --example descriptor_set -- -I <dir> -o <out.binpb> \
//!     [--include_imports] [--include_source_info] [--retain_options] <file.proto>... [@list]
//! ```
//!
//! `@list` reads file names from `list`, one a line. `--prost-types` writes the
//! `prost_types` view instead (no custom options), to see what it loses. On errors,
//! prints them (one line each) and exits 1.

use bijoubuf_schema::{Compiler, DescriptorSetOptions, Lints};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut compiler = Compiler::new();
    compiler.lints(Lints::none());
    let mut out = None;
    let mut prost_types_view = false;
    let mut flags = DescriptorSetOptions::default();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-I" => {
                compiler.include(args.next().ok_or("-I needs a directory")?);
            }
            "-o" => out = Some(args.next().ok_or("-o needs a file")?),
            "--prost-types" => prost_types_view = true,
            "--include_imports" => flags.include_imports = true,
            "--include_source_info" => flags.include_source_info = true,
            "--retain_options" => flags.retain_options = true,
            list if list.starts_with('@') => {
                let text = std::fs::read_to_string(&list[1..])?;
                files.extend(text.lines().filter(|l| !l.is_empty()).map(String::from));
            }
            file => files.push(file.to_string()),
        }
    }
    let out = out.ok_or("usage: descriptor_set -I <dir> -o <out> <files>...")?;
    match compiler.compile(&files) {
        Ok(compiled) => {
            let bytes = if prost_types_view {
                prost::Message::encode_to_vec(&compiled.schema.file_descriptor_set())
            } else {
                compiled.schema.encode_descriptor_set(flags)
            };
            std::fs::write(&out, bytes)?;
            Ok(())
        }
        Err(diagnostics) => {
            for d in diagnostics.errors() {
                eprintln!(
                    "{}:{}:{}: {}: {}",
                    d.file(),
                    d.line(),
                    d.column(),
                    d.code(),
                    d.message()
                );
            }
            eprintln!("{} errors", diagnostics.errors().len());
            std::process::exit(1);
        }
    }
}
