import assert from "node:assert/strict";
import { test } from "node:test";

import { DecodeError, EncodeError, Kind, MessageType, Presence } from "../src/index.js";
import { Keyed, Node, Order, Person, Reading, hex, show } from "./schema.js";

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DecodeError) return `${e.code} at ${e.offset}, path ${e.path}`;
    if (e instanceof EncodeError) return `encode ${e.code}: ${e.path}`;
    throw e;
  }
  return "ok";
}

const A1 = "02 03 41 64 61 00 48 08 00";
const A2 =
  "00 F9 01 F1 02 04 02 02 42 6F 06 0C 06 02 02 41 31 00 02 04 02 02 42 37 04 03 02 0C 04 67 69 66 74 01 04 72 75 73 68 0A";
const A3 =
  "01 00 00 00 00 00 00 00 2A 01 7F F8 00 00 00 00 00 00 02 0C 3F C0 00 00 80 00 00 00 7F 80 00 00 00 00 04 05";

test("Appendix A.1: explicit presence writes a set 0", () => {
  const p = Person.create({ name: "Ada", age: 36, score: 0 });
  assert.equal(show(Person.encode(p)), A1);
  assert.deepEqual(Person.decode(hex(A1)), p);
  assert.equal(show(Person.encode(Person.create({ name: "Ada", age: 36 }))), "02 03 41 64 61 00 48");
});

test("Appendix A.2: a preserved unknown field passes through, and its key is recomputed", () => {
  assert.equal(refusal(() => Order.decode(hex(A2))), "unknown-field at 24, path Order.6");
  const d = Order.decodeReport(hex(A2), { preserveUnknown: true });
  assert.equal(d.unknownFields, 1);
  assert.equal(show(Order.encode(d.message)), A2);
  assert.deepEqual([...d.message.tags.entries()], [["gift", -1n], ["rush", 5n]]);
  d.message.lines = [];
  assert.equal(
    show(Order.encode(d.message)),
    "00 F9 01 F1 02 04 02 02 42 6F 0C 03 02 0C 04 67 69 66 74 01 04 72 75 73 68 0A",
  );
});

test("Appendix A.3: one NaN, a oneof member at its default, a required field", () => {
  const r = Reading.create({
    sensor: 42n,
    value: Number.NaN,
    samples: [1.5, -0, Infinity],
    unit: { case: "celsius", value: false },
    offset: -3,
  });
  assert.equal(show(Reading.encode(r)), A3);
  const back = Reading.decode(hex(A3));
  assert.equal(show(Reading.encode(back)), A3);
  assert.ok(Object.is(back.samples[1], -0));
  assert.equal(refusal(() => Reading.decode(hex("14 05"))), "missing-required-field at 2, path Reading.sensor");
  assert.equal(refusal(() => Reading.encode(Reading.create({ offset: -3 }))), "encode missing-required-field: Reading.sensor");
  assert.equal(
    refusal(() => Reading.decode(hex(A3.slice(27)))),
    "wire-type-mismatch at 9, path Reading.value",
  );
});

test("Appendix A.4: a stream of two messages, then a frame cut short", () => {
  const stream = hex("09 " + A1 + " 00");
  const d = Person.decodeDelimited(stream);
  assert.equal(d.message.length, 2);
  assert.equal(show(Person.encodeDelimited(d.message)), show(stream));
  assert.equal(refusal(() => Person.decodeDelimited(hex("09 " + A1 + " 00 05 02 03"))), "truncated at 11, path Person");
  assert.equal(
    refusal(() => Person.decodeDelimited(hex("09 " + A1), { maxSize: 8 })),
    "size-limit-exceeded at 0, path Person",
  );
});

test("each check reports the code, offset and path of SPEC §10", () => {
  const cases: [string, string][] = [
    ["02 00", "default-value-present at 0, path Person.name"],
    ["00 FF FE FE FE FE FE FE FE 08", "wire-type-mismatch at 0, path Person.name"],
    ["04 FF FE FE FE FE FE FE FE 08", "varint-overflow at 1, path Person.age"],
    ["04 FB FE FE FE 08", "integer-out-of-range at 1, path Person.age"],
    ["08 02", "invalid-bool at 1, path Person.active"],
    ["04 00", "default-value-present at 0, path Person.age"],
    ["02 05 61 62 C0 AF 63", "invalid-utf8 at 4, path Person.name"],
    ["02 05 68 69", "truncated at 1, path Person.name"],
    ["FB 7E FE FE 04 01", "field-number-overflow at 0, path Person"],
    ["0C 01", "unknown-field at 0, path Person.4"],
    ["FF FF FF FF FF FF FF FF FF", "varint-overflow at 0, path Person"],
  ];
  for (const [bytes, want] of cases) assert.equal(refusal(() => Person.decode(hex(bytes))), want, bytes);
  assert.equal(refusal(() => Keyed.decode(hex("02 0B 04 F0 9F 98 80 02 03 EF BC A1 01"))), 'map-key-order at 8, path Keyed.str["Ａ"]');
  assert.equal(refusal(() => Keyed.decode(hex("06 04 03 01 03 02"))), "map-key-order at 4, path Keyed.s32[-2]");
  assert.equal(refusal(() => Keyed.decode(hex("06 01 05"))), "truncated at 3, path Keyed.s32[-3]");
  assert.equal(refusal(() => Keyed.decode(hex("06 00"))), "empty-repeated at 0, path Keyed.s32");
  assert.equal(refusal(() => Reading.decode(hex("01 00 00 00 00 00 00 00 01 06 06 00 00 00 00 00 00"))), "packed-length-mismatch at 10, path Reading.samples");
  assert.equal(refusal(() => Reading.decode(hex("01 00 00 00 00 00 00 00 01 08 00 02 00"))), "oneof-conflict at 11, path Reading.other");
  assert.equal(refusal(() => Reading.decode(hex("01 00 00 00 00 00 00 00 01 06 08 7F C0 00 01 00 00 00 00"))), "non-canonical-nan at 11, path Reading.samples[0]");
  assert.equal(refusal(() => Person.decode(hex("02 03 61 62 63"), { maxSize: 4 })), "size-limit-exceeded at 0, path Person");
});

test("the depth limit: depth D is accepted, D + 1 refused at the opening key, on both sides", () => {
  assert.equal(refusal(() => Node.decode(hex("02 02 02 00"), { maxDepth: 3 })), "ok");
  assert.equal(
    refusal(() => Node.decode(hex("02 04 02 02 02 00"), { maxDepth: 3 })),
    "depth-limit-exceeded at 4, path Node.child.child.child",
  );
  let n: Node = Node.create();
  for (let i = 0; i < 100; i++) n = Node.create({ child: n });
  assert.equal(refusal(() => Node.encode(n)), "encode depth-limit-exceeded: Node" + ".child".repeat(100));
  assert.equal(Node.decode(Node.encode(n.child!)).child !== undefined, true);
});

test("maps encode in key order whatever the insertion order (SPEC §6.4)", () => {
  const k = Keyed.create({
    str: new Map([["\u{1F600}", 2], ["\uFF21", 1]]),
    s32: new Map([[1, 2], [-2, 1]]),
  });
  const b = Keyed.encode(k);
  assert.equal(show(b), "02 0B 03 EF BC A1 01 04 F0 9F 98 80 02 02 04 03 01 02 02");
  assert.deepEqual(Keyed.decode(b), k);
});

test("an encode refused half-way, or started inside another, leaves later encodes exact", () => {
  // The encoder reuses one plan of lengths and sorted maps from encode to encode.
  const sorted = Keyed.create({ str: new Map([["\u{1F600}", 2], ["\uFF21", 1]]), s32: new Map([[1, 2], [-2, 1]]) });
  const expected = "02 0B 03 EF BC A1 01 04 F0 9F 98 80 02 02 04 03 01 02 02";
  const big = Order.create({ lines: Array.from({ length: 300 }, (_, i) => ({ sku: "s" + i, qty: i })), tags: new Map([["b", 1n], ["a", 2n]]) });
  const bigBytes = show(Order.encode(big));
  for (let i = 0; i < 3; i++) {
    assert.equal(refusal(() => Order.encode(Order.create({ lines: [{ sku: "a", qty: 1 }, { sku: "\uD800", qty: 1 }] }))), "encode invalid-utf8: Order.lines[1].sku");
    assert.equal(show(Keyed.encode(sorted)), expected);
    assert.equal(show(Order.encode(big)), bigBytes);
  }
  // A getter that encodes while the outer encode holds the plan.
  let inner = "";
  const line = { sku: "x", get qty() { inner = show(Keyed.encode(sorted)); return 7; } };
  const outer = Order.encode(Order.create({ lines: [line, { sku: "y", qty: 8 }], tags: new Map([["z", 1n], ["y", 2n]]) }));
  assert.equal(inner, expected);
  assert.deepEqual(Order.decode(outer), Order.create({ lines: [{ sku: "x", qty: 7 }, { sku: "y", qty: 8 }], tags: new Map([["y", 2n], ["z", 1n]]) }));
  assert.equal(show(Order.encode(big)), bigBytes);
});

test("the encoder refuses values its types cannot carry", () => {
  assert.equal(refusal(() => Person.encode(Person.create({ name: "\uD800" }))), "encode invalid-utf8: Person.name");
  assert.equal(refusal(() => Person.encode(Person.create({ age: 2 ** 31 }))), "encode integer-out-of-range: Person.age");
  assert.equal(refusal(() => Person.encode(Person.create({ age: 1.5 }))), "encode integer-out-of-range: Person.age");
  assert.equal(
    refusal(() => Order.encode(Order.create({ lines: [{ sku: "a", qty: -1 }] }))),
    "encode integer-out-of-range: Order.lines[0].qty",
  );
  assert.equal(
    refusal(() => Order.encode(Order.create({ $unknown: [{ no: 4, wireType: 0, data: hex("01") }] }))),
    "encode unknown-field-order: Order",
  );
  assert.equal(
    refusal(() => Order.encode(Order.create({ $unknown: [{ no: 5, wireType: 0, data: hex("F8") }] }))),
    "encode invalid-unknown-field: Order",
  );
  assert.equal(refusal(() => Person.encode(Person.create({ name: "hé" }), { maxSize: 3 })), "encode size-limit-exceeded: ");
});

test("errors display as the Rust runtime's do (SPEC §11.4)", () => {
  try {
    Person.decode(hex("02 03 41 64 61 00 00"));
    assert.fail("accepted");
  } catch (e) {
    assert.ok(e instanceof DecodeError);
    assert.equal(e.message, "default-value-present: Person.age holds its default at byte 5");
    assert.equal(String(e), e.message);
  }
});

test("a declared length past the input is refused before anything is allocated", () => {
  assert.equal(refusal(() => Person.decode(hex("02 FB FE FE FE 07 41"))), "truncated at 1, path Person.name");
});

test("every integer kind accepts exactly its range, singular and repeated", () => {
  const kinds: [Kind, unknown[], unknown[]][] = [
    [Kind.Int32, [0, 1, -1, 123, -124, 124, -125, 2 ** 31 - 1, -(2 ** 31)], [2 ** 31, -(2 ** 31) - 1, 1.5, NaN, Infinity, "1", 1n]],
    [Kind.Sint32, [0, -1, 2 ** 31 - 1, -(2 ** 31)], [2 ** 31, -(2 ** 31) - 1, 0.5]],
    [Kind.Enum, [0, -1, 2 ** 31 - 1, -(2 ** 31)], [2 ** 31, 0.5]],
    [Kind.Uint32, [0, 247, 248, 2 ** 32 - 1], [-1, 2 ** 32, 0.5, NaN, 1n]],
    [Kind.Fixed32, [0, 2 ** 32 - 1], [-1, 2 ** 32, 0.5, 1n]],
    [Kind.Sfixed32, [0, -1, 2 ** 31 - 1, -(2 ** 31)], [2 ** 31, -(2 ** 31) - 1, 0.5]],
    [Kind.Int64, [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 47n, -(2n ** 47n)], [2n ** 63n, -(2n ** 63n) - 1n, 1]],
    [Kind.Sint64, [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n)], [2n ** 63n, -(2n ** 63n) - 1n, 1]],
    [Kind.Uint64, [0n, 247n, 2n ** 64n - 1n, 2n ** 47n], [-1n, 2n ** 64n, 1]],
    [Kind.Fixed64, [0n, 2n ** 64n - 1n], [-1n, 2n ** 64n, 1]],
    [Kind.Sfixed64, [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n)], [2n ** 63n, -(2n ** 63n) - 1n, 1]],
  ];
  for (const [kind, good, bad] of kinds) {
    const One = new MessageType<{ v: unknown }>("t.One", () => [{ no: 1, name: "v", kind, presence: Presence.Explicit }]);
    const Many = new MessageType<{ v: unknown[] }>("t.Many", () => [{ no: 1, name: "v", kind, repeated: true }]);
    for (const x of good) {
      assert.deepEqual(One.decode(One.encode({ v: x })).v, x, `${kind} ${String(x)}`);
      assert.deepEqual(Many.decode(Many.encode({ v: [...good, x] })).v, [...good, x], `${kind} [${String(x)}]`);
    }
    if (typeof good[0] === "number") {
      // −0 is an integer to Number.isInteger and to the fast checks alike: written as 0.
      assert.deepEqual(One.encode({ v: -0 }), One.encode({ v: 0 }), `${kind} -0`);
      assert.deepEqual(Many.encode({ v: [-0] }), Many.encode({ v: [0] }), `${kind} [-0]`);
    }
    for (const x of bad) {
      assert.throws(() => One.encode({ v: x }), EncodeError, `${kind} ${String(x)}`);
      assert.throws(
        () => Many.encode({ v: [...good, x] }),
        (e: unknown) => e instanceof EncodeError && e.path === `Many.v[${good.length}]`,
        `${kind} [${String(x)}]`,
      );
    }
  }
});
