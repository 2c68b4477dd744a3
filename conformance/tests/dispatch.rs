//! The three shapes of generated decoder, the walk ([`bijoubuf_conformance::schema`]),
//! dispatch ([`bijoubuf_conformance::schema_dispatch`]) and the table
//! ([`bijoubuf_conformance::schema_table`]), give the same outcome on every
//! conformance vector's input and on inputs near it: the same value (re-encoded to the
//! same bytes, the same number of unknown records kept) or the same refusal (code, byte
//! offset and path), owned and borrowed.
//!
//! Near inputs: every byte set to each of [`BYTE_VALUES`] and flipped in one bit, every
//! cut, a byte appended (in a long input, near its two ends only); each under the vector's configuration, and the vector's own
//! input also under depth limits 1 to 4 and with the unknown-field policy flipped.

use std::collections::BTreeSet;
use std::path::Path;

use bijoubuf_conformance::{CODES, Config, Expect, Outcome, generated};

/// Values each byte is set to: the small keys and lengths, a wire type's neighbours, the
/// last one-byte bijou64, the tier tags around it and the largest.
const BYTE_VALUES: [u8; 8] = [0x00, 0x01, 0x02, 0x03, 0x7F, 0xF7, 0xF8, 0xFF];

/// Inputs longer than this (deep nesting, large runs) are mutated at their first and last
/// [`MUTATED`] bytes only.
const MUTATED: usize = 128;

/// Inputs longer than this are not mutated (only cut in half and run whole).
const LONG: usize = 4096;

/// The inputs near `bytes`, one at a time, each handed to `f`.
fn mutations(bytes: &[u8], mut f: impl FnMut(&[u8])) {
    let n = bytes.len();
    if n > LONG {
        f(&bytes[..n / 2]);
        return;
    }
    let mut b = bytes.to_vec();
    let at = (0..n.min(MUTATED)).chain(n.saturating_sub(MUTATED).max(MUTATED)..n);
    for i in at {
        for v in BYTE_VALUES.into_iter().chain([bytes[i] ^ 0x04]) {
            if v != bytes[i] {
                b[i] = v;
                f(&b);
            }
        }
        b[i] = bytes[i];
        f(&bytes[..i]);
    }
    for v in [0x00, 0x04] {
        b.push(v);
        f(&b);
        b.pop();
    }
}

/// Walk, dispatch and table, owned and borrowed, on one input: `Err` names the first
/// disagreement. Returns the walk's owned outcome.
fn compare(type_name: &str, bytes: &[u8], cfg: &Config) -> Result<Outcome, String> {
    let run = |f: fn(&str, &[u8], &Config) -> Option<Outcome>| {
        f(type_name, bytes, cfg).ok_or_else(|| format!("no generated type {type_name}"))
    };
    let walk = run(generated::decode)?;
    let dispatch = run(generated::decode_dispatch)?;
    let walk_ref = run(generated::decode_borrowed)?;
    let dispatch_ref = run(generated::decode_borrowed_dispatch)?;
    let table = run(generated::decode_table)?;
    let table_ref = run(generated::decode_borrowed_table)?;
    if walk != dispatch {
        return Err(format!("owned: walk {walk:?}, dispatch {dispatch:?}"));
    }
    if walk_ref != dispatch_ref {
        return Err(format!(
            "borrowed: walk {walk_ref:?}, dispatch {dispatch_ref:?}"
        ));
    }
    if walk != table {
        return Err(format!("owned: walk {walk:?}, table {table:?}"));
    }
    if walk_ref != table_ref {
        return Err(format!("borrowed: walk {walk_ref:?}, table {table_ref:?}"));
    }
    Ok(walk)
}

#[test]
fn walk_dispatch_and_table_agree_on_the_vectors_and_near_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = bijoubuf_conformance::load_dir(&root.join("vectors")).expect("vector files load");
    let mut failures = Vec::new();
    let mut inputs = 0usize;
    let mut codes = BTreeSet::new();
    let mut accepted = 0usize;
    for case in &cases {
        if matches!(case.expect, Expect::EncodeRefused { .. }) {
            continue;
        }
        let mut check = |bytes: &[u8], cfg: &Config| {
            inputs += 1;
            match compare(&case.type_name, bytes, cfg) {
                Ok(Outcome::Refused(r)) => {
                    codes.insert(r.code);
                }
                Ok(Outcome::Accepted { .. }) => accepted += 1,
                Ok(Outcome::EncodeFailed(_)) => {}
                Err(e) if failures.len() < 20 => failures.push(format!(
                    "{} ({}) on {:02x?} with {cfg:?}: {e}",
                    case.id,
                    case.type_name,
                    &bytes[..bytes.len().min(64)]
                )),
                Err(_) => {}
            }
        };
        mutations(&case.bytes, |b| check(b, &case.config));
        for depth in 1..=4 {
            let cfg = Config {
                depth_limit: Some(depth),
                ..case.config
            };
            check(&case.bytes, &cfg);
        }
        let flipped = Config {
            preserving: !case.config.preserving,
            ..case.config
        };
        check(&case.bytes, &flipped);
        check(&case.bytes, &case.config);
    }
    assert!(
        failures.is_empty(),
        "walk, dispatch and table disagree:\n{}",
        failures.join("\n")
    );
    // The inputs reach both sides of the decoders: accepted values and refusals of
    // (nearly) every kind a decode can give.
    assert!(inputs > 10_000, "only {inputs} inputs");
    assert!(accepted > 1_000, "only {accepted} inputs accepted");
    // Every code but size-limit-exceeded: these decodes set no size limit.
    for code in CODES.iter().filter(|c| **c != "size-limit-exceeded") {
        assert!(
            codes.contains(*code),
            "no input refused with {code}: {codes:?}"
        );
    }
}

/// A varint run is sized before it is read, one slot per byte of the run, and a run of
/// long values gives the excess back once read (more than two slots per element); the
/// dispatch and table reads of a repeated field must leave the vector the walk leaves, capacity
/// included. Runs of one-byte values (no excess), of two-byte values (exactly two slots
/// per element: kept), of longer values and of mixed widths, for 64- and 32-bit elements.
#[test]
fn dispatch_and_table_give_back_a_runs_excess_capacity_as_the_walk_does() {
    use bijoubuf::Message;
    use bijoubuf_conformance::{schema, schema_dispatch, schema_table};

    // One-, two-, three- and nine-byte bijou64 values.
    let widths: [u64; 4] = [5, 300, 70_000, u64::MAX];
    let mut runs: Vec<Vec<u64>> = Vec::new();
    for n in 1..=12u64 {
        for w in widths {
            runs.push((0..n).map(|i| w - (i % 3)).collect());
        }
        runs.push((0..n).map(|i| widths[i as usize % 4]).collect());
    }
    let mut shrunk = 0;
    for run in &runs {
        let value = schema::conformance::Repeats {
            u64: run.clone(),
            i32: run.iter().map(|&v| v as i32).collect(),
            ..Default::default()
        };
        let bytes = value.encode_to_vec().expect("encodes");
        let walk = schema::conformance::Repeats::decode(&bytes).expect("walk decodes");
        let dispatch =
            schema_dispatch::conformance::Repeats::decode(&bytes).expect("dispatch decodes");
        let table = schema_table::conformance::Repeats::decode(&bytes).expect("table decodes");
        assert_eq!(walk.u64, dispatch.u64);
        assert_eq!(walk.i32, dispatch.i32);
        assert_eq!(walk.u64, table.u64);
        assert_eq!(walk.i32, table.i32);
        for (field, w, d, t) in [
            (
                "u64",
                walk.u64.capacity(),
                dispatch.u64.capacity(),
                table.u64.capacity(),
            ),
            (
                "i32",
                walk.i32.capacity(),
                dispatch.i32.capacity(),
                table.i32.capacity(),
            ),
        ] {
            assert_eq!(w, d, "{field} capacity, walk {w}, dispatch {d}, of {run:?}");
            assert_eq!(w, t, "{field} capacity, walk {w}, table {t}, of {run:?}");
        }
        if walk.u64.capacity() == run.len() && run.iter().any(|&v| v >= 70_000) {
            shrunk += 1;
        }
    }
    // The comparison reaches runs whose excess was given back.
    assert!(shrunk > 0, "no run of long values was shrunk by the walk");
}
