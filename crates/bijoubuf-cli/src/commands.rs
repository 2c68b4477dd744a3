//! The subcommands.

use std::io::Write;
use std::path::{Path, PathBuf};

use bijoubuf::{DecodeOptions, UnknownFieldPolicy};
use bijoubuf_reflect::{DynamicMessage, MessageDescriptor};

use crate::input::{self, Input};
use crate::{BinaryInput, Command, Failure, Limits, LintArgs, Target, raw, report, schema};

pub(crate) fn run(cmd: Command) -> Result<(), Failure> {
    match cmd {
        Command::Check {
            includes,
            lints,
            files,
        } => check(&includes.include, &lints, &files),
        Command::Compile {
            includes,
            lints,
            rust_out,
            rust_borrowed,
            rust_dispatch,
            services,
            ts_out,
            ts_runtime,
            go_out,
            go_module,
            go_layout,
            descriptor_set_out,
            include_imports,
            include_source_info,
            retain_options,
            files,
        } => compile(
            &includes.include,
            &lints,
            Outputs {
                rust: rust_out.as_deref(),
                rust_borrowed: &rust_borrowed,
                rust_dispatch: &rust_dispatch,
                services,
                ts: ts_out.as_deref().map(|dir| (dir, ts_runtime.as_str())),
                go: go_out.as_deref().map(|dir| {
                    (
                        dir,
                        go_module.as_deref().unwrap_or_default(),
                        go_layout == Some(crate::GoLayout::GoPackage),
                    )
                }),
                descriptor_set: descriptor_set_out.as_deref().map(|path| {
                    let flags = bijoubuf_schema::DescriptorSetOptions {
                        include_imports,
                        include_source_info,
                        retain_options,
                    };
                    (path, flags)
                }),
            },
            &files,
        ),
        Command::Decode {
            target,
            input,
            limits,
        } => decode(&target, &input, &limits),
        Command::Encode {
            target,
            output_hex,
            max_depth,
            input,
        } => encode(&target, output_hex, max_depth, input.as_deref()),
        Command::Verify {
            target,
            input,
            limits,
        } => verify(&target, &input, &limits),
        Command::DecodeRaw { input } => decode_raw(&input),
        Command::Breaking(args) => crate::breaking::run(&args),
    }
}

pub(crate) fn out(bytes: &[u8]) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::Usage(format!("cannot write the output: {e}")))
}

/// Print a report line already rendered and fail with status 1.
fn refused(line: String) -> Failure {
    sayln!("{line}");
    Failure::Refused
}

/// Print a refusal report and fail with status 1.
pub(crate) fn refuse(code: &str, message: &str) -> Failure {
    sayln!("error[{code}]: {message}");
    Failure::Refused
}

fn check(includes: &[PathBuf], lints: &LintArgs, files: &[PathBuf]) -> Result<(), Failure> {
    let compiled = schema::compile(includes, lints, files)?;
    schema::print_warnings(&compiled);
    let files_n = compiled
        .schema
        .files()
        .iter()
        .filter(|f| f.requested)
        .count();
    let warnings = compiled.warnings.len() + compiled.omitted;
    out(format!(
        "ok {files_n} file{} checked, {warnings} warning{}\n",
        if files_n == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" }
    )
    .as_bytes())
}

/// Where `compile` writes: Rust modules, TypeScript modules (with the runtime's module
/// specifier), a descriptor set.
struct Outputs<'a> {
    rust: Option<&'a Path>,
    /// Schema paths whose messages also get borrowed twins.
    rust_borrowed: &'a [String],
    /// Schema paths whose messages are decoded by dispatch.
    rust_dispatch: &'a [String],
    /// Generate services (Rust servers and clients, TypeScript clients, Go servers and
    /// clients).
    services: bool,
    ts: Option<(&'a Path, &'a str)>,
    /// The Go output directory, its import path, and whether packages are laid out by
    /// `option go_package`.
    go: Option<(&'a Path, &'a str, bool)>,
    /// The file, and protoc's flags for what goes in it.
    descriptor_set: Option<(&'a Path, bijoubuf_schema::DescriptorSetOptions)>,
}

fn write_all(
    dir: &Path,
    files: Vec<(String, String)>,
    written: &mut Vec<String>,
) -> Result<(), Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::Usage(format!("cannot create {}: {e}", dir.display())))?;
    for (name, content) in files {
        let path = dir.join(&name);
        std::fs::write(&path, content)
            .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?;
        written.push(path.display().to_string());
    }
    Ok(())
}

fn compile(
    includes: &[PathBuf],
    lints: &LintArgs,
    outputs: Outputs<'_>,
    files: &[PathBuf],
) -> Result<(), Failure> {
    let compiled = schema::compile(includes, lints, files)?;
    schema::print_warnings(&compiled);
    if outputs.ts.is_some() || outputs.go.is_some() {
        // TypeScript and Go are generated for every file of the schema; refused before
        // anything is written, as the Rust generator refuses its files.
        crate::codegen::refuse_message_sets(&compiled.schema).map_err(refused)?;
    }
    let mut written = Vec::new();
    if let Some(dir) = outputs.rust {
        let generated = crate::codegen::generate(
            &compiled.schema,
            outputs.rust_borrowed,
            outputs.rust_dispatch,
            outputs.services,
        )
        .map_err(refused)?;
        write_all(dir, generated, &mut written)?;
    }
    if let Some((dir, runtime)) = outputs.ts {
        write_all(
            dir,
            crate::codegen::generate_ts(&compiled.schema, runtime, outputs.services),
            &mut written,
        )?;
    }
    if let Some((dir, module, by_go_package)) = outputs.go {
        // Go files go in one directory per package: create each.
        for (name, content) in
            crate::codegen::generate_go(&compiled.schema, module, by_go_package, outputs.services)
                .map_err(refused)?
        {
            let path = dir.join(&name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| {
                    Failure::Usage(format!("cannot create {}: {e}", parent.display()))
                })?;
            }
            std::fs::write(&path, content)
                .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?;
            written.push(path.display().to_string());
        }
    }
    let generated = outputs.rust.is_some() || outputs.ts.is_some() || outputs.go.is_some();
    if generated
        && !outputs.services
        && let Some(note) = crate::codegen::services_note(&compiled.schema, "--services")
    {
        sayln!("{note}");
    }
    let descriptor_set_out = outputs.descriptor_set;
    if let Some((path, flags)) = descriptor_set_out {
        // Byte for byte what protoc writes with the same flags.
        let bytes = compiled.schema.encode_descriptor_set(flags);
        std::fs::write(path, bytes)
            .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?;
        written.push(path.display().to_string());
    }
    let mut text = String::new();
    for w in written {
        text.push_str(&format!("wrote {w}\n"));
    }
    out(text.as_bytes())
}

/// The bytes of a binary input (hex text decoded when asked).
fn binary(input: &BinaryInput) -> Result<Input, Failure> {
    let mut i = input::read(input.input.as_deref())?;
    if input.input_hex {
        i.bytes = input::parse_hex(&i.bytes).map_err(|e| refuse("invalid-hex", &e.0))?;
    }
    Ok(i)
}

pub(crate) fn options(limits: &Limits) -> DecodeOptions {
    let policy = if limits.preserve_unknown {
        UnknownFieldPolicy::Preserve
    } else {
        UnknownFieldPolicy::Reject
    };
    DecodeOptions::new()
        .max_depth(limits.max_depth)
        .max_size(limits.max_size)
        .unknown_fields(policy)
}

fn target(t: &Target) -> Result<MessageDescriptor, Failure> {
    schema::message(
        &t.includes.include,
        &t.schema,
        t.descriptor_set.as_deref(),
        &t.type_name,
    )
}

/// Decode strictly, printing the refusal report on failure.
fn decode_input(
    desc: &MessageDescriptor,
    input: &Input,
    limits: &Limits,
) -> Result<DynamicMessage, Failure> {
    DynamicMessage::decode_with(desc, &input.bytes, &options(limits))
        .map_err(|e| report_decode_error(&e, 0, input))
}

/// Print the refusal report of a decode error whose offsets count from `base`.
fn report_decode_error(e: &bijoubuf_reflect::DecodeError, base: usize, input: &Input) -> Failure {
    let path = e.path_string();
    let subject = if path.is_empty() { "input" } else { &path };
    let offset = base + e.offset();
    let message = format!("{subject} {} at byte {offset}", e.kind().what());
    say!(
        "{}",
        report::refusal(e.code(), &message, offset, &path, &input.name, &input.bytes)
    );
    if let Some(hint) = crate::hint::protobuf(&input.bytes) {
        say!("\n{hint}");
    }
    Failure::Refused
}

pub(crate) fn note_unknown(msg: &DynamicMessage, what: &str) {
    let n = msg.unknown_field_count();
    if n > 0 {
        sayln!(
            "note: {n} unknown field record{} preserved; {what}",
            if n == 1 { " was" } else { "s were" }
        );
    }
}

fn decode(t: &Target, input: &BinaryInput, limits: &Limits) -> Result<(), Failure> {
    let desc = target(t)?;
    if limits.stream {
        return crate::stream::decode(&desc, input, limits);
    }
    let input = binary(input)?;
    let msg = decode_input(&desc, &input, limits)?;
    note_unknown(&msg, "proto3 JSON cannot show them");
    let json = bijoubuf_reflect::json::to_string_with(&msg, &json_options(limits.max_depth))
        .map_err(|e| refuse(e.code(), &e.to_string()))?;
    out(format!("{json}\n").as_bytes())
}

/// Indented JSON with the decoder's depth limit: whatever decodes prints (or is refused
/// for a reason other than its depth), and what prints reads back with `encode` at the
/// same `--max-depth`.
pub(crate) fn json_options(max_depth: u32) -> bijoubuf_reflect::json::JsonOptions {
    bijoubuf_reflect::json::JsonOptions::new()
        .max_depth(max_depth)
        .pretty(2)
}

fn encode(
    t: &Target,
    output_hex: bool,
    max_depth: u32,
    input: Option<&Path>,
) -> Result<(), Failure> {
    let desc = target(t)?;
    let input = input::read(input)?;
    let text = std::str::from_utf8(&input.bytes)
        .map_err(|e| refuse("invalid-json", &format!("the input is not UTF-8: {e}")))?;
    // Editors on some systems start UTF-8 files with a byte order mark; JSON does not.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Read at the cap, so that a value too deep for `max_depth` is refused by the
    // encoder with its code (`depth-limit-exceeded`, SPEC §9.3).
    let reading = json_options(bijoubuf::MAX_DEPTH_LIMIT);
    let msg = bijoubuf_reflect::json::from_str_with(&desc, text, &reading)
        .map_err(|e| refuse(e.code(), &e.to_string()))?;
    let bytes = msg
        .encode_with_max_depth(max_depth)
        .map_err(|e| refuse(e.code(), &e.detail()))?;
    if output_hex {
        out(format!("{}\n", input::to_hex(&bytes)).as_bytes())
    } else {
        out(&bytes)
    }
}

fn verify(t: &Target, input: &BinaryInput, limits: &Limits) -> Result<(), Failure> {
    let desc = target(t)?;
    if limits.stream {
        return crate::stream::verify(&desc, input, limits);
    }
    let input = binary(input)?;
    let msg = decode_input(&desc, &input, limits)?;
    // Decoding is strict, so the input is canonical; re-encoding confirms it.
    let again = msg
        .encode_with_max_depth(limits.max_depth)
        .map_err(|e| refuse("not-canonical", &e.to_string()))?;
    note_unknown(&msg, "the bytes are canonical only for a preserving reader");
    if again != input.bytes {
        return Err(refuse(
            "not-canonical",
            "the input decodes but re-encodes differently (please report this as a bug)",
        ));
    }
    let hash = blake3::hash(&input.bytes);
    let size = report::count(input.bytes.len() as u64, "byte");
    out(format!("ok {size} blake3:{}\n", hash.to_hex()).as_bytes())
}

fn decode_raw(input: &BinaryInput) -> Result<(), Failure> {
    let input = binary(input)?;
    let mut text = String::new();
    let result = raw::render(&input.bytes, &mut text);
    out(text.as_bytes())?;
    match result {
        Ok(()) => Ok(()),
        Err(e) => {
            say!(
                "{}",
                report::refusal(
                    e.code,
                    &format!("{} at byte {}", e.message, e.offset),
                    e.offset,
                    "",
                    &input.name,
                    &input.bytes
                )
            );
            Err(Failure::Refused)
        }
    }
}
