//! Messages of many fields: their size, write and decode passes split into helper
//! functions of at most [`SPLIT`] fields each.
//!
//! `tsc` follows the flow of each variable through a whole function body, and past a
//! depth it gives up with TS2563 ("The containing function or module body is too large
//! for control flow analysis"): with the field list unrolled, a size pass of about 450
//! fields, or a decoder of about 550 `int32` fields, is past it. A message of more than
//! [`SPLIT`] fields gets one helper per run of [`SPLIT`] fields (in number order), and
//! its `$size`, `$write` and `$decode` call them in turn, handing on what the fields
//! share: the previous written field number (for the keys, SPEC §4.1), the decoder's
//! reader, value and record. Each helper keeps the error path of the field it is at and
//! adds it to an error as the whole function did, so values and inputs get the same
//! bytes, errors, offsets and paths. A message of up to [`SPLIT`] fields is generated as
//! before, as one function per pass.

use std::fmt::Write as _;

use bijoubuf_schema::{Cardinality, MessageDef};

use crate::{DECODE_CATCH, Emitter, read_slot, real_oneof, unknown_record};

/// The most fields whose code one generated function holds. A message of 250 fields of
/// one shape passes `tsc` in one function for each of the eight shapes tried (`int32`,
/// `string`, message, `optional`, `repeated`, map, oneof members, proto2 `required`); a
/// mix of every shape passes at 350 and fails at 450. A helper of 100 is well inside, and
/// messages of 100 fields or fewer (all of the sample and conformance schemas) are
/// generated unchanged.
pub(crate) const SPLIT: usize = 100;

impl Emitter<'_> {
    /// The loads of the oneofs the fields `from..to` of `m` are members of, once each, as
    /// the encoder's variables `$o<i>`.
    pub(crate) fn oneof_loads(&self, m: &MessageDef, from: usize, to: usize) -> String {
        let mut done = vec![false; m.oneofs.len()];
        let mut loads = String::new();
        for f in &m.fields[from..to] {
            if let Some(i) = real_oneof(m, f)
                && !done[i]
            {
                done[i] = true;
                let slot = read_slot(&self.oneof_prop(i));
                let _ = writeln!(loads, "  const $o{i}: any = {slot};");
            }
        }
        loads
    }

    /// The first lines of `{name}$size`, in one function or split. A value with preserved
    /// unknown records goes to the field-list walk, which writes them between the known
    /// fields in number order (SPEC §8.2). The check is here, where the engine sees one
    /// shape of value, not in the runtime, where it would see all.
    pub(crate) fn open_size(&mut self, name: &str) {
        let _ = writeln!(
            self.body,
            "function {name}$size($p: $bb.enc.Plan, $v: any, $depth: number): number {{"
        );
        let _ = writeln!(
            self.body,
            "  if ($v.$unknown !== undefined) return $e.sizeMessage($p, {name}, $v, $depth);"
        );
    }

    /// The first lines of `{name}$write`, in one function or split; unknown records as in
    /// [`open_size`](Self::open_size).
    pub(crate) fn open_write(&mut self, name: &str) {
        let _ = writeln!(
            self.body,
            "function {name}$write($w: $bb.enc.Writer, $p: $bb.enc.Plan, $v: any): void {{",
        );
        let _ = writeln!(
            self.body,
            "  if ($v.$unknown !== undefined) return $e.writeMessage($w, $p, {name}, $v);"
        );
    }

    /// The encoder of a message of more than [`SPLIT`] fields: `sizes` and `writes` are
    /// each field's lines of the two passes, as the one-function encoder has them. A size
    /// helper returns its fields' size and hands the previous written field number on in
    /// `$s.prev`; a write helper takes it and returns it. (`$` keeps the generated locals
    /// clear of message names, which `tsc` would otherwise resolve to the local.) More
    /// than [`SPLIT`] distinct field numbers put one past 62 after the first, so the
    /// passes always track the previous field (see the one-function encoder).
    pub(crate) fn split_encoder(
        &mut self,
        m: &MessageDef,
        name: &str,
        sizes: &[String],
        writes: &[String],
    ) {
        let parts = sizes.len().div_ceil(SPLIT);
        self.open_size(name);
        self.body.push_str("  const $s = { prev: 0 };\n");
        for k in 0..parts {
            let call = format!("{name}$size${k}($p, $v, $depth, $s)");
            let _ = match k {
                0 => writeln!(self.body, "  let $n = {call};"),
                _ => writeln!(self.body, "  $n += {call};"),
            };
        }
        self.body.push_str("  return $n;\n}\n\n");
        for k in 0..parts {
            let (from, to) = (k * SPLIT, ((k + 1) * SPLIT).min(sizes.len()));
            let _ = writeln!(
                self.body,
                "function {name}$size${k}($p: $bb.enc.Plan, $v: any, $depth: number, $s: {{ prev: number }}): number {{"
            );
            self.body
                .push_str("  let $n = 0;\n  let $at = \"\";\n  let $prev = $s.prev;\n");
            self.body.push_str("  try {\n    let $x: any;\n");
            for l in self.oneof_loads(m, from, to).lines() {
                let _ = writeln!(self.body, "  {l}");
            }
            self.body.push_str(&sizes[from..to].concat());
            self.body
                .push_str("  } catch ($err) {\n    throw $e.atField($err, $at);\n  }\n");
            if k + 1 < parts {
                self.body.push_str("  $s.prev = $prev;\n");
            }
            self.body.push_str("  return $n;\n}\n\n");
        }

        self.open_write(name);
        for k in 0..parts {
            let _ = match k {
                0 => writeln!(self.body, "  let $prev = {name}$write$0($w, $p, $v, 0);"),
                _ if k + 1 < parts => {
                    writeln!(self.body, "  $prev = {name}$write${k}($w, $p, $v, $prev);")
                }
                _ => writeln!(self.body, "  {name}$write${k}($w, $p, $v, $prev);"),
            };
        }
        self.body.push_str("}\n\n");
        for k in 0..parts {
            let (from, to) = (k * SPLIT, ((k + 1) * SPLIT).min(writes.len()));
            let last = k + 1 == parts;
            let ret = if last { "void" } else { "number" };
            let _ = writeln!(
                self.body,
                "function {name}$write${k}($w: $bb.enc.Writer, $p: $bb.enc.Plan, $v: any, $prev: number): {ret} {{"
            );
            self.body.push_str("  let $x: any;\n");
            self.body.push_str(&self.oneof_loads(m, from, to));
            self.body.push_str(&writes[from..to].concat());
            if !last {
                self.body.push_str("  return $prev;\n");
            }
            self.body.push_str("}\n\n");
        }
    }

    /// The decoder of a message of more than [`SPLIT`] fields: `b` is the one-function
    /// decoder's opening up to the record's wire type, `cases` each field's case of the
    /// switch on the field number and `required` the checks of its required fields, as
    /// the one-function decoder has them. The loop over the records stays in `$decode`; a
    /// helper takes the records of its fields (the numbers up to its last field's, past
    /// the previous helper's) and answers whether it knew the number, and the records no
    /// helper knows are unknown fields, as in the one-function decoder.
    pub(crate) fn split_decoder(
        &mut self,
        m: &MessageDef,
        name: &str,
        mut b: String,
        cases: &[String],
        required: &[String],
    ) {
        let parts = cases.len().div_ceil(SPLIT);
        b.push_str("      let $known: boolean;\n");
        for k in 0..parts {
            let call = format!("$known = {name}$decode${k}($r, $v, $n, $w, $kAt, $end, $depth);");
            let top = m.fields[((k + 1) * SPLIT).min(m.fields.len()) - 1].number;
            let _ = match k {
                0 => writeln!(b, "      if ($n <= {top}) {call}"),
                _ if k + 1 < parts => writeln!(b, "      else if ($n <= {top}) {call}"),
                _ => writeln!(b, "      else {call}"),
            };
        }
        b.push_str("      if (!$known) {\n");
        unknown_record(&mut b, name, "        ");
        b.push_str("        $seg = \"\";\n      }\n      $prev = $n;\n    }\n");
        b.push_str(DECODE_CATCH);
        let checks = required.len().div_ceil(SPLIT);
        for k in 0..checks {
            let _ = writeln!(b, "  {name}$required${k}($v, $end);");
        }
        b.push_str("  if ($unknown !== undefined) $v.$unknown = $unknown;\n  return $v;\n}\n\n");

        for k in 0..parts {
            let (from, to) = (k * SPLIT, ((k + 1) * SPLIT).min(cases.len()));
            let _ = writeln!(
                b,
                "function {name}$decode${k}($r: $bb.dec.Reader, $v: any, $n: number, $w: number, $kAt: number, $end: number, $depth: number): boolean {{"
            );
            b.push_str("  let $seg = \"\";\n");
            if m.fields[from..to]
                .iter()
                .any(|f| f.cardinality == Cardinality::Single)
            {
                b.push_str("  let $x: any;\n");
            }
            b.push_str("  try {\n    switch ($n) {\n");
            // The cases as the one-function decoder indents them, inside its loop.
            for l in cases[from..to].concat().lines() {
                let _ = writeln!(b, "{}", l.strip_prefix("  ").unwrap_or(l));
            }
            b.push_str("      default:\n        return false;\n    }\n");
            b.push_str(DECODE_CATCH);
            b.push_str("  return true;\n}\n\n");
        }
        for k in 0..checks {
            let (from, to) = (k * SPLIT, ((k + 1) * SPLIT).min(required.len()));
            let _ = writeln!(
                b,
                "function {name}$required${k}($v: any, $end: number): void {{"
            );
            b.push_str(&required[from..to].concat());
            b.push_str("}\n\n");
        }
        self.body.push_str(&b);
    }
}
