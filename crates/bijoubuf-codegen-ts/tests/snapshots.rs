//! One named snapshot of generated TypeScript per schema in `schemas/`, and the
//! generator's fixed choices checked directly.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bijoubuf_codegen_ts::{GeneratedFile, Options, generate};
use bijoubuf_schema::Compiler;

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

fn generate_file(name: &str) -> Vec<GeneratedFile> {
    let compiled = Compiler::new()
        .include(schemas_dir())
        .compile(&[name])
        .unwrap_or_else(|e| panic!("{name} does not compile: {e}"));
    generate(&compiled.schema, &Options::new())
}

fn joined(files: &[GeneratedFile]) -> String {
    files
        .iter()
        .map(|f| format!("==> {} <==\n{}\n", f.name, f.content))
        .collect()
}

#[test]
fn example_envelope() {
    insta::assert_snapshot!(
        "example_envelope",
        joined(&generate_file("example/v1/envelope.proto"))
    );
}

#[test]
fn kitchen_sink() {
    insta::assert_snapshot!("kitchen_sink", joined(&generate_file("kitchen/sink.proto")));
}

#[test]
fn legacy_proto2() {
    insta::assert_snapshot!(
        "legacy_proto2",
        joined(&generate_file("legacy/legacy.proto"))
    );
}

#[test]
fn keywords() {
    insta::assert_snapshot!(
        "keywords",
        joined(&generate_file("keywords/keywords.proto"))
    );
}

#[test]
fn signed_example() {
    insta::assert_snapshot!(
        "examples_signed",
        joined(&generate_file("examples/signed.proto"))
    );
}

fn one(source: &str) -> String {
    let compiled = bijoubuf_schema::compile_sources(&[("t.proto", source)])
        .unwrap_or_else(|e| panic!("does not compile: {e:?}"));
    let files = generate(&compiled.schema, &Options::new());
    assert_eq!(files.len(), 1, "{files:?}");
    files
        .into_iter()
        .next()
        .map(|f| f.content)
        .unwrap_or_default()
}

#[test]
fn sixty_four_bit_integers_are_bigints_and_bytes_are_uint8arrays() {
    let ts = one(r#"syntax = "proto3"; package p;
        message M { int64 a = 1; fixed64 b = 2; uint32 c = 3; bytes d = 4; sfixed64 e = 5; }"#);
    for line in [
        "  a: bigint;",
        "  b: bigint;",
        "  c: number;",
        "  d: Uint8Array;",
        "  e: bigint;",
    ] {
        assert!(ts.contains(line), "no `{line}` in\n{ts}");
    }
}

#[test]
fn deprecated_declarations_get_a_deprecated_tag() {
    let ts = one(r#"syntax = "proto3"; package p;
        enum Old { option deprecated = true; OLD_UNSPECIFIED = 0; GONE = 1 [deprecated = true]; KEPT = 2; }
        message Legacy { option deprecated = true; uint32 a = 1; }
        message M {
          // Kept for old readers.
          uint32 a = 1 [deprecated = true];
          uint32 b = 2 [deprecated = true];
          uint32 c = 3;
        }"#);
    for part in [
        "  /**\n   * Kept for old readers.\n   *\n   * @deprecated\n   */\n  a: number;\n",
        "  /** @deprecated */\n  b: number;\n  c: number;\n",
        "/** @deprecated */\nexport interface Legacy extends",
        " *\n * @deprecated\n */\nexport const Old = {",
        "  /** @deprecated */\n  GONE: 1,\n  KEPT: 2,\n",
    ] {
        assert!(ts.contains(part), "no `{part}` in\n{ts}");
    }
    // Only what the schema marks.
    assert_eq!(ts.matches("@deprecated").count(), 5, "{ts}");
}

#[test]
fn presence_maps_oneofs_and_enums_have_their_typescript_forms() {
    let ts = one(r#"syntax = "proto3"; package p;
        enum Color { COLOR_UNSPECIFIED = 0; RED = 1; }
        message M {
          optional uint32 opt = 1;
          map<string, Color> by_name = 2;
          oneof pick { string s = 3; M m = 4; }
          repeated M kids = 5;
        }"#);
    for part in [
        "export type Color = number;",
        "  RED: 1,",
        "  opt?: number;",
        "  byName: Map<string, Color>;",
        "  pick?:\n    | { case: \"s\"; value: string }\n    | { case: \"m\"; value: M };",
        "  kids: M[];",
        "{ no: 2, name: \"by_name\", prop: \"byName\", mapKey: $bb.Kind.String, kind: $bb.Kind.Enum, enumType: { typeName: \"p.Color\", values: Color }, get: ($v) => $v.byName, set: ($v, $x) => { $v.byName = $x; } }",
        "{ no: 1, name: \"opt\", kind: $bb.Kind.Uint32, presence: $bb.Presence.Explicit, get: ($v) => $v.opt, set: ($v, $x) => { $v.opt = $x; } }",
        // A oneof member's accessors reach its oneof's property.
        "{ no: 3, name: \"s\", kind: $bb.Kind.String, oneof: \"pick\", get: ($v) => $v.pick, set: ($v, $x) => { $v.pick = $x; } }",
    ] {
        assert!(ts.contains(part), "no `{part}` in\n{ts}");
    }
}

#[test]
fn types_named_like_globals_are_renamed_and_other_packages_are_imported() {
    let compiled = bijoubuf_schema::compile_sources(&[
        (
            "a.proto",
            r#"syntax = "proto3"; package a; message Map { uint32 x = 1; }"#,
        ),
        (
            "b.proto",
            r#"syntax = "proto3"; package b; import "a.proto"; message Uses { a.Map m = 1; }"#,
        ),
    ])
    .unwrap_or_else(|e| panic!("{e:?}"));
    let files = generate(&compiled.schema, &Options::new());
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["a.ts", "b.ts"]);
    assert!(files[0].content.contains("export interface Map$ "));
    assert!(
        files[1]
            .content
            .contains("import * as $pkg_a from \"./a.js\";")
    );
    assert!(files[1].content.contains("  m?: $pkg_a.Map$;"));
}

#[test]
fn inherited_property_names_are_own_properties_of_new_values() {
    // `{ "__proto__": x }` in an object literal sets the prototype and creates no property;
    // the computed key `["__proto__"]` creates an own one. `constructor` needs no care in a
    // literal (the runtime reads such names only as own properties).
    let ts = one(r#"syntax = "proto3"; package p;
        message M {
          string proto = 1 [json_name = "__proto__"];
          string constructor = 2;
        }
        enum E { E_ZERO = 0; __proto__ = 1; }"#);
    assert!(ts.contains("  \"__proto__\": string;"), "{ts}");
    assert!(ts.contains("  [\"__proto__\"]: \"\","), "{ts}");
    assert!(ts.contains("  constructor: \"\","), "{ts}");
    assert!(ts.contains("  [\"__proto__\"]: 1,"), "{ts}");
    assert!(!ts.contains("\n  \"__proto__\": \"\","), "{ts}");
}

#[test]
fn generated_code_reads_inherited_names_as_own_properties() {
    // The same fields as `typescript/test/names.test.ts`, whose copy of these lines runs.
    let ts = one(r#"syntax = "proto3"; package names;
        message Inner { uint32 x = 1; }
        message Odd {
          Inner proto = 1 [json_name = "__proto__"];
          string constructor = 2;
          repeated uint32 to_string = 3;
          oneof value_of { uint32 a = 4; string b = 5; }
        }"#);
    for line in [
        "    const $o0: any = $e.ownValue($v, \"valueOf\");",
        "    $x = $e.ownValue($v, \"__proto__\");",
        "    $x = $e.ownValue($v, \"constructor\");",
        "    $x = $e.ownValue($v, \"toString\");",
        "    if ($x != null && !Array.isArray($x)) throw $e.notArray();",
        "  if ($x != null && $x.length !== 0) { $w.buf[$w.pos++] = 10 - $prev * 4; $e.writeList($w, $p, $bb.Kind.Uint32, undefined, $x); $prev = 3; }",
        "  if ($o0 != null && $o0.case === \"b\" && ($x = $o0.value) !== undefined) { $w.buf[$w.pos++] = 18 - $prev * 4; $e.writeString($w, $p, $x); }",
        "}), { size: Odd$size, write: Odd$write, decode: Odd$decode });",
        "          if ($e.ownValue($v, \"valueOf\") !== undefined) throw new $bb.DecodeError(\"oneof-conflict\", $kAt);",
        "          $v[\"__proto__\"] = $x;",
        "          $v.valueOf = { case: \"b\", value: $x };",
    ] {
        assert!(ts.contains(line), "no `{line}` in\n{ts}");
    }
}

#[test]
fn keys_past_field_62_are_sized_and_written_from_the_previous_field() {
    // Up to field 62 a key is one byte whatever field precedes it (SPEC §4.1: a delta of at
    // most 61, times 4, plus the wire type, is below 248); past it the key's length depends
    // on the previous written field, which both passes then track.
    let ts = one(r#"syntax = "proto3"; package p;
        message M { uint32 a = 1; uint32 b = 62; uint32 c = 63; string d = 1000; }"#);
    for line in [
        "    if ($x !== 0 && $x !== 0n && $x != null) { $n += 1 + $e.sizeUint32($x); $prev = 62; }",
        "    if ($x !== 0 && $x !== 0n && $x != null) { $n += $e.sizeKey(63, $prev, 0) + $e.sizeUint32($x); $prev = 63; }",
        "    if ($x !== \"\" && $x != null) { $n += $e.sizeKey(1000, $prev, 2) + $e.sizeString($p, $x); }",
        "  if ($x !== 0 && $x !== 0n && $x != null) { $w.buf[$w.pos++] = 244 - $prev * 4; $e.writeUint32($w, $x); $prev = 62; }",
        "  if ($x !== \"\" && $x != null) { $e.writeKey($w, 1000, $prev, 2); $e.writeString($w, $p, $x); }",
    ] {
        assert!(ts.contains(line), "no `{line}` in\n{ts}");
    }
}

/// The field numbers at each side of a bijou64 tier edge for a first record's key
/// `(n - 1) * 4 + wire` (SPEC §2.3, §4.1): one-byte keys end at 62, two-byte at 126, …
const KEY_EDGES: [u32; 10] = [
    1, 62, 63, 126, 127, 16510, 16511, 4210814, 4210815, 536870911,
];

/// One field declaration of each shape, numbered `n` (`Leaf` and `E` declared beside).
fn shapes(n: u32) -> Vec<String> {
    [
        "int32 f",
        "fixed32 f",
        "double f",
        "string f",
        "bytes f",
        "bool f",
        "E f",
        "Leaf f",
        "optional uint64 f",
        "repeated uint32 f",
        "repeated string f",
        "repeated Leaf f",
        "map<string, uint32> f",
        "map<uint32, Leaf> f",
        "oneof o { string f",
        "oneof o { Leaf f",
    ]
    .iter()
    .map(|s| {
        let close = if s.starts_with("oneof") { " }" } else { "" };
        format!("{s} = {n};{close}")
    })
    .collect()
}

#[test]
fn every_function_declares_the_previous_field_it_reads() {
    // Regression: a message whose only field was past 62 wrote its key from a `prev` its
    // write pass never declared (a ReferenceError when encoding).
    let mut src = String::from(
        "syntax = \"proto3\"; package p; enum E { E_ZERO = 0; E_ONE = 1; } message Leaf { uint32 x = 1; }\n",
    );
    for (i, n) in KEY_EDGES.iter().enumerate() {
        for (j, field) in shapes(*n).iter().enumerate() {
            // Alone, and after field 1 (another key delta).
            let _ = writeln!(src, "message Alone{i}_{j} {{ {field} }}");
            if *n > 1 {
                let _ = writeln!(src, "message After{i}_{j} {{ uint32 a = 1; {field} }}");
            }
        }
    }
    let ts = one(&src);
    let mut checked = 0;
    for func in ts.split("\nfunction ").skip(1) {
        let body = func.split("\n}\n").next().unwrap_or_default();
        let reads = body.contains("$prev)")
            || body.contains("$prev,")
            || body.contains("$prev *")
            || body.contains("$prev +");
        if reads {
            checked += 1;
            assert!(
                body.contains("let $prev = 0;"),
                "reads `$prev` undeclared:\nfunction {body}"
            );
        }
    }
    assert!(checked > 100, "only {checked} functions read `$prev`");
    // A first key is a constant: field 99 alone, a two-byte key (98 * 4 = 392).
    let ts = one("syntax = \"proto3\"; package p; message S99 { int32 f = 99; }");
    for line in [
        "    if ($x !== 0 && $x !== 0n && $x != null) { $n += 2 + $e.sizeInt32($x); }",
        "  if ($x !== 0 && $x !== 0n && $x != null) { $e.writeKey($w, 99, 0, 0); $e.writeInt32($w, $x); }",
    ] {
        assert!(ts.contains(line), "no `{line}` in\n{ts}");
    }
}

#[test]
fn a_module_declares_only_the_runtime_bindings_it_uses() {
    // Regression: a package of enums alone declared `$e` and `$d` (TS6133 under
    // `noUnusedLocals`); it uses nothing of the runtime.
    let ts = one(r#"syntax = "proto3"; package p; enum Code { OK = 0; }"#);
    for absent in ["import * as $bb", "const $e", "const $d"] {
        assert!(!ts.contains(absent), "`{absent}` in\n{ts}");
    }
    let ts = one(r#"syntax = "proto3"; package p; message Empty {}"#);
    for present in [
        "import * as $bb",
        "const $e = $bb.enc;",
        "const $d = $bb.dec;",
    ] {
        assert!(ts.contains(present), "no `{present}` in\n{ts}");
    }
}

#[test]
fn fields_of_one_json_name_get_distinct_properties_and_keep_it_in_json() {
    // Regression: proto2 lets `descriptor` and `descriptor_` share the JSON name
    // "descriptor"; the interface declared it twice (TS2300). The later declared gets `$`.
    let ts = one(r#"syntax = "proto2"; package p;
        message M {
          optional string descriptor = 1;
          optional string descriptor_ = 2;
          oneof pick { string a_b = 3; string a_b_ = 4; }
          optional string pick_ = 5;
        }"#);
    for part in [
        "  descriptor?: string;\n  descriptor$?: string;\n",
        "  pick?:\n    | { case: \"aB\"; value: string }\n    | { case: \"aB$\"; value: string };\n  pick$?: string;",
        "{ no: 2, name: \"descriptor_\", prop: \"descriptor$\", json: \"descriptor\", kind: $bb.Kind.String, presence: $bb.Presence.Explicit, get: ($v) => $v.descriptor$, set: ($v, $x) => { $v.descriptor$ = $x; } }",
        "{ no: 4, name: \"a_b_\", prop: \"aB$\", json: \"aB\", kind: $bb.Kind.String, oneof: \"pick\",",
        "  descriptor$: undefined,",
        "          $v.pick = { case: \"aB$\", value: $x };",
        "  $x = $v.descriptor$;",
        "$o0.case === \"aB$\" && ($x = $o0.value)",
        "{ no: 5, name: \"pick_\", prop: \"pick$\", json: \"pick\",",
    ] {
        assert!(ts.contains(part), "no `{part}` in\n{ts}");
    }
}

/// A message `M` of `count` fields numbered from 1: a `uint32` (`required` when
/// `proto2`), a oneof of two, an optional `string`, a `repeated uint32`, … in turns of
/// seven, so a oneof holds fields 100 and 101.
fn many_fields(count: u32, proto2: bool) -> String {
    let (syntax, single) = if proto2 {
        ("proto2", "required uint32")
    } else {
        ("proto3", "uint32")
    };
    let mut s = format!("syntax = \"{syntax}\"; package p; message M {{\n");
    let mut n = 1;
    while n <= count {
        match n % 7 {
            2 if n < count => {
                s.push_str(&format!(
                    "  oneof o{n} {{ string f{n} = {n}; uint32 f{} = {}; }}\n",
                    n + 1,
                    n + 1
                ));
                n += 1;
            }
            1 | 6 => s.push_str(&format!("  {single} f{n} = {n};\n")),
            5 => s.push_str(&format!("  repeated uint32 f{n} = {n};\n")),
            _ => s.push_str(&format!("  optional string f{n} = {n};\n")),
        }
        n += 1;
    }
    s.push_str("}\n");
    s
}

/// The generated functions of `ts` by name, each with its body.
fn functions(ts: &str) -> Vec<(&str, &str)> {
    ts.split("\nfunction ")
        .skip(1)
        .map(|f| {
            let name = &f[..f.find('(').expect("a parameter list")];
            let body = &f[..f.find("\n}\n").map_or(f.len(), |e| e + 2)];
            (name, body)
        })
        .collect()
}

#[test]
fn a_pass_over_more_than_a_hundred_fields_is_split_into_functions_of_a_hundred() {
    // Regression: `tsc` refuses a function of the code of about 450 fields as too large
    // for control flow analysis (TS2563); the size pass held every field, as did the
    // write pass and the decoder. (`conformance/tests/typescript.rs` type-checks and runs
    // messages of 1,000 and 2,000 fields.)
    for proto2 in [false, true] {
        let ts = one(&many_fields(1000, proto2));
        let fns = functions(&ts);
        // A line for each field in each pass: its error path in the size pass, its
        // record in the write pass, its case in the decoder, its check when required.
        for (name, body) in &fns {
            let fields = body
                .lines()
                .filter(|l| {
                    let t = l.trim_start();
                    l.starts_with("  if (")
                        || t.starts_with("$at = \".")
                        || t.starts_with("case ")
                        || t.contains("missing-required-field")
                })
                .count();
            assert!(fields <= 101, "{name} holds the code of {fields} fields");
            // Every part of a pass holds its hundred: a pattern above that no longer
            // matches the generated code would count none and pass unseen.
            if ["size", "write", "decode"]
                .iter()
                .any(|p| name.starts_with(&format!("M${p}$")))
            {
                assert!(fields >= 100, "{name} holds the code of {fields} fields");
            }
        }
        for pass in ["size", "write", "decode"] {
            let parts: Vec<&str> = fns
                .iter()
                .map(|(n, _)| *n)
                .filter(|n| n.starts_with(&format!("M${pass}$")))
                .collect();
            assert_eq!(parts.len(), 10, "{pass}: {parts:?}");
        }
        let required = fns
            .iter()
            .filter(|(n, _)| n.starts_with("M$required$"))
            .count();
        assert_eq!(required, if proto2 { 3 } else { 0 });
    }
    // The first helper of each pass takes the fields up to 100, the decoder hands it the
    // numbers up to its last field's and the last helper the rest; the helpers hand the
    // previous written field on.
    let ts = one(&many_fields(1000, false));
    for line in [
        "  const $s = { prev: 0 };\n  let $n = M$size$0($p, $v, $depth, $s);\n  $n += M$size$1($p, $v, $depth, $s);\n",
        "  $n += M$size$9($p, $v, $depth, $s);\n  return $n;\n}\n",
        "  let $prev = M$write$0($w, $p, $v, 0);\n  $prev = M$write$1($w, $p, $v, $prev);\n",
        "  M$write$9($w, $p, $v, $prev);\n}\n",
        "      if ($n <= 100) $known = M$decode$0($r, $v, $n, $w, $kAt, $end, $depth);\n      else if ($n <= 200) $known = M$decode$1($r, $v, $n, $w, $kAt, $end, $depth);\n",
        "      else $known = M$decode$9($r, $v, $n, $w, $kAt, $end, $depth);\n      if (!$known) {\n",
        "function M$size$1($p: $bb.enc.Plan, $v: any, $depth: number, $s: { prev: number }): number {\n  let $n = 0;\n  let $at = \"\";\n  let $prev = $s.prev;\n",
        "  $s.prev = $prev;\n  return $n;\n}\n\nfunction M$size$2(",
        "function M$write$8($w: $bb.enc.Writer, $p: $bb.enc.Plan, $v: any, $prev: number): number {\n",
        "function M$write$9($w: $bb.enc.Writer, $p: $bb.enc.Plan, $v: any, $prev: number): void {\n",
    ] {
        assert!(ts.contains(line), "no `{line}` in\n{ts}");
    }
    // The oneof of fields 100 and 101 is read by the first two helpers of both passes.
    assert_eq!(ts.matches(": any = $v.o100;\n").count(), 4, "{ts}");
    // Up to 100 fields, one function per pass, as before.
    let small = one(&many_fields(100, false));
    assert!(!small.contains("$size$0"), "{small}");
    assert!(one(&many_fields(101, false)).contains("M$size$1"));
}

/// Every name `ts` binds where it could hide a type, with whether a message's function
/// binds it (not a client's method): the parameters of functions, methods and arrows,
/// `let` and `const`, and `catch`.
fn bindings(ts: &str) -> Vec<(String, bool)> {
    fn ident(s: &str) -> String {
        s.trim_start()
            .trim_start_matches("readonly ")
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .collect()
    }
    fn params(list: &str, in_function: bool, out: &mut Vec<(String, bool)>) {
        out.extend(
            list.split(',')
                .map(ident)
                .filter(|p| !p.is_empty())
                .map(|p| (p, in_function)),
        );
    }
    let mut out = Vec::new();
    let mut in_function = false;
    for line in ts.lines() {
        if let Some(rest) = line.strip_prefix("function ") {
            in_function = true;
            let open = rest.find('(').expect("a parameter list");
            let close = rest.find("): ").expect("a return type");
            params(&rest[open + 1..close], true, &mut out);
        } else if line.starts_with("export ") {
            in_function = false;
        } else if line.starts_with("  ") && !in_function && line.ends_with(" {") {
            // A client's method. (Its constructor's one parameter is the client's
            // `transport` property, and its body is empty.)
            if let (Some(open), Some(close)) = (line.find('('), line.rfind(')')) {
                params(&line[open + 1..close], false, &mut out);
            }
        }
        // (`export const` declares the schema's types.)
        for kw in ["let ", "const "] {
            for (i, _) in line.match_indices(kw) {
                if line.starts_with("export ") {
                    break;
                }
                if i == 0 || !line.as_bytes()[i - 1].is_ascii_alphanumeric() {
                    out.push((ident(&line[i + kw.len()..]), in_function));
                }
            }
        }
        for (i, _) in line.match_indices(") =>") {
            let open = line[..i].rfind('(').expect("an arrow's parameters");
            params(&line[open + 1..i], true, &mut out);
        }
        if let Some(i) = line.find("catch (") {
            out.push((ident(&line[i + 7..]), in_function));
        }
    }
    out
}

#[test]
fn no_binding_of_the_generated_code_hides_a_type_of_the_schema() {
    // Regression: a message named `p`, `v` or `d` was hidden in every generated function
    // by its parameters of those names (the plan, the value, the depth), and `tsc`
    // refused the module (TS2345, TS2448). The generated functions bind only `$` names,
    // which no schema name is; a client's method names its parameters `request` and
    // `options` unless the module declares a type of that name. `tsc` checks the
    // schema's module in `conformance/tests/typescript.rs`.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bijoubuf-codegen-tests/protos");
    let compiled = Compiler::new()
        .include(&root)
        .compile(&["binding_names.proto"])
        .unwrap_or_else(|e| panic!("binding_names.proto does not compile: {e}"));
    let mut options = Options::new();
    options.services(true);
    let files = generate(&compiled.schema, &options);
    let ts = &files[0].content;
    let declared: Vec<&str> = ts
        .lines()
        .filter_map(|l| {
            [
                "export const ",
                "export interface ",
                "export class ",
                "export type ",
            ]
            .iter()
            .find_map(|p| l.strip_prefix(p))
        })
        .map(|rest| {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect();
    for name in [
        "p", "v", "d", "request", "Reader", "Math$", "Promise$", "All",
    ] {
        assert!(
            declared.contains(&name),
            "{name} is not declared: {declared:?}"
        );
    }
    // The split helpers of `All` (336 fields) are among the functions.
    assert!(ts.contains("\nfunction All$decode$3("), "{ts}");
    let mut found = bindings(ts);
    found.sort();
    found.dedup();
    for (binding, in_function) in &found {
        assert!(
            !declared.contains(&binding.as_str()),
            "`{binding}` is bound and declared"
        );
        assert!(
            !in_function || binding.starts_with('$'),
            "a function binds `{binding}`"
        );
    }
    for name in ["$p", "$v", "$depth", "$err", "$o0", "request$", "options$"] {
        assert!(
            found.iter().any(|(b, _)| b == name),
            "no binding `{name}` in {found:?}"
        );
    }
}
