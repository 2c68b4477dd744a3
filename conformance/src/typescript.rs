//! The TypeScript implementation (`typescript/` at the repository root) as a testee:
//! its code is generated from the conformance schemas by `bijoubuf-codegen-ts`, compiled
//! with the package's pinned TypeScript, and run with Node. The same build compiles the
//! package's signed-envelope example (`typescript/examples/signed.ts`).
//!
//! Node 20 and npm are needed. Without them a local run says what to install and leaves
//! the TypeScript engine out; in CI (`CI` set) that is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The `typescript/` package directory.
pub fn package_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../typescript")
}

/// What a missing toolchain means here: fail in CI, skip with a note elsewhere.
fn missing(what: &str) -> Result<Option<Vec<String>>, String> {
    let msg = format!(
        "the TypeScript implementation's tests need {what}: install Node.js 20 or newer with npm \
         (e.g. `apt-get install nodejs npm`, or from nodejs.org), then run `npm ci` in typescript/"
    );
    if std::env::var_os("CI").is_some() {
        Err(format!("CI: {msg}"))
    } else {
        eprintln!("note: skipping the TypeScript engine; {msg}");
        Ok(None)
    }
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Write the TypeScript of `schema` to `typescript/<sub>`, importing the runtime from
/// `runtime`, with its services' clients when `services`.
fn write(
    schema: &bijoubuf_schema::Schema,
    out: &Path,
    runtime: &str,
    services: bool,
) -> Result<(), String> {
    let mut options = bijoubuf_codegen_ts::Options::new();
    options.runtime_import(runtime).services(services);
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for f in bijoubuf_codegen_ts::generate(schema, &options) {
        let path = out.join(&f.name);
        // Unchanged files are left alone, so their timestamps do not trigger rebuilds.
        if std::fs::read_to_string(&path).ok().as_deref() != Some(f.content.as_str()) {
            std::fs::write(&path, f.content).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The field numbers at each side of a bijou64 tier edge for the key of a message's first
/// record, `(n - 1) * 4 + wire` (SPEC §2.3, §4.1), from 1 to the highest number (SPEC §4.3).
pub const KEY_EDGES: [u32; 10] = [
    1, 62, 63, 126, 127, 16510, 16511, 4210814, 4210815, 536870911,
];

/// Each field shape of [`key_schema`]: its declaration up to the number (`f = n;` follows,
/// then `}` for a oneof), its name in the schema's message names, and a set value of it
/// as proto3 JSON.
pub const KEY_SHAPES: [(&str, &str, &str); 16] = [
    ("int32 f", "Int32", "-7"),
    ("fixed32 f", "Fixed32", "5"),
    ("double f", "Double", "1.5"),
    ("string f", "String", "\"hi\""),
    ("bytes f", "Bytes", "\"AQI=\""),
    ("bool f", "Bool", "true"),
    ("E f", "Enum", "\"E_ONE\""),
    ("Leaf f", "Message", "{\"x\": 3}"),
    ("optional uint64 f", "Optional", "\"0\""),
    ("repeated uint32 f", "Packed", "[1, 300]"),
    ("repeated string f", "Strings", "[\"a\", \"\"]"),
    ("repeated Leaf f", "Messages", "[{\"x\": 1}, {}]"),
    ("map<string, uint32> f", "StringMap", "{\"b\": 2, \"a\": 1}"),
    ("map<uint32, Leaf> f", "LeafMap", "{\"7\": {\"x\": 1}}"),
    ("oneof o { string f", "OneofString", "\"\""),
    ("oneof o { Leaf f", "OneofMessage", "{}"),
];

/// A schema (package `keys`) for the keys of every width: for each field number of
/// [`KEY_EDGES`] and shape of [`KEY_SHAPES`], `Alone<n>_<shape>` holds only that field
/// and `After<n>_<shape>` holds it between `uint32 a = 1` and `uint32 z = n + 1`, so its
/// key follows field 0 or 1 and the next key follows it. Generated TypeScript once read a
/// `prev` it never declared when a message's only field was past 62.
pub fn key_schema() -> String {
    let mut s = String::from(
        "syntax = \"proto3\";\npackage keys;\nenum E { E_ZERO = 0; E_ONE = 1; }\nmessage Leaf { uint32 x = 1; }\n",
    );
    for n in KEY_EDGES {
        for (decl, shape, _) in KEY_SHAPES {
            let close = if decl.starts_with("oneof") { " }" } else { "" };
            let field = format!("{decl} = {n};{close}");
            s.push_str(&format!("message Alone{n}_{shape} {{ {field} }}\n"));
            if n > 1 {
                let z = if n < KEY_EDGES[9] {
                    format!(" uint32 z = {};", n + 1)
                } else {
                    String::new()
                };
                s.push_str(&format!(
                    "message After{n}_{shape} {{ uint32 a = 1; {field}{z} }}\n"
                ));
            }
        }
    }
    s
}

/// The field counts of the proto3 messages of [`wide_schema`] (`wide.Wide<n>`); its proto2
/// message `wide2.Required1000` has 1,000. A 2,000-field message passed as well but made
/// every build of the testee about 9.5 s slower, so it is left out.
pub const WIDE_COUNTS: [usize; 1] = [1000];

/// The field shapes of [`wide_schema`]'s proto3 messages, taken in turn; `oneof` is three
/// fields in one oneof. The message type is named `s`, a name the generated code once used
/// for a local of its own.
const WIDE_SHAPES: [&str; 19] = [
    "int32",
    "uint64",
    "sint64",
    "string",
    "bytes",
    "bool",
    "double",
    "fixed32",
    "sfixed64",
    "float",
    "E",
    "s",
    "optional uint32",
    "repeated uint32",
    "repeated string",
    "repeated s",
    "map<string, uint32>",
    "map<uint32, s>",
    "oneof",
];

/// The field shapes of [`wide_schema`]'s proto2 message.
const WIDE_SHAPES_PROTO2: [&str; 8] = [
    "required uint32",
    "optional string",
    "required string",
    "repeated int64",
    "optional Leaf2",
    "map<uint32, string>",
    "required fixed64",
    "oneof",
];

/// The fields of a wide message: `count` fields of `shapes` in turn, numbered from 1 with a
/// gap after every tenth (so unknown numbers fall between the fields of every stretch).
fn wide_fields(count: usize, shapes: &[&str]) -> String {
    let mut s = String::new();
    let (mut i, mut turn, mut oneofs) = (0, 0, 0);
    let number = |i: usize| i + 1 + i / 10;
    while i < count {
        let shape = shapes[turn % shapes.len()];
        turn += 1;
        if shape == "oneof" {
            let members: Vec<String> = ["string", "s", "uint32"]
                .iter()
                .zip(i..count)
                .map(|(ty, j)| {
                    let ty = if *ty == "s" && shapes == WIDE_SHAPES_PROTO2 {
                        "Leaf2"
                    } else {
                        ty
                    };
                    format!("{ty} f{} = {};", number(j), number(j))
                })
                .collect();
            i += members.len();
            s.push_str(&format!("  oneof o{oneofs} {{ {} }}\n", members.join(" ")));
            oneofs += 1;
        } else {
            s.push_str(&format!("  {shape} f{n} = {n};\n", n = number(i)));
            i += 1;
        }
    }
    s
}

/// Schemas (packages `wide` and `wide2`) of messages of more fields than one generated
/// TypeScript function holds, which the generator splits: `wide.Wide<n>` for each count of
/// [`WIDE_COUNTS`], every proto3 field shape in turn, and `wide2.Required1000`, proto2
/// with required fields. `tsc` once refused such code as too large for its control flow
/// analysis (TS2563). As `(file name, source)`.
pub fn wide_schema() -> [(String, String); 2] {
    let mut proto3 = String::from(
        "syntax = \"proto3\";\npackage wide;\nenum E { E_ZERO = 0; E_ONE = 1; }\nmessage s { uint32 x = 1; }\n",
    );
    for n in WIDE_COUNTS {
        proto3.push_str(&format!(
            "message Wide{n} {{\n{}}}\n",
            wide_fields(n, &WIDE_SHAPES)
        ));
    }
    let proto2 = format!(
        "syntax = \"proto2\";\npackage wide2;\nmessage Leaf2 {{ optional uint32 x = 1; }}\nmessage Required1000 {{\n{}}}\n",
        wide_fields(1000, &WIDE_SHAPES_PROTO2)
    );
    [
        ("wide.proto".to_string(), proto3),
        ("wide2.proto".to_string(), proto2),
    ]
}

/// Generate the TypeScript the testee and the examples import: the conformance schemas
/// to `typescript/gen/conformance`, [`key_schema`] to `typescript/gen/keys`,
/// [`wide_schema`] to `typescript/gen/wide`, the
/// signed-envelope example's to `typescript/gen/examples`, and
/// `crates/bijoubuf-codegen-tests/protos/binding_names.proto` (type-checked only) to
/// `typescript/gen/names`.
fn generate(dir: &Path) -> Result<(), String> {
    let compiled = bijoubuf_schema::compile_sources(crate::SCHEMA_SOURCES)
        .map_err(|d| format!("conformance schemas do not compile: {d:?}"))?;
    write(
        &compiled.schema,
        &dir.join("gen/conformance"),
        "../../src/index.js",
        false,
    )?;
    let keys = key_schema();
    let compiled = bijoubuf_schema::compile_sources(&[("keys.proto", keys.as_str())])
        .map_err(|d| format!("the key schema does not compile: {d:?}"))?;
    write(
        &compiled.schema,
        &dir.join("gen/keys"),
        "../../src/index.js",
        false,
    )?;
    let wide = wide_schema();
    let sources: Vec<(&str, &str)> = wide.iter().map(|(n, s)| (n.as_str(), s.as_str())).collect();
    let compiled = bijoubuf_schema::compile_sources(&sources)
        .map_err(|d| format!("the wide schema does not compile: {d:?}"))?;
    write(
        &compiled.schema,
        &dir.join("gen/wide"),
        "../../src/index.js",
        false,
    )?;
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let examples = bijoubuf_schema::Compiler::new()
        .include(&schemas)
        .compile(&["examples/signed.proto", "examples/ledger.proto"])
        .map_err(|e| format!("example schemas do not compile: {e}"))?;
    write(
        &examples.schema,
        &dir.join("gen/examples"),
        "../../src/index.js",
        false,
    )?;
    // Types named like what the generator binds, with a client whose requests are named
    // like its parameters: `tsc` refused such modules when a local hid a type.
    let names =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/bijoubuf-codegen-tests/protos");
    let bindings = bijoubuf_schema::Compiler::new()
        .include(&names)
        .compile(&["binding_names.proto"])
        .map_err(|e| format!("binding_names.proto does not compile: {e}"))?;
    write(
        &bindings.schema,
        &dir.join("gen/names"),
        "../../src/index.js",
        true,
    )
}

fn prepare() -> Result<Option<Vec<String>>, String> {
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node_ok {
        return missing("`node`, which was not found");
    }
    let dir = package_dir();
    if !dir.join("node_modules/typescript").is_dir() {
        let npm_ok = Command::new("npm")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !npm_ok {
            return missing("`npm`, which was not found");
        }
        run(
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&dir),
            "npm ci in typescript/",
        )?;
    }
    generate(&dir)?;
    run(
        Command::new("node")
            .args([
                "node_modules/typescript/bin/tsc",
                "-p",
                "tsconfig.testee.json",
            ])
            .current_dir(&dir),
        "compiling the TypeScript testee (tsc -p typescript/tsconfig.testee.json)",
    )?;
    let testee = dir.join("dist/testee/testee.js");
    Ok(Some(vec![
        "node".to_string(),
        testee.to_string_lossy().into_owned(),
    ]))
}

/// The command line of the TypeScript testee, built once per process: `Ok(None)` when
/// Node is missing outside CI (after a note on stderr), `Err` when it is missing in CI or
/// the build fails.
///
/// # Errors
/// A message saying what failed or what to install.
pub fn testee() -> Result<Option<Vec<String>>, String> {
    static ONCE: OnceLock<Result<Option<Vec<String>>, String>> = OnceLock::new();
    ONCE.get_or_init(prepare).clone()
}
