//! The Go implementation (`go/` at the repository root), from `cargo test`:
//!
//! - the module itself: `go vet`, `gofmt -l` (no file may need formatting) and its own
//!   tests (`go test ./...`: bijou64's tier edges, the runtime's wire primitives on SPEC's
//!   cards and Appendix A, the generated code on every decode vector, proto3 JSON, the
//!   testee's protocol);
//! - across the language boundary, through the Go testee (`go/cmd/bijoubuf-testee`):
//!   values built and encoded by Rust are accepted by Go and re-encoded to the same bytes;
//!   values built and encoded by Go (`{"op": "arbitrary"}`) are accepted by Rust (generated
//!   code and reflect) and by TypeScript and re-encoded to the same bytes, and TypeScript's
//!   by Go; on arbitrary and mutated bytes, strict and preserving, Go gives the same
//!   verdict as Rust (the same re-encoding, or the same code, offset and path); Go writes
//!   the same proto3 JSON text as Rust (`{"op": "json"}`) or both refuse, and each reads
//!   the other's text back to the same bytes; JSON text near every vector's JSON is read
//!   alike (the same bytes, or refusals at the same JSON path); and the encoders refuse
//!   alike at their depth and size limits;
//! - the signed envelope of `../examples/` in Go (`go/examples/signed`, `crypto/ed25519`):
//!   Rust's and TypeScript's signatures verify in Go, Go signs the same bytes (which both
//!   verify), and tampered envelopes are refused by Go with Rust's code, offset, path and
//!   text.
//!
//! Go 1.26 or newer is needed (`go` on the PATH, or `GO=path`); without it a local run
//! says what to install and passes, while in CI (`CI` set) it fails. The TypeScript legs
//! need Node as well (see `typescript.rs`) and are left out without it outside CI.

mod common;
use common::{
    accepted_vectors_print_the_same_json, agree_with_rust_on_bytes,
    encoders_refuse_alike_at_their_limits, floats_print_the_same_json, json_mutation, json_path,
    json_seeds, mutate_json, runner,
};

use std::cell::RefCell;
use std::io::{BufReader, BufWriter};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use bijoubuf_conformance::generated::TYPE_NAMES;
use bijoubuf_conformance::props::check_value;
use bijoubuf_conformance::protocol::{Request, Response, read_frame, write_frame};
use bijoubuf_conformance::{Config, Outcome, dynamic, generated, golang, hex, typescript};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Run `go args…` in `dir`; its output on failure.
fn run_in(dir: &Path, go: &Path, args: &[&str]) -> String {
    let out = Command::new(go)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("go {}: cannot start: {e}", args.join(" ")));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "go {} failed ({}):\n{text}",
        args.join(" "),
        out.status
    );
    text
}

/// `go vet ./...`, `gofmt -l .` (nothing listed) and `go test ./...` in `dir`; the
/// tests' output.
fn vet_format_test(dir: &Path, go: &Path) -> String {
    run_in(dir, go, &["vet", "./..."]);
    // gofmt ships with the toolchain (`go fmt` would rewrite files; `gofmt -l` lists them).
    let goroot = run_in(dir, go, &["env", "GOROOT"]);
    let gofmt = Path::new(goroot.trim()).join("bin").join("gofmt");
    let out = Command::new(&gofmt)
        .args(["-l", "."])
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{}: cannot start: {e}", gofmt.display()));
    assert!(out.status.success(), "gofmt -l failed: {out:?}");
    let unformatted = String::from_utf8_lossy(&out.stdout);
    assert!(
        unformatted.trim().is_empty(),
        "files gofmt would change (run `gofmt -w .` in {}):\n{unformatted}",
        dir.display()
    );
    run_in(dir, go, &["test", "./..."])
}

#[test]
fn go_grpc_module_is_vetted_formatted_and_its_tests_pass() {
    // The codec module of generated services (go/grpc), a module of its own for its
    // grpc-go dependency, which go fetches as go/grpc/go.sum pins it.
    let Some(go) = golang::go().unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let text = vet_format_test(&golang::module_dir().join("grpc"), &go);
    assert!(
        text.lines()
            .any(|l| l.starts_with("ok") && l.contains("github.com/bijoubuf/bijoubuf/go/grpc")),
        "go test ran no tests in go/grpc:\n{text}"
    );
}

#[test]
fn go_module_is_vetted_formatted_and_its_tests_pass() {
    let Some(go) = golang::go().unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let text = vet_format_test(&golang::module_dir(), &go);
    // Every package with tests ran them (a package without would print "no test files").
    for pkg in [
        "go/bijou64",
        "go/bijoubuf",
        "go/bijoubufjson",
        "go/internal/testee",
        "go/examples/signed",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with("ok")
                && l.split_whitespace()
                    .nth(1)
                    .is_some_and(|p| p.ends_with(pkg))),
            "go test ran no tests in {pkg}:\n{text}"
        );
    }
}

/// A testee child process: the Go one or the TypeScript one.
struct Testee {
    child: Child,
    input: BufWriter<ChildStdin>,
    output: BufReader<ChildStdout>,
    name: &'static str,
}

impl Testee {
    fn spawn(cmd: &[String], name: &'static str) -> Testee {
        let mut child = Command::new(&cmd[0])
            .args(&cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{name} testee starts: {e}"));
        let input = BufWriter::new(child.stdin.take().expect("stdin"));
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Testee {
            child,
            input,
            output,
            name,
        }
    }

    /// The Go testee, or `None` when Go is missing outside CI.
    fn go() -> Option<Testee> {
        let cmd = golang::testee().unwrap_or_else(|e| panic!("{e}"))?;
        Some(Testee::spawn(&cmd, "Go"))
    }

    /// The TypeScript testee, or `None` when Node is missing outside CI.
    fn typescript() -> Option<Testee> {
        let cmd = typescript::testee().unwrap_or_else(|e| panic!("{e}"))?;
        Some(Testee::spawn(&cmd, "TypeScript"))
    }

    fn ask<T: serde::Serialize>(&mut self, req: &T) -> Result<serde_json::Value, String> {
        write_frame(&mut self.input, req).map_err(|e| e.to_string())?;
        read_frame(&mut self.output)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("the {} testee closed", self.name))
    }

    fn response(&mut self, req: &Request) -> Response {
        let v = self.ask(req).unwrap_or_else(|e| panic!("{e}"));
        serde_json::from_value(v).expect("a protocol response")
    }

    fn decode(&mut self, type_name: &str, bytes: &[u8], cfg: &Config) -> Outcome {
        let req = Request::Decode {
            type_name: type_name.to_string(),
            input: hex::format_runs(bytes),
            decoder: *cfg,
        };
        self.response(&req)
            .into_outcome()
            .unwrap_or_else(|e| panic!("{type_name}: {e}"))
    }

    /// The encoding of an arbitrary value of `type_name` built by the testee from `seed`
    /// (a request beyond the protocol).
    fn arbitrary(&mut self, type_name: &str, seed: u32) -> Result<Vec<u8>, String> {
        let res =
            self.ask(&serde_json::json!({"op": "arbitrary", "type": type_name, "seed": seed}))?;
        match (res["status"].as_str(), res["output"].as_str()) {
            (Some("encoded"), Some(h)) => hex::parse(h).map_err(|e| e.to_string()),
            _ => Err(format!("{type_name} seed {seed}: {res}")),
        }
    }

    /// The proto3 JSON the testee writes for the value `bytes` decode to, or its refusal.
    fn json(&mut self, type_name: &str, bytes: &[u8]) -> Result<String, String> {
        let res = self.ask(
            &serde_json::json!({"op": "json", "type": type_name, "input": hex::format_runs(bytes)}),
        )?;
        match (res["status"].as_str(), res["output"].as_str()) {
            (Some("json"), Some(text)) => Ok(text.to_string()),
            _ => Err(res.to_string()),
        }
    }

    /// The testee's encoding of the value `json` gives (protocol `encode`).
    fn encode_json(&mut self, type_name: &str, json: &str) -> Result<Vec<u8>, String> {
        let req = Request::Encode {
            type_name: type_name.to_string(),
            json: json.to_string(),
            decoder: Config::default(),
        };
        match self.response(&req) {
            Response::Encoded { output } => hex::parse(&output).map_err(|e| e.to_string()),
            Response::Failed { message } => Err(message),
            other => Err(format!("{other:?}")),
        }
    }
}

impl Drop for Testee {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn rust_encoded_values_decode_in_go_to_the_same_bytes() {
    let Some(go) = Testee::go() else {
        return;
    };
    let go = RefCell::new(go);
    for ty in TYPE_NAMES {
        let mut run = runner(64);
        run.run(&proptest::collection::vec(any::<u8>(), 0..256), |entropy| {
            let bytes = check_value(ty, &entropy).map_err(TestCaseError::fail)?;
            match go.borrow_mut().decode(ty, &bytes, &Config::default()) {
                Outcome::Accepted { reencoded, .. } if reencoded == bytes => Ok(()),
                other => Err(TestCaseError::fail(format!(
                    "{ty}: Go on Rust's {}: {other:?}",
                    hex::format(&bytes)
                ))),
            }
        })
        .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Values built and encoded by `from` (Go or TypeScript) are accepted by Rust's
/// generated code and reflect, and by `to` when given, and re-encoded to the same bytes.
fn arbitrary_values_cross(from: &mut Testee, to: Option<&mut Testee>) {
    let from = RefCell::new(from);
    let to = RefCell::new(to);
    for ty in TYPE_NAMES {
        let non_empty = std::cell::Cell::new(0usize);
        let mut run = runner(64);
        run.run(&any::<u32>(), |seed| {
            let bytes = from
                .borrow_mut()
                .arbitrary(ty, seed)
                .map_err(TestCaseError::fail)?;
            non_empty.set(non_empty.get() + usize::from(!bytes.is_empty()));
            let mut answers = vec![
                (
                    "Rust generated",
                    generated::decode(ty, &bytes, &Config::default()),
                ),
                (
                    "Rust reflect",
                    dynamic::decode(ty, &bytes, &Config::default()),
                ),
            ];
            if let Some(t) = to.borrow_mut().as_deref_mut() {
                answers.push((t.name, Some(t.decode(ty, &bytes, &Config::default()))));
            }
            for (engine, got) in answers {
                match got {
                    Some(Outcome::Accepted { reencoded, .. }) if reencoded == bytes => {}
                    other => {
                        return Err(TestCaseError::fail(format!(
                            "{ty}: {engine} on {}'s {}: {other:?}",
                            from.borrow().name,
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

#[test]
fn go_encoded_values_decode_in_rust_and_typescript_to_the_same_bytes() {
    let Some(mut go) = Testee::go() else {
        return;
    };
    let mut ts = Testee::typescript();
    arbitrary_values_cross(&mut go, ts.as_mut());
}

#[test]
fn typescript_encoded_values_decode_in_go_to_the_same_bytes() {
    let Some(mut go) = Testee::go() else {
        return;
    };
    let Some(mut ts) = Testee::typescript() else {
        return;
    };
    arbitrary_values_cross(&mut ts, Some(&mut go));
}

#[test]
fn go_and_rust_agree_on_arbitrary_and_mutated_bytes() {
    let Some(mut go) = Testee::go() else {
        return;
    };
    agree_with_rust_on_bytes("Go", |ty, b, cfg| go.decode(ty, b, cfg));
}

/// Go writes the same proto3 JSON text as Rust for a value (or both refuse to), and each
/// reads that text back to the same bytes.
#[test]
fn go_and_rust_write_the_same_json_and_read_each_others() {
    let Some(go) = Testee::go() else {
        return;
    };
    let go = RefCell::new(go);
    for ty in TYPE_NAMES {
        let desc = dynamic::message(ty).expect("reflect type");
        let written = std::cell::Cell::new(0usize);
        let mut run = runner(64);
        run.run(&proptest::collection::vec(any::<u8>(), 0..256), |entropy| {
            let bytes = check_value(ty, &entropy).map_err(TestCaseError::fail)?;
            let msg = bijoubuf_reflect::DynamicMessage::decode(&desc, &bytes)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let rust = bijoubuf_reflect::json::to_string(&msg);
            let got = go.borrow_mut().json(ty, &bytes);
            let at = || format!("{ty} on {}", hex::format(&bytes));
            match (&rust, &got) {
                (Ok(r), Ok(g)) if r == g => {}
                (Err(_), Err(_)) => return Ok(()),
                _ => {
                    return Err(TestCaseError::fail(format!(
                        "{}: Rust {rust:?}, Go {got:?}",
                        at()
                    )));
                }
            }
            let text = got.map_err(TestCaseError::fail)?;
            written.set(written.get() + 1);
            let back = go
                .borrow_mut()
                .encode_json(ty, &text)
                .map_err(|e| TestCaseError::fail(format!("{}: Go reads {text}: {e}", at())))?;
            if back != bytes {
                return Err(TestCaseError::fail(format!(
                    "{}: Go reads {text} as {}",
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
    accepted_vectors_print_the_same_json("Go", |ty, b| go.borrow_mut().json(ty, b));
}

/// Floats whose JSON spelling needs care (ties, powers of two, subnormals) print the same
/// in Go as in Rust and read back.
#[test]
fn go_prints_floats_as_rust_does() {
    let Some(go) = Testee::go() else {
        return;
    };
    let go = RefCell::new(go);
    floats_print_the_same_json(
        "Go",
        |ty, b| go.borrow_mut().json(ty, b),
        |ty, j| go.borrow_mut().encode_json(ty, j),
    );
}

fn show(r: &Result<Vec<u8>, String>) -> String {
    match r {
        Ok(b) => hex::format(b),
        Err(e) => format!("refused ({e})"),
    }
}

/// JSON text near every vector's JSON (characters changed, inserted, removed): where both
/// implementations read it, they encode the same bytes; they accept the same texts, and
/// refuse the others at the same JSON path.
#[test]
fn go_and_rust_read_mutated_json_alike() {
    let Some(go) = Testee::go() else {
        return;
    };
    let seeds = json_seeds();
    let both = std::cell::Cell::new(0u32);
    let paths = std::cell::Cell::new(0u32);
    let go = RefCell::new(go);
    let mut run = runner(2048);
    run.run(&json_mutation(seeds.len()), |(i, edits)| {
        let (ty, j) = &seeds[i];
        let text = mutate_json(j, &edits);
        let rust = dynamic::encode_json(ty, &text);
        let got = go.borrow_mut().encode_json(ty, &text);
        match (&rust, &got) {
            (Ok(r), Ok(g)) if r == g => both.set(both.get() + 1),
            (Err(r), Err(g)) => {
                if json_path(r) != json_path(g) {
                    return Err(TestCaseError::fail(format!(
                        "{ty} JSON {text:?}: Rust refuses at {:?} ({r}), Go at {:?} ({g})",
                        json_path(r),
                        json_path(g)
                    )));
                }
                if json_path(r).is_some() {
                    paths.set(paths.get() + 1);
                }
            }
            _ => {
                return Err(TestCaseError::fail(format!(
                    "{ty} JSON {text:?}: Rust {}, Go {}",
                    show(&rust),
                    show(&got)
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

/// The value of every vector's JSON, encoded under size limits one below, at and one
/// above its length and under depth limits 0 to 10^6: Go gives the same bytes or the
/// same refusal as generated Rust and reflect.
#[test]
fn go_and_rust_encoders_refuse_alike_at_their_limits() {
    let Some(mut go) = Testee::go() else {
        return;
    };
    encoders_refuse_alike_at_their_limits("Go", |req| go.response(req));
}

/// The Go the signed-envelope example imports (`go/examples/internal/gen`), as the
/// generator writes it from `schemas/examples/{signed,ledger}.proto`.
fn example_go() -> Vec<bijoubuf_codegen_go::GeneratedFile> {
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let compiled = bijoubuf_schema::Compiler::new()
        .include(&schemas)
        .compile(&["examples/signed.proto", "examples/ledger.proto"])
        .unwrap_or_else(|e| panic!("example schemas do not compile: {e}"));
    let mut options = bijoubuf_codegen_go::Options::new();
    options
        .module("github.com/bijoubuf/bijoubuf/go/examples/internal/gen")
        .package_dir("examples.signed.v1", "signed")
        .package_dir("examples.ledger.v1", "ledger");
    bijoubuf_codegen_go::generate(&compiled.schema, &options)
}

/// The committed Go of the example is what the generator writes today;
/// `BIJOUBUF_GO_BLESS=1` rewrites it.
#[test]
fn go_example_code_is_fresh() {
    let dir = golang::module_dir().join("examples/internal/gen");
    let bless = std::env::var_os("BIJOUBUF_GO_BLESS").is_some();
    for f in example_go() {
        let path = dir.join(&f.name);
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        if bless {
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, &f.content).expect("write");
        } else {
            assert!(
                have == f.content,
                "{} differs from what the generator writes; rerun with BIJOUBUF_GO_BLESS=1 and commit",
                path.display()
            );
        }
    }
}

/// Run the Go signed-envelope example (`go/examples/signed`) and parse its one line of
/// JSON.
fn signed_go(args: &[&str]) -> serde_json::Value {
    static EXE: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    let exe = EXE.get_or_init(|| {
        let go = golang::go()
            .unwrap_or_else(|e| panic!("{e}"))
            .expect("go is there");
        golang::build(&go, "./examples/signed", "signed").unwrap_or_else(|e| panic!("{e}"))
    });
    let out = Command::new(exe).args(args).output().expect("signed runs");
    assert!(
        out.status.success(),
        "signed {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one line of JSON")
}

fn lower_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn from_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// A signature made in Rust verifies in Go, Go signs the same bytes (so its envelope
/// verifies in Rust and, where Node is installed, in TypeScript), and tampered envelopes
/// are refused by Go with Rust's code, offset, path and text.
#[test]
fn a_signature_made_in_rust_or_typescript_verifies_in_go_and_back() {
    use bijoubuf_examples::ledger::Transfer;
    use bijoubuf_examples::signing::{self, demo_key};
    use bijoubuf_examples::tamper::{demo_transfer, tampered_envelopes};

    if golang::go().unwrap_or_else(|e| panic!("{e}")).is_none() {
        return;
    }
    let key = demo_key();
    let public = lower_hex(key.verifying_key().as_bytes());
    let signed = signing::sign(&key, &demo_transfer()).expect("the demo transfer encodes");

    // Rust → Go: the envelope verifies and the body is the same transfer.
    let v = signed_go(&["verify", &public, &lower_hex(&signed)]);
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(
        (
            v["payer"].as_str(),
            v["payee"].as_str(),
            v["amount"].as_str()
        ),
        (Some("alice"), Some("bob"), Some("2500"))
    );

    // Go → Rust: Ed25519 is deterministic and the encoding canonical, so the envelope Go
    // signs is byte for byte Rust's, and Rust verifies it.
    let from_go = signed_go(&["sign", &lower_hex(&key.to_bytes())]);
    let from_go = from_go["signed"].as_str().expect("hex");
    assert_eq!(from_go, lower_hex(&signed));
    let back: Transfer =
        signing::verify(&key.verifying_key(), &from_hex(from_go)).expect("Rust verifies Go's");
    assert_eq!(back, demo_transfer());

    // TypeScript ↔ Go: TypeScript signs the same envelope, which Go verifies, and
    // TypeScript verifies Go's.
    if typescript::testee()
        .unwrap_or_else(|e| panic!("{e}"))
        .is_some()
    {
        let script = typescript::package_dir().join("dist/examples/signed.js");
        let node = |args: &[&str]| -> serde_json::Value {
            let out = Command::new("node")
                .arg(&script)
                .args(args)
                .output()
                .expect("node runs");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            serde_json::from_slice(&out.stdout).expect("one line of JSON")
        };
        let from_ts = node(&["sign", &lower_hex(&key.to_bytes())]);
        let from_ts = from_ts["signed"].as_str().expect("hex").to_string();
        let v = signed_go(&["verify", &public, &from_ts]);
        assert_eq!(v["ok"], true, "Go on TypeScript's envelope: {v}");
        let v = node(&["verify", &public, from_go]);
        assert_eq!(v["ok"], true, "TypeScript on Go's envelope: {v}");
    }

    // Tampered bodies under the original signature: Go refuses each with Rust's code,
    // offset, path and text (or both with bad-signature).
    let cases = tampered_envelopes(&signed).expect("the envelope tampers");
    assert!(cases.len() >= 5, "only {} tampered envelopes", cases.len());
    for (name, bytes) in cases {
        let rust = signing::verify::<Transfer>(&key.verifying_key(), &bytes)
            .expect_err("Rust refuses the tampered envelope");
        let got = signed_go(&["verify", &public, &lower_hex(&bytes)]);
        assert_eq!(got["ok"], false, "{name}: Go accepted");
        assert_eq!(
            got["code"].as_str(),
            Some(rust.code()),
            "{name}: {got} vs {rust}"
        );
        if let Some(e) = rust.decode_error() {
            assert_eq!(
                got["offset"].as_u64(),
                Some(e.offset() as u64),
                "{name}: {got}"
            );
            assert_eq!(
                got["path"].as_str(),
                Some(e.path_string().as_str()),
                "{name}: {got}"
            );
            assert_eq!(
                got["message"].as_str(),
                Some(e.to_string().as_str()),
                "{name}: {got}"
            );
        }
    }
}
