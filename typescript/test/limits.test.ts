// The depth limit at and past its cap (SPEC §9.3): 0 is 1, above 500 is 500, on both sides,
// and no input or value, however deep, reaches the engine's stack.

import assert from "node:assert/strict";
import { test } from "node:test";

import { DecodeError, EncodeError, Kind, MAX_DEPTH_LIMIT, MessageType, Presence, bijou64, type MessageShape } from "../src/index.js";
import { Node, hex, show } from "./schema.js";

/** A type that nests itself through each kind of message-holding field. */
interface Tree extends MessageShape {
  child?: Tree;
  val: number;
  kids: Tree[];
  named: Map<number, Tree>;
}
const Tree: MessageType<Tree> = new MessageType<Tree>("limits.Tree", () => [
  { no: 1, name: "child", kind: Kind.Message, msg: Tree, presence: Presence.Explicit },
  { no: 2, name: "val", kind: Kind.Uint32 },
  { no: 3, name: "kids", kind: Kind.Message, msg: Tree, repeated: true },
  { no: 4, name: "named", mapKey: Kind.Uint32, kind: Kind.Message, msg: Tree },
]);

/**
 * A `Node` or `Tree` of depth `levels` nested through field 1 (`child`): `02 L 02 L … 02 00`
 * with the last level empty, built from the inside out into one buffer, so a million
 * levels cost a few megabytes and no recursion.
 */
function chain(levels: number): Uint8Array {
  const lens: number[] = [];
  let total = 0;
  for (let i = levels - 1; i >= 1; i--) {
    lens.push(total);
    total = 1 + bijou64.sizeNumber(total) + total;
  }
  const out = new Uint8Array(total);
  let pos = 0;
  for (let i = lens.length - 1; i >= 0; i--) {
    out[pos++] = 0x02;
    pos = bijou64.writeNumber(out, pos, lens[i]!);
  }
  assert.equal(pos, total);
  return out;
}

/**
 * A `Tree` of depth `levels` nested through a record whose payload wraps the nested
 * message once more: `kids` (key `0A`, the record's length, the element's length) or
 * `named` (key `0E`, the record's length, the entry's key `00`, the value's length).
 */
function chainWrapped(levels: number, key: number, entry: readonly number[]): Uint8Array {
  const inner: number[] = [];
  const outer: number[] = [];
  let total = 0;
  for (let i = levels - 1; i >= 1; i--) {
    inner.push(total);
    const payload = entry.length + bijou64.sizeNumber(total) + total;
    outer.push(payload);
    total = 1 + bijou64.sizeNumber(payload) + payload;
  }
  const out = new Uint8Array(total);
  let pos = 0;
  for (let i = inner.length - 1; i >= 0; i--) {
    out[pos++] = key;
    pos = bijou64.writeNumber(out, pos, outer[i]!);
    for (const b of entry) out[pos++] = b;
    pos = bijou64.writeNumber(out, pos, inner[i]!);
  }
  assert.equal(pos, total);
  return out;
}

/** The offset of the key that opens level `level` of a {@link chain} of single records. */
function keyOf(bytes: Uint8Array, level: number): number {
  let pos = 0;
  for (let i = 1; i < level - 1; i++) {
    pos++;
    pos += bijou64.encodedLength(bytes[pos]!);
  }
  return pos;
}

function outcome(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DecodeError) return `${e.code} at ${e.offset}, path ${e.path}`;
    if (e instanceof EncodeError) return `encode ${e.code}`;
    if (e instanceof Error) return `${e.name}: ${e.message}`;
    throw e;
  }
  return "ok";
}

/** A value of depth `levels` nested through `child`, built without recursion. */
function nodeValue(levels: number): Node {
  let n = Node.create();
  for (let i = 1; i < levels; i++) n = Node.create({ child: n });
  return n;
}

test("the chain of the report: 501 levels are 1,666 bytes, the last key at 1664", () => {
  const b = chain(501);
  assert.equal(b.length, 1666);
  assert.equal(show(b.subarray(0, 8)), "02 F9 04 86 02 F9 04 82");
  assert.equal(keyOf(b, 501), 1664);
});

test("a depth limit above 500 is 500, in the decoder and the encoder (SPEC §9.3)", () => {
  assert.equal(MAX_DEPTH_LIMIT, 500);
  const at = chain(500);
  const past = chain(501);
  for (const limit of [500, 501, 1000, 1_000_000, Infinity]) {
    assert.equal(outcome(() => Node.decode(at, { maxDepth: limit })), "ok", `limit ${limit}`);
    assert.equal(
      outcome(() => Node.decode(past, { maxDepth: limit })),
      `depth-limit-exceeded at 1664, path Node${".child".repeat(500)}`,
      `limit ${limit}`,
    );
    assert.equal(show(Node.encode(nodeValue(500), { maxDepth: limit })), show(at));
    // An encoder never writes what every decoder refuses.
    assert.equal(outcome(() => Node.encode(nodeValue(501), { maxDepth: limit })), "encode depth-limit-exceeded");
  }
});

test("a depth limit of 0 is 1: the top-level message only, on both sides (SPEC §9.3)", () => {
  for (const limit of [0, 1]) {
    assert.equal(outcome(() => Node.decode(hex(""), { maxDepth: limit })), "ok");
    assert.equal(outcome(() => Node.decode(hex("04 07"), { maxDepth: limit })), "ok");
    assert.equal(outcome(() => Node.decode(hex("02 00"), { maxDepth: limit })), "depth-limit-exceeded at 0, path Node.child");
    assert.equal(show(Node.encode(Node.create({ val: 7 }), { maxDepth: limit })), "04 07");
    assert.equal(outcome(() => Node.encode(nodeValue(2), { maxDepth: limit })), "encode depth-limit-exceeded");
    assert.deepEqual(Node.decodeDelimited(hex("02 04 07 00"), { maxDepth: limit }).message.length, 2);
  }
  // What no configuration means is still refused.
  for (const bad of [-1, 1.5, Number.NaN]) {
    assert.equal(outcome(() => Node.decode(hex(""), { maxDepth: bad })).startsWith("RangeError"), true);
    assert.equal(outcome(() => Node.encode(Node.create(), { maxDepth: bad })).startsWith("RangeError"), true);
  }
});

test("chains deeper than any stack are refused at the cap, never with a RangeError", () => {
  for (const levels of [3_000, 20_000, 1_000_000]) {
    const b = chain(levels);
    for (const limit of [100, 500, 501, 1_000_000]) {
      const d = Math.min(limit, 500);
      const got = outcome(() => Node.decode(b, { maxDepth: limit }));
      assert.ok(got.startsWith(`depth-limit-exceeded at ${keyOf(b, d + 1)}, path Node.child`), `${levels} levels, limit ${limit}: ${got}`);
    }
  }
  // A value as deep, and a value that holds itself, are refused the same way.
  const deep = nodeValue(1_000_000);
  assert.equal(outcome(() => Node.encode(deep, { maxDepth: 1_000_000 })), "encode depth-limit-exceeded");
  const loop = Node.create();
  loop.child = loop;
  assert.equal(outcome(() => Node.encode(loop, { maxDepth: Infinity })), "encode depth-limit-exceeded");
});

test("500 levels through every message-holding field decode, re-encode and refuse one more", () => {
  const shapes: [string, (levels: number) => Uint8Array][] = [
    ["child", chain],
    ["kids", (n) => chainWrapped(n, 0x0a, [])],
    ["named", (n) => chainWrapped(n, 0x0e, [0x00])],
  ];
  for (const [name, make] of shapes) {
    const at = make(500);
    const v = Tree.decode(at, { maxDepth: 500 });
    assert.equal(show(Tree.encode(v, { maxDepth: 500 })), show(at), name);
    assert.equal(outcome(() => Tree.encode(v, { maxDepth: 499 })), "encode depth-limit-exceeded", name);
    for (const levels of [501, 20_000]) {
      const got = outcome(() => Tree.decode(make(levels), { maxDepth: 501 }));
      assert.match(got, new RegExp(`^depth-limit-exceeded at \\d+, path Tree\\.${name}`), `${name}, ${levels} levels`);
    }
  }
});
