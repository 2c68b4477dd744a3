//! The conformance runner: every vector in `vectors/` as a named test, run against
//! generated code (owned types and their borrowed twins), `bijoubuf-reflect`, and the
//! reference testee over the testee protocol
//! (twice: its `reflect` and its `generated` engine), and the TypeScript implementation's
//! testee when Node is installed (required in CI), and the Go implementation's testee when Go
//! is installed (required in CI). Set `BIJOUBUF_TESTEE` to a command line to
//! add another implementation as one more engine.
//!
//! A vector fails when any engine disagrees with it, or when generated code and reflect
//! disagree with each other. Entries of `vectors/known_divergences.toml` name an engine
//! that is known to be wrong on a vector: that engine must still fail there (so a fix
//! forces the entry's removal), and the others must pass.

use std::io::{BufReader, BufWriter};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use bijoubuf_conformance::protocol::{Request, Response, read_frame, write_frame};
use bijoubuf_conformance::{CODES, Case, Expect, Known, Outcome, dynamic, generated, hex};
use libtest_mimic::{Arguments, Failed, Trial};

/// A testee child process, shared by all trials.
struct Testee {
    _child: Child,
    input: BufWriter<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl Testee {
    fn spawn(program: &str, args: &[&str]) -> Testee {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start testee {program}: {e}"));
        let input = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        Testee {
            _child: child,
            input,
            output,
        }
    }

    fn ask(&mut self, req: &Request) -> Result<Response, String> {
        write_frame(&mut self.input, req).map_err(|e| format!("testee write: {e}"))?;
        read_frame::<_, Response>(&mut self.output)
            .map_err(|e| format!("testee read: {e}"))?
            .ok_or_else(|| "testee closed its output".to_string())
    }
}

struct Engines {
    testees: Vec<Engine>,
}

/// A testee and what it must answer.
struct Engine {
    name: String,
    /// Whether `unsupported` is an acceptable answer to an encode request: true only for
    /// an external testee, which the protocol allows to have no proto3 JSON mapping. The TypeScript
    /// implementation has one, so it must encode every vector.
    may_lack_json: bool,
    testee: Mutex<Testee>,
}

fn decode_json_is_bytes(case: &Case, json: &str) -> Result<(), String> {
    // The JSON names the value; the encoding is injective, so "JSON encodes to the input"
    // is "the decoded value is the JSON's value".
    let got = if case.config.stream {
        let items: Vec<serde_json::Value> =
            serde_json::from_str(json).map_err(|e| format!("stream json: {e}"))?;
        let mut out = Vec::new();
        for item in items {
            let b = dynamic::encode_json_with(&case.type_name, &item.to_string(), &case.config)
                .map_err(|e| e.to_string())?;
            bijou64::append(b.len() as u64, &mut out);
            out.extend_from_slice(&b);
        }
        out
    } else {
        // Under the case's limits: a value deeper than the default is encoded under the
        // limit the case decodes it with.
        dynamic::encode_json_with(&case.type_name, json, &case.config).map_err(|e| e.to_string())?
    };
    if got != case.bytes {
        return Err(format!(
            "the vector's JSON encodes to {}, not the input",
            hex::format(&got)
        ));
    }
    if !case.config.stream {
        // And the decoder's own JSON of the value maps back to the same bytes.
        let v = dynamic::to_json_text_with(&case.type_name, &case.bytes, &case.config)?;
        let again = dynamic::encode_json_with(&case.type_name, &v, &case.config)
            .map_err(|e| e.to_string())?;
        if again != case.bytes {
            return Err(format!("JSON round trip {v} gives {}", hex::format(&again)));
        }
    }
    Ok(())
}

fn check_outcome(case: &Case, got: &Outcome) -> Result<(), String> {
    let want_accept = |got: &Outcome| match got {
        Outcome::Accepted { reencoded, unknown } => {
            if *reencoded != case.bytes {
                Err(format!(
                    "accepted, re-encoded as {}",
                    hex::format(reencoded)
                ))
            } else if *unknown != case.unknown {
                Err(format!(
                    "accepted with {unknown} unknown fields, want {}",
                    case.unknown
                ))
            } else {
                Ok(())
            }
        }
        Outcome::Refused(r) => Err(format!("refused: {r}")),
        Outcome::EncodeFailed(e) => Err(format!("accepted, but re-encoding failed: {e}")),
    };
    match &case.expect {
        Expect::Accept(_) | Expect::Encode(_) => want_accept(got),
        Expect::EncodeRefused { .. } => Ok(()),
        Expect::Reject(want) => match got {
            Outcome::Refused(r) if r == want => Ok(()),
            Outcome::Refused(r) => Err(format!("refused with {r}, want {want}")),
            _ => Err(format!("{:?}, want refusal {want}", short(got))),
        },
    }
}

fn short(o: &Outcome) -> String {
    match o {
        Outcome::Accepted { reencoded, unknown } => {
            format!(
                "accepted ({} unknown) re-encoded {}",
                unknown,
                hex::format(reencoded)
            )
        }
        Outcome::Refused(r) => format!("refused {r}"),
        Outcome::EncodeFailed(e) => format!("encode failed {e}"),
    }
}

fn run_generated(case: &Case) -> Result<Outcome, String> {
    if let Expect::EncodeRefused { json, code } = &case.expect {
        // Generated types have no JSON mapping: the value reaches them as the bytes
        // reflect writes for it, which generated code encodes under the case's limits.
        let b = match dynamic::value_bytes(&case.type_name, json) {
            Ok(b) => b,
            // A value with no encoding at all (an unset required field): generated types
            // cannot hold it, so there is nothing for them to refuse (SPEC §9).
            Err(dynamic::EncodeFailure::Refused { code: got, .. }) if &got == code => {
                return Ok(Outcome::Accepted {
                    reencoded: Vec::new(),
                    unknown: 0,
                });
            }
            Err(e) => return Err(e.to_string()),
        };
        return match generated::encode(&case.type_name, &b, &case.config)
            .ok_or_else(|| format!("no generated type {}", case.type_name))?
        {
            Err(dynamic::EncodeFailure::Refused { code: got, .. }) if &got == code => {
                Ok(Outcome::Accepted {
                    reencoded: Vec::new(),
                    unknown: 0,
                })
            }
            Err(e) => Err(format!("encoder failed with {e}, want {code}")),
            Ok(b) => Err(format!("encoded {}, want refusal {code}", hex::format(&b))),
        };
    }
    let o = generated::decode(&case.type_name, &case.bytes, &case.config)
        .ok_or_else(|| format!("no generated type {}", case.type_name))?;
    check_outcome(case, &o)?;
    if let Expect::Encode(json) = &case.expect
        && !case.config.stream
    {
        let b = dynamic::value_bytes(&case.type_name, json).map_err(|e| e.to_string())?;
        match generated::encode(&case.type_name, &b, &case.config) {
            Some(Ok(out)) if out == case.bytes => {}
            other => return Err(format!("encode under the case's limits: {other:?}")),
        }
    }
    Ok(o)
}

/// The borrowed twins (`FooRef<'a>`): the same outcome as the owned types, code, offset
/// and path included.
fn run_borrowed(case: &Case) -> Result<Outcome, String> {
    if matches!(case.expect, Expect::EncodeRefused { .. }) {
        return Ok(Outcome::Accepted {
            reencoded: Vec::new(),
            unknown: 0,
        });
    }
    let o = generated::decode_borrowed(&case.type_name, &case.bytes, &case.config)
        .ok_or_else(|| format!("no borrowed type {}", case.type_name))?;
    check_outcome(case, &o)?;
    Ok(o)
}

/// The dispatch decoders (`schema_dispatch`), owned and borrowed: each case's outcome, and
/// the walk's, code, offset and path included.
fn run_dispatch(case: &Case, borrowed: bool) -> Result<Outcome, String> {
    run_shape(case, borrowed, "dispatch")
}

/// The table decoders (`schema_table`), owned and borrowed, as [`run_dispatch`].
fn run_table(case: &Case, borrowed: bool) -> Result<Outcome, String> {
    run_shape(case, borrowed, "table")
}

/// A case through the decoders of one more shape (`dispatch` or `table`), owned or
/// borrowed.
fn run_shape(case: &Case, borrowed: bool, shape: &str) -> Result<Outcome, String> {
    if matches!(case.expect, Expect::EncodeRefused { .. }) {
        return Ok(Outcome::Accepted {
            reencoded: Vec::new(),
            unknown: 0,
        });
    }
    let (t, b, c) = (&case.type_name, &case.bytes, &case.config);
    let o = match (shape, borrowed) {
        ("table", true) => generated::decode_borrowed_table(t, b, c),
        ("table", false) => generated::decode_table(t, b, c),
        (_, true) => generated::decode_borrowed_dispatch(t, b, c),
        (_, false) => generated::decode_dispatch(t, b, c),
    }
    .ok_or_else(|| format!("no {shape} type {}", case.type_name))?;
    check_outcome(case, &o)?;
    Ok(o)
}

fn run_reflect(case: &Case) -> Result<Outcome, String> {
    if let Expect::EncodeRefused { json, code } = &case.expect {
        return match dynamic::encode_json_with(&case.type_name, json, &case.config) {
            Err(dynamic::EncodeFailure::Refused { code: got, .. }) if &got == code => {
                Ok(Outcome::Accepted {
                    reencoded: Vec::new(),
                    unknown: 0,
                })
            }
            Err(e) => Err(format!("encoder failed with {e}, want {code}")),
            Ok(b) => Err(format!("encoded {}, want refusal {code}", hex::format(&b))),
        };
    }
    let o = dynamic::decode(&case.type_name, &case.bytes, &case.config)
        .ok_or_else(|| format!("no reflect type {}", case.type_name))?;
    check_outcome(case, &o)?;
    match &case.expect {
        Expect::Accept(Some(j)) | Expect::Encode(j) => decode_json_is_bytes(case, j)?,
        _ => {}
    }
    Ok(o)
}

fn run_testee(case: &Case, engine: &Engine) -> Result<(), String> {
    let mut t = engine
        .testee
        .lock()
        .map_err(|_| "testee lock poisoned".to_string())?;
    if let Expect::EncodeRefused { json, code } = &case.expect {
        let req = Request::Encode {
            type_name: case.type_name.clone(),
            json: json.clone(),
            decoder: case.config,
        };
        return match t.ask(&req)? {
            Response::Refused { code: got, .. } if &got == code => Ok(()),
            Response::Unsupported { .. } if engine.may_lack_json => Ok(()),
            other => Err(format!("encode answered {other:?}, want refusal {code}")),
        };
    }
    let req = Request::Decode {
        type_name: case.type_name.clone(),
        input: hex::format_runs(&case.bytes),
        decoder: case.config,
    };
    let o = t.ask(&req)?.into_outcome()?;
    check_outcome(case, &o)?;
    if let Expect::Encode(json) = &case.expect
        && !case.config.stream
    {
        let req = Request::Encode {
            type_name: case.type_name.clone(),
            json: json.clone(),
            decoder: case.config,
        };
        match t.ask(&req)? {
            Response::Encoded { output }
                if hex::parse(&output).ok() == Some(case.bytes.clone()) => {}
            Response::Unsupported { .. } if engine.may_lack_json => {}
            other => return Err(format!("encode answered {other:?}")),
        }
    }
    Ok(())
}

fn run_case(case: &Case, known: &[Known], engines: &Engines) -> Result<(), Failed> {
    let is_known = |engine: &str| known.iter().any(|k| k.id == case.id && k.engine == engine);
    let mut failures = Vec::new();
    let mut judge = |engine: &str, r: Result<(), String>| match (r, is_known(engine)) {
        (Ok(()), false) | (Err(_), true) => {}
        (Err(e), false) => failures.push(format!("{engine}: {e}")),
        (Ok(()), true) => failures.push(format!(
            "{engine}: passes now; remove it from known_divergences.toml"
        )),
    };
    let g = run_generated(case);
    let b = run_borrowed(case);
    let d = run_dispatch(case, false);
    let db = run_dispatch(case, true);
    let t = run_table(case, false);
    let tb = run_table(case, true);
    let r = run_reflect(case);
    let disagree = match (&g, &r) {
        (Ok(a), Ok(b)) if a != b => {
            Some(format!("generated {} but reflect {}", short(a), short(b)))
        }
        _ => None,
    };
    // Borrowed twins answer exactly as their owned types, vector or not.
    let twin = match (&g, &b) {
        (Ok(a), Ok(b)) if a != b => {
            Some(format!("generated {} but borrowed {}", short(a), short(b)))
        }
        _ => None,
    };
    // Dispatch and table decoders answer exactly as the walk, owned and borrowed.
    let dispatch = [
        (&d, "dispatch"),
        (&db, "dispatch borrowed"),
        (&t, "table"),
        (&tb, "table borrowed"),
    ]
    .into_iter()
    .find_map(|(x, name)| match (&g, x) {
        (Ok(a), Ok(b)) if a != b => Some(format!("generated {} but {name} {}", short(a), short(b))),
        _ => None,
    });
    judge("generated", g.map(|_| ()));
    judge("borrowed", b.map(|_| ()));
    judge("dispatch", d.map(|_| ()));
    judge("dispatch-borrowed", db.map(|_| ()));
    judge("table", t.map(|_| ()));
    judge("table-borrowed", tb.map(|_| ()));
    judge("reflect", r.map(|_| ()));
    for e in &engines.testees {
        judge(&e.name, run_testee(case, e));
    }
    failures.extend(disagree);
    failures.extend(twin);
    failures.extend(dispatch);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} ({}, {}, SPEC {}):\n  {}",
            case.id,
            case.file,
            case.type_name,
            case.spec,
            failures.join("\n  ")
        )
        .into())
    }
}

/// Every obligation has reject vectors and every REJECT_CLASSES entry (A1–G27) is named
/// by some vector; every reject vector names the SPEC section it tests.
fn coverage(cases: &[Case]) -> Result<(), Failed> {
    let mut missing = Vec::new();
    for code in CODES {
        let n = cases
            .iter()
            .filter(|c| matches!(&c.expect, Expect::Reject(r) if r.code == code))
            .count();
        if n == 0 {
            missing.push(format!("no reject vector for {code}"));
        }
    }
    let classes = [
        "A1", "A2", "A3", "A4", "A5", "B6", "B7", "B8", "B9", "C10", "C11", "C12", "C13", "C14",
        "C15", "D16", "D17", "D18", "D19", "D20", "D21", "D22", "E23", "F24", "G25", "G26", "G27",
    ];
    for class in classes {
        if !cases.iter().any(|c| c.classes.iter().any(|x| x == class)) {
            missing.push(format!("no vector for REJECT_CLASSES {class}"));
        }
    }
    for c in cases {
        if let Some(x) = c.classes.iter().find(|x| !classes.contains(&x.as_str())) {
            missing.push(format!("{}: unknown class {x}", c.id));
        }
        if c.spec.trim().is_empty() {
            missing.push(format!("{}: no SPEC section", c.id));
        }
        if let Expect::Reject(r) = &c.expect
            && !CODES.contains(&r.code.as_str())
        {
            missing.push(format!("{}: unknown code {}", c.id, r.code));
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(missing.join("\n").into())
    }
}

/// The runner itself can fail: a vector with a wrong offset, a wrong code, a wrong
/// re-encoding or a wrong JSON value is reported by each engine.
fn self_check() -> Result<(), Failed> {
    let toml = r#"
        [[case]]
        id = "wrong-offset"
        spec = "3.3"
        type = "conformance.Scalars"
        hex = "18 02"
        reject = { code = "invalid-bool", offset = 0, path = "Scalars.flag" }

        [[case]]
        id = "wrong-verdict"
        spec = "3.3"
        type = "conformance.Scalars"
        hex = "18 01"
        reject = { code = "invalid-bool", offset = 1, path = "Scalars.flag" }

        [[case]]
        id = "wrong-json"
        spec = "3.3"
        type = "conformance.Scalars"
        hex = "18 01"
        accept = '{"flag": false, "u32": 1}'
    "#;
    let dir =
        std::env::temp_dir().join(format!("bijoubuf-conformance-self-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("self.toml"), toml).map_err(|e| e.to_string())?;
    let cases = bijoubuf_conformance::load_dir(&dir).map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    let cases = cases?;
    for case in &cases {
        if run_generated(case).is_ok() && case.id != "wrong-json" {
            return Err(format!("generated engine passed the bad vector {}", case.id).into());
        }
        if run_reflect(case).is_ok() {
            return Err(format!("reflect engine passed the bad vector {}", case.id).into());
        }
        if run_borrowed(case).is_ok() && case.id != "wrong-json" {
            return Err(format!("borrowed engine passed the bad vector {}", case.id).into());
        }
        for borrowed in [false, true] {
            if run_dispatch(case, borrowed).is_ok() && case.id != "wrong-json" {
                return Err(format!("dispatch engine passed the bad vector {}", case.id).into());
            }
            if run_table(case, borrowed).is_ok() && case.id != "wrong-json" {
                return Err(format!("table engine passed the bad vector {}", case.id).into());
            }
        }
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = bijoubuf_conformance::load_dir(&root.join("vectors")).expect("vector files load");
    let known = bijoubuf_conformance::load_known(&root.join("vectors/known_divergences.toml"))
        .expect("known_divergences.toml loads");
    for k in &known {
        assert!(
            cases.iter().any(|c| c.id == k.id),
            "known divergence names no vector: {}",
            k.id
        );
    }
    let exe = env!("CARGO_BIN_EXE_bijoubuf-conformance-testee");
    let engine = |name: &str, may_lack_json: bool, testee: Testee| Engine {
        name: name.to_string(),
        may_lack_json,
        testee: Mutex::new(testee),
    };
    let mut testees = vec![
        engine(
            "testee",
            false,
            Testee::spawn(exe, &["--engine", "reflect"]),
        ),
        // Generated code has no JSON mapping of its own, but the reference testee reads
        // an encode request's JSON with reflect and encodes the value with generated code.
        engine(
            "testee-generated",
            false,
            Testee::spawn(exe, &["--engine", "generated"]),
        ),
    ];
    // The TypeScript implementation (typescript/), built from the conformance schemas.
    match bijoubuf_conformance::typescript::testee() {
        Ok(Some(cmd)) => {
            let rest: Vec<&str> = cmd[1..].iter().map(String::as_str).collect();
            testees.push(engine("typescript", false, Testee::spawn(&cmd[0], &rest)));
        }
        Ok(None) => {}
        Err(e) => panic!("{e}"),
    }
    // The Go implementation (go/), its testee built with `go build` into target/go/.
    match bijoubuf_conformance::golang::testee() {
        Ok(Some(cmd)) => testees.push(engine("go", false, Testee::spawn(&cmd[0], &[]))),
        Ok(None) => {}
        Err(e) => panic!("{e}"),
    }
    if let Ok(cmd) = std::env::var("BIJOUBUF_TESTEE") {
        let parts: Vec<&str> = cmd.split_whitespace().collect();
        if let Some((prog, rest)) = parts.split_first() {
            testees.push(engine("external", true, Testee::spawn(prog, rest)));
        }
    }
    let all: Vec<Case> = cases.clone();
    let engines: &'static Engines = Box::leak(Box::new(Engines { testees }));
    let known: &'static [Known] = Box::leak(known.into_boxed_slice());
    let mut trials: Vec<Trial> = vec![
        Trial::test("suite.coverage", move || coverage(&all)).with_kind("suite"),
        Trial::test("suite.self-check", self_check).with_kind("suite"),
    ];
    trials.extend(cases.into_iter().map(|case| {
        let name = case.id.clone();
        let kind = case.file.trim_end_matches(".toml").to_string();
        Trial::test(name, move || run_case(&case, known, engines)).with_kind(kind)
    }));
    libtest_mimic::run(&args, trials).exit();
}
