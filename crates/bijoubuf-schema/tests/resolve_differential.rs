//! Random schemas with shadowed and partly qualified names: we accept exactly what protox
//! accepts, and where both accept, the resolved descriptors are equal.

use proptest::prelude::*;

/// A message: its name (from a small pool, so names shadow each other), nested messages,
/// and field type names (drawn from relative, dotted and absolute spellings).
#[derive(Clone, Debug)]
struct Msg {
    nested: Vec<Msg>,
    fields: Vec<String>,
}

const POOL: &[&str] = &["A", "B", "C"];
const TYPE_NAMES: &[&str] = &[
    "A", "A", "B", "C", "A.B", "B.C", "A.C", "C.A", "A.E", "E", "E", ".p.A", ".p.A.E", "p.A",
    "p.B.A", "int32", "string", "A.B.E",
];

fn msg(depth: u32) -> BoxedStrategy<Msg> {
    let fields = proptest::collection::vec(
        proptest::sample::select(TYPE_NAMES).prop_map(str::to_string),
        0..4,
    );
    if depth == 0 {
        fields
            .prop_map(|fields| Msg {
                nested: Vec::new(),
                fields,
            })
            .boxed()
    } else {
        (proptest::collection::vec(msg(depth - 1), 0..3), fields)
            .prop_map(|(nested, fields)| Msg { nested, fields })
            .boxed()
    }
}

fn write(out: &mut String, m: &Msg, name: &str, indent: usize) {
    let pad = " ".repeat(indent);
    out.push_str(&format!("{pad}message {name} {{\n"));
    out.push_str(&format!("{pad}  enum E {{ {name}_E_ZERO = 0; }}\n"));
    for (i, n) in m.nested.iter().enumerate() {
        write(out, n, POOL[i], indent + 2);
    }
    for (i, t) in m.fields.iter().enumerate() {
        out.push_str(&format!("{pad}  {t} f{i} = {};\n", i + 1));
    }
    out.push_str(&format!("{pad}}}\n"));
}

fn schema(top: &[Msg]) -> String {
    let mut s = String::from("syntax = \"proto3\";\npackage p;\n");
    for (i, m) in top.iter().enumerate() {
        write(&mut s, m, POOL[i], 0);
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn name_resolution_agrees_with_protox(top in proptest::collection::vec(msg(2), 1..4)) {
        let text = schema(&top);
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
            (Ok(_), Err(e)) => prop_assert!(false, "protox refused what we accepted: {e}\n{text}"),
            (Err(e), Ok(())) => prop_assert!(false, "we refused what protox accepted: {e}\n{text}"),
        }
    }
}

/// One in-memory file for protox.
struct InMemory(String);

impl protox::file::FileResolver for InMemory {
    fn open_file(&self, name: &str) -> Result<protox::file::File, protox::Error> {
        if name == "r.proto" {
            protox::file::File::from_source(name, &self.0)
        } else {
            Err(protox::Error::file_not_found(name))
        }
    }
}
