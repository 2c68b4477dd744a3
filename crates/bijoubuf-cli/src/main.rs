//! `bijoubuf`: check `.proto` schemas, generate Rust code, and decode, encode and verify
//! canonical bijoubuf messages from the command line.
//!
//! Exit status: 0 on success, 1 when the input or the schema is refused, 2 for usage
//! errors (bad arguments, unreadable files, a type the schema does not define).

/// `eprint!` that never panics: a report to a closed or full stderr (`bijoubuf check … 2>&1
/// | head -1`) is dropped, and the exit status still says what happened.
macro_rules! say {
    ($($arg:tt)*) => {
        crate::to_stderr(format_args!($($arg)*))
    };
}

/// `eprintln!` that never panics (see `say!`).
macro_rules! sayln {
    ($($arg:tt)*) => {
        crate::to_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod breaking;
mod codegen;
mod commands;
mod hint;
mod input;
mod raw;
mod render;
mod report;
mod schema;
mod stream;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

const EXAMPLES: &str = "\
Examples:
  bijoubuf check -I protos protos/shop/v1/order.proto
  bijoubuf check --no-lint --max-diagnostics 20 -I protos protos/shop/v1/order.proto
  bijoubuf check --allow package-directory-match --deny field-name -I protos protos/a.proto
  bijoubuf compile --rust-out src/gen --descriptor-set-out order.binpb protos/order.proto
  bijoubuf decode --schema order.proto --type shop.v1.Order order.bin
  echo '00 F9 01 F1' | bijoubuf decode --schema order.proto --type shop.v1.Order --input-hex
  bijoubuf encode --schema order.proto --type shop.v1.Order --output-hex order.json
  bijoubuf verify --schema order.proto --type shop.v1.Order order.bin
  bijoubuf decode --schema box.proto --schema thing.proto --type shop.v1.Box box.bin
  bijoubuf decode --descriptor-set shop.binpb --type shop.v1.Order order.bin
  bijoubuf verify --schema order.proto --type shop.v1.Order --stream --max-size 65536 orders.log
  bijoubuf decode-raw --input-hex dump.txt
  bijoubuf breaking --against v1/ --categories canonical,forward v2/

Exit status: 0 success, 1 input or schema refused, 2 usage error.";

/// Check schemas, generate code, and decode, encode and verify canonical bijoubuf
/// messages.
/// `compile --go-layout`: where the Go packages are written and imported from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum GoLayout {
    /// Proto package `a.b` is Go package `b` in `DIR/a/b`.
    ProtoPackage,
    /// Each file's `option go_package` says.
    GoPackage,
}

#[derive(Debug, Parser)]
#[command(name = "bijoubuf", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compile schemas and report errors and lint warnings with source snippets.
    #[command(after_help = "Example:\n  bijoubuf check -I protos protos/shop/v1/order.proto")]
    Check {
        #[command(flatten)]
        includes: Includes,
        #[command(flatten)]
        lints: LintArgs,
        /// The .proto files to check; a directory stands for every .proto file below it,
        /// outside hidden directories and node_modules (and is the include directory
        /// when no -I is given).
        #[arg(value_name = "FILE.proto|DIR", required = true)]
        files: Vec<PathBuf>,
    },
    /// Generate Rust, TypeScript and/or Go code (and optionally a FileDescriptorSet) from schemas.
    #[command(
        after_help = "Examples:\n  bijoubuf compile -I protos --rust-out src/gen --descriptor-set-out fds.binpb protos/a.proto\n  bijoubuf compile -I protos --ts-out web/gen protos/a.proto\n  bijoubuf compile -I protos --go-out gen --go-module example.com/app/gen protos/a.proto",
        group = clap::ArgGroup::new("outputs").required(true).multiple(true).args(["rust_out", "ts_out", "go_out", "descriptor_set_out"])
    )]
    Compile {
        #[command(flatten)]
        includes: Includes,
        #[command(flatten)]
        lints: LintArgs,
        /// Directory the generated `<package>.rs` files are written to: the named files'
        /// packages, and those of imported files whose types they use.
        #[arg(long, value_name = "DIR")]
        rust_out: Option<PathBuf>,
        /// Also generate the borrowed twin (`FooRef<'a>`, strings and bytes borrowed from
        /// the input) of the messages at this schema path (`.pkg.Msg`, `.pkg` or `.`),
        /// and of every message they reach. Repeatable.
        #[arg(long, value_name = "PATH", requires = "rust_out")]
        rust_borrowed: Vec<String>,
        /// Decode the messages at this schema path by dispatch (a `match` on each
        /// record's field number), owned types and twins, whatever their size; by
        /// default owned types of messages with 32 declared fields or more do.
        /// Repeatable.
        #[arg(long, value_name = "PATH", requires = "rust_out")]
        rust_dispatch: Vec<String>,
        /// Also generate the schemas' services: tonic server traits and clients in Rust
        /// (needs `tonic` and `bijoubuf-tonic`), gRPC-web clients in TypeScript, grpc-go
        /// servers and clients in Go (`<package>_grpc.bb.go`, needs
        /// `google.golang.org/grpc` and `github.com/bijoubuf/bijoubuf/go/grpc`). Without
        /// it, a note says which services are left out.
        #[arg(long)]
        services: bool,
        /// Directory the generated TypeScript `<package>.ts` files are written to (every
        /// package, imported ones included).
        #[arg(long, value_name = "DIR")]
        ts_out: Option<PathBuf>,
        /// The module specifier generated TypeScript imports the runtime from.
        #[arg(
            long,
            value_name = "SPECIFIER",
            default_value = "bijoubuf",
            requires = "ts_out"
        )]
        ts_runtime: String,
        /// Directory the generated Go files are written to: proto package `a.b` as Go
        /// package `b` in `DIR/a/b/b.bb.go` (every package, imported ones included, but
        /// google.protobuf, whose types are the Go module's `wkt` package).
        #[arg(long, value_name = "DIR", requires = "go_module")]
        go_out: Option<PathBuf>,
        /// The Go import path of the --go-out directory (package `a.b` is imported as
        /// `PATH/a/b`).
        #[arg(long, value_name = "PATH", requires = "go_out")]
        go_module: Option<String>,
        /// Where Go packages go: `proto-package` (the default: proto package `a.b` in
        /// `DIR/a/b`) or `go-package` (each file's `option go_package`, as protoc-gen-go
        /// with `module=`: `PATH` less the --go-module prefix, a `PATH` outside it under
        /// `DIR/PATH`; a package without the option keeps the default).
        #[arg(long, value_enum, value_name = "LAYOUT", requires = "go_out")]
        go_layout: Option<GoLayout>,
        /// Also write the schemas as an encoded protobuf FileDescriptorSet, byte for byte
        /// what `protoc -o FILE` writes with the same flags.
        #[arg(long, value_name = "FILE")]
        descriptor_set_out: Option<PathBuf>,
        /// Put every imported file in the descriptor set too (protoc's `--include_imports`).
        #[arg(long, requires = "descriptor_set_out")]
        include_imports: bool,
        /// Put source-code info (spans, comments) in the descriptor set (protoc's
        /// `--include_source_info`).
        #[arg(long, requires = "descriptor_set_out")]
        include_source_info: bool,
        /// Keep options of source retention in the descriptor set, custom options as
        /// written (protoc's `--retain_options`).
        #[arg(long, requires = "descriptor_set_out")]
        retain_options: bool,
        /// The .proto files to compile; a directory stands for every .proto file below it,
        /// outside hidden directories and node_modules (and is the include directory
        /// when no -I is given).
        #[arg(value_name = "FILE.proto|DIR", required = true)]
        files: Vec<PathBuf>,
    },
    /// Decode canonical bytes (strictly) and print them as proto3 JSON.
    #[command(
        after_help = "Examples:\n  bijoubuf decode --schema person.proto --type Person person.bin\n  echo '02 03 41 64 61' | bijoubuf decode --schema person.proto --type Person --input-hex"
    )]
    Decode {
        #[command(flatten)]
        target: Target,
        #[command(flatten)]
        input: BinaryInput,
        #[command(flatten)]
        limits: Limits,
    },
    /// Read proto3 JSON and write the canonical bytes.
    #[command(
        after_help = "Example:\n  echo '{\"name\": \"Ada\"}' | bijoubuf encode --schema person.proto --type Person --output-hex"
    )]
    Encode {
        #[command(flatten)]
        target: Target,
        /// Write lowercase hex and a newline instead of raw bytes.
        #[arg(long)]
        output_hex: bool,
        /// Refuse messages nested deeper than N (the top level is depth 1, messages
        /// inside Any count; at most 500), as `decode --max-depth` does.
        #[arg(long, value_name = "N", default_value_t = 100,
              value_parser = clap::value_parser!(u32).range(1..=bijoubuf::MAX_DEPTH_LIMIT as i64))]
        max_depth: u32,
        /// JSON input file; stdin when absent or `-`.
        #[arg(value_name = "INPUT")]
        input: Option<PathBuf>,
    },
    /// Check that bytes are the canonical encoding of a message; print
    /// `ok <n> bytes blake3:<hash>`.
    #[command(
        after_help = "Example:\n  bijoubuf verify --schema person.proto --type Person person.bin"
    )]
    Verify {
        #[command(flatten)]
        target: Target,
        #[command(flatten)]
        input: BinaryInput,
        #[command(flatten)]
        limits: Limits,
    },
    /// Print the records of any bytes without a schema: field numbers, wire types,
    /// values, and nested messages where a payload parses as one.
    #[command(
        after_help = "Example:\n  echo '00 F8 34 02 02 68 69' | bijoubuf decode-raw --input-hex"
    )]
    DecodeRaw {
        #[command(flatten)]
        input: BinaryInput,
    },
    /// Compare a schema with an older one: what the change does to bytes already
    /// written (canonical), to old readers (forward), to JSON and to generated code;
    /// canonical and forward findings come with bytes that fail. Types pair by full
    /// name unless --rename says otherwise. Exit 1 on errors (--fail-on warning: on
    /// any finding).
    #[command(
        after_help = "Examples:\n  bijoubuf breaking --against old/ new/\n  bijoubuf breaking --against v1.binpb --categories canonical --format json -I protos protos/a.proto\n  bijoubuf breaking --against old/ --rename shop.v1.Order=shop.v1.Purchase --fail-on warning new/"
    )]
    Breaking(breaking::BreakingArgs),
}

/// Import directories.
#[derive(Debug, Args)]
struct Includes {
    /// Directory imports are resolved in (repeatable); defaults to each directory named
    /// and each schema file's directory.
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    include: Vec<PathBuf>,
}

/// Which lint rules run and how, and how many diagnostics are shown.
#[derive(Debug, Args)]
struct LintArgs {
    /// Run the lint rules (the default).
    #[arg(long, overrides_with = "no_lint")]
    lint: bool,
    /// Run no lint rule (those named by --warn or --deny still run).
    #[arg(long)]
    no_lint: bool,
    /// Turn lint rule RULE off (repeatable; `all` names every rule). Rules: package,
    /// package-version-suffix, package-directory-match, type-name, field-name,
    /// oneof-lower-snake-case, enum-zero-value, enum-value-prefix,
    /// enum-value-upper-snake-case, service-pascal-case, service-suffix, rpc-pascal-case,
    /// rpc-request-standard-name, rpc-response-standard-name,
    /// rpc-request-response-unique, unused-import.
    #[arg(long, value_name = "RULE")]
    allow: Vec<String>,
    /// Make lint rule RULE warn (repeatable).
    #[arg(long, value_name = "RULE")]
    warn: Vec<String>,
    /// Make lint rule RULE an error that refuses the schema (repeatable; applied after
    /// --allow and --warn).
    #[arg(long, value_name = "RULE")]
    deny: Vec<String>,
    /// Show at most N diagnostics (errors first, then warnings); the rest are counted.
    #[arg(long, value_name = "N")]
    max_diagnostics: Option<usize>,
}

impl LintArgs {
    /// No lint rule: for commands that read schemas without judging their style.
    fn off() -> Self {
        LintArgs {
            lint: false,
            no_lint: true,
            allow: Vec::new(),
            warn: Vec::new(),
            deny: Vec::new(),
            max_diagnostics: None,
        }
    }
}

/// The schema and the message type.
#[derive(Debug, Args)]
struct Target {
    #[command(flatten)]
    includes: Includes,
    /// The .proto file that defines (or imports) the message type, or a directory
    /// standing for every .proto file below it (outside hidden directories and
    /// node_modules). Repeatable: the types of every file
    /// given are known, so an `Any` may name a type of another file.
    #[arg(
        long,
        value_name = "FILE.proto",
        required_unless_present = "descriptor_set"
    )]
    schema: Vec<PathBuf>,
    /// Read the types from an encoded FileDescriptorSet (`protoc --descriptor_set_out`,
    /// `bijoubuf compile --descriptor-set-out`, buf) instead of, or besides, `--schema`.
    #[arg(long, value_name = "FILE")]
    descriptor_set: Option<PathBuf>,
    /// Fully-qualified message name, e.g. `shop.v1.Order`.
    #[arg(long = "type", value_name = "NAME")]
    type_name: String,
}

/// Binary input.
#[derive(Debug, Args)]
struct BinaryInput {
    /// Read the input as hex text (whitespace ignored) instead of raw bytes.
    #[arg(long)]
    input_hex: bool,
    /// Input file; stdin when absent or `-`.
    #[arg(value_name = "INPUT")]
    input: Option<PathBuf>,
}

/// Decoder settings.
#[derive(Debug, Args)]
struct Limits {
    /// Keep unknown fields instead of refusing them (SPEC §8.2), except inside the
    /// well-known types (package google.protobuf), which refuse them as generated code
    /// does.
    #[arg(long)]
    preserve_unknown: bool,
    /// Refuse messages nested deeper than N (the top level is depth 1; at most 500, the
    /// runtime's cap on both sides).
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=bijoubuf::MAX_DEPTH_LIMIT as i64))]
    max_depth: u32,
    /// Refuse a message longer than N bytes (with `--stream`: a frame declaring more than
    /// N bytes) before decoding it (SPEC §9.4).
    #[arg(long, value_name = "N")]
    max_size: Option<usize>,
    /// The input is a length-delimited stream: frames of a bijou64 length and that many
    /// bytes of message (SPEC §9.2). `decode` prints a JSON array.
    #[arg(long)]
    stream: bool,
}

/// How a command failed; decides the exit status.
#[derive(Debug)]
enum Failure {
    /// The input or the schema was refused; the report is already on stderr.
    Refused,
    /// A usage error: the message for stderr.
    Usage(String),
}

/// Writes a report to stderr; a failed write is ignored, since there is nowhere left to say
/// it (std's `eprint!` panics instead, which turned a refusal's status 1 into 101).
fn to_stderr(args: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let _ = std::io::stderr().lock().write_fmt(args);
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Deeply nested inputs recurse once per level; a large stack keeps the depth limit
    // (at most 500) the only bound, in debug builds too.
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || commands::run(cli.command));
    let result = match worker.map(|h| h.join()) {
        Ok(Ok(r)) => r,
        _ => Err(Failure::Usage(
            "internal error: the worker thread failed".into(),
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Refused) => ExitCode::from(1),
        Err(Failure::Usage(msg)) => {
            sayln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
