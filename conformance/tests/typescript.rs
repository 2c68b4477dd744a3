//! The TypeScript implementation (`typescript/`), from `cargo test`:
//!
//! - its own test suite (`node --test` over the compiled package);
//! - across the language boundary: values built and encoded by Rust are accepted by the
//!   TypeScript decoder and re-encoded to the same bytes, and values built and encoded by
//!   TypeScript are accepted by Rust (generated code and reflect) and re-encoded to the
//!   same bytes; and on arbitrary and mutated
//!   bytes, strict and preserving, TypeScript gives the same verdict as Rust (accepted
//!   with the same re-encoding, or refused with the same code, offset and path).
//!
//! Node 20 and npm are needed; without them a local run prints what to install and these
//! tests pass vacuously, while in CI (`CI` set) they fail.

mod common;
use common::{
    accepted_vectors_print_the_same_json, agree_with_rust_on_bytes, edited,
    encoders_refuse_alike_at_their_limits, floats_print_the_same_json, json_mutation, json_path,
    json_seeds, mutate_json, runner,
};

use std::cell::RefCell;
use std::io::{BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use bijoubuf_conformance::generated::TYPE_NAMES;
use bijoubuf_conformance::props::check_value;
use bijoubuf_conformance::protocol::{Request, Response, read_frame, write_frame};
use bijoubuf_conformance::{Config, Outcome, dynamic, generated, hex, typescript};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

struct Node {
    child: Child,
    input: BufWriter<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl Node {
    /// The TypeScript testee, or `None` when Node is missing outside CI.
    fn start() -> Option<Node> {
        let cmd = typescript::testee().unwrap_or_else(|e| panic!("{e}"))?;
        let mut child = Command::new(&cmd[0])
            .args(&cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node starts");
        let input = BufWriter::new(child.stdin.take().expect("stdin"));
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Some(Node {
            child,
            input,
            output,
        })
    }

    fn decode(&mut self, type_name: &str, bytes: &[u8], cfg: &Config) -> Outcome {
        let req = Request::Decode {
            type_name: type_name.to_string(),
            input: hex::format_runs(bytes),
            decoder: *cfg,
        };
        write_frame(&mut self.input, &req).expect("write to the testee");
        let res: Response = read_frame(&mut self.output)
            .expect("read from the testee")
            .expect("the testee answers");
        res.into_outcome()
            .unwrap_or_else(|e| panic!("{type_name}: {e}"))
    }
}

impl Node {
    /// The encoding of an arbitrary value of `type_name` built by TypeScript from `seed`
    /// (a request of the TypeScript testee beyond the protocol).
    fn arbitrary(&mut self, type_name: &str, seed: u32) -> Result<Vec<u8>, String> {
        let req = serde_json::json!({"op": "arbitrary", "type": type_name, "seed": seed});
        write_frame(&mut self.input, &req).map_err(|e| e.to_string())?;
        match read_frame(&mut self.output).map_err(|e| e.to_string())? {
            Some(Response::Encoded { output }) => hex::parse(&output).map_err(|e| e.to_string()),
            other => Err(format!("{type_name} seed {seed}: {other:?}")),
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn typescript_package_tests_pass() {
    if typescript::testee()
        .unwrap_or_else(|e| panic!("{e}"))
        .is_none()
    {
        return;
    }
    let dir = typescript::package_dir();
    let run = |args: &[&str]| {
        let out = Command::new("node")
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("node runs");
        assert!(
            out.status.success(),
            "node {} failed:\n{}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // Its own output directory: other tests run the testee from dist/ meanwhile.
    run(&[
        "node_modules/typescript/bin/tsc",
        "-p",
        "tsconfig.json",
        "--outDir",
        "dist/unit",
    ]);
    let report = run(&["--test", "dist/unit/test/"]);
    assert!(
        report.contains("# fail 0") && !report.contains("# pass 0"),
        "{report}"
    );
}

#[test]
fn rust_encoded_values_decode_in_typescript_to_the_same_bytes() {
    let Some(node) = Node::start() else {
        return;
    };
    let node = RefCell::new(node);
    for ty in TYPE_NAMES {
        let mut run = runner(64);
        run.run(&proptest::collection::vec(any::<u8>(), 0..256), |entropy| {
            let bytes = check_value(ty, &entropy).map_err(TestCaseError::fail)?;
            let got = node.borrow_mut().decode(ty, &bytes, &Config::default());
            match got {
                Outcome::Accepted { reencoded, .. } if reencoded == bytes => Ok(()),
                other => Err(TestCaseError::fail(format!(
                    "{ty}: TypeScript on Rust's {}: {other:?}",
                    hex::format(&bytes)
                ))),
            }
        })
        .unwrap_or_else(|e| panic!("{ty}: {e}"));
    }
}

#[test]
fn typescript_encoded_values_decode_in_rust_to_the_same_bytes() {
    let Some(node) = Node::start() else {
        return;
    };
    let node = RefCell::new(node);
    for ty in TYPE_NAMES {
        let non_empty = std::cell::Cell::new(0usize);
        let mut run = runner(64);
        run.run(&any::<u32>(), |seed| {
            let bytes = node
                .borrow_mut()
                .arbitrary(ty, seed)
                .map_err(TestCaseError::fail)?;
            non_empty.set(non_empty.get() + usize::from(!bytes.is_empty()));
            // Generated Rust code and reflect accept TypeScript's bytes and re-encode them
            // to the same bytes: the two encoders agree on the value.
            for (engine, got) in [
                (
                    "generated",
                    generated::decode(ty, &bytes, &Config::default()),
                ),
                ("reflect", dynamic::decode(ty, &bytes, &Config::default())),
            ] {
                match got {
                    Some(Outcome::Accepted { reencoded, .. }) if reencoded == bytes => {}
                    other => {
                        return Err(TestCaseError::fail(format!(
                            "{ty}: Rust {engine} on TypeScript's {}: {other:?}",
                            hex::format(&bytes)
                        )));
                    }
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{ty}: {e}"));
        // The generator must produce real values, not only the empty message.
        let n = non_empty.get();
        assert!(n >= 8, "{ty}: only {n} non-empty values");
    }
}

impl Node {
    /// The proto3 JSON TypeScript writes for the value `bytes` decode to, or its refusal
    /// (a request of the TypeScript testee beyond the protocol).
    fn json(&mut self, type_name: &str, bytes: &[u8]) -> Result<String, String> {
        let req =
            serde_json::json!({"op": "json", "type": type_name, "input": hex::format_runs(bytes)});
        write_frame(&mut self.input, &req).map_err(|e| e.to_string())?;
        let res: serde_json::Value = read_frame(&mut self.output)
            .map_err(|e| e.to_string())?
            .ok_or("the testee closed")?;
        match (res["status"].as_str(), res["output"].as_str()) {
            (Some("json"), Some(text)) => Ok(text.to_string()),
            _ => Err(res.to_string()),
        }
    }

    /// TypeScript's encoding of the value `json` gives (protocol `encode`).
    fn encode_json(&mut self, type_name: &str, json: &str) -> Result<Vec<u8>, String> {
        let req = Request::Encode {
            type_name: type_name.to_string(),
            json: json.to_string(),
            decoder: Config::default(),
        };
        write_frame(&mut self.input, &req).map_err(|e| e.to_string())?;
        match read_frame(&mut self.output).map_err(|e| e.to_string())? {
            Some(Response::Encoded { output }) => hex::parse(&output).map_err(|e| e.to_string()),
            Some(Response::Failed { message }) => Err(message),
            other => Err(format!("{other:?}")),
        }
    }
}

/// Both implementations write the same proto3 JSON text for a value (or both refuse to),
/// and each reads the other's text back to the same bytes.
#[test]
fn typescript_and_rust_write_the_same_json_and_read_each_others() {
    let Some(node) = Node::start() else {
        return;
    };
    let node = RefCell::new(node);
    for ty in TYPE_NAMES {
        let desc = dynamic::message(ty).expect("reflect type");
        let written = std::cell::Cell::new(0usize);
        let mut run = runner(64);
        run.run(&proptest::collection::vec(any::<u8>(), 0..256), |entropy| {
            let bytes = check_value(ty, &entropy).map_err(TestCaseError::fail)?;
            let msg = bijoubuf_reflect::DynamicMessage::decode(&desc, &bytes)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let rust = bijoubuf_reflect::json::to_string(&msg);
            let ts = node.borrow_mut().json(ty, &bytes);
            let at = || format!("{ty} on {}", hex::format(&bytes));
            match (&rust, &ts) {
                (Ok(r), Ok(t)) if r == t => {}
                (Err(_), Err(_)) => return Ok(()),
                _ => {
                    return Err(TestCaseError::fail(format!(
                        "{}: Rust {rust:?}, TypeScript {ts:?}",
                        at()
                    )));
                }
            }
            let text = ts.map_err(TestCaseError::fail)?;
            written.set(written.get() + 1);
            // TypeScript reads Rust's text (the same text) back to the bytes, and Rust
            // reads it back too.
            let back = node.borrow_mut().encode_json(ty, &text).map_err(|e| {
                TestCaseError::fail(format!("{}: TypeScript reads {text}: {e}", at()))
            })?;
            if back != bytes {
                return Err(TestCaseError::fail(format!(
                    "{}: TypeScript reads {text} as {}",
                    at(),
                    hex::format(&back)
                )));
            }
            let rust_back = dynamic::encode_json(ty, &text).map_err(TestCaseError::fail)?;
            if rust_back != bytes {
                return Err(TestCaseError::fail(format!(
                    "{}: Rust reads {text} differently",
                    at()
                )));
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            written.get() >= 8,
            "{ty}: only {} values had a JSON form",
            written.get()
        );
    }
    // The accepted vectors: hand-picked values (well-known types, edge numbers).
    accepted_vectors_print_the_same_json("TypeScript", |ty, b| node.borrow_mut().json(ty, b));
}

/// Floats whose JSON spelling needs care (ties, powers of two, subnormals) print the same
/// in TypeScript as in Rust and read back.
#[test]
fn typescript_prints_floats_as_rust_does() {
    let Some(node) = Node::start() else {
        return;
    };
    let node = RefCell::new(node);
    floats_print_the_same_json(
        "TypeScript",
        |ty, b| node.borrow_mut().json(ty, b),
        |ty, j| node.borrow_mut().encode_json(ty, j),
    );
}

/// JSON text near every vector's JSON (characters changed, inserted, removed): where both
/// implementations read it, they encode the same bytes; they accept the same texts, and
/// refuse the others at the same JSON path.
#[test]
fn typescript_and_rust_read_mutated_json_alike() {
    let Some(mut node) = Node::start() else {
        return;
    };
    let seeds = json_seeds();
    let both = std::cell::Cell::new(0u32);
    let paths = std::cell::Cell::new(0u32);
    let node = RefCell::new(&mut node);
    let mut run = runner(2048);
    run.run(&json_mutation(seeds.len()), |(i, edits)| {
        let (ty, j) = &seeds[i];
        let text = mutate_json(j, &edits);
        let rust = dynamic::encode_json(ty, &text);
        let ts = node.borrow_mut().encode_json(ty, &text);
        match (&rust, &ts) {
            (Ok(r), Ok(t)) if r == t => both.set(both.get() + 1),
            (Err(r), Err(t)) => {
                // Both refuse the text: at the same JSON path (`$.lines[3].sku`).
                if json_path(r) != json_path(t) {
                    return Err(TestCaseError::fail(format!(
                        "{ty} JSON {text:?}: Rust refuses at {:?} ({r}), TypeScript at {:?} ({t})",
                        json_path(r),
                        json_path(t)
                    )));
                }
                if json_path(r).is_some() {
                    paths.set(paths.get() + 1);
                }
            }
            _ => {
                return Err(TestCaseError::fail(format!(
                    "{ty} JSON {text:?}: Rust {}, TypeScript {}",
                    show(&rust),
                    show(&ts)
                )));
            }
        }
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(both.get() >= 50, "only {} texts read by both", both.get());
    eprintln!(
        "{} mutated texts read alike, {} refused by both at the same JSON path",
        both.get(),
        paths.get()
    );
    assert!(paths.get() >= 50, "only {} refusals compared", paths.get());
}

fn show(r: &Result<Vec<u8>, String>) -> String {
    match r {
        Ok(b) => hex::format(b),
        Err(e) => format!("refused ({e})"),
    }
}

#[test]
fn typescript_and_rust_agree_on_arbitrary_and_mutated_bytes() {
    let Some(mut node) = Node::start() else {
        return;
    };
    agree_with_rust_on_bytes("TypeScript", |ty, b, cfg| node.decode(ty, b, cfg));
}

/// Every `.proto` file under `dir`, relative to it.
fn protos(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir.join(rel))
        .expect("schemas/ reads")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        let name = rel.join(p.file_name().expect("name"));
        if p.is_dir() {
            protos(dir, &name, out);
        } else if p.extension().is_some_and(|e| e == "proto") {
            out.push(name);
        }
    }
}

/// Schemas (each a set of files) whose TypeScript modules have shapes the samples lack,
/// type-checked with them (with service clients).
const TYPE_CHECK_SHAPES: &[(&str, &[(&str, &str)])] = &[
    (
        "enums_only",
        &[(
            "e.proto",
            "syntax = \"proto3\"; package e; enum Code { OK = 0; CANCELLED = 1; }",
        )],
    ),
    (
        "services_only",
        &[
            (
                "m.proto",
                "syntax = \"proto3\"; package m; message Req {} message Res { uint32 x = 1; }",
            ),
            (
                "s.proto",
                "syntax = \"proto3\"; package s; import \"m.proto\"; \
                 service Svc { rpc Get(m.Req) returns (m.Res); rpc Watch(m.Req) returns (stream m.Res); }",
            ),
        ],
    ),
    (
        // Fields whose JSON names coincide, which proto2 allows (bufbuild's lint testdata
        // field_no_descriptor): each gets its own property.
        "json_name_collisions",
        &[(
            "c.proto",
            "syntax = \"proto2\"; package c; message M { \
             optional string descriptor = 1; optional string Descriptor = 2; \
             optional string _descriptor = 3; optional string descriptor_ = 4; \
             repeated int32 list = 5; repeated int32 list_ = 6; \
             oneof pick { string a_b = 7; string a_b_ = 8; } optional string pick_ = 9; }",
        )],
    ),
    (
        "empty_message_and_enum",
        &[(
            "x.proto",
            "syntax = \"proto3\"; package x; enum E { E_ZERO = 0; } message Empty {}",
        )],
    ),
];

#[test]
fn generated_typescript_for_every_sample_schema_type_checks() {
    if typescript::testee()
        .unwrap_or_else(|e| panic!("{e}"))
        .is_none()
    {
        return;
    }
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let pkg = typescript::package_dir();
    let out = pkg.join("gen/schemas");
    let _ = std::fs::remove_dir_all(&out);
    let mut files = Vec::new();
    protos(&schemas, Path::new(""), &mut files);
    assert!(files.len() >= 8, "only {} schemas", files.len());
    for file in &files {
        // A folder of samples may also be an include root of its own (the examples'
        // build script compiles `schemas/examples/` that way: `import "signed.proto"`).
        let top = file.components().next().expect("a schema path");
        let compiled = bijoubuf_schema::Compiler::new()
            .include(&schemas)
            .include(schemas.join(top))
            .compile(&[file.to_string_lossy().as_ref()])
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let dir = out.join(file.to_string_lossy().replace(['/', '.'], "_"));
        std::fs::create_dir_all(&dir).expect("gen dir");
        let mut options = bijoubuf_codegen_ts::Options::new();
        options.runtime_import("../../../src/index.js");
        for f in bijoubuf_codegen_ts::generate(&compiled.schema, &options) {
            std::fs::write(dir.join(&f.name), f.content).expect("write");
        }
    }
    // Module shapes the samples lack, under the package's strict settings
    // (`noUnusedLocals` included). Regressions: a package of enums alone declared `$e` and
    // `$d` without using them; fields of one JSON name gave one property twice.
    for (name, sources) in TYPE_CHECK_SHAPES {
        let compiled =
            bijoubuf_schema::compile_sources(sources).unwrap_or_else(|d| panic!("{name}: {d:?}"));
        let dir = out.join(name);
        std::fs::create_dir_all(&dir).expect("gen dir");
        let mut options = bijoubuf_codegen_ts::Options::new();
        options
            .runtime_import("../../../src/index.js")
            .services(true);
        for f in bijoubuf_codegen_ts::generate(&compiled.schema, &options) {
            std::fs::write(dir.join(&f.name), f.content).expect("write");
        }
    }
    let check = Command::new("node")
        .args([
            "node_modules/typescript/bin/tsc",
            "-p",
            "tsconfig.check.json",
        ])
        .current_dir(&pkg)
        .output()
        .expect("tsc runs");
    assert!(
        check.status.success(),
        "generated TypeScript does not type-check:\n{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

/// Run the TypeScript signed-envelope example (`typescript/examples/signed.ts`) and parse
/// its one line of JSON.
fn signed_ts(args: &[&str]) -> serde_json::Value {
    let script = typescript::package_dir().join("dist/examples/signed.js");
    let out = Command::new("node")
        .arg(script)
        .args(args)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "signed.js {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one line of JSON")
}

fn lower_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn a_signature_made_in_rust_verifies_in_typescript_and_back() {
    use bijoubuf_examples::ledger::Transfer;
    use bijoubuf_examples::signing::{self, demo_key};
    use bijoubuf_examples::tamper::{demo_transfer, tampered_envelopes};

    if typescript::testee()
        .unwrap_or_else(|e| panic!("{e}"))
        .is_none()
    {
        return;
    }
    let key = demo_key();
    let public = lower_hex(key.verifying_key().as_bytes());
    let signed = signing::sign(&key, &demo_transfer()).expect("the demo transfer encodes");

    // Rust → TypeScript: the envelope verifies and the body is the same transfer.
    let v = signed_ts(&["verify", &public, &lower_hex(&signed)]);
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(
        (v["payer"].as_str(), v["amount"].as_str()),
        (Some("alice"), Some("2500"))
    );

    // TypeScript → Rust: Ed25519 is deterministic and the encoding canonical, so the
    // envelope TypeScript signs is byte for byte Rust's, and Rust verifies it.
    let seed = lower_hex(&key.to_bytes());
    let from_ts = signed_ts(&["sign", &seed]);
    let from_ts = from_ts["signed"].as_str().expect("hex");
    assert_eq!(from_ts, lower_hex(&signed));
    let bytes: Vec<u8> = (0..from_ts.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&from_ts[i..i + 2], 16).expect("hex"))
        .collect();
    let back: Transfer =
        signing::verify(&key.verifying_key(), &bytes).expect("Rust verifies TypeScript's");
    assert_eq!(back, demo_transfer());

    // Tampered bodies under the original signature: both refuse, with the same code,
    // offset and path (or both with bad-signature).
    let cases = tampered_envelopes(&signed).expect("the envelope tampers");
    for (name, bytes) in cases {
        let rust = signing::verify::<Transfer>(&key.verifying_key(), &bytes)
            .expect_err("Rust refuses the tampered envelope");
        let ts = signed_ts(&["verify", &public, &lower_hex(&bytes)]);
        assert_eq!(ts["ok"], false, "{name}: TypeScript accepted");
        assert_eq!(
            ts["code"].as_str(),
            Some(rust.code()),
            "{name}: {ts} vs {rust}"
        );
        if let Some(e) = rust.decode_error() {
            assert_eq!(
                ts["offset"].as_u64(),
                Some(e.offset() as u64),
                "{name}: {ts}"
            );
            assert_eq!(
                ts["path"].as_str(),
                Some(e.path_string().as_str()),
                "{name}: {ts}"
            );
            assert_eq!(
                ts["message"].as_str(),
                Some(e.to_string().as_str()),
                "{name}: {ts}"
            );
        }
    }
}

impl Node {
    /// Any protocol request; the answer as it came.
    fn ask(&mut self, req: &Request) -> Result<Response, String> {
        write_frame(&mut self.input, req).map_err(|e| e.to_string())?;
        read_frame(&mut self.output)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "the testee closed".to_string())
    }
}

/// Encoder limits across the three encoders: the value of every vector's JSON, encoded
/// under size limits just below, at and above its length and under depth limits 0 to
/// 10^6, is encoded or refused (with the same code) alike by TypeScript, generated Rust
/// and reflect.
#[test]
fn typescript_and_rust_encoders_refuse_alike_at_their_limits() {
    let Some(mut node) = Node::start() else {
        return;
    };
    encoders_refuse_alike_at_their_limits("TypeScript", |req| {
        node.ask(req).expect("testee answers")
    });
}

/// Keys of every width (SPEC §2.3, §4.1) before and after every field shape: TypeScript
/// encodes each value of the key schema (`typescript::key_schema`) to the bytes Rust
/// (reflect) writes, decodes them back to the same bytes, and Rust takes TypeScript's
/// arbitrary values to the same bytes. Regression: a message whose only field was past 62
/// threw `ReferenceError: prev is not defined` when encoded (and did not type-check).
#[test]
fn keys_of_every_width_encode_alike_in_typescript_and_rust() {
    use bijoubuf_reflect::{DescriptorPool, DynamicMessage};

    let Some(mut node) = Node::start() else {
        return;
    };
    let src = typescript::key_schema();
    let compiled = bijoubuf_schema::compile_sources(&[("keys.proto", src.as_str())])
        .unwrap_or_else(|d| panic!("{d:?}"));
    let pool = DescriptorPool::new(&compiled.schema);
    let mut checked = 0;
    for n in typescript::KEY_EDGES {
        for (_, shape, value) in typescript::KEY_SHAPES {
            for (name, jsons) in [
                (
                    format!("keys.Alone{n}_{shape}"),
                    vec![format!("{{\"f\": {value}}}")],
                ),
                (
                    format!("keys.After{n}_{shape}"),
                    vec![
                        format!("{{\"f\": {value}}}"),
                        format!("{{\"a\": 1, \"f\": {value}}}"),
                        format!("{{\"a\": 1, \"f\": {value}, \"z\": 2}}"),
                        format!("{{\"f\": {value}, \"z\": 2}}"),
                    ],
                ),
            ] {
                let Some(desc) = pool.message(&name) else {
                    assert!(n == 1 && name.contains("After"), "no {name}");
                    continue;
                };
                for json in jsons {
                    if n == typescript::KEY_EDGES[9] && json.contains("\"z\"") {
                        continue;
                    }
                    let rust = bijoubuf_reflect::json::from_str(&desc, &json)
                        .unwrap_or_else(|e| panic!("{name} {json}: {e}"))
                        .encode()
                        .unwrap_or_else(|e| panic!("{name} {json}: {e}"));
                    let ts = node.encode_json(&name, &json);
                    assert_eq!(
                        ts.as_deref().map(hex::format),
                        Ok(hex::format(&rust)),
                        "{name} {json}: TypeScript's encoding"
                    );
                    match node.decode(&name, &rust, &Config::default()) {
                        Outcome::Accepted { reencoded, .. } if reencoded == rust => {}
                        other => {
                            panic!("{name} {json}: TypeScript decodes Rust's bytes to {other:?}")
                        }
                    }
                    checked += 1;
                }
                for seed in 0..8 {
                    let bytes = node
                        .arbitrary(&name, seed)
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                    let back = DynamicMessage::decode(&desc, &bytes)
                        .unwrap_or_else(|e| panic!("{name} {}: {e}", hex::format(&bytes)))
                        .encode()
                        .unwrap_or_else(|e| panic!("{name} {}: {e}", hex::format(&bytes)));
                    assert_eq!(
                        back, bytes,
                        "{name} seed {seed}: Rust re-encodes TypeScript's"
                    );
                }
            }
        }
    }
    assert!(checked > 400, "only {checked} values");
}

/// Messages of more fields than one generated TypeScript function holds (the wide schema,
/// `typescript::wide_schema`, 1,000 fields of every shape, proto2 required
/// fields among them), whose passes the generator splits: Rust takes TypeScript's
/// arbitrary values to the same bytes; TypeScript encodes the JSON Rust writes for them to
/// those bytes, writes the same JSON and decodes the bytes back to them; and on the bytes
/// with one to three bytes changed, inserted or removed, strict and preserving, and on
/// every prefix of a value's bytes, TypeScript gives Rust's verdict (the same
/// re-encoding, or the same code, offset and path). The
/// testee checks each arbitrary value and broken copies of it against the runtime's
/// field-list walk (bytes, codes, paths and texts). Regression: the generated TypeScript
/// of a message of about 450 fields or more did not type-check (TS2563, too large for
/// control flow analysis), so the testee did not build.
#[test]
fn wide_messages_encode_and_decode_alike_in_typescript_and_rust() {
    use bijoubuf_reflect::{DescriptorPool, DynamicMessage};

    let Some(node) = Node::start() else {
        return;
    };
    let node = RefCell::new(node);
    let wide = typescript::wide_schema();
    let sources: Vec<(&str, &str)> = wide.iter().map(|(n, s)| (n.as_str(), s.as_str())).collect();
    let compiled = bijoubuf_schema::compile_sources(&sources).unwrap_or_else(|d| panic!("{d:?}"));
    let pool = DescriptorPool::new(&compiled.schema);
    let mut names: Vec<String> = typescript::WIDE_COUNTS
        .iter()
        .map(|n| format!("wide.Wide{n}"))
        .collect();
    names.push("wide2.Required1000".to_string());
    let preserving = Config {
        preserving: true,
        ..Config::default()
    };
    let refused = std::cell::Cell::new(0usize);
    for name in &names {
        let desc = pool.message(name).unwrap_or_else(|| panic!("no {name}"));
        // The highest field number set in a value.
        let fields = std::cell::Cell::new(0u32);
        let edits = proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..4);
        runner(24)
            .run(&(any::<u32>(), edits), |(seed, edits)| {
                let fail =
                    |what: String| TestCaseError::fail(format!("{name} seed {seed}: {what}"));
                let bytes = node.borrow_mut().arbitrary(name, seed).map_err(&fail)?;
                let m = DynamicMessage::decode(&desc, &bytes)
                    .map_err(|e| fail(format!("Rust refuses {}: {e}", hex::format(&bytes))))?;
                let top = m.fields().map(|(f, _)| f.number()).max().unwrap_or(0);
                fields.set(fields.get().max(top));
                let back = m.encode().map_err(|e| fail(e.to_string()))?;
                prop_assert_eq!(&back, &bytes, "{} seed {}: Rust re-encodes", name, seed);
                let json =
                    bijoubuf_reflect::json::to_string(&m).map_err(|e| fail(e.to_string()))?;
                let ts = node.borrow_mut().encode_json(name, &json).map_err(&fail)?;
                prop_assert_eq!(
                    &ts,
                    &bytes,
                    "{} seed {}: TypeScript encodes Rust's JSON",
                    name,
                    seed
                );
                let ts_json = node.borrow_mut().json(name, &bytes).map_err(&fail)?;
                prop_assert_eq!(&ts_json, &json, "{} seed {}: TypeScript's JSON", name, seed);
                let v = edited(&bytes, &edits);
                for (input, cfg) in [
                    (&bytes, Config::default()),
                    (&v, Config::default()),
                    (&v, preserving),
                ] {
                    let rust = dynamic::decode_message(&desc, input, &cfg);
                    refused.set(refused.get() + usize::from(matches!(rust, Outcome::Refused(_))));
                    let ts = node.borrow_mut().decode(name, input, &cfg);
                    if ts != rust {
                        return Err(fail(format!(
                            "{} ({cfg:?}): Rust {rust:?}, TypeScript {ts:?}",
                            hex::format(input)
                        )));
                    }
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
        // The values reach the last helper of each pass.
        let last = desc.fields().map(|f| f.number()).max().unwrap_or(0);
        assert!(
            fields.get() > last - 50,
            "{name}: no field past {} set",
            fields.get()
        );
        // Every prefix of one value's bytes: cut inside a record, or before a record,
        // where proto2's first required field not yet read is missing (the checks of all
        // three helpers of Required1000).
        let bytes = node
            .borrow_mut()
            .arbitrary(name, 1)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut missing = 0;
        for end in 0..bytes.len() {
            let cut = &bytes[..end];
            let rust = dynamic::decode_message(&desc, cut, &Config::default());
            if let Outcome::Refused(r) = &rust {
                missing += usize::from(r.code == "missing-required-field");
            }
            let ts = node.borrow_mut().decode(name, cut, &Config::default());
            assert_eq!(ts, rust, "{name} on {}", hex::format(cut));
        }
        if name.starts_with("wide2.") {
            assert!(missing > 200, "{name}: {missing} missing required fields");
        }
    }
    assert!(
        refused.get() >= 20,
        "only {} refusals compared",
        refused.get()
    );
}
