// Fields whose property is a name every object inherits (`__proto__`, `constructor`,
// `toString`): values built by the runtime hold them as own properties, encoding reads only
// own properties, and the JSON mapping reads and writes them like any other field.

import assert from "node:assert/strict";
import { test } from "node:test";

import * as $bb from "../src/index.js";
import { Kind, MessageType, Presence, enc as $e, type MessageShape } from "../src/index.js";
import { show } from "./schema.js";

interface Inner extends MessageShape {
  x: number;
}
const Inner = new MessageType<Inner>("names.Inner", () => [{ no: 1, name: "x", kind: Kind.Uint32 }], () => ({
  x: 0,
}));

interface Odd extends MessageShape {
  __proto__?: Inner;
  constructor: string;
  toString: number[];
  valueOf?: { case: "a"; value: number } | { case: "b"; value: string };
}

const specs = () => [
  { no: 1, name: "proto", prop: "__proto__", kind: Kind.Message, msg: Inner, presence: Presence.Explicit },
  { no: 2, name: "constructor", kind: Kind.String },
  { no: 3, name: "to_string", prop: "toString", kind: Kind.Uint32, repeated: true },
  { no: 4, name: "a", kind: Kind.Uint32, oneof: "valueOf" },
  { no: 5, name: "b", kind: Kind.String, oneof: "valueOf" },
];

// The two ways a type builds its values: the object-literal factory generated code passes
// (with the computed `["__proto__"]` key the generator writes), and the runtime's template.
const WithFactory = new MessageType<Odd>("names.Odd", specs, () => ({
  ["__proto__"]: undefined,
  constructor: "",
  toString: [],
  valueOf: undefined,
}));
const WithTemplate = new MessageType<Odd>("names.OddT", specs);
const $d = $bb.dec;

// The encoder and decoder `bijoubuf compile --ts-out` generates for these fields (the
// codegen crate's test `generated_code_reads_inherited_names_as_own_properties` checks
// these lines): inherited names are read only as own properties, as the field-list walk
// reads them.
function Odd$size($p: $e.Plan, $v: any, $depth: number): number {
  if ($v.$unknown !== undefined) return $e.sizeMessage($p, WithEncoder, $v, $depth);
  let $n = 0;
  let $at = "";
  try {
    let $x: any;
    const $o0: any = $e.ownValue($v, "valueOf");
    $at = ".proto";
    $x = $e.ownValue($v, "__proto__");
    if ($x != null) { $n += 1 + $e.sizeNested($p, Inner, $x, $depth); }
    $at = ".constructor";
    $x = $e.ownValue($v, "constructor");
    if ($x !== "" && $x != null) { $n += 1 + $e.sizeString($p, $x); }
    $at = ".to_string";
    $x = $e.ownValue($v, "toString");
    if ($x != null && !Array.isArray($x)) throw $e.notArray();
    if ($x != null && $x.length !== 0) { $n += 1 + $e.sizeList($p, Kind.Uint32, undefined, $x, $depth); }
    $at = ".a";
    if ($o0 != null && $o0.case === "a" && ($x = $o0.value) !== undefined) { $n += 1 + $e.sizeUint32($x); }
    $at = ".b";
    if ($o0 != null && $o0.case === "b" && ($x = $o0.value) !== undefined) { $n += 1 + $e.sizeString($p, $x); }
  } catch ($err) {
    throw $e.atField($err, $at);
  }
  return $n;
}
function Odd$write($w: $e.Writer, $p: $e.Plan, $v: any): void {
  if ($v.$unknown !== undefined) return $e.writeMessage($w, $p, WithEncoder, $v);
  let $prev = 0;
  let $x: any;
  const $o0: any = $e.ownValue($v, "valueOf");
  $x = $e.ownValue($v, "__proto__");
  if ($x != null) { $w.buf[$w.pos++] = 2; $e.writeNested($w, $p, Inner, $x); $prev = 1; }
  $x = $e.ownValue($v, "constructor");
  if ($x !== "" && $x != null) { $w.buf[$w.pos++] = 6 - $prev * 4; $e.writeString($w, $p, $x); $prev = 2; }
  $x = $e.ownValue($v, "toString");
  if ($x != null && $x.length !== 0) { $w.buf[$w.pos++] = 10 - $prev * 4; $e.writeList($w, $p, Kind.Uint32, undefined, $x); $prev = 3; }
  if ($o0 != null && $o0.case === "a" && ($x = $o0.value) !== undefined) { $w.buf[$w.pos++] = 12 - $prev * 4; $e.writeUint32($w, $x); $prev = 4; }
  if ($o0 != null && $o0.case === "b" && ($x = $o0.value) !== undefined) { $w.buf[$w.pos++] = 18 - $prev * 4; $e.writeString($w, $p, $x); }
}
function Odd$decode($r: $bb.dec.Reader, $end: number, $depth: number): any {
  const $v: any = WithEncoder.create();
  let $prev = 0;
  let $kAt = 0;
  let $seg = "";
  let $x: any;
  let $unknown: $bb.UnknownField[] | undefined;
  try {
    while ($r.pos < $end) {
      $kAt = $r.pos;
      const $k = $r.num($end);
      const $n = $prev + 1 + Math.floor($k / 4);
      if ($n > $bb.NMAX) throw new $bb.DecodeError("field-number-overflow", $kAt);
      const $w = $k % 4;
      switch ($n) {
        case 1:
          $seg = ".proto";
          if ($w !== 2) throw new $bb.DecodeError("wire-type-mismatch", $kAt);
          if ($depth + 1 > $r.maxDepth) throw new $bb.DecodeError("depth-limit-exceeded", $kAt);
          $x = $d.readNested($r, Inner, $end, $depth);
          $v["__proto__"] = $x;
          break;
        case 2:
          $seg = ".constructor";
          if ($w !== 2) throw new $bb.DecodeError("wire-type-mismatch", $kAt);
          $x = $d.readString($r, $end);
          if ($x === "") throw new $bb.DecodeError("default-value-present", $kAt);
          $v.constructor = $x;
          break;
        case 3:
          $seg = ".to_string";
          if ($w !== 2) throw new $bb.DecodeError("wire-type-mismatch", $kAt);
          $v.toString = $d.readRepeated($r, WithEncoder.fieldList[2]!, $kAt, $end, $depth);
          break;
        case 4:
          $seg = ".a";
          if ($w !== 0) throw new $bb.DecodeError("wire-type-mismatch", $kAt);
          if ($e.ownValue($v, "valueOf") !== undefined) throw new $bb.DecodeError("oneof-conflict", $kAt);
          $x = $d.readUint32($r, $end);
          $v.valueOf = { case: "a", value: $x };
          break;
        case 5:
          $seg = ".b";
          if ($w !== 2) throw new $bb.DecodeError("wire-type-mismatch", $kAt);
          if ($e.ownValue($v, "valueOf") !== undefined) throw new $bb.DecodeError("oneof-conflict", $kAt);
          $x = $d.readString($r, $end);
          $v.valueOf = { case: "b", value: $x };
          break;
        default:
          $seg = "." + $n;
          if (!$r.preserving || !WithEncoder.keepsUnknown) throw new $bb.DecodeError("unknown-field", $kAt);
          ($unknown ??= []).push($d.readUnknown($r, $n, $w, $end));
          $r.unknown++;
      }
      $seg = "";
      $prev = $n;
    }
  } catch ($err) {
    if ($err instanceof $bb.DecodeError && $seg !== "") $err.push($seg);
    throw $err;
  }
  if ($unknown !== undefined) $v.$unknown = $unknown;
  return $v;
}
const WithEncoder = new MessageType<Odd>(
  "names.OddE",
  specs,
  () => ({ ["__proto__"]: undefined, constructor: "", toString: [], valueOf: undefined }),
  { size: Odd$size, write: Odd$write, decode: Odd$decode },
);

for (const [how, T] of [
  ["factory", WithFactory],
  ["template", WithTemplate],
  ["generated code", WithEncoder],
] as const) {
  test(`${how}: new values hold every inherited-name field as an own property`, () => {
    const v = T.create();
    for (const k of ["__proto__", "constructor", "toString", "valueOf"]) {
      assert.ok(Object.prototype.hasOwnProperty.call(v, k), k);
    }
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.equal(v.__proto__, undefined);
    assert.equal(v.constructor, "");
    assert.deepEqual(v.toString, []);
    // An empty value writes nothing: no inherited function or prototype was taken as a field.
    assert.equal(show(T.encode(v)), "");
  });

  test(`${how}: decode and encode keep a field named __proto__ as data`, () => {
    const v = T.create();
    v.constructor = "c";
    v.__proto__ = Inner.create({ x: 7 });
    v.toString = [1, 2];
    v.valueOf = { case: "b", value: "z" };
    const bytes = T.encode(v);
    assert.equal(show(bytes), "02 02 00 07 02 01 63 02 02 01 02 06 01 7A");
    const back = T.decode(bytes);
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
    assert.ok(Object.prototype.hasOwnProperty.call(back, "__proto__"));
    assert.equal(back.__proto__?.x, 7);
    assert.equal(back.constructor, "c");
    assert.deepEqual(back.toString, [1, 2]);
    assert.deepEqual(back.valueOf, { case: "b", value: "z" });
    assert.equal(show(T.encode(back)), show(bytes));
  });

  test(`${how}: proto3 JSON reads and writes "__proto__" and "constructor" as fields`, () => {
    const text = '{"__proto__":{"x":7},"constructor":"c","toString":[1,2],"a":3}';
    for (const input of [text, JSON.parse(text) as unknown]) {
      const v = T.fromJson(input);
      assert.equal(Object.getPrototypeOf(v), Object.prototype);
      assert.ok(Object.prototype.hasOwnProperty.call(v, "__proto__"));
      assert.equal(v.__proto__?.x, 7);
      assert.equal(v.constructor, "c");
      assert.deepEqual(v.valueOf, { case: "a", value: 3 });
      assert.equal(T.toJson(v), text);
    }
  });
}

test("a plain object without the fields encodes none of the inherited ones", () => {
  // `{}` inherits `constructor`, `toString`, `valueOf` and `__proto__` from Object.prototype;
  // none of them is a field value.
  const plain = {} as Odd;
  assert.equal(show(WithFactory.encode(plain)), "");
  assert.equal(show(WithEncoder.encode(plain)), "");
  assert.equal(WithFactory.toJson(plain), "{}");
});
