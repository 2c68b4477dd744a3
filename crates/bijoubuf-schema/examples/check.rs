//! Checks .proto files the way a build script would and shows the diagnostics.
//!
//! `cargo run -p bijoubuf-schema --example check -- <include-dir> <file.proto>...`
//! (file names are relative to the include directory, as in an import).

use bijoubuf_schema::Compiler;
use miette::{GraphicalReportHandler, GraphicalTheme};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let include = args
        .next()
        .ok_or("usage: check <include-dir> <file.proto>...")?;
    let files: Vec<String> = args.collect();
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor());
    let mut compiler = Compiler::new();
    compiler.include(include);
    let mut failed = false;
    for file in &files {
        let mut out = String::new();
        match compiler.compile(&[file]) {
            Ok(compiled) => {
                let file_def = compiled.schema.file(file).ok_or("requested file missing")?;
                println!(
                    "ok {file}: {} messages, {} enums",
                    file_def.messages.len(),
                    file_def.enums.len()
                );
                for w in &compiled.warnings {
                    handler.render_report(&mut out, w)?;
                }
            }
            Err(diagnostics) => {
                failed = true;
                for d in diagnostics.errors() {
                    handler.render_report(&mut out, d)?;
                }
            }
        }
        print!("{out}");
    }
    if failed {
        Err("some files have errors".into())
    } else {
        Ok(())
    }
}
