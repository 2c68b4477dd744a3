//! Every vector card of conformance/SPEC.md, read from the document itself and run
//! through `DynamicMessage`: the verdict, code, offset and path must be the card's, and
//! an accepted input must re-encode to the same bytes.

use bijoubuf::{DecodeOptions, UnknownFieldPolicy};
use bijoubuf_reflect::{DescriptorPool, DynamicMessage};

const SPEC: &str = include_str!("../../../conformance/SPEC.md");

#[derive(Debug)]
struct Card {
    line: usize,
    schema: String,
    decoder: Vec<String>,
    input: Vec<u8>,
    result: String,
}

/// The cards: ```text blocks whose first line starts with `schema`.
fn cards() -> Vec<Card> {
    let mut out = Vec::new();
    let lines: Vec<&str> = SPEC.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() == "```text" && lines.get(i + 1).is_some_and(|l| l.starts_with("schema"))
        {
            let start = i + 1;
            let mut j = start;
            let mut field = String::new();
            let mut parts: Vec<(String, String)> = Vec::new();
            while lines[j].trim() != "```" {
                let l = lines[j];
                if l.starts_with(' ') {
                    // continuation of the previous field
                    if let Some(last) = parts.last_mut() {
                        last.1.push('\n');
                        last.1.push_str(l.trim());
                    }
                } else {
                    let (name, rest) = l.split_once(' ').unwrap_or((l, ""));
                    field = name.to_string();
                    parts.push((field.clone(), rest.trim().to_string()));
                }
                j += 1;
            }
            let _ = field;
            let get = |n: &str| {
                parts
                    .iter()
                    .filter(|(k, _)| k == n)
                    .map(|(_, v)| v.clone())
                    .collect::<Vec<_>>()
            };
            let input = get("input")
                .join(" ")
                .split_whitespace()
                .map(|h| u8::from_str_radix(h, 16).expect("hex byte"))
                .collect();
            out.push(Card {
                line: start,
                schema: get("schema").join("\n"),
                decoder: get("decoder"),
                input,
                result: get("result").join(" "),
            });
            i = j;
        }
        i += 1;
    }
    out
}

fn first_message(schema: &str) -> String {
    let at = schema.find("message ").expect("a message");
    schema[at + 8..]
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
        .expect("a name")
        .to_string()
}

fn options(decoder: &[String]) -> DecodeOptions {
    let mut o = DecodeOptions::new();
    for d in decoder {
        let words: Vec<&str> = d.split_whitespace().collect();
        o = match words.as_slice() {
            ["preserving"] => o.unknown_fields(UnknownFieldPolicy::Preserve),
            ["depth-limit", n] => o.max_depth(n.parse().expect("depth")),
            ["size-limit", n] => o.max_size(Some(n.parse().expect("size"))),
            other => panic!("unknown decoder line {other:?}"),
        };
    }
    o
}

#[test]
fn every_spec_vector_card() {
    let cards = cards();
    assert!(cards.len() >= 40, "found only {} cards", cards.len());
    let mut failures = Vec::new();
    for card in &cards {
        let text = if card.schema.contains("syntax") {
            card.schema.clone()
        } else {
            format!("syntax = \"proto3\";\n{}", card.schema)
        };
        let compiled = bijoubuf_schema::compile_sources(&[("card.proto", text.as_str())])
            .unwrap_or_else(|e| panic!("SPEC line {}: schema does not compile: {e}", card.line));
        let pool = DescriptorPool::new(&compiled.schema);
        let desc = pool
            .message(&first_message(&card.schema))
            .expect("first message");
        let got = DynamicMessage::decode_with(&desc, &card.input, &options(&card.decoder));
        let verdict = match &got {
            Ok(m) => match m.encode() {
                Ok(again) if again == card.input => "ok".to_string(),
                Ok(again) => format!("re-encoded differently: {again:02X?}"),
                Err(e) => format!("does not re-encode: {e}"),
            },
            Err(e) => format!("{} at {}, path {}", e.code(), e.offset(), e.path_string()),
        };
        if verdict != card.result {
            failures.push(format!(
                "SPEC line {}: expected `{}`, got `{verdict}`",
                card.line, card.result
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cards failed:\n{}",
        failures.len(),
        cards.len(),
        failures.join("\n")
    );
}
