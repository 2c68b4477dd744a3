//! Properties for every conformance message type (REJECT_CLASSES "properties"), with the
//! checks of `bijoubuf_conformance::props`:
//!
//! - arbitrary bytes `b`: if a decoder accepts `b`, re-encoding gives `b` (canonicality),
//!   and generated code and `bijoubuf-reflect` give the same verdict (accept, or the same
//!   code, offset and path), strict and preserving;
//! - the same for short mutation chains of every accepting vector, which reach far more
//!   decoder paths than uniform bytes;
//! - arbitrary values `v`: `decode(encode(v)) == v`, and generated code decodes the bytes
//!   and predicts their length (`encoded_len`) exactly;
//! - whatever the strict decoder accepts (arbitrary bytes, mutated vectors, encoded
//!   arbitrary values) prints as proto3 JSON that reads back to the same bytes, or is
//!   refused by the JSON writer: decode → JSON → encode gives the input or a refusal;
//! - JSON text near every vector's JSON (characters changed, inserted, removed): refused
//!   with an error, or encoded to bytes both engines accept unchanged and whose JSON
//!   reads back to the same bytes.

mod common;
use common::{json_mutation, json_seeds, mutate_json, runner};

use std::cell::Cell;
use std::path::Path;

use bijoubuf_conformance::generated::TYPE_NAMES;
use bijoubuf_conformance::props::{check_bytes, check_json, check_json_text, check_value};
use bijoubuf_conformance::{Config, Expect};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

#[test]
fn arbitrary_bytes_are_canonical_or_refused_alike() {
    let preserving = Config {
        preserving: true,
        ..Config::default()
    };
    for ty in TYPE_NAMES {
        let mut run = runner(256);
        run.run(&proptest::collection::vec(any::<u8>(), 0..48), |b| {
            check_bytes(ty, &b, &Config::default()).map_err(TestCaseError::fail)?;
            // SPEC §8.2: one preserving configuration, one verdict, with no exception.
            check_bytes(ty, &b, &preserving).map_err(TestCaseError::fail)?;
            check_json(ty, &b).map_err(TestCaseError::fail)
        })
        .unwrap_or_else(|e| panic!("{ty}: {e}"));
    }
}

#[derive(Debug, Clone)]
enum Mutation {
    Set(usize, u8),
    Insert(usize, u8),
    Remove(usize),
    Truncate(usize),
}

fn mutate(v: &mut Vec<u8>, m: &Mutation) {
    let at = |i: usize, n: usize| if n == 0 { 0 } else { i % n };
    match *m {
        Mutation::Set(i, x) if !v.is_empty() => {
            let i = at(i, v.len());
            v[i] = x;
        }
        Mutation::Insert(i, x) => v.insert(at(i, v.len() + 1), x),
        Mutation::Remove(i) if !v.is_empty() => {
            v.remove(at(i, v.len()));
        }
        Mutation::Truncate(i) => v.truncate(at(i, v.len() + 1)),
        _ => {}
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, x)| Mutation::Set(i, x)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, x)| Mutation::Insert(i, x)),
        any::<usize>().prop_map(Mutation::Remove),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

#[test]
fn mutated_vectors_are_canonical_or_refused_alike() {
    let preserving = Config {
        preserving: true,
        ..Config::default()
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let seeds: Vec<(String, Vec<u8>)> = bijoubuf_conformance::load_dir(&dir)
        .expect("vectors load")
        .into_iter()
        .filter(|c| c.config == Config::default() && c.bytes.len() < 600)
        .filter(|c| matches!(c.expect, Expect::Accept(_) | Expect::Encode(_)))
        .map(|c| (c.type_name, c.bytes))
        .collect();
    assert!(seeds.len() > 100, "only {} seeds", seeds.len());
    let mut run = runner(4096);
    run.run(
        &(0..seeds.len(), proptest::collection::vec(mutation(), 1..3)),
        |(i, ms)| {
            let (ty, b) = &seeds[i];
            let mut v = b.clone();
            for m in &ms {
                mutate(&mut v, m);
            }
            check_bytes(ty, &v, &Config::default()).map_err(TestCaseError::fail)?;
            check_bytes(ty, &v, &preserving).map_err(TestCaseError::fail)?;
            check_json(ty, &v).map_err(TestCaseError::fail)
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn arbitrary_values_round_trip() {
    for ty in TYPE_NAMES {
        let mut run = runner(128);
        let non_empty = Cell::new(0u32);
        run.run(&proptest::collection::vec(any::<u8>(), 0..256), |entropy| {
            let bytes = check_value(ty, &entropy).map_err(TestCaseError::fail)?;
            check_json(ty, &bytes).map_err(TestCaseError::fail)?;
            non_empty.set(non_empty.get() + u32::from(!bytes.is_empty()));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{ty}: {e}"));
        // The strategy must produce real values, not only the empty message.
        assert!(
            non_empty.get() >= 8,
            "{ty}: only {} non-empty values",
            non_empty.get()
        );
    }
}

#[test]
fn mutated_json_is_refused_or_round_trips() {
    let seeds = json_seeds();
    // Unmutated, every seed holds too.
    for (ty, j) in &seeds {
        check_json_text(ty, j).unwrap_or_else(|e| panic!("{e}"));
    }
    let accepted = Cell::new(0u32);
    let mut run = runner(4096);
    run.run(&json_mutation(seeds.len()), |(i, edits)| {
        let (ty, j) = &seeds[i];
        let bytes = check_json_text(ty, &mutate_json(j, &edits)).map_err(TestCaseError::fail)?;
        accepted.set(accepted.get() + u32::from(bytes.is_some()));
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{e}"));
    // Mutations that keep the text valid must be common enough to test the round trip.
    assert!(
        accepted.get() >= 100,
        "only {} mutated texts accepted",
        accepted.get()
    );
}
