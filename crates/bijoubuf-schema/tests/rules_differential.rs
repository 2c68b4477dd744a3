//! Random single-file schemas that break (or keep) protoc's rules: labels, numbers,
//! reserved numbers and names, defaults, JSON names, packed, maps, oneofs, enum aliases.
//! We accept exactly what protox accepts, except for the protoc rules protox 0.10 does not
//! check (listed in [`PROTOX_UNCHECKED`], each with a rejecting corpus file); where both
//! accept, the descriptors are equal.

use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Field {
    label: &'static str,
    ty: &'static str,
    name: &'static str,
    number: &'static str,
    option: &'static str,
    in_oneof: bool,
}

/// Mostly valid choices (so that both sides often accept and descriptors get compared),
/// sometimes one that breaks a rule.
fn pick(
    valid: &'static [&'static str],
    odd: &'static [&'static str],
) -> impl Strategy<Value = &'static str> {
    prop_oneof![4 => prop::sample::select(valid), 1 => prop::sample::select(odd)]
}

fn field() -> impl Strategy<Value = Field> {
    (
        pick(
            &["", "optional ", "repeated "],
            &["required ", "", "optional "],
        ),
        pick(
            &[
                "int32",
                "string",
                "bytes",
                "double",
                "bool",
                "uint64",
                "E",
                "M",
                "map<int32, string>",
                "map<string, E>",
            ],
            &[
                "map<bytes, int32>",
                "map<float, int32>",
                "map<E, int32>",
                "M.Nope",
            ],
        ),
        pick(&["a", "b", "c", "d", "e", "g"], &["a_b", "aB", "AB", "a0"]),
        pick(
            &["1", "2", "3", "4", "6", "7", "8"],
            &["0", "19000", "536870911", "536870912", "5", "100"],
        ),
        pick(
            &[
                "",
                "",
                "",
                "",
                " [deprecated = true]",
                " [json_name = \"x\"]",
            ],
            &[
                " [default = 1]",
                " [default = -1]",
                " [default = \"s\"]",
                " [default = true]",
                " [default = 1.5]",
                " [default = E_A]",
                " [default = 4294967296]",
                " [packed = true]",
                " [json_name = \"aB\"]",
                " [deprecated = 1]",
            ],
        ),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(label, ty, name, number, option, in_oneof)| Field {
            label,
            ty,
            name,
            number,
            option,
            in_oneof,
        })
}

fn schema() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        proptest::collection::vec(field(), 1..5),
        prop::sample::select(
            &[
                "",
                "  reserved 5;\n",
                "  reserved \"c\";\n",
                "  reserved 2 to 3;\n",
            ][..],
        ),
        prop::sample::select(&["", "  extensions 100 to 200;\n"][..]),
        prop::sample::select(
            &[
                "enum E { E_A = 0; E_B = 1; }",
                "enum E { E_A = 1; E_B = 2; }",
                "enum E { option allow_alias = true; E_A = 0; E_B = 0; }",
                "enum E { E_A = 0; E_B = 0; }",
                "enum E { option allow_alias = true; E_A = 0; }",
            ][..],
        ),
    )
        .prop_map(|(proto3, fields, reserved, extensions, enumeration)| {
            let mut s = format!(
                "syntax = \"{}\";\npackage r;\n{enumeration}\nmessage M {{\n",
                if proto3 { "proto3" } else { "proto2" }
            );
            s.push_str(reserved);
            s.push_str(extensions);
            let mut oneof = Vec::new();
            for (i, f) in fields.iter().enumerate() {
                // Ordinary choices get unique names and numbers; odd ones are kept as drawn.
                let name = if f.name.len() == 1 {
                    format!("{}{i}", f.name)
                } else {
                    f.name.to_string()
                };
                let number = if f.number.len() == 1 {
                    (i + 1).to_string()
                } else {
                    f.number.to_string()
                };
                let plain =
                    !proto3 && f.label.is_empty() && !f.in_oneof && !f.ty.starts_with("map");
                let label = if plain { "optional " } else { f.label };
                let line = format!("{label}{} {name} = {number}{};\n", f.ty, f.option);
                if f.in_oneof {
                    oneof.push(line)
                } else {
                    s.push_str("  ");
                    s.push_str(&line)
                }
            }
            if !oneof.is_empty() {
                s.push_str("  oneof o {\n");
                for l in oneof {
                    s.push_str("    ");
                    s.push_str(&l);
                }
                s.push_str("  }\n");
            }
            s.push_str("}\n");
            s
        })
}

/// Our codes for protoc rules that protox 0.10 does not enforce (the rejecting corpus
/// marks each such file `protox: accepts`).
const PROTOX_UNCHECKED: &[&str] = &[
    "useless-allow-alias",
    "duplicate-extension-number",
    "invalid-packed",
    "closed-enum-in-proto3",
    "proto3-extension",
    "reserved-name",
    "overlapping-ranges",
    // protoc: "Extension ranges are not allowed in proto3."; protox 0.10 allows them.
    "proto3-extension-range",
    // protoc: "Enum value in map must define 0 as the first value."
    "closed-enum-map-value",
];

/// One in-memory file for protox.
struct InMemory(String);

impl protox::file::FileResolver for InMemory {
    fn open_file(&self, name: &str) -> Result<protox::file::File, protox::Error> {
        if name == "r.proto" {
            protox::file::File::from_source(name, &self.0)
        } else {
            protox::file::GoogleFileResolver::new().open_file(name)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn rules_agree_with_protox(text in schema()) {
        let ours = bijoubuf_schema::compile_sources(&[("r.proto", text.as_str())]);
        let mut protox = protox::Compiler::with_file_resolver(InMemory(text.clone()));
        let theirs = protox.open_file("r.proto").map(|_| ());
        match (&ours, &theirs) {
            (Ok(c), Ok(())) => {
                let mut a = c.schema.file_descriptor_set().file.remove(0);
                let mut b = protox.file_descriptor_set().file.remove(0);
                a.source_code_info = None;
                b.source_code_info = None;
                prop_assert_eq!(a, b, "{}", text);
            }
            (Err(_), Err(_)) => {}
            // Two JSON-name rules where we follow protoc 22+ and protox 0.10 does not:
            // a proto2 clash that involves a default name is only a warning, and proto3
            // compares JSON names exactly (protox compares them lower-cased without
            // underscores, so it refuses `AB` next to `a_b`).
            (Ok(c), Err(e)) => prop_assert!(
                c.warnings.iter().any(|w| w.code() == "json-name-conflict")
                    || e.to_string().contains("camel-case name"),
                "protox refused what we accepted: {e}\n{text}"
            ),
            (Err(e), Ok(())) => prop_assert!(
                e.errors().iter().all(|d| PROTOX_UNCHECKED.contains(&d.code())),
                "we refused what protox accepted: {e}\n{text}"
            ),
        }
    }
}
