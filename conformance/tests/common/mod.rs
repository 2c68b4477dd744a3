//! What the property test files share.

use std::cell::RefCell;
use std::path::Path;

use bijoubuf_conformance::protocol::{Request, Response};
use bijoubuf_conformance::{Config, Expect, Outcome, dynamic, hex};
use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, TestCaseError, TestRunner};

/// A proptest runner for `cases` cases that writes no regression files (the conformance
/// properties draw from fixed seeds per type and report the failing input themselves).
///
/// `BIJOUBUF_PROPERTY_SCALE=N` runs N times as many cases (a longer run by hand).
pub(crate) fn runner(cases: u32) -> TestRunner {
    let scale = std::env::var("BIJOUBUF_PROPERTY_SCALE")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
        .unwrap_or(1)
        .max(1);
    TestRunner::new(RunnerConfig {
        cases: cases.saturating_mul(scale),
        failure_persistence: None,
        ..RunnerConfig::default()
    })
}

/// The proto3 JSON of every vector that gives one, with its type.
#[allow(dead_code)] // not every test file mutates JSON
pub(crate) fn json_seeds() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let seeds: Vec<(String, String)> = bijoubuf_conformance::load_dir(&dir)
        .expect("vectors load")
        .into_iter()
        .filter_map(|c| match c.expect {
            Expect::Accept(Some(j)) | Expect::Encode(j) | Expect::EncodeRefused { json: j, .. } => {
                Some((c.type_name, j))
            }
            _ => None,
        })
        .collect();
    assert!(seeds.len() > 100, "only {} JSON seeds", seeds.len());
    seeds
}

/// One edit of JSON text: replace the character at, insert before, or remove it.
#[derive(Debug, Clone)]
pub(crate) enum JsonEdit {
    Set(usize, char),
    Insert(usize, char),
    Remove(usize),
}

/// A seed index below `seeds` and one to three edits: about 5 % of the results are
/// still valid JSON of the type.
#[allow(dead_code)]
pub(crate) fn json_mutation(seeds: usize) -> impl Strategy<Value = (usize, Vec<JsonEdit>)> {
    // Structure, the letters and digits proto3 JSON spells values with, and the escapes
    // and code points that test the string reader; or any character.
    let c = prop_oneof![
        proptest::sample::select(
            "{}[]:,\"\\ -+.eE0123456789tfnulrsaTZ@/_xyz\u{0}\u{7f}\u{e9}\u{fffd}\u{1f600}"
                .chars()
                .collect::<Vec<_>>()
        ),
        any::<char>(),
    ];
    let edit = prop_oneof![
        (any::<usize>(), c.clone()).prop_map(|(i, c)| JsonEdit::Set(i, c)),
        (any::<usize>(), c).prop_map(|(i, c)| JsonEdit::Insert(i, c)),
        any::<usize>().prop_map(JsonEdit::Remove),
    ];
    (0..seeds, proptest::collection::vec(edit, 1..4))
}

/// `text` with `edits` applied (positions taken modulo the length).
#[allow(dead_code)]
pub(crate) fn mutate_json(text: &str, edits: &[JsonEdit]) -> String {
    let mut t: Vec<char> = text.chars().collect();
    for e in edits {
        let n = t.len();
        match *e {
            JsonEdit::Set(i, c) if n > 0 => t[i % n] = c,
            JsonEdit::Insert(i, c) => t.insert(i % (n + 1), c),
            JsonEdit::Remove(i) if n > 0 => {
                t.remove(i % n);
            }
            _ => {}
        }
    }
    t.into_iter().collect()
}

/// Another implementation's verdicts (`decode`: its answer to a decode request) against
/// reflect's, strict and preserving: on arbitrary bytes as every conformance type, then on
/// the vectors' accepted inputs with one to three bytes changed, inserted or removed. `name`
/// names the implementation in a failure.
#[allow(dead_code)] // used by the cross-language test files only
pub(crate) fn agree_with_rust_on_bytes(
    name: &str,
    decode: impl FnMut(&str, &[u8], &Config) -> Outcome,
) {
    let decode = RefCell::new(decode);
    let same = |ty: &str, bytes: &[u8]| -> Result<(), TestCaseError> {
        let preserving = Config {
            preserving: true,
            ..Config::default()
        };
        for cfg in [Config::default(), preserving] {
            let rust = dynamic::decode(ty, bytes, &cfg)
                .ok_or_else(|| TestCaseError::fail(format!("no reflect type {ty}")))?;
            let other = (decode.borrow_mut())(ty, bytes, &cfg);
            if rust != other {
                return Err(TestCaseError::fail(format!(
                    "{ty} on {} ({cfg:?}): Rust {rust:?}, {name} {other:?}",
                    hex::format(bytes)
                )));
            }
        }
        Ok(())
    };
    for ty in bijoubuf_conformance::generated::TYPE_NAMES {
        runner(64)
            .run(&proptest::collection::vec(any::<u8>(), 0..48), |b| {
                same(ty, &b)
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let seeds: Vec<(String, Vec<u8>)> = bijoubuf_conformance::load_dir(&dir)
        .expect("vectors load")
        .into_iter()
        .filter(|c| c.config == Config::default() && c.bytes.len() < 600)
        .filter(|c| matches!(c.expect, Expect::Accept(_) | Expect::Encode(_)))
        .map(|c| (c.type_name, c.bytes))
        .collect();
    runner(2048)
        .run(
            &(
                0..seeds.len(),
                proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..4),
            ),
            |(i, edits)| {
                let (ty, b) = &seeds[i];
                same(ty, &edited(b, &edits))
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
}

/// `bytes` with `edits` made in turn, each `(at, x, op)` at `at` modulo the length: op 0
/// sets the byte there to `x`, 1 inserts `x` there, 2 removes the byte there (0 and 2 do
/// nothing to empty bytes).
#[allow(dead_code)] // used by the cross-language test files only
pub(crate) fn edited(bytes: &[u8], edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut v = bytes.to_vec();
    for &(at, x, op) in edits {
        let n = v.len();
        match op {
            0 if n > 0 => v[at % n] = x,
            1 => v.insert(at % (n + 1), x),
            _ if n > 0 => {
                v.remove(at % n);
            }
            _ => {}
        }
    }
    v
}

/// Every accepted vector (default configuration, up to 4 KiB) printed as proto3 JSON by
/// reflect and by another implementation (`json`: its answer to a `json` request): the same
/// text, or a refusal from both. `name` names the implementation in a failure.
#[allow(dead_code)] // used by the cross-language test files only
pub(crate) fn accepted_vectors_print_the_same_json(
    name: &str,
    mut json: impl FnMut(&str, &[u8]) -> Result<String, String>,
) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let mut compared = 0;
    for c in bijoubuf_conformance::load_dir(&dir).expect("vectors load") {
        if c.config != Config::default()
            || c.bytes.len() > 4096
            || !matches!(c.expect, Expect::Accept(_) | Expect::Encode(_))
        {
            continue;
        }
        let desc = dynamic::message(&c.type_name).expect("reflect type");
        let msg =
            bijoubuf_reflect::DynamicMessage::decode(&desc, &c.bytes).expect("accepted vector");
        let rust = bijoubuf_reflect::json::to_string(&msg);
        let other = json(&c.type_name, &c.bytes);
        match (&rust, &other) {
            (Ok(r), Ok(o)) if r == o => compared += 1,
            (Err(_), Err(_)) => {}
            _ => panic!("{}: Rust {rust:?}, {name} {other:?}", c.id),
        }
    }
    eprintln!("{compared} accepted vectors print the same JSON in Rust and {name}");
    assert!(compared >= 100, "only {compared} vectors compared");
}

/// Floats whose proto3 JSON spelling needs care: every power of two and its two
/// neighbours on each side (where the f32 below is nearer than the one above, so a
/// rounding to fewer digits can read back as another f32), values halfway between two
/// shortest spellings (0.291015625: `0.29101562`, the even one, not `0.29101563`),
/// a float whose shortest spelling reads back as another through a double, subnormals,
/// and a spread of other bit patterns: another implementation writes the
/// same text as Rust for each (in `conformance.Optionals`' `fl`), and the text reads
/// back as the same float there.
#[allow(dead_code)] // used by the cross-language test files only
pub(crate) fn floats_print_the_same_json(
    name: &str,
    mut json: impl FnMut(&str, &[u8]) -> Result<String, String>,
    mut encode_json: impl FnMut(&str, &str) -> Result<Vec<u8>, String>,
) {
    use bijoubuf_reflect::{DynamicMessage, Value};
    const TYPE: &str = "conformance.Optionals";
    let desc = dynamic::message(TYPE).expect("reflect type");
    let mut bits: Vec<u32> = (1..255u32)
        .flat_map(|e| (0..5).map(move |d| (e << 23) + d - 2))
        .collect();
    // Halfway cases: an f32 whose exact value ends in a 5 one digit past its shortest
    // spelling (multiples of a small power of two in a few decades).
    bits.extend([
        0x3e95_0000,
        0x4980_002a,
        0x431c_5400,
        0x3c88_0000,
        0x3b20_0000,
    ]);
    bits.extend((0..64).map(|i| 0x3e80_0000 + i * 0x0001_0000));
    // A shortest spelling that reads as the next f32 through a double, as JSON readers
    // read it (`7.038531e-26`): written with one more digit.
    bits.push(0x15ae_43fd);
    bits.extend([1, 2, 3, 0x007f_ffff, 0x0000_1234, 0x7f7f_ffff]);
    // A spread: a multiplicative walk through the finite positive patterns.
    let mut x: u32 = 0x9e37_79b9;
    for _ in 0..1500 {
        x = x.wrapping_mul(0x0019_660d).wrapping_add(0x3c6e_f35f);
        bits.push(x % 0x7f80_0000);
    }
    let mut compared = 0;
    for b in bits {
        for sign in [0, 0x8000_0000] {
            let f = f32::from_bits(b | sign);
            if !f.is_finite() || f == 0.0 {
                continue;
            }
            let mut m = DynamicMessage::new(desc.clone());
            m.set(13, Value::F32(f)).expect("fits");
            let bytes = m.encode().expect("encodes");
            let rust = bijoubuf_reflect::json::to_string(&m).expect("writes");
            let other = json(TYPE, &bytes);
            assert_eq!(other.as_ref(), Ok(&rust), "{b:#010x}: {name} and Rust");
            let back = encode_json(TYPE, &rust);
            assert_eq!(back.as_ref(), Ok(&bytes), "{b:#010x}: {name} reads {rust}");
            compared += 1;
        }
    }
    assert!(compared > 4000, "only {compared} floats compared");
}

#[allow(dead_code)] // used by the cross-language test files only
/// The JSON path a JSON reader's refusal names (`$`, `$.a[2]`), from its text
/// (`json: $.a[2]: what`); `None` for a refusal with no path (a syntax error, or the
/// encoder's refusal of the value read).
pub(crate) fn json_path(err: &str) -> Option<String> {
    let at = err.find("json: ")? + "json: ".len();
    let rest = &err[at..];
    rest.starts_with('$')
        .then(|| rest[..rest.find(": ").unwrap_or(rest.len())].to_string())
}

/// An encode answer as comparable text: the bytes, or the refusal's code.
fn encode_verdict(r: &Response) -> String {
    match r {
        Response::Encoded { output } => format!("encoded {output}"),
        Response::Refused { code, .. } => format!("refused {code}"),
        other => format!("{other:?}"),
    }
}

/// The value of every vector's JSON, encoded under size limits one below, at and one
/// above its length and under depth limits 0 to 10^6: the `engine` that `ask` reaches
/// gives the same bytes or the same refusal as generated Rust and reflect, and at least
/// 100 of the compared encodes are refusals.
#[allow(dead_code)] // not every test file has another encoder
pub(crate) fn encoders_refuse_alike_at_their_limits(
    engine: &str,
    mut ask: impl FnMut(&Request) -> Response,
) {
    let mut compared = 0;
    let mut refused = 0;
    for (ty, json) in json_seeds() {
        let Ok(bytes) = dynamic::value_bytes(&ty, &json) else {
            continue; // no encoding at all (an unset required field)
        };
        let n = bytes.len();
        let mut configs: Vec<Config> = [n.saturating_sub(1), n, n + 1]
            .into_iter()
            .map(|s| Config {
                size_limit: Some(s),
                ..Config::default()
            })
            .collect();
        for d in [0, 1, 2, 3, 100, 500, 501, 1_000_000] {
            configs.push(Config {
                depth_limit: Some(d),
                ..Config::default()
            });
        }
        for cfg in configs {
            let req = Request::Encode {
                type_name: ty.clone(),
                json: json.clone(),
                decoder: cfg,
            };
            let got = encode_verdict(&ask(&req));
            let generated = encode_verdict(&bijoubuf_conformance::protocol::answer(&req, true));
            let reflect = encode_verdict(&bijoubuf_conformance::protocol::answer(&req, false));
            assert!(
                got == generated && got == reflect,
                "{ty} {json} under {cfg:?}: {engine} {got}, generated {generated}, reflect {reflect}"
            );
            compared += 1;
            if got.starts_with("refused") {
                refused += 1;
            }
        }
    }
    eprintln!("{compared} encodes under limits compared, {refused} refused by all three");
    assert!(refused >= 100, "only {refused} refusals compared");
}
